"""`tiergit hook pre-commit|post-merge`: what the installed shims run. Kept lean: it runs on every commit."""
from __future__ import annotations

import click


@click.command()
@click.argument("name", type=click.Choice(["pre-commit", "post-merge"]))
@click.argument("args", nargs=-1)
@click.option("--json", "as_json", is_flag=True, help="Print the findings (pre-commit) or report (post-merge) as JSON.")
@click.pass_context
def hook(ctx: click.Context, name: str, args: tuple[str, ...], as_json: bool) -> None:
    """Run a git hook's tiergit part (the shims in .git/hooks call this).

    pre-commit checks the staged memory blobs (never the work tree, never
    the index) and refuses the commit on a critical finding. post-merge
    reports the health of memory files the merge changed; it never blocks.

    \b
    Example:
      tiergit hook pre-commit
      tiergit hook pre-commit --json   # the staged findings, for a script
    """
    from tiergit.features.hookrun import run

    ctx.exit(run(name, (ctx.obj or {}).get("repo"), as_json))
