"""Items a spawn prompt served count as recalls: `tiergit context --task …` and the MCP `context` tool
put the task's most relevant items in front of an agent, which is the same real use a `recall` is.
One recall-log event per served item (`via: context`), the task as the query."""
from __future__ import annotations

from tiergit.shell import logs


def log_served(store, agent: str | None, task: str | None, knowledge) -> int:
    """Log the knowledge picks of one spawn; returns how many were logged (none without a task)."""
    picks = getattr(knowledge, "picks", None) or []
    if not task or not task.strip() or not picks:
        return 0
    events = [{"query": task.strip(), "agent": agent, "id": p.id, "path": p.path, "entry": p.entry,
               "score": round(min(1.0, max(0.0, p.score)), 4), "rank": n, "via": "context"}
              for n, p in enumerate(picks, 1)]
    logs.append(store, logs.RECALLS, events)
    return len(events)
