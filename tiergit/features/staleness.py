"""Which memory items are stale against the repository they live in (`core/citations.py`).

An item's anchor is the last mainline commit at or before the end of its day (its own
date, its entry's, else the blame date): what it cites is judged against that tree and
HEAD's. Only items that cite something missing at HEAD are anchored at all, so a store
whose citations are all live costs one `git ls-tree` of HEAD and one cached `git grep`.
"""
from __future__ import annotations

import bisect
import re
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
    kind: str = "context"

    def statement(self) -> bool:
        """A claim that a newer one can supersede: a durable item, or one short plain sentence
        (session reports, bug write-ups and logs describe changes; they do not state what holds)."""
        body = re.sub(r"^\s*(?:[-*+]|\d+[.)])\s+", "", self.text.strip())
        if NARRATIVE_RE.search(body):
            return False
        if self.kind in STATEMENT_KINDS:
            return True
        return (self.kind == "context" and len(body) <= 160 and not body.startswith("**")
                and body.rstrip(".").count(". ") == 0)


STATEMENT_KINDS = frozenset({"decision", "rule", "fact", "correction"})
# A report of what was done ("Fixed …", "**Bug:** …", "**By:** Kaylee") describes a change; it states nothing
# that holds now, so it neither supersedes nor is superseded.
NARRATIVE_RE = re.compile(r"(?i)^(?:\d+[.)]\s*)?(?:\*\*(?:by|date|status|pr|author|bug|what|test updates?|"
                          r"problem|fix)\b[^*]*:\*\*|(?:fixed|changed|updated|added|removed|implemented|refactored|"
                          r"renamed|wrote|created|merged)\b)|\b(?:incorrectly|would (?:incorrectly )?\w+|bug)\b")


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


def _outside(found: citations.Citations, memory: tuple[str, ...]) -> citations.Citations:
    """Citations of the memory's own files (`.squad/decisions/inbox/`) say nothing about the code."""
    paths = tuple(p for p in found.paths if not any(p == m or p.startswith(m + "/") for m in memory))
    return citations.Citations(paths, found.symbols) if paths != found.paths else found


def check(store, items: list[Cited]) -> StaleReport:
    """The stale citations of `items` (those that cite nothing are skipped)."""
    from tiergit.shell import git
    from tiergit.shell.treefacts import TreeFactsCache

    report = StaleReport()
    memory = memory_paths(store.config)
    found = [(it, _outside(citations.cites(it.text), memory)) for it in items]
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
        cache.know_trees(list(by_anchor))
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
                out.append(Cited(rel, item.line, item.id, item.text, day, item.kind))
    return out


@dataclass(frozen=True)
class Relation:
    stale: str | None = None             # why the item is stale against the repository
    superseded_by: tuple[str, int] | None = None
    supersedes: tuple[str, int] | None = None
    why: str = ""                        # the supersede reason

    def note(self) -> str:
        parts = []
        if self.stale:
            parts.append(f"stale: {self.stale}")
        if self.superseded_by:
            parts.append(f"superseded by {self.superseded_by[0]}:{self.superseded_by[1]} ({self.why})")
        if self.supersedes:
            parts.append(f"supersedes {self.supersedes[0]}:{self.supersedes[1]}")
        return "; ".join(parts)


def _remember(store, marks: dict[tuple[str, int], "Relation"], checked: list[Cited]) -> None:
    """Save the notes of the items just checked, for HEAD (an item checked and found clean is cleared)."""
    import json

    from tiergit.shell import git, stalemarks, statedir
    from tiergit.shell.fsutil import atomic_write

    try:
        state, head = statedir.state_dir(store.repo), git.rev_parse(store.repo, "HEAD")
    except TiergitError:
        return
    if head is None:
        return
    known = stalemarks.read(state, head)
    for it in checked:
        known.pop(f"{it.path}:{it.line}", None)
    known.update({f"{p}:{line}": rel.note() for (p, line), rel in marks.items() if rel.note()})
    try:
        state.mkdir(parents=True, exist_ok=True)
        atomic_write(state / stalemarks.NAME, json.dumps(
            {"head": head, "marks": dict(list(known.items())[-stalemarks.MAX_MARKS:])},
            separators=(",", ":")).encode("utf-8"))
    except OSError:
        pass


def relations(store, entries: list[Cited]) -> dict[tuple[str, int], Relation]:
    """Stale and superseded marks for a few items (recall's hits, spawn's candidates): the staleness
    check on them, and the supersede judgement among them. Costs nothing when none cites anything
    and no two share a subject."""
    from tiergit.core.supersede import scan

    report = check(store, entries)
    out: dict[tuple[str, int], Relation] = {
        key: Relation(stale="; ".join(s.reason for s in found)) for key, found in report.stale.items()}
    for older, newer, why in scan([((e.path, e.line), e.day, e.text) for e in entries if e.statement()]):
        old = out.get(older, Relation())
        out[older] = Relation(old.stale, newer, old.supersedes, why)
        new = out.get(newer, Relation())
        out[newer] = Relation(new.stale, new.superseded_by, older, new.why)
    _remember(store, out, entries)
    return out


def iso_day(text: str | None) -> date | None:
    """The date an index row or hit carries as ISO text (None when absent or not a date)."""
    try:
        return date.fromisoformat(text[:10]) if text else None
    except ValueError:
        return None


def for_spawn(store, candidates: list, notes: list[str]) -> list:
    """Spawn's candidates (knowledge_pack.Candidate) against the repository: stale ones left out (or
    marked, `spawn.stale: mark`) and the older of a superseding pair left out when the newer is a
    candidate too, each counted in a note."""
    marks = relations(store, [Cited(c.path, c.line, c.id, c.text, iso_day(c.date), c.kind) for c in candidates])
    if not marks:
        return candidates
    mark = (store.config.data.get("spawn") or {}).get("stale") == "mark"
    kept, stale, older = [], 0, 0
    for c in candidates:
        rel = marks.get((c.path, c.line))
        if rel and rel.stale:
            stale += 1
            if not mark:
                continue
            c.text = f"(stale: {rel.stale}) {c.text}"
        if rel and rel.superseded_by:
            older += 1
            continue
        kept.append(c)
    if stale:
        notes.append(f"knowledge: {stale} stale item(s) {'marked' if mark else 'left out'}: they cite files or "
                     "symbols gone from the repository (`tiergit audit` proposes the fix)")
    if older:
        notes.append(f"knowledge: {older} item(s) left out: a newer item supersedes each (served instead)")
    return kept


def stale_candidates(store, candidates) -> dict[str, str]:
    """Promotion candidates whose citations are gone from the repository: id -> why (never promoted)."""
    report = check(store, [Cited(c.source, c.line, c.id, c.raw, c.age_day, c.kind) for c in candidates])
    return {c.id: report.reason(c.source, c.line) for c in candidates if report.reason(c.source, c.line)}
