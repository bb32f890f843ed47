"""Review outcomes: the state the review log describes, and `review sync` after a merge.

A `proposed` event reaches main only when the promotion PR merges (the log is
committed on the promotion branch), so `sync` on main sees exactly the merged
proposals: an id still in a reviewed tier was accepted, an id gone was rejected.
"""
from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterable

from tiergit import logs
from tiergit.candidates import norm_key
from tiergit.errors import TiergitError
from tiergit.gate import ReviewState
from tiergit.plan import Plan


def state(events: Iterable[dict[str, Any]]) -> ReviewState:
    """The last outcome per id (events are in log order; later wins)."""
    st = ReviewState()
    for ev in events:
        iid, action = ev.get("id"), ev.get("action")
        if not isinstance(iid, str):
            continue
        day = str(ev.get("ts", ""))[:10]
        st.pending.pop(iid, None)
        st.rejected.pop(iid, None)
        st.accepted.pop(iid, None)
        if action == "proposed":
            st.pending[iid] = day
        elif action == "rejected":
            st.rejected[iid] = (norm_key(str(ev.get("text", ""))), day)
        elif action == "accepted":
            st.accepted[iid] = day
    return st


def last_proposals(events: Iterable[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """id -> its latest `proposed` event, for ids whose last event is `proposed`."""
    out: dict[str, dict[str, Any]] = {}
    for ev in events:
        iid = ev.get("id")
        if not isinstance(iid, str):
            continue
        if ev.get("action") == "proposed":
            out[iid] = ev
        else:
            out.pop(iid, None)
    return out


def plan_sync(events: list[dict[str, Any]], wiki_ids: dict[str, str]) -> list[dict[str, Any]]:
    """The accepted/rejected events `review sync` would append (pure)."""
    out = []
    for iid, ev in sorted(last_proposals(events).items()):
        base = {"id": iid, "text": ev.get("text", ""), "topic": ev.get("topic", ""), "source": ev.get("source", "")}
        if iid in wiki_ids:
            out.append({**base, "action": "accepted", "reason": f"present in {wiki_ids[iid]} after merge"})
        else:
            out.append({**base, "action": "rejected", "reason": "removed from the promotion before merge"})
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
    now = now or datetime.now(timezone.utc)
    rel = daily_log_path(store, now.date().isoformat())
    path = store.repo / rel
    cur = path.read_text(encoding="utf-8") if path.is_file() else None
    old = cur if cur is not None else f"# {now.date().isoformat()}\n\n"
    sep = "" if old.endswith("\n") else "\n"
    plan.add(rel, f"{old}{sep}- [{now:%H:%M}] {line}\n", cur, reason="day's log")
    return rel


def append_daily(store, line: str, now: datetime | None = None) -> str:
    """Append `[HH:MM] line` to the day's log; returns its path."""
    from tiergit.fsutil import atomic_write, store_lock

    now = now or datetime.now(timezone.utc)
    rel = daily_log_path(store, now.date().isoformat())
    path = store.repo / rel
    with store_lock(store.repo):
        old = path.read_text(encoding="utf-8") if path.is_file() else f"# {now.date().isoformat()}\n\n"
        sep = "" if old.endswith("\n") else "\n"
        atomic_write(path, f"{old}{sep}- [{now:%H:%M}] {line}\n", root=store.repo)
    return rel


def wiki_ids(store) -> dict[str, str]:
    from tiergit.candidates import gather

    return gather(store, set(), blame=False).wiki_ids


def sync(store, apply: bool = True) -> list[dict[str, Any]]:
    """Record outcomes of merged proposals; returns the new events."""
    from tiergit.fsutil import store_lock_if

    with store_lock_if(store.repo, apply):
        events = list(logs.read(store, logs.REVIEWS))
        new = plan_sync(events, wiki_ids(store))
        if apply and new:
            # the log events and the day's line land together (one journaled plan)
            accepted = sum(e["action"] == "accepted" for e in new)
            plan = Plan("tiergit review sync")
            logs.plan_append(store, plan, logs.REVIEWS, new)
            plan_daily(store, plan, f"Review: accepted {accepted}, rejected {len(new) - accepted}")
            plan.apply(store.repo)
    return new


def decide(store, iid: str, action: str, reason: str) -> dict[str, Any]:
    """`review accept|reject ID`: record one outcome by hand."""
    events = list(logs.read(store, logs.REVIEWS))
    known = [e for e in events if e.get("id") == iid]
    if known:
        last = known[-1]
    else:
        # Not proposed yet: a current candidate can be decided ahead of its PR.
        from tiergit import promote

        rows = [r for r in promote.build(store).rows if r.cand.id == iid]
        if not rows:
            raise TiergitError(f"{logs.log_path(store, logs.REVIEWS).relative_to(store.repo)}: "
                               f"no proposal or candidate with id {iid}",
                               "see `tiergit promote` for candidate ids (m-xxxxxxxx)")
        c = rows[0].cand
        last = {"text": c.text, "topic": c.topic, "source": f"{c.source}:{c.line}"}
    ev = {"id": iid, "action": action, "reason": reason or f"{action} by hand",
          "text": last.get("text", ""), "topic": last.get("topic", ""), "source": last.get("source", "")}
    logs.append(store, logs.REVIEWS, [ev])
    return ev
