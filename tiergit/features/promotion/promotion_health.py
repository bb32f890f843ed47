"""Promotion health for `tiergit status`: candidates waiting, the Dreaming checks
(`dream_health`: promotion recency, DREAMS.md, daily notes, hour-granular), files over budget.
`extras(store, files)` returns keys merged into the status model."""
from __future__ import annotations

from datetime import date

from tiergit.core.fixhint import fixes_for
from tiergit.features.budget import worst
from tiergit.features.promotion import dream_health
from tiergit.shell import logs

# A first `status` on a store this large would spend nearly all its time planning promotion (every
# file parsed, judged and scored: ~15 s CPU at 1,000 real-sized files); above it the count waits for
# `status --deep` (or a warm cache) and the line says so.
PLAN_FILES_MAX = 200


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


def _counts(store, today: date, plan: bool) -> tuple[int | None, int | None]:
    """(waiting, considered) of a promotion plan, cached by the state it reads (`health_cache`);
    (None, None) when nothing is cached and `plan` is false."""
    from tiergit.shell import health_cache

    key = health_cache.state_key(store, today.isoformat())
    cached = health_cache.load(store, key)
    if cached is not None:
        return cached
    if not plan:
        return None, None
    # Only a changed store plans promotion: the gate's and judge's ~190 patterns are compiled
    # on import (~0.2 s), which a warm `status` (the cache above) never pays.
    from tiergit.features.promotion import promote

    try:
        promo = promote.build(store, today=today)
    except Exception:  # noqa: BLE001 - status must not fail on a bad candidate file
        return None, None
    waiting, considered = len(promo.accepted), len(promo.rows)
    health_cache.save(store, key, waiting, considered)
    return waiting, considered


def extras(store, files: list, deep: bool = False) -> dict:
    """`files`: the status model's rows (already measured: the store is not read twice); `deep`
    counts promotion candidates whatever the store's size."""
    from tiergit.shell import clock

    today = clock.today()
    counted = deep or len(files) <= PLAN_FILES_MAX
    waiting, considered = _counts(store, today, counted)
    last = last_promotion(store)
    days = (today - last).days if last else None
    dreams = dream_health.checks(store)
    health = worst(c.health for c in dreams)
    over = [f.path for f in files if f.health == "critical" and not f.error]
    # "waiting" = passes the gate now; the others still need recalls or age, say how many.
    if waiting is None and not counted:
        notes = [f"promotion: candidates not counted on a store of {len(files)} memory files "
                 "(`tiergit status --deep` counts them, and later runs reuse the count until memory changes)"]
    else:
        notes = [f"promotion: {waiting if waiting is not None else '?'} candidate(s) waiting"
                 + (f" of {considered} considered" if considered else "")
                 + (" (run `tiergit promote`)" if waiting else "")]
    notes += [c.note for c in dreams]
    if over:
        notes.append(f"over budget: {len(over)} file(s): {', '.join(over)} ({fixes_for(store.config, over)})")
    return {"promotion": {"candidates_waiting": waiting, "candidates_considered": considered,
                          "last_promotion": last.isoformat() if last else None,
                          "days_since": days, "health": health, "scheduled": dream_health.scheduled(store),
                          "checks": [c.as_dict() for c in dreams], "over_budget": over},
            "notes": notes}
