"""`tiergit check`: budgets and content rules; exit 1 on any critical finding."""
from __future__ import annotations

import os

import click

from tiergit.cli import echo_json, open_store
from tiergit.core import diagnostics


@click.command()
@click.argument("paths", nargs=-1, type=click.Path(dir_okay=False))
@click.option("--staged", is_flag=True, help="Check the staged blobs (what the pre-commit hook does).")
@click.option("--all", "all_files", is_flag=True, help="Check every memory file in the work tree (the default).")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "github"]), default="text",
              help="text (path:line: CODE message), json, or github workflow annotations.")
@click.option("--json", "as_json", is_flag=True, help="Same as --format json.")
@click.option("--hooks", is_flag=True,
              help="Check the git hooks and merge driver instead: installed, chained safely, not cut short.")
@click.option("--fix", is_flag=True, help="Archive the oldest cold entries until each tier fits, put Squad's "
              "tiergit wiring back after `squad upgrade` (exits 1 when it changed files).")
@click.pass_context
def check(ctx: click.Context, paths: tuple[str, ...], staged: bool, all_files: bool, fmt: str,
          as_json: bool, hooks: bool, fix: bool) -> None:
    """Check memory files against their tier budgets and content rules.

    Reports budgets over max (critical) or warn (warning), invalid
    frontmatter, binary / non-UTF-8 / oversized files, credentials, and raw
    transcript lines in durable tiers. Exit 1 on any critical finding.
    Paths that are not memory files are ignored, so it can be given any files.

    \b
    Examples:
      tiergit check                          # every memory file in the work tree
      tiergit check --staged                 # the staged blobs, as the hook does
      tiergit check .squad/memory/hot/picard.md
      tiergit check --all --format github    # annotations in a workflow
      tiergit check --hooks                  # hooks installed, chained, not cut short
    """
    from tiergit.features.checkrun import findings_of, run_checks, sources_for

    if hooks:
        _check_hooks(ctx, "json" if as_json else fmt)
        return
    store = open_store(ctx)
    if fix:
        _fix(ctx, store)
    fmt = "json" if as_json else fmt
    sources = sources_for(store, staged, paths)
    reports = run_checks(sources, store.config, store.token_cache, cache_in=None if staged else store.repo)
    findings = findings_of(reports)
    if not staged:   # the hook stays lean: ignored store paths are a work-tree check
        from tiergit.features import gitignore

        findings += gitignore.findings(store.repo, store.config)
        from tiergit.features import squadwire

        findings += squadwire.findings(store.repo)
    if fmt == "json":
        echo_json({"files": len(reports), "findings": [f.__dict__ for f in findings],
                   "critical": sum(f.severity == "critical" for f in findings)})
    else:
        if findings:
            click.echo(diagnostics.render(findings, fmt))
        if fmt == "text":
            click.echo(diagnostics.summary_line(findings, len(reports)))
    summary = diagnostics.summary_markdown(findings, len(reports))
    if os.environ.get("GITHUB_STEP_SUMMARY"):
        from tiergit.features.statusmodel import summary_chart

        summary += "\n" + summary_chart(store)
    from tiergit.features.checkrun import write_step_summary

    write_step_summary(summary)
    if any(f.severity == "critical" for f in findings):
        ctx.exit(1)


def _fix(ctx: click.Context, store) -> None:
    """`--fix`: archive the oldest entries of over-budget files; exit 1 when it changed any."""
    from tiergit.features.retention import fix_budgets

    from tiergit.features import squadwire

    notes: list[str] = []
    changed = fix_budgets(store, notes)
    changed += [line.split()[1] for line in squadwire.wire(store.repo) if line.startswith("wired ")]
    for note in notes:   # a file over max with only pinned text left: --fix cannot help, say what can
        click.echo(f"tiergit: {note}", err=True)
    if changed:
        click.echo(f"tiergit: --fix changed {len(changed)} file(s): " + ", ".join(changed))
        ctx.exit(1)


def _check_hooks(ctx: click.Context, fmt: str) -> None:
    """`check --hooks`: HK findings for this clone's hooks; exit 1 on a critical one."""
    from tiergit.cli import repo_root
    from tiergit.features.hookstate import inspect

    findings = inspect(repo_root(ctx))
    if fmt == "json":
        echo_json({"findings": [f.__dict__ for f in findings],
                   "critical": sum(f.severity == "critical" for f in findings)})
    else:
        if findings:
            click.echo(diagnostics.render(findings, fmt))
        if fmt == "text":
            crit = sum(f.severity == "critical" for f in findings)
            click.echo(f"tiergit: hooks checked: {crit} critical, {len(findings) - crit} other finding(s)"
                       if findings else "tiergit: hooks installed and chained safely")
    if any(f.severity == "critical" for f in findings):
        ctx.exit(1)
