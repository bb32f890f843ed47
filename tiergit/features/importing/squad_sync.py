"""Continuous sync with Squad's Scribe: at `session start`, what Scribe appended to the
agent's `.squad/agents/<Name>/history.md` since the last import reaches its cold tier.

Squad's Scribe keeps writing `history.md` after tiergit adopted it. With the squad
preset, `session start --agent A` runs `import squad` for A first (the importer is
incremental: a rerun appends only items cold and the archive do not hold yet, and
changes nothing when nothing is new), so the agent starts from what Scribe recorded.
Only A's cold and archive files and the staging file are written; other agents wait for their own
session start or an explicit `tiergit import squad --apply`.

`plan_sync` is pure (reads the tree, returns a Plan); cost: one parse of every Squad
history (the importer reads them all), typically well under a second.
"""
from __future__ import annotations

from tiergit.errors import TiergitError
from tiergit.features.importing.squad_compat import agent_slug
from tiergit.features.plan import Plan

HISTORY = ".squad/agents/{agent}/history.md"


def applies(cfg) -> bool:
    """The config adopts Squad histories (the squad preset's `legacy`) into per-agent tiers."""
    return (any(p.lstrip("/") == HISTORY for p in cfg.legacy) and "cold" in cfg.tiers
            and "{agent}" in cfg.tiers["cold"].path)


def plan_sync(store, agent: str) -> Plan | None:
    """The import changes that concern `agent` (its cold and archive files, and the staging
    file), or None when there is nothing to sync."""
    from tiergit.features.importing import importer, staged

    cfg = store.config
    if not agent or not applies(cfg):
        return None
    agents = store.repo / ".squad" / "agents"
    if not any(agent_slug(h.parent.name) == agent for h in agents.glob("*/history.md")):
        return None   # no Squad history for this agent: skip parsing the others
    try:
        full, _ = importer.plan_squad(store)
    except TiergitError:
        return None   # no Squad layout here: nothing to sync, the session starts as usual
    mine = {store.rel(cfg.tier_file("cold", agent=agent))}   # hot is session start's own write
    archive = cfg.repo_path(cfg.archive).rstrip("/") + "/"
    stage = staged.staging_path(cfg)
    keep = [c for c in full.effective
            if c.new is not None and (c.path in mine or c.path == stage
                                      or (c.path.startswith(archive) and c.path.endswith(f"/{agent}.md")))]
    # Nothing but staging: the agent's own history brought nothing new.
    if not any(c.path != stage for c in keep):
        return None
    return Plan(f"sync {agent} from Squad's history", keep)


def _write_lock(store, agent: str):
    """The store-wide lock every writer of this store holds (re-entrant within a process)."""
    from tiergit.shell import fsutil

    return fsutil.store_lock(store.repo)


def sync(store, agent: str) -> list[str]:
    """Plan and apply the sync under the writers' lock; `path  (reason)` per file written."""
    if not applies(store.config):
        return []
    with _write_lock(store, agent):
        plan = plan_sync(store, agent)
        if plan is None:
            return []
        plan.apply(store.repo)
    return [f"{c.path}  ({c.reason})" for c in plan.effective]
