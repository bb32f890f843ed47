"""The spawn's record of what it carried, and the recalls that leave it out (shell/spawncarried.py).

`tiergit context` and the MCP `context` tool call `record` after a spawn; `tiergit recall` and the MCP
`recall` tool pass `leave_out`'s ids to the search. recall's fast path reads the record itself.
"""
from __future__ import annotations

from tiergit.errors import TiergitError
from tiergit.shell import spawncarried, statedir
from tiergit.shell.spawncarried import note  # noqa: F401  (the stderr line, for the CLI)


def record(store, agent: str, knowledge) -> bool:
    """Replace the agent's record with the ids of this spawn's knowledge picks (none: an empty record).
    False when it cannot be written (a read-only git dir, a link or folder in its place): the spawn goes
    on, and the agent's recalls leave nothing out."""
    ids = [p.id for p in getattr(knowledge, "picks", None) or []]
    try:
        spawncarried.write(statedir.state_dir(store.repo), agent, ids)
    except (OSError, TiergitError):
        return False
    return True


def leave_out(store, agent: str | None, include_spawned: bool = False) -> frozenset[str]:
    """The ids the agent's last spawn carries (one `git rev-parse`, cached per process); none without an
    agent or with include_spawned."""
    if not agent or include_spawned:
        return frozenset()
    return spawncarried.read(statedir.state_dir(store.repo), agent)
