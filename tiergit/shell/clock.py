"""The one "today" tiergit uses (stdlib only: safe on the hook path).

Every date decision (ageing, staleness, import stamps, spawn prompts) asks `today()`, so
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
