"""Promotion health's candidate counts, cached by the state they were computed from.

`status` reports how many promotion candidates are waiting; computing that is a whole
promotion plan (every file parsed and scored, undated items blamed). The counts depend
only on the memory, archive, staging and log files, the config, HEAD (blame dates) and
today's date, so they are kept in `<git-dir>/tiergit/promotion-health.json` under a key
built from those: HEAD's id and every file's (path, size, mtime_ns), like git's index.
Cost of a warm check: one folder walk, one stat per file and one `rev-parse`.
"""
from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from tiergit.errors import TiergitError
from tiergit.shell import git, listing, statedir

CACHE_NAME = "promotion-health.json"


def state_key(store, today: str) -> str:
    """Changes when anything a promotion plan reads may have changed."""
    found = listing.walk(store)
    logs_dir = store.repo / store.config.repo_path(store.config.logs)
    log_files = sorted(p.relative_to(store.repo).as_posix() for p in logs_dir.glob("*")) if logs_dir.is_dir() else []
    h = hashlib.sha1()
    h.update(f"{today}\0{git.rev_parse(store.repo, 'HEAD')}\0{found.key}\0".encode())
    for rel in [*found.memory, *found.archive, *found.staging, *log_files]:
        try:
            st = os.stat(f"{store.repo}/{rel}")
        except OSError:
            continue
        h.update(f"{rel}\0{st.st_size}\0{st.st_mtime_ns}\n".encode("utf-8", "surrogateescape"))
    return h.hexdigest()


def _path(store) -> Path | None:
    try:
        return statedir.state_dir(store.repo) / CACHE_NAME
    except TiergitError:
        return None


def load(store, key: str) -> tuple[int, int] | None:
    """(waiting, considered) computed under `key`, or None."""
    path = _path(store)
    try:
        data = json.loads(path.read_text()) if path else None
    except (OSError, ValueError):
        return None
    if isinstance(data, dict) and data.get("key") == key:
        return int(data["waiting"]), int(data["considered"])
    return None


def save(store, key: str, waiting: int, considered: int) -> None:
    path = _path(store)
    if path is None:
        return
    from tiergit.shell.fsutil import atomic_write

    try:
        atomic_write(path, json.dumps({"key": key, "waiting": waiting, "considered": considered}))
    except OSError:
        pass   # a read-only git dir only means the next status computes the counts again
