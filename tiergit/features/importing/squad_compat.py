"""Living beside Squad (`@bradygaster/squad-cli`) in the same `.squad/` folder.

- Agent names: Squad accepts any folder name under `.squad/agents/` (its default
  responsible-AI agent is `Rai`); tiergit's `{agent}` is a slug, so a display name
  maps to one (`Rai` -> `rai`) and the display name is kept for what people read.
- Squad's own governed memory (`.squad/memory/config.json`, `index.json`,
  `audit.jsonl`, `local/*.md`) sits beside tiergit's tiers in the same root: tiergit
  never parses it (no tier matches it) and never marks it `merge=tiergit` (init
  writes one `.gitattributes` line per tier folder, not the whole root).
- `decisions.md` is Squad's (its `doctor` requires it): tiergit stages its decisions
  and never removes it.
- `squad init --state-backend two-layer` keeps histories on a `squad-state` branch
  and chains its own code into the git hooks: `two_layer_notes` says so.

Pure functions over small files; cost: a few stat calls and one small JSON read.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

from tiergit.core.configschema import SLUG

SQUAD_OWN = ("config.json", "index.json", "audit.jsonl", "local/")


def agent_slug(name: str) -> str | None:
    """The `{agent}` slug for a Squad agent folder name, or None when nothing usable is left.
    `Rai` -> `rai`, `Dr. Crusher` -> `dr.-crusher`, `..` -> None."""
    slug = re.sub(r"[^a-z0-9._-]+", "-", name.strip().lower()).strip("-._")
    if not slug or ".." in slug or not SLUG.match(slug):
        return None
    return slug


def state_backend(repo: Path) -> str | None:
    """Squad's state backend from `.squad/config.json` (`local`, `orphan`, `two-layer`), if stated."""
    path = repo / ".squad" / "config.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict):
        return None
    for key in ("stateBackend", "state_backend"):
        value = data.get(key)
        if isinstance(value, str):
            return value
        if isinstance(value, dict) and isinstance(value.get("type"), str):
            return value["type"]
    return None


def two_layer_notes(repo: Path) -> list[str]:
    """What `squad init --state-backend two-layer|orphan` means for tiergit, one line each (empty if local)."""
    backend = state_backend(repo)
    if backend not in ("two-layer", "orphan"):
        return []
    return [
        f"Squad state backend is {backend!r}: Scribe writes histories to the `squad-state` branch, "
        "not this work tree; tiergit reads only what is checked out here",
        "  hint: run `squad sync --pull` and import from a checkout of squad-state, or use "
        "`--state-backend local`; install tiergit's hooks after Squad's so neither cuts the other off",
    ]
