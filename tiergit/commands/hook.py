"""`tiergit hook pre-commit|post-merge`: what the installed shims run. Kept lean: it runs on every commit."""
from __future__ import annotations

import click


@click.command()
@click.argument("name", type=click.Choice(["pre-commit", "post-merge"]))
@click.argument("args", nargs=-1)
@click.pass_context
def hook(ctx: click.Context, name: str, args: tuple[str, ...]) -> None:
    """Run a git hook's tiergit part (the shims in .git/hooks call this).

    pre-commit checks the staged memory blobs (never the work tree, never
    the index) and refuses the commit on a critical finding. post-merge
    reports the health of memory files the merge changed; it never blocks.

    \b
    Example:
      tiergit hook pre-commit
    """
    from tiergit.hookrun import run

    ctx.exit(run(name, (ctx.obj or {}).get("repo")))
