"""The prune path of a reviewed tier over budget (OpenClaw's MEMORY.md past 300 lines).

A reviewed tier is never trimmed silently: `audit --apply` proposes the cut on the promotion
branch, so a reviewer sees it as a diff beside the promotions and restores any line worth
keeping. What goes first: dead items (audit's findings), then the oldest dated entries and
log items, then the oldest undated items (by their own date, else `git blame`), until the
file is back under its warn level: one reviewed cut that lands healthy, not a PR a day.
Cost: one blame of the file when undated items are needed; O(log n) measures of the file.
"""
from __future__ import annotations

from datetime import date, timedelta

from tiergit.core import parse
from tiergit.core.cuts import cut_lines, expired_cuts
from tiergit.features import budget

REASON_OLD = "oldest {what} proposed for the archive: {tier} is over budget"


def _pool(doc: parse.MemoryDoc, blame: dict[int, date], today: date,
          recalls: dict[str, int] | None = None) -> list[tuple[date, int, int, str, str | None]]:
    """(day, start, end, what, heading) of everything that may go: dated entries oldest first,
    then undated items, never-recalled (deadest) before recalled, then oldest, then by line."""
    recalls = recalls or {}
    dated = [(c.day, c.start, c.end, "entry" if c.heading is None else "log item", c.heading)
             for c in expired_cuts(doc, date.max - timedelta(days=1), 0)]
    taken = {line for _, s, e, _, _ in dated for line in range(s, e + 1)}
    undated = []
    for sec in doc.sections:
        for item in sec.items:
            if item.line in taken:
                continue
            days = [blame[n] for n in range(item.line, item.end_line + 1) if n in blame]
            day = item.date or sec.date or (min(days) if days else today)
            undated.append((recalls.get(item.id, 0), day, item.line, item.end_line, "item", sec.heading))
    # Dated entries first (their age is certain), then undated items.
    return sorted(dated) + [u[1:] for u in sorted(undated)]


def fit_cuts(doc: parse.MemoryDoc, text: str, tier, encoding: str, taken: list[tuple[int, int]],
             blame, today: date, recalls: dict[str, int] | None = None) -> list[tuple[int, int, date, str, str | None]]:
    """Pure over its inputs: when the text (less `taken`) is over max, the spans to cut, beyond
    `taken`, until it is under warn. `blame` is a callable returning {line: date}, called only
    if undated items are in the pool; `recalls` (item id -> times recalled) puts dead items first.
    Cutting more never grows a file, so the shortest prefix of the pool that fits is found by
    bisection: O(log n) measures, not one per cut."""
    # Only a file over its max is cut for budget (a warning is a heads-up, not a PR of cuts).
    if not budget.over(cut_lines(text, taken), tier, encoding, level="max"):
        return []
    needs_blame = any(w == "item" for _, _, _, w, _ in _pool(doc, {}, today))
    covered = {n for s, e in taken for n in range(s, e + 1)}
    pool = [c for c in _pool(doc, blame() if needs_blame else {}, today, recalls) if c[1] not in covered]

    def over(k: int) -> bool:
        return budget.over(cut_lines(text, taken + [(c[1], c[2]) for c in pool[:k]]), tier, encoding, "warn")

    lo, hi = 0, len(pool)          # invariant: over(lo) is True; hi fits, or is the whole pool
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if over(mid) else (lo, mid)
    return [(start, end, day, REASON_OLD.format(what=what, tier=tier.name), heading)
            for day, start, end, what, heading in pool[:hi]]


def prune_events(doc: parse.MemoryDoc, rel: str, spans: list[tuple[int, int]]) -> list[dict]:
    """One `prune-proposed` review event per item inside the cut spans (review sync settles them)."""
    out = []
    covered = {n for s, e in spans for n in range(s, e + 1)}
    for item in doc.items:
        if item.line in covered:
            out.append({"id": item.id, "action": "prune-proposed", "text": item.clean[:200],
                        "source": f"{rel}:{item.line}"})
    return out
