"""Blame dates cached by blob id, so a file is dated once per version, not once per run.

`git blame` costs grow with a file's history depth (tens of ms for a few hundred commits),
and promotion (and `status`, through promotion health) needs the date of every undated
item. A committed blob's line dates never change, so they are kept in
`<git-dir>/tiergit/blame-v1.sqlite` keyed by (path, blob id at HEAD). Cost per run: one
`git ls-tree` for the HEAD blob ids, one indexed lookup per file needing dates; on the first
miss, one history walk dates every uncached file of the store at once (`linedates`), and
`git blame` remains only for a file that walk did not reach. The cache holds at most MAX_ROWS versions;
the least recently used go first.
"""
from __future__ import annotations

import json
import sqlite3
import time
from datetime import date
from pathlib import Path

from tiergit.errors import TiergitError
from tiergit.shell import git, progress, statedir

CACHE_NAME = "blame-v1.sqlite"
MAX_ROWS = 100_000
SCHEMA = "CREATE TABLE IF NOT EXISTS blame (key TEXT PRIMARY KEY, runs TEXT NOT NULL, used INTEGER NOT NULL)"


def encode(dates: dict[int, date]) -> str:
    """line -> date as runs [first line, count, ordinal]: consecutive lines share a commit."""
    runs: list[list[int]] = []
    for line in sorted(dates):
        day = dates[line].toordinal()
        if runs and runs[-1][0] + runs[-1][1] == line and runs[-1][2] == day:
            runs[-1][1] += 1
        else:
            runs.append([line, 1, day])
    return json.dumps(runs, separators=(",", ":"))


def decode(text: str) -> dict[int, date]:
    out: dict[int, date] = {}
    for first, count, day in json.loads(text):
        d = date.fromordinal(day)
        for line in range(first, first + count):
            out[line] = d
    return out


class BlameCache:
    """`dates(rel)` = `git.blame_dates(repo, rel)` (HEAD), remembered by blob id."""

    def __init__(self, repo: Path, path: Path | None, pathspecs: list[str] | None = None) -> None:
        self.repo, self.path, self.pathspecs = repo, path, pathspecs
        self._blobs: dict[str, str] | None = None
        self._db: sqlite3.Connection | None = None
        self.blamed = 0   # git blame processes this run (for tests and benchmarks)
        self._used: list[str] = []
        self._new: dict[str, str] = {}   # written in one transaction by close()
        self._walked = False

    @classmethod
    def for_repo(cls, repo: Path, pathspecs: list[str] | None = None) -> "BlameCache":
        """`pathspecs`: where the files to date live (the store); on the first cache miss
        every file there is dated in one history walk (`linedates`) instead of one blame each."""
        try:
            path: Path | None = statedir.state_dir(repo) / CACHE_NAME
        except TiergitError:
            path = None
        return cls(repo, path, pathspecs)

    def head_blob(self, rel: str) -> str | None:
        """The blob id of `rel` at HEAD (None when it is not committed)."""
        return self._head_blobs().get(rel)

    def _head_blobs(self) -> dict[str, str]:
        if self._blobs is None:
            try:
                self._blobs = {e.path: e.blob for e in git.tree_entries(self.repo, "HEAD")}
            except TiergitError:
                self._blobs = {}   # no commit yet: nothing to blame
        return self._blobs

    def _open(self) -> sqlite3.Connection | None:
        if self._db is None and self.path is not None:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self._db = sqlite3.connect(self.path, timeout=30, isolation_level=None)
                self._db.execute(SCHEMA)
            except sqlite3.DatabaseError:
                # A broken cache only costs blames: start it again.
                self.path.unlink(missing_ok=True)
                self._db = None
        return self._db

    def dates(self, rel: str) -> dict[int, date]:
        blob = self._head_blobs().get(rel)
        if blob is None:
            return {}   # not committed: blame would date nothing
        key = f"{blob}:{rel}"
        db = self._open()
        if db is not None:
            row = db.execute("SELECT runs FROM blame WHERE key=?", (key,)).fetchone()
            if row:
                self._used.append(key)
                return decode(row[0])
        if key in self._new:
            return decode(self._new[key])
        if self.pathspecs is not None and not self._walked:
            self._walked = True
            self._date_by_walk(db)
            if key in self._new:
                return decode(self._new[key])
        found = git.blame_dates(self.repo, rel)
        self.blamed += 1
        self._new[key] = encode(found)
        return found

    def _date_by_walk(self, db: sqlite3.Connection | None) -> None:
        """Date every uncached HEAD file under the pathspecs from one `git log` walk and one
        `cat-file` batch: cost = the versions' total size, not files x history depth."""
        from datetime import datetime, timezone

        from tiergit.core.linedates import forward_dates

        heads = self._head_blobs()
        chains: dict[str, list[tuple[date, str]]] = {}
        for commit in git.log_changes(self.repo, self.pathspecs or [], author_time=True):
            day = datetime.fromtimestamp(commit.time, tz=timezone.utc).date()
            for ch in commit.changes:
                if ch.status == "D" or not ch.mode.startswith("100"):
                    chains.pop(ch.path, None)   # deleted: a re-added file starts again
                else:
                    chains.setdefault(ch.path, []).append((day, ch.blob))
        todo = {}
        for rel, chain in chains.items():
            key = f"{chain[-1][1]}:{rel}"
            if heads.get(rel) != chain[-1][1] or key in self._new:
                continue   # the walk's last version is not HEAD's (e.g. changed on a side branch)
            if db is not None and db.execute("SELECT 1 FROM blame WHERE key=?", (key,)).fetchone():
                continue
            todo[key] = chain
        # one file's versions at a time, in the order they are dated (every version of a 50k store is ~480 MB)
        versions = git.iter_blobs(self.repo, [b for chain in todo.values() for _d, b in chain])
        for key, chain in progress.iterate(list(todo.items()), "dating items from history", minimum=len(todo) + 1):
            self._new[key] = encode(forward_dates([(d, next(versions)[1] or b"") for d, _b in chain]))
        versions.close()

    def close(self) -> None:
        """Prune to MAX_ROWS (least recently used first) and close."""
        if self._db is None:
            return
        now = int(time.time())
        try:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.executemany("UPDATE blame SET used=? WHERE key=?", [(now, k) for k in self._used])
            self._db.executemany("INSERT OR REPLACE INTO blame VALUES (?,?,?)",
                                 [(k, v, now) for k, v in self._new.items()])
            n = self._db.execute("SELECT count(*) FROM blame").fetchone()[0]
            if n > MAX_ROWS:
                self._db.execute("DELETE FROM blame WHERE key IN (SELECT key FROM blame ORDER BY used LIMIT ?)",
                                 (n - MAX_ROWS,))
            self._db.execute("COMMIT")
        except sqlite3.DatabaseError:
            pass   # another run holds the cache: these dates are simply blamed again next time
        finally:
            self._db.close()
            self._db = None
