"""Append-only JSON Lines logs in the store (recalls, reviews), marked merge=union.

One event per line, keys sorted, so two branches appending merge cleanly with
`merge=union` and a line never depends on its neighbours.
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Iterator

from tiergit.core.patterns import is_conflict_line
from tiergit.shell import clock
from tiergit.shell.fsutil import check_target, store_lock

RECALLS = "recalls.jsonl"
REVIEWS = "reviews.jsonl"
OPENCLAW_RECALLS = "openclaw-recalls.jsonl"   # snapshots of OpenClaw's own recall entries (promotion/recall_store.py)


def log_path(store, name: str) -> Path:
    return store.repo / store.config.repo_path(store.config.logs) / name


def now_iso() -> str:
    return clock.now().isoformat().replace("+00:00", "Z")


def append(store, name: str, events: list[dict[str, Any]]) -> None:
    """Append events (each gets a `ts` if it has none) under a lock."""
    if events:
        append_at(store.repo, log_path(store, name), events)


def append_at(repo: Path, path: Path, events: list[dict[str, Any]]) -> None:
    """append() to a log whose path is known (recall_fast runs without the config)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = []
    for ev in events:
        ev = {"ts": now_iso(), **ev}
        lines.append(json.dumps(ev, sort_keys=True, ensure_ascii=False, separators=(",", ":")))
    with store_lock(repo):
        check_target(path, repo)
        # a line cut short by a kill must not swallow the next event
        torn = path.is_file() and path.stat().st_size > 0 and not _ends_with_newline(path)
        with open(path, "a", encoding="utf-8") as fh:
            fh.write(("\n" if torn else "") + "\n".join(lines) + "\n")
            fh.flush()
            os.fsync(fh.fileno())


def _ends_with_newline(path: Path) -> bool:
    with open(path, "rb") as fh:
        fh.seek(-1, os.SEEK_END)
        return fh.read(1) == b"\n"


def plan_append(store, plan, name: str, events: list[dict[str, Any]]) -> None:
    """Add an append of `events` to `plan` (a whole-file change, so it is journaled with the
    rest of the plan); the caller holds the store lock."""
    path = log_path(store, name)
    old = path.read_text(encoding="utf-8") if path.is_file() else None
    base = old or ""
    if base and not base.endswith("\n"):
        base += "\n"
    lines = [json.dumps({"ts": now_iso(), **ev}, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
             for ev in events]
    plan.add(path.relative_to(store.repo).as_posix(), base + "\n".join(lines) + "\n", old, reason="log")


def read(store, name: str) -> Iterator[dict[str, Any]]:
    """Every well-formed event; a malformed line (a bad merge, a hand edit) is skipped."""
    path = log_path(store, name)
    if not path.is_file():
        return
    with open(path, encoding="utf-8", errors="replace") as fh:
        for line in fh:
            line = line.strip()
            if not line or is_conflict_line(line):
                continue
            try:
                ev = json.loads(line)
            except ValueError:
                continue
            if isinstance(ev, dict):
                yield ev
