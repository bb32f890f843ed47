"""`tiergit init`, `install`, `uninstall`: set a repo up (like `git init` / `pre-commit install`)."""
from __future__ import annotations

import click

from tiergit.cli import echo_json, repo_root
from tiergit.core.configschema import PRESETS
from tiergit.features.setup import keep_store_tracked, plan_init


@click.command()
@click.option("--preset", type=click.Choice(PRESETS), default="squad", show_default=True,
              help="Layout to start from; any key can be overridden in .tiergit.yml.")
@click.option("--with-workflows", is_flag=True,
              help="Also write .github/workflows/tiergit-*.yml and the action they call (.github/actions/tiergit).")
@click.option("--reusable", is_flag=True,
              help="Also write .github/workflows/tiergit-reusable.yml, a workflow_call workflow for many repos.")
@click.option("--install-spec", metavar="SPEC",
              help="pip requirement the workflows install (default: from how this tiergit was installed).")
@click.option("--no-install", is_flag=True, help="Do not install the git hooks and merge driver.")
@click.option("--mcp", "with_mcp", is_flag=True,
              help="Also add `tiergit mcp` to .mcp.json, .vscode/mcp.json and .copilot/mcp-config.json "
                   "(other servers kept).")
@click.option("--dry-run", is_flag=True, help="Print what would be written, write nothing.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.pass_context
def init(ctx: click.Context, preset: str, with_workflows: bool, reusable: bool, install_spec: str | None,
         no_install: bool, with_mcp: bool, dry_run: bool, as_json: bool) -> None:
    """Set up tiergit in this repository.

    Writes .tiergit.yml, the tier folders, store templates and .gitattributes
    lines, then installs the hooks and merge driver (like `tiergit install`).
    An existing .tiergit.yml is kept. Like `git init` it writes directly;
    --dry-run previews.

    \b
    Example:
      tiergit init --preset squad --with-workflows
      tiergit init --mcp               # also register `tiergit mcp` with the agent clients
    """
    from tiergit.features import install as install_mod

    repo = repo_root(ctx)
    plan = plan_init(repo, preset, with_workflows, install_spec, reusable)
    if with_mcp:
        from tiergit.features.mcp_config import plan_clients
        plan_clients(repo, plan)
    actions: list[str] = []
    if not dry_run:
        plan.apply(repo)
        plan.changes.extend(keep_store_tracked(repo))
    if not no_install:
        actions = install_mod.install(repo, dry_run=dry_run) + _squad_wiring(repo, dry_run)
    if as_json:
        echo_json({**plan.as_dict(), "installed": actions, "dry_run": dry_run})
        return
    click.echo(plan.preview())
    for line in actions:
        click.echo(f"  {line}")
    if dry_run:
        click.echo("(dry run: nothing written)")
    else:
        click.echo("Next: write memory under the store, then `tiergit status`.")


@click.command()
@click.option("--dry-run", is_flag=True, help="Print what would be done.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.pass_context
def install(ctx: click.Context, dry_run: bool, as_json: bool) -> None:
    """Install the pre-commit and post-merge hooks and the merge driver.

    An existing hook is kept as <hook>.tiergit-chained and still runs
    first; beside pre-commit, tiergit's shim takes pre-commit's
    <hook>.legacy slot, so either install order runs each hook once.
    core.hooksPath and linked worktrees are respected. TIERGIT=0 skips.
    `tiergit check --hooks` reports a chain that is broken. With the squad
    preset, Squad's coordinator, spawn template and Scribe charter are told to
    take each agent's memory from `tiergit context` (see docs/frameworks.md).

    \b
    Example:
      tiergit install
    """
    from tiergit.features import install as install_mod

    actions = install_mod.install(repo_root(ctx), dry_run=dry_run) + _squad_wiring(repo_root(ctx), dry_run)
    if as_json:
        echo_json({"installed": actions, "dry_run": dry_run})
        return
    for line in actions:
        click.echo(line)
    if dry_run:
        click.echo("(dry run: nothing written)")


@click.command()
@click.option("--dry-run", is_flag=True, help="Print what would be done.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.pass_context
def uninstall(ctx: click.Context, dry_run: bool, as_json: bool) -> None:
    """Remove tiergit's hooks (restoring any hook it chained) and the merge driver.

    Squad's coordinator, spawn template and Scribe charter get their original
    bytes back (tiergit's inserted memory instructions are taken out).

    \b
    Example:
      tiergit uninstall
    """
    from tiergit.features import install as install_mod

    from tiergit.features import squadwire

    actions = install_mod.uninstall(repo_root(ctx), dry_run=dry_run) + squadwire.unwire(repo_root(ctx), dry_run)
    if as_json:
        echo_json({"removed": actions, "dry_run": dry_run})
        return
    for line in actions:
        click.echo(line)
    if dry_run:
        click.echo("(dry run: nothing written)")


def _squad_wiring(repo, dry_run: bool) -> list[str]:
    """Squad's spawn through tiergit (a repo whose config adopts Squad histories)."""
    from tiergit.features import squadwire

    return squadwire.wire(repo, dry_run)
