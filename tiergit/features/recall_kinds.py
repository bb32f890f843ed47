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
from collections.abc import Iterable

from tiergit.errors import TiergitError
from tiergit.features.recall_index import UNJUDGED, IndexSource, rows_of


def fill(store, db: sqlite3.Connection, paths: Iterable[str]) -> dict[tuple[str, int], str]:
    """The kinds of the unjudged items of these files, by (path, line), judged and kept in the index.
    Cost: one read and parse of each file not judged yet; nothing for a judged one."""
    todo = []
    for path in sorted(set(paths)):
        row = db.execute("SELECT blob, tier, agent, items, first_rowid FROM files WHERE path = ?", (path,)).fetchone()
        if row and row[3] and db.execute("SELECT kind FROM items WHERE rowid = ?", (row[4],)).fetchone() == (UNJUDGED,):
            todo.append((path, *row))
    if not todo:
        return {}
    from tiergit.shell.tokens import blob_id

    cfg = store.config
    kinds: dict[tuple[str, int], str] = {}
    updates = []
    for path, blob, tier, agent, n, first in todo:
        try:
            data = store.read_bytes(path)
        except (OSError, TiergitError):
            continue
        if blob_id(data) != blob:   # changed since it was indexed
            continue
        rows, skipped = rows_of(IndexSource(path, tier, agent), data, cfg.labels, cfg.limits["max_file_bytes"])
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


def judge(store, db: sqlite3.Connection, shown: list) -> None:
    """Set the kind of each shown item (anything with `path`, `line` and `kind`) still unjudged."""
    todo = [s for s in shown if s.kind == UNJUDGED]
    if todo:
        kinds = fill(store, db, (s.path for s in todo))
        for s in todo:
            s.kind = kinds.get((s.path, s.line), UNJUDGED)
