"""The one "today" and "now" tiergit uses (stdlib only: safe on the hook path).

Every date decision (ageing, staleness, import stamps, spawn prompts) asks `today()`, and
every time stamp (log events, `[HH:MM]` lines, session times) asks `now()`, so
TIERGIT_TODAY=YYYY-MM-DD pins all of them at once for reproducible runs and tests.
"""
from __future__ import annotations

import os
from datetime import date, datetime, timezone


def today() -> date:
    """Today in UTC, or TIERGIT_TODAY when it holds a valid ISO date. Cost: one env read."""
    pinned = os.environ.get("TIERGIT_TODAY")
    if pinned:
        try:
            return date.fromisoformat(pinned)
        except ValueError:
            pass   # a malformed pin is ignored rather than failing every command
    return datetime.now(timezone.utc).date()


def now() -> datetime:
    """Now in UTC to the second; with TIERGIT_TODAY pinned, that day at the current time of day
    (stamps of one run still increase). Cost: one env read and one clock read."""
    current = datetime.now(timezone.utc).replace(microsecond=0)
    day = today()
    return current if day == current.date() else datetime.combine(day, current.timetz())
