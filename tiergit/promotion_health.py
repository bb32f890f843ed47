"""Promotion health for `tiergit status`: candidates waiting, days since the last promotion,
files over budget. `extras(store, files)` returns keys merged into the status model."""
from __future__ import annotations

from datetime import date

from tiergit import logs

WARN_DAYS = 2
CRIT_DAYS = 7


def last_promotion(store) -> date | None:
    last = None
    for ev in logs.read(store, logs.REVIEWS):
        if ev.get("action") == "proposed":
            try:
                day = date.fromisoformat(str(ev.get("ts", ""))[:10])
            except ValueError:
                continue
            last = day if last is None or day > last else last
    return last


def judge_days(days: int | None, scheduled: bool) -> str:
    """healthy / warning (after 2 days) / critical (after 7), only when a schedule is configured."""
    if not scheduled or days is None:
        return "healthy"
    return "critical" if days > CRIT_DAYS else "warning" if days > WARN_DAYS else "healthy"


def _counts(store, today: date) -> tuple[int | None, int | None]:
    """(waiting, considered) of a promotion plan, cached by the state it reads (`health_cache`)."""
    from tiergit import health_cache, promote

    key = health_cache.state_key(store, today.isoformat())
    cached = health_cache.load(store, key)
    if cached is not None:
        return cached
    try:
        promo = promote.build(store, today=today)
    except Exception:  # noqa: BLE001 - status must not fail on a bad candidate file
        return None, None
    waiting, considered = len(promo.accepted), len(promo.rows)
    health_cache.save(store, key, waiting, considered)
    return waiting, considered


def extras(store, files: list[dict]) -> dict:
    """`files`: the status model's rows (already measured: the store is not read twice)."""
    from tiergit.scoring import today_utc

    today = today_utc()
    waiting, considered = _counts(store, today)
    last = last_promotion(store)
    days = (today - last).days if last else None
    scheduled = bool(store.config.schedule)
    health = judge_days(days, scheduled)
    over = [f["path"] for f in files if f["health"] == "critical" and not f.get("error")]
    # "waiting" = passes the gate now; the others still need recalls or age, say how many.
    notes = [f"promotion: {waiting if waiting is not None else '?'} candidate(s) waiting"
             + (f" of {considered} considered" if considered else "")
             + (" (run `tiergit promote`)" if waiting else "")]
    if last is None:
        notes.append("promotion: never promoted yet" + (" (CRIT: a schedule is configured)" if scheduled else ""))
        if scheduled:
            health = "critical"
    else:
        mark = {"healthy": "", "warning": " (WARN: over 2 days)", "critical": " (CRIT: over 7 days)"}[health]
        notes.append(f"promotion: last on {last.isoformat()}, {days} day(s) ago{mark}")
    if over:
        notes.append(f"over budget: {len(over)} file(s): {', '.join(over)} (`tiergit check --fix` archives the oldest entries)")
    return {"promotion": {"candidates_waiting": waiting, "candidates_considered": considered,
                          "last_promotion": last.isoformat() if last else None,
                          "days_since": days, "health": health, "scheduled": scheduled, "over_budget": over},
            "notes": notes}
