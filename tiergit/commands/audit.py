"""`tiergit audit`: dead context in durable tiers, proposed for the archive with reasons."""
from __future__ import annotations

import click

from tiergit.cli import echo_json, open_store


@click.command()
@click.option("--apply", "do_apply", is_flag=True, help="Move the findings to the archive (default: preview).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.pass_context
def audit(ctx: click.Context, do_apply: bool, as_json: bool) -> None:
    """Find dead context in durable and warm tiers and propose archiving it.

    Completed tasks (- [x]), resolved issues, stale dated facts, entries
    superseded by a newer one on the same subject, and raw log lines in a
    durable tier. Each finding has a reason; --apply moves them to
    <archive>/YYYY-MM/ (do it on the promotion branch: durable tiers are reviewed).

    \b
    Example:
      tiergit audit
      tiergit audit --apply
    """
    from tiergit import audit as audit_mod
    from tiergit.scoring import today_utc

    store = open_store(ctx)
    today = today_utc()
    from tiergit.fsutil import store_lock_if

    with store_lock_if(store.repo, do_apply):
        findings, plan = audit_mod.plan_audit(store, today)
        written = plan.apply(store.repo) if do_apply else []
    if as_json:
        echo_json({"findings": [f.as_dict() for f in findings], "plan": plan.as_dict(),
                   "themes": audit_mod.themes(store, today), "applied": do_apply, "written": written})
        return
    click.echo(f"tiergit audit: {len(findings)} finding(s) in durable tiers")
    for f in findings:
        text = f.text if len(f.text) <= 80 else f.text[:79] + "…"
        click.echo(f"  {f.path}:{f.line}: {f.reason}\n      {text}")
    click.echo("")
    click.echo(plan.preview())
    if plan.effective and not do_apply:
        click.echo("preview only: run with --apply to move them to the archive")
