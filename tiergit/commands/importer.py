"""`tiergit import squad|openclaw`: adopt an existing memory layout into tiers (preview; --apply writes)."""
from __future__ import annotations

import click

from tiergit.cli import echo_json, open_store


@click.command("import")
@click.argument("layout", type=click.Choice(["squad", "openclaw"]))
@click.option("--apply", "do_apply", is_flag=True, help="Write the files (default: preview only).")
@click.option("--retire-legacy", is_flag=True,
              help="Also delete the legacy files once their content is in the tiers (a commit brings them back).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.pass_context
def import_(ctx: click.Context, layout: str, do_apply: bool, retire_legacy: bool, as_json: bool) -> None:
    """Adopt an existing Squad or OpenClaw memory into tiers.

    squad: each .squad/agents/<agent>/history.md becomes cold/<agent>.md within
    the cold budget (pinned Core/Project Context and the newest entries), older
    entries go to the archive, durable items (decisions, rules, facts,
    corrections) and decisions.md's decisions are staged as promotion
    candidates, and a hot file is created from the template.
    openclaw: memory/YYYY-MM-DD.md notes become daily/ notes (older than the
    daily ttl: archive/YYYY-MM/), their durable items are staged, hot, warm and
    MEMORY.md are checked in place. Legacy files stay unless --retire-legacy.

    \b
    Example:
      tiergit import squad              # preview
      tiergit import squad --apply      # write, then review with git diff
    """
    from tiergit.features import plan as plan_mod
    from tiergit.features.importing import import_sync, importer, importer_openclaw

    store = open_store(ctx)
    with plan_mod.locked(store.repo, do_apply):
        if layout == "squad":
            plan, results = importer.plan_squad(store, retire_legacy=retire_legacy)
            agents = [{"agent": r.agent, "source": r.source, "cold_tokens": r.cold_tokens,
                       "cold_bytes": r.cold_bytes, "kept_entries": r.kept_entries,
                       "archived_units": len(r.archived), "staged": len(r.staged),
                       "over_budget": r.over_budget} for r in results]
        else:
            plan = importer_openclaw.plan_openclaw(store, retire_legacy=retire_legacy)
            agents = []
        if not do_apply:
            written = []
        elif layout == "squad":
            written = import_sync.apply_squad(store, plan)
        else:
            written = plan.apply(store.repo)
    if as_json:
        echo_json({**plan.as_dict(), "agents": agents, "applied": do_apply, "written": written})
        return
    click.echo(plan.preview())
    if agents:
        click.echo("")
        click.echo(f"  {'agent':<14} {'cold tokens':>11} {'entries':>8} {'archived':>9} {'staged':>7}")
        for a in agents:
            flag = "  OVER BUDGET" if a["over_budget"] else ""
            click.echo(f"  {a['agent']:<14} {a['cold_tokens']:>11} {a['kept_entries']:>8} "
                       f"{a['archived_units']:>9} {a['staged']:>7}{flag}")
    if do_apply:
        click.echo(f"wrote {len(written)} file(s); review with `git diff`, then commit")
    elif plan.effective:
        click.echo("(preview: run again with --apply to write)")
