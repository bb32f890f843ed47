"""Squad's governed store (`squad memory write`, squad-sdk): which entries may be served.

An entry is a markdown file with YAML frontmatter (`id`, `class`, `loadGuidance`, ...).
Squad itself refuses to persist FORBIDDEN and TRANSIENT content; an entry that still
carries one of those classes (written by hand, by an older Squad) is never recalled or
served at spawn, nor is an entry Squad tombstoned (`memory/tombstones/<id>.json` names its
path). Pure.
"""
from __future__ import annotations

import json

NEVER_SERVED = frozenset({"FORBIDDEN", "TRANSIENT"})
PROMOTABLE = frozenset({"DECISION", "POLICY"})


def entry_class(metadata: dict) -> str:
    return str((metadata or {}).get("class", "")).strip().upper()


def served(metadata: dict) -> bool:
    return entry_class(metadata) not in NEVER_SERVED


def tombstone_path(text: str) -> str | None:
    """The entry path a tombstone JSON names (None when it is not one)."""
    try:
        data = json.loads(text)
    except ValueError:
        return None
    path = data.get("path") if isinstance(data, dict) else None
    return path if isinstance(path, str) and path else None
