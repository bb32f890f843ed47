"""`tiergit init --mcp`: the tiergit server merged into each MCP client's config, other entries kept."""
from __future__ import annotations

import json
import sys

from conftest import tiergit, write


def test_init_mcp_merges_without_clobbering(repo):
    write(repo / ".vscode" / "mcp.json", '{"inputs": [{"id": "k"}], "servers": {"other": {"command": "x"}}}\n')
    write(repo / ".mcp.json", '{"mcpServers": {"tiergit": {"command": "old"}, "db": {"command": "y"}}}\n')
    proc = tiergit(repo, "init", "--mcp", "--no-install")
    assert proc.returncode == 0, proc.stderr
    vscode = json.loads((repo / ".vscode" / "mcp.json").read_text())
    assert vscode["inputs"] == [{"id": "k"}] and vscode["servers"]["other"] == {"command": "x"}
    started = {"command": sys.executable, "args": ["-m", "tiergit", "mcp"]}   # any shell: no PATH needed
    assert vscode["servers"]["tiergit"] == {"type": "stdio", **started}
    claude = json.loads((repo / ".mcp.json").read_text())
    assert claude["mcpServers"]["db"] == {"command": "y"}
    assert claude["mcpServers"]["tiergit"] == started
    copilot = json.loads((repo / ".copilot" / "mcp-config.json").read_text())
    assert copilot["mcpServers"]["tiergit"]["type"] == "local"
    assert "--additional-mcp-config" in proc.stdout
    # a second run changes nothing
    again = tiergit(repo, "init", "--mcp", "--no-install", "--json")
    assert not [c for c in json.loads(again.stdout)["changes"] if "mcp" in c["path"]]
    assert ".mcp.json already starts the tiergit server: kept" in json.loads(again.stdout)["notes"]


def test_broken_client_config_is_refused_and_nothing_written(repo):
    write(repo / ".mcp.json", '{"mcpServers": {,}\n')
    proc = tiergit(repo, "init", "--mcp", "--no-install")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert ".mcp.json:1: not valid JSON" in proc.stderr and "hint:" in proc.stderr
    assert not (repo / ".tiergit.yml").exists() and not (repo / ".vscode").exists()
    assert (repo / ".mcp.json").read_text() == '{"mcpServers": {,}\n'


def test_client_folder_that_is_a_file_or_symlink_is_refused(repo, tmp_path):
    write(repo / ".vscode", "not a folder\n")
    proc = tiergit(repo, "init", "--mcp", "--no-install")
    assert proc.returncode == 2 and ".vscode: not a plain folder" in proc.stderr and "Traceback" not in proc.stderr
    assert not (repo / ".mcp.json").exists() and not (repo / ".tiergit.yml").exists()
    (repo / ".vscode").unlink()
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (repo / ".vscode").symlink_to(outside)
    proc = tiergit(repo, "init", "--mcp", "--no-install")
    assert proc.returncode == 2 and not list(outside.iterdir())
