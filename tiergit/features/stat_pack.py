"""The recall index's file stamps, packed for the warm query's freshness check.

recall_fast must know that every indexed file still has the stat the index saw. Fetching the
files table's 10k rows into Python tuples costs ~8 ms and looping over them ~10 ms more; this
form costs one JSON load (the folders and their file names) and one array compare. Triggers
drop it on any write to the files table; recall_index.refresh writes it again, in its own
transaction, when it is missing, so a pack that exists never disagrees with the table.
"""
from __future__ import annotations

import json
import os
import sqlite3
from array import array
from functools import partial
from itertools import chain
from operator import attrgetter

# Any write to a live row of the files table drops the pack in the same transaction, whichever tiergit wrote
# it (an older one, or a hook environment's, sharing the index knows nothing of the pack): a pack that exists
# always mirrors the table, and the next refresh writes a missing one.
TABLE = """
CREATE TABLE IF NOT EXISTS stat_pack (id INTEGER PRIMARY KEY CHECK (id = 1), folders TEXT NOT NULL, stamps BLOB NOT NULL);
CREATE TRIGGER IF NOT EXISTS stat_pack_on_insert AFTER INSERT ON files WHEN NEW.mtime_ns >= 0
BEGIN DELETE FROM stat_pack; END;
CREATE TRIGGER IF NOT EXISTS stat_pack_on_update AFTER UPDATE ON files WHEN NEW.mtime_ns >= 0 OR OLD.mtime_ns >= 0
BEGIN DELETE FROM stat_pack; END;
CREATE TRIGGER IF NOT EXISTS stat_pack_on_delete AFTER DELETE ON files WHEN OLD.mtime_ns >= 0
BEGIN DELETE FROM stat_pack; END;
"""


def save(db: sqlite3.Connection) -> None:
    """Pack the files table's live rows (history rows, mtime_ns < 0, have no file): the folders with
    their file names, and each file's (mtime_ns, size) in the same order as int64s."""
    names: dict[str, list[str]] = {}
    stamps: dict[str, list[int]] = {}
    for rel, mtime_ns, size in db.execute("SELECT path, mtime_ns, size FROM files WHERE mtime_ns >= 0"):
        folder, _, name = rel.rpartition("/")
        names.setdefault(folder, []).append(name)
        stamps.setdefault(folder, []).extend((mtime_ns, size))
    packed = array("q", [n for folder in names for n in stamps[folder]])
    db.execute("INSERT OR REPLACE INTO stat_pack VALUES (1, ?, ?)",
               (json.dumps(list(names.items()), ensure_ascii=False), packed.tobytes()))


def missing(db: sqlite3.Connection) -> bool:
    return db.execute("SELECT 1 FROM stat_pack WHERE id = 1").fetchone() is None


def unchanged(db: sqlite3.Connection, repo: str) -> bool:
    """Every packed file has its packed stat. Cost: one stat per file, relative to an open descriptor
    of its folder (no walk of the repo's path per file), through `map`; one array compare."""
    row = db.execute("SELECT folders, stamps FROM stat_pack WHERE id = 1").fetchone()
    if not row:
        return False
    want, got = array("q"), array("q")
    want.frombytes(row[1])
    pick = attrgetter("st_mtime_ns", "st_size")
    relative = os.stat in os.supports_dir_fd
    try:
        for folder, files in json.loads(row[0]):
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
        return False
    return got == want
