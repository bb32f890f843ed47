"""Which memory items are stale against the repository they live in (`core/citations.py`).

An item's anchor is the last mainline commit at or before the end of its day (its own
date, its entry's, else the blame date): what it cites is judged against that tree and
HEAD's. Only items that cite something missing at HEAD are anchored at all, so a store
whose citations are all live costs one `git ls-tree` of HEAD and one cached `git grep`.
"""
from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from datetime import date, datetime, time, timezone

from tiergit.core import citations, parse, rawtext
from tiergit.errors import TiergitError


@dataclass(frozen=True)
class Cited:
    path: str           # the memory file (store-relative)
    line: int
    item_id: str
    text: str
    day: date | None


@dataclass
class StaleReport:
    stale: dict[tuple[str, int], list[citations.StaleCitation]] = field(default_factory=dict)
    stale_ids: set[str] = field(default_factory=set)
    checked: int = 0     # items that cite something

    def reason(self, path: str, line: int) -> str | None:
        found = self.stale.get((path, line))
        return "; ".join(s.reason for s in found) if found else None


def _anchor(history: list[tuple[int, str]], times: list[int], day: date | None) -> str | None:
    if not history:
        return None
    if day is None:
        return history[-1][1]
    end = int(datetime.combine(day, time.max, tzinfo=timezone.utc).timestamp())
    at = bisect.bisect_right(times, end) - 1
    return history[max(at, 0)][1]


FRAMEWORK_MEMORY = (".squad", ".ai-team")   # Squad's own memory folders (histories, decisions)


def memory_paths(cfg) -> tuple[str, ...]:
    """The folders and files that hold memory: their words say nothing about the code."""
    out = [cfg.root.rstrip("/"), *FRAMEWORK_MEMORY]
    for tier in cfg.tiers.values():
        rel = cfg.repo_path(tier.path)
        head = rel.split("{", 1)[0]
        out.append(rel if "{" not in rel else head.rsplit("/", 1)[0] if "/" in head else "")
    out += [p for p in cfg.legacy if "*" not in p]
    return tuple(sorted({p for p in out if p and p != "."}))


def check(store, items: list[Cited]) -> StaleReport:
    """The stale citations of `items` (those that cite nothing are skipped)."""
    from tiergit.shell import git
    from tiergit.shell.treefacts import TreeFactsCache

    report = StaleReport()
    found = [(it, citations.cites(it.text)) for it in items]
    found = [(it, c) for it, c in found if c]
    report.checked = len(found)
    if not found:
        return report
    cache = TreeFactsCache(store.repo, memory_paths(store.config))
    now = cache.facts("HEAD", sorted({s for _, c in found for s in c.symbols}),
                      sorted({p for _, c in found for p in c.paths}))
    suspects = [(it, c) for it, c in found
                if any(not citations._matches(p, now.paths) for p in c.paths)
                or any(s not in now.words for s in c.symbols)]
    if suspects:
        history = git.mainline(store.repo)
        times = [t for t, _ in history]
        by_anchor: dict[str, list] = {}
        for it, c in suspects:
            anchor = _anchor(history, times, it.day)
            if anchor is not None:
                by_anchor.setdefault(anchor, []).append((it, c))
        for anchor, group in by_anchor.items():
            then = cache.facts(anchor, sorted({s for _, c in group for s in c.symbols if s not in now.words}),
                               sorted({p for _, c in group for p in c.paths}))
            renames: dict[str, str] | None = None
            for it, c in group:
                if renames is None and any(citations._matches(p, then.paths) and not citations._matches(p, now.paths)
                                           for p in c.paths):
                    renames = git.renames_between(store.repo, anchor, "HEAD")
                verdict = citations.judge(c, then, now, renames or {})
                if verdict:
                    report.stale[(it.path, it.line)] = verdict
                    report.stale_ids.add(it.item_id)
    cache.save()
    return report


def store_items(store, tiers: list[str] | None = None) -> list[Cited]:
    """Every item of the store's memory files (of `tiers`, default all), dated as `age` dates them."""
    from tiergit.features.age import doc_ages

    cfg = store.config
    out: list[Cited] = []
    for rel in store.memory_files():
        tier = cfg.tier_for(rel)
        if tiers is not None and (tier is None or tier[0].name not in tiers):
            continue
        try:
            doc = parse.parse(rawtext.decode(store.read_bytes(rel), rel, cfg.limits["max_file_bytes"]), rel, cfg.labels)
        except TiergitError:
            continue
        ages = None
        for sec in doc.sections:
            for item in sec.items:
                day = item.date or sec.date
                if day is None:
                    ages = ages if ages is not None else doc_ages(store.repo, rel, doc)
                    day = ages[item.id].date if item.id in ages else None
                out.append(Cited(rel, item.line, item.id, item.text, day))
    return out
