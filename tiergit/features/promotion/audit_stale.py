"""`audit`'s repository checks: items whose citations went stale, and items a newer one superseded.

A stale item whose only problem is a renamed path is rewritten in place to the new path (the
diff shows the update for review); any other stale item, and the older of a superseding pair,
is proposed for the archive with its reason, which names the evidence (the path and what git
did to it, the symbol, or the newer item's place). Cost: one staleness check of the audited
tiers (`features/staleness.py`) and one supersede scan (`core/supersede.py`).
"""
from __future__ import annotations

from dataclasses import dataclass

from tiergit.core import citations, rawtext
from tiergit.core.supersede import scan
from tiergit.features import staleness


@dataclass
class RepoFindings:
    reasons: dict[tuple[str, int], str]          # (path, line) -> why the item goes to the archive
    rewrites: dict[tuple[str, int], tuple[str, str]]   # (path, line) -> (first line with the new path, why)

    def for_file(self, rel: str) -> tuple[dict[int, str], dict[int, tuple[str, str]]]:
        return ({line: r for (p, line), r in self.reasons.items() if p == rel},
                {line: t for (p, line), t in self.rewrites.items() if p == rel})


def collect(store, tiers: list[str]) -> RepoFindings:
    items = staleness.store_items(store, tiers)
    report = staleness.check(store, items)
    reasons: dict[tuple[str, int], str] = {}
    rewrites: dict[tuple[str, int], tuple[str, str]] = {}
    by_key = {(it.path, it.line): it for it in items}
    for key, found in report.stale.items():
        first = by_key[key].text.split("\n", 1)[0]
        new = citations.rewrite(first, found)
        if new is not None and all(s.renamed_to for s in found):
            rewrites[key] = (new, "stale: " + "; ".join(s.reason for s in found) + " (rewritten)")
        else:
            reasons[key] = "stale: " + "; ".join(s.reason for s in found)
    for older, newer, why in scan([((it.path, it.line), it.day, it.text) for it in items if it.statement()]):
        if older not in reasons:
            reasons[older] = f"superseded by {newer[0]}:{newer[1]} ({why})"
    return RepoFindings(reasons, rewrites)


def rewritten(text: str, rewrites: dict[int, tuple[str, str]]) -> str:
    """`text` with each item's first line replaced (same line count, so cut line numbers hold)."""
    if not rewrites:
        return text
    lines = rawtext.split_lines(text)
    for line, (new, _why) in rewrites.items():
        old = lines[line - 1]
        ending = old[len(old.rstrip("\r\n")):]
        lines[line - 1] = old[: len(old) - len(old.lstrip())] + new.lstrip() + ending
    return "".join(lines)
