"""`tiergit mcp`: a real stdio server subprocess driven by the MCP SDK's own client."""
from __future__ import annotations

import sys
from pathlib import Path

import anyio
import pytest
from conftest import tiergit, write

pytest.importorskip("mcp", reason="the mcp extra: pip install 'tiergit[mcp]'")
from mcp import Client, StdioServerParameters  # noqa: E402

pytestmark = pytest.mark.e2e

COLD = """# picard

### Fix token cache expiry (2026-05-01)

- **Root cause:** the MSAL token cache kept expired tokens after a clock skew.
- **Fix:** compare expiry with a 5 minute skew margin.
"""
WIKI = "# Auth\n\n- [decision] All services use MSAL for token acquisition.\n"


def _params(repo: Path) -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable, args=["-m", "tiergit", "--repo", str(repo), "mcp"],
                                 cwd=str(repo))


def _store(squad_repo: Path) -> Path:
    root = squad_repo / ".squad" / "memory"
    write(root / "cold" / "picard.md", COLD)
    write(root / "wiki" / "auth.md", WIKI)
    return root


async def _call(client, name: str, args: dict) -> dict:
    result = await client.call_tool(name, args)
    assert not result.is_error, result.content
    return result.structured_content


def test_agent_loop_over_stdio(squad_repo):
    root = _store(squad_repo)

    async def main():
        async with Client(_params(squad_repo)) as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            assert {"recall", "context", "propose", "session_start", "session_end", "status"} <= set(tools)
            assert tools["recall"].input_schema["required"] == ["query"]
            assert "hits" in tools["recall"].output_schema["properties"]

            started = await _call(client, "session_start", {"agent": "picard", "task": "token refresh"})
            assert started["hot"] == ".squad/memory/hot/picard.md"

            found = await _call(client, "recall", {"query": "why were expired tokens kept", "agent": "picard"})
            top = found["hits"][0]
            assert top["path"] == ".squad/memory/cold/picard.md" and "clock skew" in top["snippet"]
            assert "expired" in top["matched"]

            spawn = await _call(client, "context", {"agent": "picard", "task": "token cache expiry"})
            assert "clock skew" in spawn["prompt"] and spawn["knowledge"]

            preview = await _call(client, "propose", {"text": "Tokens are refreshed by the gateway",
                                                       "topic": "auth", "agent": "picard"})
            assert preview["applied"] is False and not list((root / "staging").glob("*.md"))
            staged = await _call(client, "propose", {"text": "Tokens are refreshed by the gateway",
                                                      "topic": "auth", "agent": "picard", "apply": True})
            assert staged["applied"] is True
            staging = "".join(p.read_text() for p in (root / "staging").glob("*.md"))
            assert "Tokens are refreshed by the gateway" in staging

            hot = (await client.read_resource("tiergit://hot/picard")).contents[0].text
            assert "token refresh" in hot
            wiki = (await client.read_resource("tiergit://wiki/auth")).contents[0].text
            assert "MSAL" in wiki

            (root / "hot" / "picard.md").write_text(
                hot + "\n- [decision] Refresh tokens in the gateway, not in the client.\n")
            ended = await _call(client, "session_end", {"agent": "picard"})
            assert ended["report"]["entry_written"] is True
            assert "Refresh tokens in the gateway" in (root / "cold" / "picard.md").read_text()

            st = await _call(client, "status", {})
            assert {"hot", "cold", "wiki"} <= {t["tier"] for t in st["tiers"]}

    anyio.run(main)


def test_errors_come_back_as_mcp_errors_and_secrets_are_refused(squad_repo):
    _store(squad_repo)

    async def main():
        async with Client(_params(squad_repo)) as client:
            bad = await client.call_tool("recall", {"query": "   "})
            assert bad.is_error and "no words to search for" in bad.content[0].text
            secret = await client.call_tool("propose", {"text": "token ghp_" + "a1B2" * 9, "topic": "auth",
                                                        "apply": True})
            assert secret.is_error
            missing = await client.call_tool("context", {"agent": "nobody"})
            assert missing.is_error and "no memory for agent 'nobody'" in missing.content[0].text
            with pytest.raises(Exception):
                await client.read_resource("tiergit://wiki/nope")

    anyio.run(main)
    assert not (squad_repo / ".squad" / "memory" / "staging").exists() or \
        "ghp_" not in "".join(p.read_text() for p in (squad_repo / ".squad" / "memory" / "staging").glob("*.md"))


def test_outside_a_repo_fails_before_serving(tmp_path):
    proc = tiergit(tmp_path, "mcp")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr


def test_the_server_init_mcp_registers_starts_from_a_fresh_shell_and_describes_every_parameter(squad_repo):
    """The `.mcp.json` entry `init --mcp` wrote, started with a bare PATH (no venv on it), as a client would."""
    import json

    from tiergit.features.mcp_docs import PARAMETERS, TOOL_HINTS

    _store(squad_repo)
    assert tiergit(squad_repo, "init", "--mcp", "--no-install").returncode == 0
    entry = json.loads((squad_repo / ".mcp.json").read_text())["mcpServers"]["tiergit"]
    fresh = StdioServerParameters(command=entry["command"], args=entry["args"], cwd=str(squad_repo),
                                  env={"PATH": "/usr/bin:/bin", "HOME": str(squad_repo)})

    async def main():
        async with Client(fresh) as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            assert set(tools) == set(TOOL_HINTS)
            for name, tool in tools.items():
                props = tool.input_schema.get("properties", {})
                assert set(props) == set(PARAMETERS.get(name, {})), name    # the checklist covers each one
                for param, schema in props.items():
                    assert schema.get("description") == PARAMETERS[name][param], (name, param)
                title, read_only, destructive, idempotent = TOOL_HINTS[name]
                hints = tool.annotations
                assert (hints.title, hints.read_only_hint, hints.destructive_hint, hints.idempotent_hint) == \
                    (title, read_only, destructive, idempotent), name
                assert tool.output_schema and tool.output_schema.get("properties"), name
                assert tool.description and len(tool.description) > 40, name
            found = await _call(client, "recall", {"query": "expired tokens clock skew"})
            assert found["hits"]

    anyio.run(main)
