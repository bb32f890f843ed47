"""OpenClaw's short-term recall store, read as recall signals: `memory/.dreams/short-term-recall.json`
(older OpenClaw) or the rows of its state database (OpenClaw 2026.9, tiergit/shell/openclaw_state.py).

OpenClaw (memory-core, version 1 of the file) keeps one entry per recalled chunk:

    {"version": 1, "updatedAt": "…", "entries": {"memory:memory/2026-03-24.md:26:66": {
        "key": …, "path": "memory/2026-03-24.md", "startLine": 26, "endLine": 66, "source": "memory",
        "snippet": …, "recallCount": 13, "dailyCount": 0, "groundedCount": 0, "totalScore": 5.88,
        "maxScore": 0.49, "firstRecalledAt": …, "lastRecalledAt": …,
        "queryHashes": ["5601a4f18d36", …], "recallDays": ["2026-05-26", …], "conceptTags": […]}}}

Each entry becomes recalls of the items whose lines (or whose Dreaming evidence) overlap its span:
its count, its total score (relevance is the mean), its distinct query hashes and its days, as
OpenClaw's own scoring counts them. Pure; imports only `json`, `re` and the standard library.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import date

PATH = "memory/.dreams/short-term-recall.json"
EVIDENCE_RE = re.compile(r"^(?P<path>[^\s:]+\.md):(?P<start>\d+)(?:-(?P<end>\d+))?$")


@dataclass(frozen=True)
class StoreEntry:
    key: str
    path: str
    start: int
    end: int
    count: int
    total_score: float
    queries: frozenset[str]
    days: frozenset[date]


def parse(text: str) -> tuple[dict[str, list[StoreEntry]], str | None]:
    """Entries by path, and a problem (one line) when the file is not a recall store of version 1."""
    try:
        data = json.loads(text)
    except ValueError as e:
        return {}, f"not JSON ({e.msg} at line {e.lineno})"
    entries = data.get("entries") if isinstance(data, dict) else None
    if not isinstance(entries, dict):
        return {}, "no `entries` object"
    return by_path_of(entries.items()), None


def by_path_of(keyed) -> dict[str, list[StoreEntry]]:
    """Entries by path from (key, raw entry) pairs; an entry that is not one is left out."""
    return _grouped(e for e in (_entry(str(key), raw) for key, raw in keyed) if e is not None)


def merged(*stores: dict[str, list[StoreEntry]]) -> dict[str, list[StoreEntry]]:
    """One entry per key across stores (the file of an older OpenClaw and the database of a newer one):
    the later store's wins."""
    by_key: dict[str, StoreEntry] = {}
    for store in stores:
        for entries in store.values():
            for e in entries:
                by_key[e.key] = e
    return _grouped(by_key.values())


def _grouped(entries) -> dict[str, list[StoreEntry]]:
    out: dict[str, list[StoreEntry]] = {}
    for e in entries:
        out.setdefault(e.path, []).append(e)
    return out


def _entry(key: str, raw) -> StoreEntry | None:
    if not isinstance(raw, dict) or not isinstance(raw.get("path"), str):
        return None
    try:
        start, end = int(raw.get("startLine", 0)), int(raw.get("endLine", raw.get("startLine", 0)))
        count = max(0, int(raw.get("recallCount", 0)))
        total = max(0.0, float(raw.get("totalScore", 0.0)))
    except (TypeError, ValueError):
        return None
    queries = frozenset(f"openclaw:{q}" for q in raw.get("queryHashes") or () if isinstance(q, str))
    days = frozenset(d for d in (_day(s) for s in raw.get("recallDays") or ()) if d is not None)
    return StoreEntry(key, raw["path"].lstrip("./"), start, max(start, end), count, total, queries, days)


def _day(value) -> date | None:
    try:
        return date.fromisoformat(str(value)[:10])
    except ValueError:
        return None


def spans(source: str, line: int, end_line: int, evidence: list[str]) -> list[tuple[str, int, int]]:
    """Where an item lives: its own lines, and the daily-note lines Dreaming cites as its evidence."""
    out = [(source, line, end_line)]
    for ref in evidence:
        m = EVIDENCE_RE.match(ref.strip().strip("[]"))
        if m:
            start = int(m["start"])
            out.append((m["path"], start, int(m["end"] or start)))
    return out


def overlapping(by_path: dict[str, list[StoreEntry]], where: list[tuple[str, int, int]]) -> list[StoreEntry]:
    """The store's entries whose span overlaps any of `where` (each entry once)."""
    seen: dict[str, StoreEntry] = {}
    for path, start, end in where:
        for e in by_path.get(path, ()):
            if e.start <= end and start <= e.end:
                seen.setdefault(e.key, e)
    return list(seen.values())


# -- the snapshot tiergit commits: OpenClaw's recalls where the nightly promotion can read them ---------

SNAPSHOT_FIELDS = ("key", "path", "startLine", "endLine", "recallCount", "totalScore", "queryHashes", "recallDays")


def snapshot_events(values: list[dict], known: dict[str, list[StoreEntry]]) -> list[dict]:
    """One log event per OpenClaw entry that is new or has more recalls, queries or days than the newest
    snapshot of it (`known`, by path), in key order; an entry that is not one is left out."""
    seen = {e.key: e for entries in known.values() for e in entries}
    out = []
    for raw in values:
        entry = _entry(str(raw.get("key", "")), raw) if isinstance(raw, dict) else None
        if entry is None or not entry.key:
            continue
        old = seen.get(entry.key)
        if old is not None and (old.count, old.queries, old.days) == (entry.count, entry.queries, entry.days):
            continue
        if old is not None and entry.count < old.count:
            continue     # OpenClaw's store was reset or pruned: the snapshot keeps what it counted
        out.append({k: raw[k] for k in SNAPSHOT_FIELDS if k in raw})
    return sorted(out, key=lambda ev: ev["key"])


def from_snapshot(events) -> dict[str, list[StoreEntry]]:
    """The newest snapshot of each entry (the most recalls; a later line on a tie) from the log's events."""
    newest: dict[str, StoreEntry] = {}
    for ev in events:
        entry = _entry(str(ev.get("key", "")), ev) if isinstance(ev, dict) else None
        if entry is not None and entry.key and (entry.key not in newest or entry.count >= newest[entry.key].count):
            newest[entry.key] = entry
    return _grouped(newest.values())
