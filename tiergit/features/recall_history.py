"""Recall over archive files that retention removed from the tree: they stay findable.

`archive --apply` deletes archive months older than delete_after_days once git holds
them; this module indexes what those files held, from git history, into the recall
index, so `recall` still finds the knowledge and says which commit removed it
(`tiergit restore PATH` brings the file back). Blob ids are stable, so a file is parsed
once; the index remembers the HEAD it last looked at, so an unchanged HEAD costs one
SQLite read, and a new HEAD one `git log --diff-filter=D` over the archive folder.
"""
from __future__ import annotations

import sqlite3

from tiergit.features import file_stamps, recall_index
from tiergit.shell import git

SCHEMA = "CREATE TABLE IF NOT EXISTS history_head (id INTEGER PRIMARY KEY CHECK (id = 1), head TEXT NOT NULL);"
HISTORY_MTIME = -1   # marks rows of files that live only in git history (files.mtime_ns)


def gone_files(store) -> dict[str, tuple[str, str]]:
    """Archive files deleted by a commit and absent from the work tree: path -> (blob, commit)."""
    cfg = store.config
    base = cfg.repo_path(cfg.archive).rstrip("/")
    gone = git.deleted_blobs(store.repo, [base])
    return {p: v for p, v in gone.items() if p.endswith(".md") and not (store.repo / p).exists()}


def label(entry: str, commit: str) -> str:
    """The entry label a history hit carries: where the file went."""
    return f"{entry} [removed from the tree in {commit[:12]}; in {commit[:12]}^]".strip()


def refresh(store, db: sqlite3.Connection) -> int:
    """Bring the history rows up to date with HEAD; the number of files (re)indexed."""
    db.executescript(SCHEMA)
    head = git.rev_parse(store.repo, "HEAD")
    row = db.execute("SELECT head FROM history_head WHERE id = 1").fetchone()
    if head is None or (row and row[0] == head):
        return 0
    gone = gone_files(store)
    known = {p: b for p, b in db.execute("SELECT path, blob FROM files WHERE mtime_ns = ?", (HISTORY_MTIME,))}
    todo = {p: v for p, v in gone.items() if known.get(p) != v[0]}
    blobs = git.read_blobs(store.repo, [b for b, _ in todo.values()])
    agents = set(store.agents())
    stats = recall_index.RefreshStats(skipped=[])
    db.execute("BEGIN IMMEDIATE")
    try:
        count, next_rowid = db.execute("SELECT items, next_rowid FROM summary WHERE id = 1").fetchone() or (0, 1)
        spans = {p: (n, first) for p, n, first in db.execute(
            "SELECT path, items, first_rowid FROM files WHERE mtime_ns = ?", (HISTORY_MTIME,))}
        for path in set(known) - set(gone) | set(todo):
            n, first = spans.get(path, (0, 0))
            if n:   # delete by the file's rowid range (recall_index's layout), never a table scan
                db.execute("DELETE FROM items WHERE rowid BETWEEN ? AND ?", (first, first + n - 1))
                count -= n
            db.execute("DELETE FROM files WHERE path=? AND mtime_ns=?", (path, HISTORY_MTIME))
        file_rows = []   # written once after the items: a files write per file flushed FTS5 (recall_index.refresh)
        for path, (blob, commit) in todo.items():
            data = blobs.get(blob)
            if data is None:
                continue
            stem = path.rsplit("/", 1)[-1][:-3].lower()
            src = recall_index.IndexSource(path, "archive", stem if stem in agents else None)
            found, skipped = recall_index.rows_of(src, data, store.config.labels, store.config.limits["max_file_bytes"])
            if skipped and stats.skipped is not None:
                stats.skipped.append(path)
            rows = [(r[0], label(r[1], commit), *r[2:]) for r in found]
            first = next_rowid
            db.executemany("INSERT INTO items (rowid, text, entry, path, item_id, date, kind, line, tier, agent, "
                           "clean) VALUES (?,?,?,?,?,?,?,?,?,?,?)", [(first + i, *row) for i, row in enumerate(rows)])
            file_rows.append((path, blob, HISTORY_MTIME, len(data), "archive", src.agent, len(rows), first))
            count, next_rowid = count + len(rows), first + len(rows)
        db.executemany("INSERT OR REPLACE INTO files VALUES (?,?,?,?,?,?,?,?)", file_rows)
        db.execute("INSERT INTO summary (id, items, next_rowid) VALUES (1, ?, ?) ON CONFLICT(id) DO UPDATE "
                   "SET items=excluded.items, next_rowid=excluded.next_rowid", (count, next_rowid))
        db.execute("INSERT OR REPLACE INTO history_head VALUES (1, ?)", (head,))
        file_stamps.save_if_missing(db)   # the history rows' ranges are in it too
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    return len(todo)
