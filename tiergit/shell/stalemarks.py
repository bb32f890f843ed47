"""The stale and superseded notes of the items last checked at a commit, for `recall`'s fast path.

`features/staleness.relations` (run by a full recall, a spawn, audit) saves its notes here
keyed by HEAD's commit; `features/recall_fast.py`, which imports no parser and no config,
shows them beside its hits when HEAD is still that commit. json and pathlib only.
"""
from __future__ import annotations

import json
from pathlib import Path

NAME = "stale-marks-v1.json"   # {"head": commit, "marks": {"path:line": note}}
MAX_MARKS = 20_000


def read(state: Path, head: str) -> dict[str, str]:
    """The marks remembered for commit `head` ({} when none, or for another commit)."""
    try:
        data = json.loads((state / NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    marks = data.get("marks") if isinstance(data, dict) and data.get("head") == head else None
    return marks if isinstance(marks, dict) else {}
