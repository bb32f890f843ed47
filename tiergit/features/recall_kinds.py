"""Kinds judged when an item is first shown.

A refresh of many changed files (a first index build, a pull: recall_index.LAZY_KINDS_MIN) stores
its items with the kind UNJUDGED: the kind judgement is most of a parse, and most items are
never a hit. The first reader that shows such an item (recall, the spawn's knowledge) judges
its whole file once, exactly as the build would have (the same parse with kinds: an item's kind
depends on its neighbours, a lead-in, a sub-heading), and writes the kinds into the index, so
every later reader finds them there. A file that changed since it was indexed is left alone:
the next refresh reads it again.
"""
from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable

from tiergit.errors import TiergitError
from tiergit.features.recall_index import UNJUDGED, IndexSource, rows_of


def reading(store) -> tuple[Callable[[str], bytes], dict | None, int]:
    """What `fill` needs from a store: its reader, its label vocabulary, its file size limit."""
    return store.read_bytes, store.config.labels, store.config.limits["max_file_bytes"]


def fill(db: sqlite3.Connection, paths: Iterable[str], read: Callable[[str], bytes], labels: dict | None,
         max_bytes: int) -> dict[tuple[str, int], str]:
    """The kinds of the unjudged items of these files, by (path, line), judged and kept in the index.
    `read`: a repo-relative path's bytes (OSError or TiergitError: the file is left unjudged).
    Cost: one read and parse of each file not judged yet; nothing for a judged one."""
    todo = []
    for path in sorted(set(paths)):
        row = db.execute("SELECT blob, tier, agent, items, first_rowid FROM files WHERE path = ?", (path,)).fetchone()
        if row and row[3] and db.execute("SELECT kind FROM items WHERE rowid = ?", (row[4],)).fetchone() == (UNJUDGED,):
            todo.append((path, *row))
    if not todo:
        return {}
    from tiergit.shell.tokens import blob_id

    kinds: dict[tuple[str, int], str] = {}
    updates = []
    for path, blob, tier, agent, n, first in todo:
        try:
            data = read(path)
        except (OSError, TiergitError):
            continue
        if blob_id(data) != blob:   # changed since it was indexed
            continue
        rows, skipped = rows_of(IndexSource(path, tier, agent), data, labels, max_bytes)
        if skipped or len(rows) != n:
            continue
        for i, row in enumerate(rows):
            kinds[(path, row[6])] = row[5]
            updates.append((row[5], first + i))
    if updates:
        db.execute("BEGIN IMMEDIATE")
        try:
            db.executemany("UPDATE items SET kind = ? WHERE rowid = ?", updates)
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
    return kinds


def judge(db: sqlite3.Connection, shown: list, read: Callable[[str], bytes], labels: dict | None,
          max_bytes: int) -> None:
    """Set the kind of each shown item (anything with `path`, `line` and `kind`) still unjudged."""
    todo = [s for s in shown if s.kind == UNJUDGED]
    if todo:
        kinds = fill(db, (s.path for s in todo), read, labels, max_bytes)
        for s in todo:
            s.kind = kinds.get((s.path, s.line), UNJUDGED)
