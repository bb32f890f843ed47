"""When each line of an agent's legacy history was written, from the repository's own history.

`tiergit import squad` keeps a history.md's items verbatim, but most carry no date of their
own, the dates they carry can be wrong (a mistyped month) and one day often holds several
sessions: from the items alone the spawn cannot tell the agent's newest notes, the best single
predictor of what its next session reuses. The repository can: each line of history.md was
added by a commit. `written(store, agent)` maps each line's text (stripped) to the time of the
commit that added it, carried forward over the file's versions (tiergit/core/linedates.py, with
commit times instead of days, so sessions of one day keep their order); a line not committed
yet counts as newest. Only the agent's own legacy files (config `legacy` patterns naming
`{agent}`) are read; once they are retired, the spawn falls back to the items' dates.

Cost: a warm call hashes the file (git's blob id, no git process) and reads one small file
under `<git dir>/tiergit/line-times-v1/`; the first call for a version of the file walks its
history once (`git log` of that path, one `cat-file` batch) and caches the result.
"""
from __future__ import annotations

import hashlib
import json
import os
import time
from pathlib import Path

from tiergit.errors import TiergitError
from tiergit.features.tierfiles import legacy_files

CACHE_DIR = "line-times-v1"
CACHE_KEEP = 256          # file versions kept, the most recently used
MIN_LINE_CHARS = 12       # shorter lines ("**Files:**", "---") recur in many entries: they date nothing


def blob_id(data: bytes) -> str:
    """git's blob id of `data` (what `git hash-object` prints)."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def line_key(line: str) -> str | None:
    """The text a line is known by: stripped, None when too short to tell entries apart."""
    line = line.strip()
    return line if len(line) >= MIN_LINE_CHARS else None


def times_of(lines: list[str], times: dict[int, int]) -> dict[str, int]:
    """Each line's text -> the newest commit time of a line with that text (`times`: 1-based line -> time)."""
    out: dict[str, int] = {}
    for n, line in enumerate(lines, 1):
        key = line_key(line)
        if key is not None and n in times:
            out[key] = max(out.get(key, 0), times[n])
    return out


def item_times(store, agent: str, items: list[tuple[str, str]]) -> dict[str, int]:
    """Item id -> when it was written (the newest commit time of its lines found in the agent's legacy
    history), for `items` as (id, text); items none of whose lines the history holds are left out."""
    lines = written(store, agent)
    if not lines:
        return {}
    out = {}
    for item_id, text in items:
        found = [lines[k] for k in map(line_key, text.split("\n")) if k is not None and k in lines]
        if found:
            out[item_id] = max(found)
    return out


def written(store, agent: str) -> dict[str, int]:
    """Line text -> commit time (Unix seconds) over the agent's legacy history files; {} without
    history (no git repository, nothing committed) or without a legacy file."""
    rels = [p.lstrip("/").replace("{agent}", agent) for p in store.config.legacy if "{agent}" in p]
    rels = [rel for rel in legacy_files(store, agent) if rel in rels]
    if not rels:
        return {}
    cache = _Cache(store.repo)
    out: dict[str, int] = {}
    for rel in rels:
        try:
            data = store.read_bytes(rel)
        except (OSError, TiergitError):
            continue
        times = cache.get(rel, data)
        if times is None:
            times = _walk(store.repo, rel, data)
            cache.put(rel, data, times)
        for key, t in times_of(data.decode("utf-8", "replace").split("\n"), times).items():
            out[key] = max(out.get(key, 0), t)
    return out


def _walk(repo: Path, rel: str, data: bytes) -> dict[int, int]:
    """1-based line -> commit time for `data`, the file as it is now, from its committed versions."""
    from tiergit.core.linedates import forward_dates
    from tiergit.shell import git

    try:
        chain = [(c.time, ch.blob) for c in git.log_changes(repo, [rel])
                 for ch in c.changes if ch.path == rel and ch.status != "D" and ch.mode.startswith("100")]
    except TiergitError:     # not a repository, or git failed: nothing known
        return {}
    if not chain:
        return {}
    blobs = git.read_blobs(repo, sorted({b for _t, b in chain}))
    versions = [(t, blobs.get(b, b"")) for t, b in chain]
    if chain[-1][1] != blob_id(data):     # edited since the last commit: its new lines are the newest
        versions.append((max(int(time.time()), chain[-1][0] + 1), data))
    return forward_dates(versions)


class _Cache:
    """One small JSON file per file version, `<git dir>/tiergit/line-times-v1/<blob id>-<path hash>.json`
    holding [[first line, count, time], ...]; past CACHE_KEEP files the least recently written go."""

    def __init__(self, repo: Path) -> None:
        from tiergit.shell import statedir

        state = statedir.near(repo / ".tiergit.yml")
        self.dir = state / CACHE_DIR if state else None

    def _file(self, rel: str, data: bytes) -> Path | None:
        if self.dir is None:
            return None
        return self.dir / f"{blob_id(data)}-{hashlib.sha1(rel.encode()).hexdigest()[:12]}.json"

    def get(self, rel: str, data: bytes) -> dict[int, int] | None:
        path = self._file(rel, data)
        try:
            runs = json.loads(path.read_text(encoding="utf-8")) if path else None
        except (OSError, ValueError):
            return None
        if not isinstance(runs, list):
            return None
        return {line: t for first, count, t in runs for line in range(first, first + count)}

    def put(self, rel: str, data: bytes, times: dict[int, int]) -> None:
        """Kept even when empty: a file never committed apart from now has one time for all its lines."""
        path = self._file(rel, data)
        if path is None:
            return
        runs: list[list[int]] = []
        for line in sorted(times):
            if runs and runs[-1][0] + runs[-1][1] == line and runs[-1][2] == times[line]:
                runs[-1][1] += 1
            else:
                runs.append([line, 1, times[line]])
        try:
            self.dir.mkdir(parents=True, exist_ok=True)
            tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
            tmp.write_text(json.dumps(runs, separators=(",", ":")), encoding="utf-8")
            os.replace(tmp, path)
            kept = sorted(self.dir.glob("*.json"), key=lambda p: p.stat().st_mtime)
            for old in kept[:max(len(kept) - CACHE_KEEP, 0)]:
                old.unlink(missing_ok=True)
        except OSError:
            pass      # a cache that cannot be written costs a walk next time, nothing else
