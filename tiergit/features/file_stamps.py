"""The recall index's files table, packed for the warm query (recall_fast).

recall_fast must know that every indexed file still has the stat the index saw, and which rowid
ranges belong to the tiers a query leaves out. Fetching the files table's 10k rows into Python
tuples costs ~8 ms, looping over them ~10 ms more, and the tier query ~3 ms; this form costs one
JSON load and one array compare. Triggers drop the pack on any write to the files table,
whichever tiergit wrote it (an older one, or a hook environment's, sharing the index knows
nothing of the pack); whoever writes the table (recall_index.refresh, recall_history.refresh)
writes a missing pack again in the same transaction. So a pack that exists mirrors the table.
"""
from __future__ import annotations

import json
import os
import sqlite3
from array import array
from functools import partial
from itertools import chain
from operator import attrgetter

TABLE = """
CREATE TABLE IF NOT EXISTS file_stamps (
    id INTEGER PRIMARY KEY CHECK (id = 1), folders TEXT NOT NULL, names TEXT NOT NULL, stamps BLOB NOT NULL,
    ranges TEXT NOT NULL);
CREATE TRIGGER IF NOT EXISTS file_stamps_on_insert AFTER INSERT ON files BEGIN DELETE FROM file_stamps; END;
CREATE TRIGGER IF NOT EXISTS file_stamps_on_update AFTER UPDATE ON files BEGIN DELETE FROM file_stamps; END;
CREATE TRIGGER IF NOT EXISTS file_stamps_on_delete AFTER DELETE ON files BEGIN DELETE FROM file_stamps; END;
"""


def save(db: sqlite3.Connection) -> None:
    """Pack the files table: the live rows' folders with their file names (history rows, mtime_ns < 0,
    have no file), each one's (mtime_ns, size) in the same order as int64s, and every row's rowid
    range [first, end) by tier."""
    names: dict[str, list[str]] = {}
    stamps: dict[str, list[int]] = {}
    ranges: dict[str, list[list[int]]] = {}
    for rel, mtime_ns, size, tier, items, first in db.execute(
            "SELECT path, mtime_ns, size, tier, items, first_rowid FROM files ORDER BY first_rowid"):
        if items > 0:
            ranges.setdefault(tier, []).append([first, first + items])
        if mtime_ns >= 0:
            folder, _, name = rel.rpartition("/")
            names.setdefault(folder, []).append(name)
            stamps.setdefault(folder, []).extend((mtime_ns, size))
    packed = array("q", [n for folder in names for n in stamps[folder]])
    # The folders with their file counts as JSON; the names NUL-joined in the same order (a path holds no NUL,
    # and one split is ~10x faster than loading 10k names as JSON).
    db.execute("INSERT OR REPLACE INTO file_stamps VALUES (1, ?, ?, ?, ?)",
               (json.dumps([[folder, len(files)] for folder, files in names.items()], ensure_ascii=False),
                "\0".join(name for files in names.values() for name in files), packed.tobytes(), json.dumps(ranges)))


def save_if_missing(db: sqlite3.Connection) -> None:
    """Called at the end of each transaction that may have written the files table."""
    if db.execute("SELECT 1 FROM file_stamps WHERE id = 1").fetchone() is None:
        save(db)


def untouched(store, db: sqlite3.Connection) -> int | None:
    """How many files the index covers when no memory folder and no indexed file moved since the last
    refresh, else None: recall_index.refresh's test for nothing to do (the recall fast path's, with the
    config and the folders as `current_sources` checks them). Cost: one stat per folder, one packed
    stat per file; no per-file row read."""
    from tiergit.shell import listing

    row = db.execute("SELECT listing FROM summary WHERE id = 1").fetchone()
    if not row or not row[0] or not listing.still_valid(store, listing.Listing.from_json(row[0])):
        return None
    if fresh_ranges(db, str(store.repo)) is None:
        return None
    return db.execute("SELECT count(*) FROM files").fetchone()[0]


def fresh_ranges(db: sqlite3.Connection, repo: str) -> dict[str, list[list[int]]] | None:
    """The rowid ranges by tier when every packed file has its packed stat, else None. Cost: one stat
    per file, relative to an open descriptor of its folder (no walk of the repo's path per file),
    through `map`; one array compare."""
    row = db.execute("SELECT folders, names, stamps, ranges FROM file_stamps WHERE id = 1").fetchone()
    if not row:
        return None
    want, got = array("q"), array("q")
    want.frombytes(row[2])
    names = row[1].split("\0") if row[1] else []
    pick = attrgetter("st_mtime_ns", "st_size")
    relative = os.stat in os.supports_dir_fd
    start = 0
    try:
        for folder, count in json.loads(row[0]):
            files, start = names[start:start + count], start + count
            where = f"{repo}/{folder}" if folder else repo
            if not relative:   # Windows: no descriptor-relative stat
                got.extend(chain.from_iterable(pick(os.stat(f"{where}/{name}")) for name in files))
                continue
            fd = os.open(where, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
            try:
                got.extend(chain.from_iterable(map(pick, map(partial(os.stat, dir_fd=fd), files))))
            finally:
                os.close(fd)
    except OSError:
        return None
    return json.loads(row[3]) if got == want else None
