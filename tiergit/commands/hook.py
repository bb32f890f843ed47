"""`tiergit hook pre-commit|post-merge`: what the installed shims run. Kept lean: it runs on every commit."""
from __future__ import annotations

import sys

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
    from tiergit import config as config_mod
    from tiergit import diagnostics, git
    from tiergit.errors import TiergitError

    start = (ctx.obj or {}).get("repo")
    repo = git.work_root(start or ".")
    if not (repo / config_mod.CONFIG_NAME).is_file():
        return  # not a tiergit repo (yet): a hook never gets in the way
    if name == "pre-commit":
        from tiergit.checkrun import findings_of, run_checks, staged_sources
        from tiergit.tokens import TokenCache

        cfg = config_mod.load(repo)
        sources = staged_sources(repo, cfg)
        if not sources:
            return
        cache = TokenCache.for_repo(git.git_dir(repo), cfg.tokenizer)
        reports = run_checks(sources, cfg, cache)
        findings = findings_of(reports)
        if findings:
            click.echo(diagnostics.render(findings, "text"), err=True)
        if any(f.severity == "critical" for f in findings):
            click.echo(diagnostics.summary_line(findings, len(reports)) + " -- commit refused", err=True)
            click.echo("  (fix the files and `git add` them; TIERGIT=0 git commit skips this check)", err=True)
            ctx.exit(1)
        return
    # post-merge: report, never block, never write tracked files.
    try:
        from tiergit.commands.status import post_merge_report

        text = post_merge_report(repo)
        if text:
            click.echo(text, err=True)
    except TiergitError as exc:
        click.echo(f"tiergit: post-merge: {exc.message}", err=True)
    except Exception as exc:  # noqa: BLE001 - a report must never fail a merge
        click.echo(f"tiergit: post-merge report failed ({type(exc).__name__}: {exc})", err=True)
    sys.exit(0)
