"""OpenClaw's own state database, read only: the short-term recall entries its memory-core plugin keeps.

OpenClaw 2026.9 keeps the short-term recall store in `<state dir>/state/openclaw.sqlite`, table
`plugin_state_entries` (plugin `memory-core`, namespace `short-term-recall`), one row per recalled
chunk: `value_json` = {"workspaceDir": …, "value": {the entry older versions wrote to
memory/.dreams/short-term-recall.json}}. Every `memory_search` (the agent's tool, and `openclaw memory
search`) adds to it. The state dir is OpenClaw's: $OPENCLAW_STATE_DIR (a leading `~` expanded), else
`.openclaw` in $OPENCLAW_HOME or the home folder. Cost: one read-only SQLite query; nothing is written,
a busy or broken database is a note, never an error or a wait.
"""
from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

DB = Path("state") / "openclaw.sqlite"
PLUGIN, NAMESPACE = "memory-core", "short-term-recall"


def state_dir(env: dict[str, str] | None = None) -> Path:
    env = os.environ if env is None else env
    override = (env.get("OPENCLAW_STATE_DIR") or "").strip()
    home = Path((env.get("OPENCLAW_HOME") or "").strip() or Path.home()).expanduser()
    if override:
        return Path(str(home) + override[1:]) if override.startswith("~") else Path(override)
    return home / ".openclaw"


def recall_values(workspace: Path, env: dict[str, str] | None = None) -> tuple[list[dict], str | None]:
    """The recall entries (the `value` objects) OpenClaw recorded for `workspace`, and a note when its
    database exists but could not be read. No database: ([], None)."""
    path = state_dir(env) / DB
    if not path.is_file():
        return [], None
    try:
        # read only, no waiting on OpenClaw's writer: a locked database is skipped, not waited for
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=0.5)
        try:
            rows = db.execute("SELECT value_json FROM plugin_state_entries WHERE plugin_id = ? AND namespace = ?",
                              (PLUGIN, NAMESPACE)).fetchall()
        finally:
            db.close()
    except sqlite3.Error as e:
        return [], f"{path}: not read ({e}); OpenClaw's recalls are not counted"
    here = os.path.realpath(workspace)
    out = []
    for (text,) in rows:
        try:
            row = json.loads(text)
        except (TypeError, ValueError):
            continue
        if not isinstance(row, dict) or not isinstance(row.get("value"), dict):
            continue
        where = row.get("workspaceDir")
        if isinstance(where, str) and os.path.realpath(where) == here:
            out.append(row["value"])
    return out, None
