"""The recall index: every item of the searchable files in SQLite FTS5, cached under the git dir.

The index lives in `<git-dir>/tiergit/recall-v5.sqlite` (per worktree, never
committed). `refresh()` compares each file's stat (mtime, size) and then its git
blob id with what was indexed, and re-parses only the files that changed, so the
first recall after an edit costs one file's parse, not the whole store's. The file
list itself is re-walked only when a folder's mtime changed (`listing`), and the item
count lives in a one-row summary table.
"""
from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from tiergit.core import governed, patterns, qapairs
from tiergit.errors import TiergitError
from tiergit.features import file_stamps
from tiergit.shell import listing, progress, statedir

INDEX_NAME = "recall-v5.sqlite"
SCHEMA = """
CREATE TABLE IF NOT EXISTS files (
    path TEXT PRIMARY KEY, blob TEXT NOT NULL, mtime_ns INTEGER NOT NULL, size INTEGER NOT NULL,
    tier TEXT NOT NULL, agent TEXT, items INTEGER NOT NULL DEFAULT 0, first_rowid INTEGER NOT NULL DEFAULT 0);
CREATE VIRTUAL TABLE IF NOT EXISTS items USING fts5(
    text, entry, path UNINDEXED, item_id UNINDEXED, date UNINDEXED, kind UNINDEXED,
    line UNINDEXED, tier UNINDEXED, agent UNINDEXED, clean UNINDEXED,
    tokenize = 'unicode61 remove_diacritics 2');
CREATE VIRTUAL TABLE IF NOT EXISTS vocab USING fts5vocab(items, 'row');
CREATE TABLE IF NOT EXISTS summary (
    id INTEGER PRIMARY KEY CHECK (id = 1), items INTEGER NOT NULL, next_rowid INTEGER NOT NULL,
    listing TEXT);
CREATE TABLE IF NOT EXISTS fastpath (id INTEGER PRIMARY KEY CHECK (id = 1), value TEXT NOT NULL);
""" + file_stamps.TABLE
# A file's items sit at rowids first_rowid .. first_rowid+items-1: re-indexing a file deletes that
# range by rowid (FTS5's `path` column is UNINDEXED: `WHERE path=?` scans the table).


@dataclass(frozen=True)
class IndexSource:
    """A file recall searches: repo-relative path, its tier (or archive / staging), its agent."""
    path: str
    tier: str
    agent: str | None


@dataclass
class RefreshStats:
    files: int = 0        # files the index covers now
    reindexed: int = 0    # files parsed again because their blob changed
    removed: int = 0      # files dropped because they are gone
    skipped: list[str] | None = None  # unreadable files (bad UTF-8, too large...)


def index_path(repo: Path) -> Path:
    return statedir.state_dir(repo) / INDEX_NAME


def tombstoned(store) -> set[str]:
    """Paths of governed entries Squad tombstoned (`<root>/tombstones/*.json`): never recalled."""
    folder = store.root / "tombstones"
    if not folder.is_dir():
        return set()
    paths = {governed.tombstone_path(p.read_text(encoding="utf-8", errors="replace"))
             for p in sorted(folder.glob("*.json")) if p.is_file() and not p.is_symlink()}
    return {p[2:] if p.startswith("./") else p for p in paths if p}


def sources(store, found: listing.Listing | None = None) -> list[IndexSource]:
    """Tier files, the archive folder and the staging files, each with its tier label."""
    cfg = store.config
    found = found or listing.walk(store)
    out: dict[str, IndexSource] = {}
    agents = set()
    gone = tombstoned(store)
    for rel in found.memory:
        match = cfg.tier_for(rel)
        if match and rel not in gone:
            out[rel] = IndexSource(rel, match[0].name, match[1].get("agent"))
            if "agent" in match[1]:
                agents.add(match[1]["agent"])
    for rel in found.archive:
        stem = rel.rsplit("/", 1)[-1][:-3].lower()
        out.setdefault(rel, IndexSource(rel, "archive", stem if stem in agents else None))
    for rel in found.staging:
        out.setdefault(rel, IndexSource(rel, "staging", None))
    return sorted(out.values(), key=lambda s: s.path)


def current_sources(store, db: sqlite3.Connection) -> list[IndexSource] | None:
    """The indexed sources when no folder changed since the last walk (one stat per folder),
    else None. The files table holds each source's tier and agent."""
    row = db.execute("SELECT listing FROM summary WHERE id = 1").fetchone()
    if not row or not row[0] or not listing.still_valid(store, listing.Listing.from_json(row[0])):
        return None
    return [IndexSource(p, t, a) for p, t, a in db.execute("SELECT path, tier, agent FROM files ORDER BY path")]


def item_count(db: sqlite3.Connection) -> int:
    """How many items the index holds (from the summary row, not a count over FTS5)."""
    row = db.execute("SELECT items FROM summary WHERE id = 1").fetchone()
    return int(row[0]) if row else 0


def connect(path: Path) -> sqlite3.Connection:
    path.parent.mkdir(parents=True, exist_ok=True)
    for old in ("recall-v2.sqlite", "recall-v4.sqlite", "recall-v4.sqlite-wal", "recall-v4.sqlite-shm"):
        (path.parent / old).unlink(missing_ok=True)   # earlier layouts (v4: no dialogue pairs): rebuilt here
    try:
        db = sqlite3.connect(path, timeout=30, isolation_level=None)
        db.executescript(SCHEMA)
    except sqlite3.DatabaseError:
        # A corrupt cache is rebuilt from scratch: it holds nothing that is not in the tree.
        path.unlink(missing_ok=True)
        db = sqlite3.connect(path, timeout=30, isolation_level=None)
        db.executescript(SCHEMA)
    return db


def refresh(store, db: sqlite3.Connection, wanted: list[IndexSource] | None = None) -> RefreshStats:
    """Bring the index up to date with the work tree; re-parse only files whose blob changed.
    Cost when nothing moved: one stat per folder and one per file; a changed file costs its
    parse plus a delete of its own rowid range (linear in files, never a table scan)."""
    if wanted is None and (covered := file_stamps.untouched(store, db)) is not None:
        return RefreshStats(files=covered, skipped=[])   # nothing moved: no transaction, no stat per file row
    walked = None
    if wanted is None:
        wanted = current_sources(store, db)
        if wanted is None:
            walked = listing.walk(store)
            wanted = sources(store, walked)
    stats = RefreshStats(files=len(wanted), skipped=[])
    # mtime_ns < 0: a file that lives only in git history (tiergit.features.recall_history keeps those)
    known = {row[0]: row[1:] for row in db.execute(
        "SELECT path, blob, mtime_ns, size, tier, agent, items, first_rowid FROM files WHERE mtime_ns >= 0")}
    db.execute("BEGIN IMMEDIATE")
    try:
        summary = db.execute("SELECT items, next_rowid FROM summary WHERE id = 1").fetchone() or (0, 1)
        count, next_rowid = summary
        changed = [c for c in (_changed(store, db, src, known.get(src.path)) for src in wanted) if c is not None]
        # The files rows go in once, after every item: a write to `files` (its triggers open a
        # savepoint) makes FTS5 flush its pending terms, one tiny segment per file to merge.
        file_rows: list[tuple] = []
        # The bar counts parsed files (the parse is most of a build), each stored as it arrives.
        with progress.bar(len(changed), "recall: indexing") as shown:
            for (rows, skipped, blob), change in zip(_parse_all(store, changed), changed):
                if skipped:
                    assert stats.skipped is not None
                    stats.skipped.append(change.src.path)
                old = known.get(change.src.path)
                delta, next_rowid = _store_rows(db, change, blob, rows, old, next_rowid, file_rows)
                count += delta
                stats.reindexed += 1
                shown.update(1)
        db.executemany("INSERT OR REPLACE INTO files VALUES (?,?,?,?,?,?,?,?)", file_rows)
        gone = set(known) - {s.path for s in wanted}
        for path in gone:
            count -= _delete_items(db, known[path])
            db.execute("DELETE FROM files WHERE path=?", (path,))
        stats.removed = len(gone)
        listed = walked.to_json() if walked is not None else None
        db.execute("INSERT INTO summary (id, items, next_rowid, listing) VALUES (1, ?, ?, ?) "
                   "ON CONFLICT(id) DO UPDATE SET items=excluded.items, next_rowid=excluded.next_rowid, "
                   "listing=COALESCE(excluded.listing, summary.listing)", (count, next_rowid, listed))
        file_stamps.save_if_missing(db)   # a write to the files table dropped it (its triggers), or none was written yet
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    return stats


@dataclass(frozen=True)
class Change:
    """A file to parse again, read when its parse is due (every file's bytes: ~430 MB at 50k)."""
    src: IndexSource
    mtime_ns: int
    size: int


def _changed(store, db, src: IndexSource, old: tuple | None) -> Change | None:
    """The file to parse again (a new one is not read here); None when the index holds it (a moved
    mtime with the same blob only updates the stat)."""
    try:
        st = os.stat(f"{store.repo}/{src.path}")   # a str join: pathlib costs 4x the stat at 50k files
    except OSError:
        return None
    if old and old[3] == src.tier and old[4] == src.agent:   # the same place: the stat, then the blob
        if old[1] == st.st_mtime_ns and old[2] == st.st_size:
            return None
        from tiergit.shell.tokens import blob_id   # not on recall_fast's path, which never re-indexes

        if old[0] == blob_id(store.read_bytes(src.path)):
            db.execute("UPDATE files SET mtime_ns=?, size=? WHERE path=?", (st.st_mtime_ns, st.st_size, src.path))
            return None
    return Change(src, st.st_mtime_ns, st.st_size)


def _store_rows(db, change: Change, blob: str, rows: list[tuple], old: tuple | None, next_rowid: int,
                file_rows: list[tuple]) -> tuple[int, int]:
    """Replace one file's items by its new rows, adding its files row to `file_rows` (written by
    the caller): (change in item count, next free rowid)."""
    removed = _delete_items(db, old) if old else 0
    first = next_rowid
    db.executemany("INSERT INTO items (rowid, text, entry, path, item_id, date, kind, line, tier, agent, clean) "
                   "VALUES (?,?,?,?,?,?,?,?,?,?,?)", [(first + i, *row) for i, row in enumerate(rows)])
    src = change.src
    file_rows.append((src.path, blob, change.mtime_ns, change.size, src.tier, src.agent, len(rows), first))
    return len(rows) - removed, first + len(rows)


# A cold build is the parse and the index's own writes: past this many changed files the parse runs in
# worker processes, one per core but the one the writing parent keeps (forked: nothing imported again).
# 10k real-sized files, 2 cores: one worker beside the writer 17 s wall, 26 s CPU; two 21 s, 34 s.
PARALLEL_MIN = 2000
# Judging every item's kind is ~60 % of a parse, and most items are never shown: a refresh of this
# many changed files (a first build, a pull) stores them unjudged and the first reader that shows
# one judges its file (features/recall_kinds.py). A commit's few files are judged as they are read.
LAZY_KINDS_MIN = 100
UNJUDGED = ""   # the kind column of an item whose kind is not judged yet


def _parse_all(store, changed: list[Change]) -> Iterator[tuple[list[tuple], bool, str]]:
    """(rows, skipped, blob of the bytes parsed) for each changed file, in order, as each is parsed and
    stored: no file is read before the pool's feeder reaches it, no rows are held past their store."""
    jobs = ((c.src, store.read_bytes(c.src.path)) for c in changed)
    labels, limit = store.config.labels, store.config.limits["max_file_bytes"]
    kinds = len(changed) < LAZY_KINDS_MIN
    workers = min((os.cpu_count() or 1) - 1, 7)
    ctx = None
    if len(changed) >= PARALLEL_MIN and workers >= 1 and os.environ.get("TIERGIT_INDEX_WORKERS") != "1":
        import multiprocessing

        try:
            ctx = multiprocessing.get_context("fork")   # POSIX: workers share the parent's imports
        except ValueError:
            ctx = None
    if ctx is None:
        yield from (_rows_job(job, labels, limit, kinds) for job in jobs)
        return
    chunk = max(1, min(16, len(changed) // (workers * 8)))
    with ctx.Pool(workers) as pool:
        yield from pool.imap(partial(_rows_job, labels=labels, limit=limit, kinds=kinds), jobs, chunksize=chunk)


def _rows_job(job: tuple[IndexSource, bytes], labels, limit: int, kinds: bool) -> tuple[list[tuple], bool, str]:
    from tiergit.shell.tokens import blob_id

    return (*rows_of(job[0], job[1], labels, limit, kinds), blob_id(job[1]))


def _delete_items(db: sqlite3.Connection, old: tuple) -> int:
    """Delete one file's items by their rowid range; returns how many there were."""
    n, first = old[5], old[6]
    if n:
        db.execute("DELETE FROM items WHERE rowid BETWEEN ? AND ?", (first, first + n - 1))
    return n


def rows_of(src: IndexSource, data: bytes, labels, max_bytes: int, kinds: bool = True) -> tuple[list[tuple], bool]:
    """The index rows of one file's items, and whether it was skipped as unreadable; `kinds=False`:
    each item's kind is UNJUDGED (the rows are otherwise the same, in the same order)."""
    from tiergit.core import parse, rawtext   # markdown-it: only when a file needs parsing, not per warm query

    try:
        text = rawtext.decode(data, src.path, max_bytes)
        doc = parse.parse(text, src.path, labels, kinds=kinds)
    except TiergitError:
        return [], True
    if not governed.served(doc.metadata):   # a FORBIDDEN / TRANSIENT governed entry: never recalled
        return [], False
    listing = patterns.managed_lines(text) if src.tier == "staging" else range(0)
    rows = []
    for sec in doc.sections:
        items = [i for i in sec.items if i.line not in listing]   # promote's candidate listing is output
        # a question and its answer come together (core/qapairs.py): the hit shows both
        for item, (raw, clean) in zip(items, qapairs.texts([i.text for i in items], [i.clean for i in items])):
            day = item.date or sec.date
            rows.append((raw, sec.heading or "", src.path, item.id, day.isoformat() if day else None,
                         item.kind if kinds else UNJUDGED, item.line, src.tier, src.agent, clean))
    return rows, False


