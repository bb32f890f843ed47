"""MCP client configs for `tiergit init --mcp`: merged in, never clobbering other servers.

Each client keeps its servers under its own key: Claude Code's `.mcp.json` and
Copilot CLI's `mcp-config.json` under `mcpServers`, VS Code's `.vscode/mcp.json`
under `servers`. Only the `tiergit` entry is added or updated; every other key
and server is kept as it was. Copilot CLI's own file lives in the home folder,
which tiergit never writes: the repo gets `.copilot/mcp-config.json`, loaded
with `copilot --additional-mcp-config @.copilot/mcp-config.json`.
The server is started as `<this interpreter> -m tiergit mcp`, an absolute path like the hook
shims, because a client starts it from its own environment, where a venv's `tiergit` is
seldom on PATH. Cost: one small JSON read and write per client file.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from tiergit.errors import TiergitError

SERVER_NAME = "tiergit"
CLIENTS = {    # file -> (servers key, the client's own keys beside command and args)
    ".mcp.json": ("mcpServers", {}),
    ".vscode/mcp.json": ("servers", {"type": "stdio"}),
    ".copilot/mcp-config.json": ("mcpServers", {"type": "local", "tools": ["*"]}),
}


def entry(rel: str, python: str | None = None) -> dict:
    """The tiergit server as client `rel` starts it."""
    extra = CLIENTS[rel][1]
    return {**{k: v for k, v in extra.items() if k == "type"}, "command": python or sys.executable,
            "args": ["-m", "tiergit", "mcp"], **{k: v for k, v in extra.items() if k != "type"}}


def merged(rel: str, old: str | None, python: str | None = None) -> str | None:
    """The file's new text with the tiergit server in it, or None when it is already there unchanged."""
    key, entry_ = CLIENTS[rel][0], entry(rel, python)
    data: dict = {}
    if old is not None and old.strip():
        try:
            data = json.loads(old)
        except json.JSONDecodeError as exc:
            raise TiergitError(f"{rel}:{exc.lineno}: not valid JSON ({exc.msg}); nothing written",
                               f"fix or remove {rel}, then run `tiergit init --mcp` again") from None
        if not isinstance(data, dict) or not isinstance(data.get(key, {}), dict):
            raise TiergitError(f"{rel}: `{key}` must be a JSON object; nothing written",
                               f"fix {rel}, then run `tiergit init --mcp` again")
    servers = data.setdefault(key, {})
    if servers.get(SERVER_NAME) == entry_:
        return None
    servers[SERVER_NAME] = entry_
    return json.dumps(data, indent=2) + "\n"


def plan_clients(repo: Path, plan) -> None:
    """Add each client file whose tiergit entry is missing or different to `plan` (nothing written here)."""
    for rel in CLIENTS:
        path = repo / rel
        if path.is_symlink() or (path.exists() and not path.is_file()):
            raise TiergitError(f"{rel}: not a regular file; nothing written", f"replace {rel} with a plain JSON file")
        folder = path.parent
        if folder != repo and (folder.is_symlink() or (folder.exists() and not folder.is_dir())):
            name = folder.relative_to(repo).as_posix()
            raise TiergitError(f"{name}: not a plain folder (a file or a symlink); nothing written",
                               f"make {name}/ a plain folder, then run `tiergit init --mcp` again")
        old = path.read_text(encoding="utf-8") if path.is_file() else None
        new = merged(rel, old)
        if new is not None:
            plan.add(rel, new, old, reason="MCP client config: the tiergit server, other servers kept")
        else:
            plan.notes.append(f"{rel} already starts the tiergit server: kept")
    plan.notes.append("Copilot CLI: copilot --additional-mcp-config @.copilot/mcp-config.json "
                      "(or copy the entry into ~/.copilot/mcp-config.json)")
