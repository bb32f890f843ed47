"""Append-only JSON Lines logs in the store (recalls, reviews), marked merge=union.

One event per line, keys sorted, so two branches appending merge cleanly with
`merge=union` and a line never depends on its neighbours.
"""
from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterator

from tiergit.fsutil import lock

RECALLS = "recalls.jsonl"
REVIEWS = "reviews.jsonl"


def log_path(store, name: str) -> Path:
    return store.repo / store.config.repo_path(store.config.logs) / name


def now_iso() -> str:
    return datetime.now(timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def append(store, name: str, events: list[dict[str, Any]]) -> None:
    """Append events (each gets a `ts` if it has none) under a lock."""
    if not events:
        return
    path = log_path(store, name)
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = []
    for ev in events:
        ev = {"ts": now_iso(), **ev}
        lines.append(json.dumps(ev, sort_keys=True, ensure_ascii=False, separators=(",", ":")))
    with lock(lock_path(store, name)):
        with open(path, "a", encoding="utf-8") as fh:
            fh.write("\n".join(lines) + "\n")


def lock_path(store, name: str) -> Path:
    """Locks live in the git dir, so they are never committed with the log."""
    from tiergit import git
    from tiergit.errors import TiergitError

    try:
        return git.git_dir(store.repo) / "tiergit" / "locks" / f"{name}.lock"
    except TiergitError:
        return log_path(store, name).with_name(f".{name}.lock")


def read(store, name: str) -> Iterator[dict[str, Any]]:
    """Every well-formed event; a malformed line (a bad merge, a hand edit) is skipped."""
    path = log_path(store, name)
    if not path.is_file():
        return
    with open(path, encoding="utf-8", errors="replace") as fh:
        for line in fh:
            line = line.strip()
            if not line or line.startswith(("<<<<<<<", "=======", ">>>>>>>")):
                continue
            try:
                ev = json.loads(line)
            except ValueError:
                continue
            if isinstance(ev, dict):
                yield ev
