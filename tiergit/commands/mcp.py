"""`tiergit mcp`: serve the store to agents over MCP (stdio); the server is tiergit.features.mcp."""
from __future__ import annotations

import click

from tiergit.cli import echo_json, open_store
from tiergit.errors import TiergitError
from tiergit.features.mcp import RESOURCES, TOOLS, build_server


@click.command("mcp")
@click.option("--check", is_flag=True, help="Check the repo, config and the mcp package, list tools; do not serve.")
@click.option("--json", "as_json", is_flag=True, help="With --check: the listing as JSON (implies --check).")
@click.pass_context
def mcp(ctx: click.Context, check: bool, as_json: bool) -> None:
    """Serve the store to agents over MCP (stdio): recall, context, propose, session and status tools.

    Needs the optional `mcp` extra (pip install '/path/to/tiergit[mcp]', or
    pip install 'mcp>=2,<3' beside tiergit). Configure your client to run
    `tiergit mcp` in the repo (`tiergit init --mcp` writes
    .mcp.json, .vscode/mcp.json and the Copilot CLI config). Resources:
    tiergit://hot/{agent}, tiergit://cold/{agent}, tiergit://wiki/{topic}.
    Writes (propose with apply, session_start, session_end) take the same
    locks and screening as the CLI.

    \b
    Example (Claude Code):
      claude mcp add tiergit -- tiergit --repo /path/to/repo mcp
      tiergit mcp --check          # what a client would get, without serving
    """
    store = open_store(ctx)   # a bad repo or config fails here, before a client connects
    try:
        import mcp.server.mcpserver  # noqa: F401
    except ImportError:
        raise TiergitError("tiergit mcp: the `mcp` package is not installed",
                           "install the `mcp` extra: pip install 'mcp>=2,<3' in tiergit's environment") from None
    if check or as_json:
        listing = {"repo": str(store.repo), "tools": list(TOOLS), "resources": list(RESOURCES)}
        if as_json:
            echo_json(listing)
        else:
            click.echo(f"tiergit mcp: ready to serve {store.repo}")
            click.echo(f"  tools      {', '.join(TOOLS)}")
            click.echo(f"  resources  {', '.join(RESOURCES)}")
        return
    build_server(store.repo).run("stdio")
