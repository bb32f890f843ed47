"""What an agent's last spawn prompt carried, so that its next `recall` brings something new.

`tiergit context --task …` (and the MCP `context` tool) packs the task's best items into the
prompt and records their ids here, one file per agent; `recall --agent A` (CLI, its fast path,
MCP) then leaves those items out: the agent already holds them, or their best sentences, and a
recall that repeats the prompt spends its hits on nothing new. `--include-spawned` keeps them.
The next spawn replaces the record; one older than MAX_AGE_S is ignored (a spawn is one session).
json, stat, time and pathlib only: recall's fast path reads it.
"""
from __future__ import annotations

import json
import stat
import time
from pathlib import Path

FOLDER = "spawn-carried-v1"   # <git dir>/tiergit/spawn-carried-v1/<agent>.json: {"at": epoch s, "ids": [...]}
MAX_AGE_S = 12 * 3600
MAX_IDS = 500
MAX_BYTES = 64 * 1024


def record_path(state: Path, agent: str) -> Path:
    return state / FOLDER / f"{agent}.json"


def read(state: Path, agent: str | None, now: float | None = None) -> frozenset[str]:
    """The ids the agent's last spawn carried; empty without an agent, a record, or past MAX_AGE_S."""
    if not agent or "/" in agent or "\\" in agent or agent.startswith("."):
        return frozenset()   # no such record: a bad name is the caller's error to report
    path = record_path(state, agent)
    try:
        st = path.lstat()   # a regular file only: a FIFO would hang the read, a link point elsewhere
        if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_BYTES:
            return frozenset()
        data = json.loads(path.read_text(encoding="utf-8"))
        at, ids = float(data["at"]), data["ids"]
    except (OSError, ValueError, TypeError, KeyError):
        return frozenset()
    age = (time.time() if now is None else now) - at
    if not 0 <= age <= MAX_AGE_S or not isinstance(ids, list):
        return frozenset()
    return frozenset(i for i in ids[:MAX_IDS] if isinstance(i, str))


def write(state: Path, agent: str, ids: list[str], now: float | None = None) -> None:
    """Replace the agent's record (temp, fsync, rename; the folder is made on first use)."""
    from tiergit.shell.fsutil import atomic_write

    data = {"at": round(time.time() if now is None else now, 3), "ids": list(dict.fromkeys(ids))[:MAX_IDS]}
    atomic_write(record_path(state, agent), json.dumps(data) + "\n")


def note(count: int) -> str:
    """The stderr line `recall` prints when it left carried items out (both paths print it)."""
    return (f"tiergit: the {count} item(s) your last spawn prompt carries are not repeated "
            "(--include-spawned shows them)\n")
