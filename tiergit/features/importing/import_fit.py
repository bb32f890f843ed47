"""How `import squad` fits a history into cold: which dated units leave for the archive
(oldest first, the tier's keep_last newest only while cold has no room), and, as a last resort,
which oversized pinned sections move out with a pointer line. What is taken goes to the
one archive layout (`retention.archive_path`), by the unit's month.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from tiergit.core import parse, rawtext
from tiergit.shell.tokens import count_text

IMPORT_FILL = 0.60   # of max: warn is 80 %, so the first sessions fit before it


@dataclass
class Unit:
    """A removable piece of a history file: whole lines [first, last], 1-based."""
    first: int
    last: int
    date: date | None
    parent: str | None     # heading of the section a log item sits in (None for a whole section)
    tokens: int = 0


def units_of(doc: parse.MemoryDoc) -> list[Unit]:
    """Removable units in removal order: dated entries and dated log items, oldest first.
    Pinned (undated) sections and the undated items of a log section are never units. Cost: one pass."""
    dated = []
    for sec in doc.sections:
        if sec.level == 0:
            continue
        if sec.date is not None:
            dated.append(Unit(sec.line, sec.end_line, sec.date, None))
        elif sec.is_log_section:
            for item in sec.items:
                if item.date is not None:
                    dated.append(Unit(item.line, item.end_line, item.date, sec.heading))
        # Any other undated section is pinned (DESIGN: never expired, never archived): it
        # stays in cold even when cold cannot fit, and the import reports the overflow.
    dated.sort(key=lambda u: (u.date, u.first))
    return dated


def fit(lines: list[str], units: list[Unit], limits: dict[str, float], encoding: str,
        already: frozenset[int] = frozenset()) -> tuple[set[int], list[Unit]]:
    """Take units out (in order) until the remaining lines (minus `already`) fit every limit.
    -> (removed line numbers, `already` included; units taken)."""
    for u in units:
        u.tokens = count_text("".join(lines[u.first - 1:u.last]), encoding).tokens

    def sizes(removed: set[int]) -> dict[str, int]:
        text = "".join(ln for n, ln in enumerate(lines, 1) if n not in removed)
        return {"bytes": len(text.encode("utf-8")), "lines": text.count("\n"),
                "tokens": count_text(text, encoding).tokens}

    removed: set[int] = set(already)
    taken: list[Unit] = []
    current = sizes(removed)
    queue = list(units)
    while queue and any(current.get(m, 0) > lim for m, lim in limits.items()):
        # Subtract estimates unit by unit, then recount exactly once per batch.
        while queue and any(current.get(m, 0) > lim for m, lim in limits.items()):
            u = queue.pop(0)
            chunk = "".join(lines[u.first - 1:u.last])
            removed.update(range(u.first, u.last + 1))
            taken.append(u)
            current = {"bytes": current["bytes"] - len(chunk.encode("utf-8")),
                       "lines": current["lines"] - chunk.count("\n"), "tokens": current["tokens"] - u.tokens}
        current = sizes(removed)
    # Backfill: a large unit taken late can leave room for smaller, newer ones taken before it.
    for u in reversed(taken[:-1]):
        trial = removed - set(range(u.first, u.last + 1))
        if all(v <= limits.get(m, float("inf")) for m, v in sizes(trial).items()):
            removed = trial
    kept = [u for u in taken if u.first in removed]
    return removed, kept


def budget_limits(tier) -> dict[str, float]:
    """What import fills cold to: the lower of warn and IMPORT_FILL of max, so the first
    sessions have room before the warn level (a fresh import is green for a while)."""
    return {metric: min(limit.warn, limit.max * IMPORT_FILL) for metric, limit in tier.budget.items()}


def _over_target(text: str, tier, encoding: str) -> bool:
    from tiergit.features import budget

    return any(budget.metric_value(text, m, encoding) > lim for m, lim in budget_limits(tier).items())


def _take(lines: list[str], units: list[Unit], limits: dict[str, float], encoding: str) -> tuple[str, list[Unit]]:
    removed, taken = fit(lines, units, limits, encoding)
    return "".join(ln for n, ln in enumerate(lines, 1) if n not in removed), taken


def _lines(text: str) -> list[str]:
    lines = rawtext.split_lines(text)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    return lines


def _archive_chunks(store, cold_rel: str, lines: list[str], units: list[Unit], today: date,
                    out: dict[str, str]) -> None:
    """Append the taken units' lines to their month's archive text (a log item under its heading)."""
    from tiergit.features import retention

    parent: dict[str, str | None] = {}
    for u in sorted(units, key=lambda u: u.first):
        dest = retention.archive_path(store, cold_rel, u.date or today)   # units are dated
        head = f"## {u.parent}\n\n" if u.parent and u.parent != parent.get(dest) else ""
        parent[dest] = u.parent
        body = "".join(lines[u.first - 1:u.last])
        out[dest] = out.get(dest, "") + head + (body if body.endswith("\n\n") else body.rstrip("\n") + "\n\n")


def fit_history(store, cold_rel: str, text: str, today: date) -> tuple[str, list[Unit], dict[str, str]]:
    """The history fitted to cold, in three steps, each only while the last left it over:
    (1) older dated units out, oldest first, down to `budget_limits`; (2) over max: oversized
    pinned sections' bodies, largest first, with a pointer line; (3) still over that target: the
    tier's keep_last newest units too, oldest first, down to `budget_limits` - all but the
    newest, which goes only when it alone keeps cold over max. -> (cold text, units taken, archive path -> text)."""
    from tiergit.core import cuts
    from tiergit.features import budget, retention

    cfg = store.config
    tier = cfg.tiers["cold"]
    lines = _lines(text)
    doc = parse.parse(text, cold_rel, cfg.labels)
    newest = cuts.newest_starts(doc, tier.keep_last)
    archive: dict[str, str] = {}
    cold, taken = _take(lines, [u for u in units_of(doc) if u.first not in newest], budget_limits(tier), cfg.tokenizer)
    _archive_chunks(store, cold_rel, lines, taken, today, archive)
    if tier.budget and budget.over(cold, tier, cfg.tokenizer):
        dest = retention.archive_path(store, cold_rel, today)
        after, pinned = cuts.pinned_cuts(parse.parse(cold, cold_rel, cfg.labels), cold, today, dest,
                                         lambda t: budget.over(t, tier, cfg.tokenizer, "warn"))
        clines = rawtext.split_lines(cold)
        for cut in pinned:
            archive[dest] = archive.get(dest, "") + f"## {cut.heading}\n\n" + cuts.chunk(clines, cut) + "\n"
        cold = after
    for last in (1, 0):     # room for the first sessions beats keep_last; the newest goes only over max
        if not tier.budget or not (_over_target(cold, tier, cfg.tokenizer) if last
                                   else budget.over(cold, tier, cfg.tokenizer, "max")):
            break
        clines = _lines(cold)
        units = units_of(parse.parse(cold, cold_rel, cfg.labels))
        cold, late = _take(clines, units[:len(units) - last], budget_limits(tier), cfg.tokenizer)
        _archive_chunks(store, cold_rel, clines, late, today, archive)
        taken += late
    return cold, taken, archive
