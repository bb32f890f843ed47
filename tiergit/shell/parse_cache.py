"""Parsed memory documents by content hash, kept in the git dir between runs (like the token
cache): markdown parsing is most of a promotion plan's time, and most files do not change
between nightly runs."""
from __future__ import annotations

import ast
import hashlib
import pickle
import sqlite3
from pathlib import Path

from tiergit.core import kinds, parse
from tiergit.core.candidate import clean, norm_key
from tiergit.errors import TiergitError
from tiergit.shell import statedir


# A first run writes its new documents in batches of this many: it never holds every file's pickle.
FLUSH_EVERY = 200


class ParseCache:
    """Parsed documents by content hash, kept in the git dir between runs (like the token
    cache): markdown parsing is most of a promotion plan's time, and most files do not
    change between nightly runs. One SQLite row per document (`parse-cache-v3.sqlite`):
    a run unpickles only the documents it reads and writes only the new ones, and rows no
    file uses any more are dropped (no whole-store pickle rewritten when one file changes).
    A missing or unreadable cache is simply rebuilt."""

    # Cached docs carry item kinds: a new default vocabulary must not reuse them.
    VERSION = (3, kinds.CLASSIFIER_VERSION)

    def __init__(self, path: Path | None, labels: dict) -> None:
        self.path, self.labels = path, repr(sorted((k, tuple(v)) for k, v in (labels or {}).items()))
        # The stored keys only: a document's pickle is read when a file needs it, so a run never
        # holds every stored document at once (~37 MB of pickles at 1k real-sized files).
        self.stored: set[str] = set()
        self.used: set[str] = set()
        self.new: dict[str, bytes] = {}   # key -> the pickled (doc, pairs) a run parsed
        # (id(doc), each item's (clean, norm_key)) of the last document returned: one slot, not a dict
        # by id, since a reader that never asks (archive) kept every file's pairs (~160 MB at 10k).
        self._last_keys: tuple[int, list[tuple[str, str]]] | None = None
        self._db: sqlite3.Connection | None = None
        if path is not None and path.is_file():
            try:
                self._db = sqlite3.connect(path, timeout=30)
                self.stored = {k for (k,) in self._db.execute("SELECT key FROM docs")}
            except sqlite3.DatabaseError:   # a stale or broken cache is only a slower run
                if self._db is not None:
                    self._db.close()
                self.stored, self._db = set(), None

    def _stored(self, key: str) -> bytes | None:
        try:
            if self._db is None and self.path is not None and self.path.is_file():
                self._db = sqlite3.connect(self.path, timeout=30)
            # fetchall: the statement is done, so no read lock outlives the lookup (`_write` writes)
            rows = self._db.execute("SELECT doc FROM docs WHERE key = ?", (key,)).fetchall() if self._db else []
        except sqlite3.DatabaseError:
            return None
        return rows[0][0] if rows else None

    @classmethod
    def for_store(cls, store) -> "ParseCache":
        try:
            folder = statedir.state_dir(store.repo)
        except TiergitError:
            return cls(None, store.config.labels)
        # Older caches: the whole-store pickle, and v2 whose pickles name the flat module paths
        # (tiergit.core.parse) that moved into tiergit.core.
        for old in ("parse-cache.pickle", "parse-cache-v2.sqlite"):
            (folder / old).unlink(missing_ok=True)
        return cls(folder / "parse-cache-v3.sqlite", store.config.labels)

    def parse(self, text: str, rel: str) -> parse.MemoryDoc:
        key = hashlib.sha1(f"{self.VERSION}\0{self.labels}\0{rel}\0{text}".encode("utf-8", "surrogatepass")).hexdigest()
        self.used.add(key)
        data = self.new.get(key) or (self._stored(key) if key in self.stored else None)
        entry = None
        if data is not None:
            try:
                entry = pickle.loads(data)
            except Exception:  # noqa: BLE001 - a broken row is parsed again
                entry = None
        if entry is None:
            doc = parse.parse(text, rel, eval_labels(self.labels))
            # Each item's clean text and comparison key are half a warm plan's time: kept too.
            pairs = []
            for sec in doc.sections:
                for item in sec.items:
                    cleaned = clean(item.text)
                    pairs.append((cleaned, norm_key(cleaned)))
            entry = (doc, pairs)
            # pickled now, not at save: the run keeps no parsed document it has done with
            self.new[key] = pickle.dumps(entry, pickle.HIGHEST_PROTOCOL)
            if len(self.new) >= FLUSH_EVERY:
                self._write()
        self._last_keys = (id(entry[0]), entry[1])
        return entry[0]

    def item_keys(self, doc: parse.MemoryDoc) -> list[tuple[str, str]]:
        """(clean text, norm_key) of every item of the document this cache returned last, in order
        (read once: asked right after `parse`, before another document is parsed)."""
        last, self._last_keys = self._last_keys, None
        if last is None or last[0] != id(doc):
            raise ValueError("item_keys: ask for the document parse() returned last")
        return last[1]

    def close(self) -> None:
        """Let go of the database (a new cache is opened after another process wrote to it)."""
        if self._db is not None:
            self._db.close()
            self._db = None

    def save(self, prune: bool = True) -> None:
        """Add the new documents and (`prune`: a run that read every file) drop the ones this
        run did not use (best effort)."""
        self._write(self.stored - self.used if prune else set())

    def _write(self, stale: set[str] | frozenset = frozenset()) -> None:
        """Write the new documents (and drop `stale`) in one transaction, then forget their pickles."""
        self.close()
        if self.path is None or (not self.new and not stale):
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(self.path, timeout=30, isolation_level=None)
            db.execute("CREATE TABLE IF NOT EXISTS docs (key TEXT PRIMARY KEY, doc BLOB NOT NULL)")
            db.execute("BEGIN IMMEDIATE")
            db.executemany("DELETE FROM docs WHERE key = ?", [(k,) for k in stale])
            db.executemany("INSERT OR REPLACE INTO docs VALUES (?, ?)", self.new.items())
            db.execute("COMMIT")
            db.close()
        except (OSError, sqlite3.DatabaseError):
            pass
        self.stored |= set(self.new)   # read back from the file if asked again (else parsed again)
        self.stored -= stale
        self.new = {}


def eval_labels(frozen: str) -> dict[str, list[str]]:
    return {k: list(v) for k, v in ast.literal_eval(frozen)}
