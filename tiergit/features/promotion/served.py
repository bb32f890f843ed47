"""Items a spawn prompt served count as recalls: `tiergit context --task …` and the MCP `context` tool
put the task's most relevant items in front of an agent, which is the same real use a `recall` is.
One recall-log event per served item (`via: context`), the task as the query; its `relevance` is the
item's match to the task relative to the best-matching item served (1.0). An item served only for
being the agent's newest (no match to the task) is not logged: being recent is not being used."""
from __future__ import annotations

from tiergit.shell import logs


def log_served(store, agent: str | None, task: str | None, knowledge) -> int:
    """Log the knowledge picks of one spawn; returns how many were logged (none without a task)."""
    picks = [p for p in getattr(knowledge, "picks", None) or [] if getattr(p, "relevance", 0.0) > 0]
    if not task or not task.strip() or not picks:
        return 0
    best = max((getattr(p, "relevance", 0.0) for p in picks), default=0.0) or 1.0
    events = [{"query": task.strip(), "agent": agent, "id": p.id, "path": p.path, "entry": p.entry,
               "score": round(min(1.0, max(0.0, p.score)), 4),
               "relevance": round(min(1.0, max(0.0, getattr(p, "relevance", 0.0) / best)), 4), "rank": n, "via": "context"}
              for n, p in enumerate(picks, 1)]
    logs.append(store, logs.RECALLS, events)
    return len(events)
