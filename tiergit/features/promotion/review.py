"""Review outcomes: the state the review log describes, and `review sync` after a merge.

A `proposed` event reaches main only when the promotion PR merges (the log is
committed on the promotion branch), so `sync` on main sees exactly the merged
proposals: an id still in a reviewed tier was accepted, an id gone was rejected.
"""
from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any, Iterable, Mapping

from tiergit.core.idpaths import IdPaths
from tiergit.errors import TiergitError
from tiergit.features.plan import Plan
from tiergit.shell import clock, logs


def last_proposals(events: Iterable[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """id -> its latest `proposed` event, for ids whose last event is `proposed`."""
    out: dict[str, dict[str, Any]] = {}
    for ev in events:
        iid = ev.get("id")
        if not isinstance(iid, str):
            continue
        if ev.get("action") == "proposed":
            out[iid] = ev
        elif ev.get("action") in ("accepted", "rejected"):
            out.pop(iid, None)
    return out


def plan_sync(events: list[dict[str, Any]], wiki_ids: Mapping[str, str] | IdPaths) -> list[dict[str, Any]]:
    """The accepted/rejected events `review sync` would append (pure)."""
    out = []
    for iid, ev in sorted(last_proposals(events).items()):
        base = {"id": iid, "text": ev.get("text", ""), "topic": ev.get("topic", ""), "source": ev.get("source", "")}
        if iid in wiki_ids:
            out.append({**base, "action": "accepted", "reason": f"present in {wiki_ids[iid]} after merge"})
        else:
            out.append({**base, "action": "rejected",
                        "reason": "deleted in review (removed from the promotion PR before merge)"})
    return out


def daily_log_path(store, day: str) -> str:
    """The day's log: a `{date}` tier's note (openclaw daily/) if configured, else <logs>/daily/DAY.md."""
    cfg = store.config
    for name, tier in cfg.tiers.items():
        if "{date}" in tier.path and "{agent}" not in tier.path and "{topic}" not in tier.path:
            return cfg.repo_path(tier.path.replace("{date}", day))
    return cfg.repo_path(str(Path(cfg.logs) / "daily" / f"{day}.md"))


def plan_daily(store, plan: Plan, line: str, now: datetime | None = None) -> str:
    """Add `[HH:MM] line` on the day's log to `plan`; returns its path."""
    now = now or clock.now()
    rel = daily_log_path(store, now.date().isoformat())
    path = store.repo / rel
    cur = path.read_text(encoding="utf-8") if path.is_file() else None
    old = cur if cur is not None else f"# {now.date().isoformat()}\n\n"
    sep = "" if old.endswith("\n") else "\n"
    plan.add(rel, f"{old}{sep}- [{now:%H:%M}] {line}\n", cur, reason="day's log")
    return rel


def wiki_ids(store) -> IdPaths:
    from tiergit.features.promotion.candidates import gather

    return gather(store, set(), blame=False).wiki_ids


def sync(store, apply: bool = True) -> tuple[list[dict[str, Any]], list[str]]:
    """Record outcomes of merged proposals and prune proposals, clear processed candidates from
    the staging file (DREAMS.md) and log `Dream review: accepted N, rejected M` in the day's
    note; returns the new events and the staging files cleared."""
    from tiergit.features.promotion import review_loop
    from tiergit.features.promotion.openclaw_format import marked_sources
    from tiergit.shell.fsutil import store_lock_if

    with store_lock_if(store.repo, apply):
        return _sync(store, apply, review_loop, marked_sources)


def _sync(store, apply, review_loop, marked_sources) -> tuple[list[dict[str, Any]], list[str]]:
    events = list(logs.read(store, logs.REVIEWS))
    ids = wiki_ids(store)
    marked = marked_sources(store)   # OpenClaw's MEMORY.md names sources, not ids
    for iid, ev in last_proposals(events).items():
        if ev.get("source") in marked:
            ids.setdefault(iid, marked[ev["source"]])
    new = plan_sync(events, ids)
    prunes = review_loop.plan_prune_sync(events, ids)
    clear = review_loop.plan_clear(store, review_loop.decided(events + new))
    cleared = [c.path for c in clear.effective]
    if apply:
        # One journaled unit under the store lock (Dreaming or a second sync may write the staging file
        # too): the outcomes, the cleared candidates and the day's note land together. Logged first on
        # their own, a kill before the note left a rerun with no new outcome, so the note line was lost.
        plan = Plan("tiergit review sync", changes=list(clear.changes))
        if new or prunes:
            logs.plan_append(store, plan, logs.REVIEWS, new + prunes)
            plan_daily(store, plan, review_line(new + prunes))
        plan.apply(store.repo)
    return new + prunes, cleared


def review_line(events: list[dict[str, Any]]) -> str:
    """OpenClaw's log line for the day's note (prune outcomes appended when there are any)."""
    def count(action: str) -> int:
        return sum(e["action"] == action for e in events)

    line = f"Dream review: accepted {count('accepted')}, rejected {count('rejected')}"
    if count("pruned") or count("prune-kept"):
        line += f"; pruned {count('pruned')}, kept {count('prune-kept')}"
    return line


def decide(store, iid: str, action: str, reason: str) -> dict[str, Any]:
    """`review accept|reject ID`: record one outcome by hand."""
    if not reason.strip():
        raise TiergitError(f"review {action[:-2] if action.endswith('ed') else action} {iid}: a reason is required",
                           "add --reason \"why\" (one line: it is recorded in the review log)")
    events = list(logs.read(store, logs.REVIEWS))
    known = [e for e in events if e.get("id") == iid]
    if known:
        last = known[-1]
    else:
        # Not proposed yet: a current candidate can be decided ahead of its PR.
        from tiergit.features.promotion import promote

        rows = [r for r in promote.build(store).rows if r.cand.id == iid]
        if not rows:
            raise TiergitError(f"{logs.log_path(store, logs.REVIEWS).relative_to(store.repo)}: "
                               f"no proposal or candidate with id {iid}",
                               "see `tiergit promote` for candidate ids (m-xxxxxxxx)")
        c = rows[0].cand
        last = {"text": c.text, "topic": c.topic, "source": f"{c.source}:{c.line}"}
    ev = {"id": iid, "action": action, "reason": reason.strip(),
          "text": last.get("text", ""), "topic": last.get("topic", ""), "source": last.get("source", "")}
    logs.append(store, logs.REVIEWS, [ev])
    return ev
