"""`tiergit archive` and `tiergit restore`: retention into the archive, and back from history."""
from __future__ import annotations

import click

from tiergit.cli import echo_json, open_store
from tiergit.errors import TiergitError


@click.command()
@click.option("--apply", "do_apply", is_flag=True, help="Write the changes (default: preview).")
@click.option("--diff", "show_diff", is_flag=True, help="Show the line changes in the preview.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.pass_context
def archive(ctx: click.Context, do_apply: bool, show_diff: bool, as_json: bool) -> None:
    """Move expired entries and daily notes into the archive; old archive out of the tree.

    Cold entries older than the tier's ttl_days go to <archive>/YYYY-MM/
    (pinned sections never, nor each file's keep_last (3) newest entries; items
    of a dated log section by their own date), daily notes older than 30 days
    too. Archive files tiergit recorded moving more than delete_after_days (90)
    ago are deleted from the tree (never a file it did not move): commit the
    result, and `tiergit restore PATH` brings any file back from history.

    \b
    Example:
      tiergit archive            # preview
      tiergit archive --apply && git add -A && git commit -m "tiergit archive"
    """
    from tiergit.features import plan as plan_mod
    from tiergit.features import retention

    store = open_store(ctx)
    with plan_mod.locked(store.repo, do_apply):
        plan = retention.plan_archive(store)
        written = retention.apply(store, plan) if do_apply else []
    if as_json:
        echo_json({**plan.as_dict(), "applied": do_apply, "written": written})
        return
    click.echo(plan.preview(diff=show_diff))
    if plan.effective and not do_apply:
        click.echo("preview only: run with --apply to write")


@click.command()
@click.argument("path")
@click.option("--apply", "do_apply", is_flag=True, help="Write the file back (default: preview).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.pass_context
def restore(ctx: click.Context, path: str, do_apply: bool, as_json: bool) -> None:
    """Bring a file back from git history (e.g. an archive month deleted by `archive`).

    \b
    Example:
      tiergit restore .squad/memory/archive/2026-04/cold/picard.md --apply
    """
    from tiergit.features import plan as plan_mod
    from tiergit.features import retention

    store = open_store(ctx)
    rel = store.rel(path)
    if rel in ("", ".") or (store.repo / rel).is_dir():
        raise TiergitError(f"{path or repr(path)}: is a folder; restore brings back one file",
                           "name a file in it (`git log --stat -- FOLDER` lists the files it held)")
    with plan_mod.locked(store.repo, do_apply):
        plan = retention.restore(store, rel)
        written = plan.apply(store.repo) if do_apply else []
    if as_json:
        echo_json({**plan.as_dict(), "applied": do_apply, "written": written})
        return
    click.echo(plan.preview())
    if not do_apply:
        click.echo("preview only: run with --apply to write")
