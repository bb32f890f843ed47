"""The recall index: every item of the searchable files in SQLite FTS5, cached under the git dir.

The index lives in `<git-dir>/tiergit/recall-v2.sqlite` (per worktree, never
committed). `refresh()` compares each file's stat (mtime, size) and then its git
blob id with what was indexed, and re-parses only the files that changed, so the
first recall after an edit costs one file's parse, not the whole store's.
"""
from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from tiergit import git, parse
from tiergit.errors import TiergitError
from tiergit.tokens import blob_id

INDEX_NAME = "recall-v2.sqlite"
SCHEMA = """
CREATE TABLE IF NOT EXISTS files (
    path TEXT PRIMARY KEY, blob TEXT NOT NULL, mtime_ns INTEGER NOT NULL, size INTEGER NOT NULL,
    tier TEXT NOT NULL, agent TEXT, items INTEGER NOT NULL DEFAULT 0);
CREATE VIRTUAL TABLE IF NOT EXISTS items USING fts5(
    text, entry, path UNINDEXED, item_id UNINDEXED, date UNINDEXED, kind UNINDEXED,
    line UNINDEXED, tier UNINDEXED, agent UNINDEXED, clean UNINDEXED,
    tokenize = 'unicode61 remove_diacritics 2');
CREATE VIRTUAL TABLE IF NOT EXISTS vocab USING fts5vocab(items, 'row');
"""


@dataclass(frozen=True)
class Source:
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
    return git.git_dir(repo) / "tiergit" / INDEX_NAME


def sources(store) -> list[Source]:
    """Tier files, the archive folder and the staging files, each with its tier label."""
    cfg = store.config
    out: dict[str, Source] = {}
    for rel in store.memory_files():
        match = cfg.tier_for(rel)
        if match:
            out[rel] = Source(rel, match[0].name, match[1].get("agent"))
    agents = set(store.agents())
    archive_dir = store.repo / cfg.repo_path(cfg.archive)
    for path in _markdown_under(archive_dir):
        rel = path.relative_to(store.repo).as_posix()
        stem = path.stem.lower()
        out.setdefault(rel, Source(rel, "archive", stem if stem in agents else None))
    for rel in staging_files(store):
        out.setdefault(rel, Source(rel, "staging", None))
    return sorted(out.values(), key=lambda s: s.path)


def staging_files(store) -> list[str]:
    """Repo-relative staging files: the config's `staging` file, else <root>/staging/*.md."""
    cfg = store.config
    if cfg.staging:
        rel = cfg.repo_path(cfg.staging)
        return [rel] if (store.repo / rel).is_file() else []
    return [p.relative_to(store.repo).as_posix() for p in _markdown_under(store.root / "staging")]


def _markdown_under(folder: Path) -> list[Path]:
    if not folder.is_dir():
        return []
    found = []
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        found.extend(Path(dirpath, n) for n in sorted(filenames) if n.endswith(".md"))
    return found


def connect(path: Path) -> sqlite3.Connection:
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        db = sqlite3.connect(path, timeout=30, isolation_level=None)
        db.executescript(SCHEMA)
    except sqlite3.DatabaseError:
        # A corrupt cache is rebuilt from scratch: it holds nothing that is not in the tree.
        path.unlink(missing_ok=True)
        db = sqlite3.connect(path, timeout=30, isolation_level=None)
        db.executescript(SCHEMA)
    return db


def refresh(store, db: sqlite3.Connection, wanted: list[Source] | None = None) -> RefreshStats:
    """Bring the index up to date with the work tree; re-parse only files whose blob changed."""
    wanted = sources(store) if wanted is None else wanted
    stats = RefreshStats(files=len(wanted), skipped=[])
    # mtime_ns < 0: a file that lives only in git history (tiergit.recall_history keeps those)
    known = {row[0]: row[1:] for row in db.execute(
        "SELECT path, blob, mtime_ns, size, tier, agent FROM files WHERE mtime_ns >= 0")}
    db.execute("BEGIN IMMEDIATE")
    try:
        for src in wanted:
            full = store.repo / src.path
            try:
                st = full.stat()
            except OSError:
                continue
            old = known.get(src.path)
            if old and old[1] == st.st_mtime_ns and old[2] == st.st_size and old[3] == src.tier and old[4] == src.agent:
                continue
            data = store.read_bytes(src.path)
            blob = blob_id(data)
            if old and old[0] == blob and old[3] == src.tier and old[4] == src.agent:
                db.execute("UPDATE files SET mtime_ns=?, size=? WHERE path=?", (st.st_mtime_ns, st.st_size, src.path))
                continue
            db.execute("DELETE FROM items WHERE path=?", (src.path,))
            rows = _rows(store, src, data, stats)
            db.executemany("INSERT INTO items (text, entry, path, item_id, date, kind, line, tier, agent, clean) "
                           "VALUES (?,?,?,?,?,?,?,?,?,?)", rows)
            db.execute("INSERT OR REPLACE INTO files VALUES (?,?,?,?,?,?,?)",
                       (src.path, blob, st.st_mtime_ns, st.st_size, src.tier, src.agent, len(rows)))
            stats.reindexed += 1
        gone = set(known) - {s.path for s in wanted}
        for path in gone:
            db.execute("DELETE FROM items WHERE path=?", (path,))
            db.execute("DELETE FROM files WHERE path=?", (path,))
        stats.removed = len(gone)
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    return stats


def _rows(store, src: Source, data: bytes, stats: RefreshStats) -> list[tuple]:
    try:
        text = parse.decode(data, src.path, store.config.limits["max_file_bytes"])
        doc = parse.parse(text, src.path, store.config.labels)
    except TiergitError:
        assert stats.skipped is not None
        stats.skipped.append(src.path)
        return []
    listing = _managed_lines(text) if src.tier == "staging" else range(0)
    rows = []
    for sec in doc.sections:
        for item in sec.items:
            if item.line in listing:   # promote's own candidate listing is output, not memory
                continue
            day = item.date or sec.date
            rows.append((item.text, sec.heading or "", src.path, item.id, day.isoformat() if day else None,
                         item.kind, item.line, src.tier, src.agent, item.clean))
    return rows


def _managed_lines(text: str) -> range:
    """1-based lines of the candidate listing `promote` writes into the staging file (DREAMS.md)."""
    from tiergit.candidates import MANAGED_BEGIN, MANAGED_END

    lines = text.splitlines()
    begin = next((n for n, line in enumerate(lines, 1) if line.strip() == MANAGED_BEGIN), None)
    end = next((n for n, line in enumerate(lines, 1) if line.strip() == MANAGED_END), None)
    return range(begin, end + 1) if begin and end and end > begin else range(0)
