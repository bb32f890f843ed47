"""`tiergit audit`: dead context in durable tiers, and the prune path of a reviewed tier over
budget, proposed for the archive with reasons."""
from __future__ import annotations

from pathlib import Path

import click

from tiergit.cli import echo_json, open_store


@click.command()
@click.option("--apply", "do_apply", is_flag=True, help="Move the findings to the archive (default: preview).")
@click.option("--pr-body", "pr_body", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Append the proposed cuts to this PR body (the promotion PR's, on the promotion branch); "
              "- for stdout.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.pass_context
def audit(ctx: click.Context, do_apply: bool, pr_body: Path | None, as_json: bool) -> None:
    """Find dead context in durable and warm tiers and propose archiving it.

    Completed tasks (- [x]), resolved issues, stale dated facts, entries
    superseded by a newer one on the same subject, and raw log lines in a
    durable tier. A reviewed tier over its max (OpenClaw's MEMORY.md past 300
    lines) also gets its oldest entries and items proposed, until it is back
    under its warn level. Each finding has a reason; --apply moves them to
    <archive>/YYYY-MM/ and records each cut item for `review sync`. Run it on
    the promotion branch: the cut is reviewed like a promotion (restore a line
    in the PR to keep it).

    \b
    Example:
      tiergit audit
      git switch -c tiergit/promote && tiergit audit --apply --pr-body body.md
    """
    from tiergit.features.promotion import audit as audit_mod
    from tiergit.outfile import check_output

    check_output(pr_body, "--pr-body", json_too=as_json)   # refused before the cut, not after it
    store = open_store(ctx)
    findings, plan, events, written, today = audit_mod.run(store, do_apply)
    if pr_body is not None and findings:
        _append_body(pr_body, findings)
    if as_json:
        echo_json({"findings": [f.as_dict() for f in findings], "plan": plan.as_dict(), "prune_events": len(events),
                   "themes": audit_mod.themes(store, today), "applied": do_apply, "written": written})
        return
    click.echo(f"tiergit audit: {len(findings)} finding(s) in durable tiers")
    for f in findings:
        text = f.text if len(f.text) <= 80 else f.text[:79] + "…"
        click.echo(f"  {f.path}:{f.line}: {f.reason}\n      {text}")
    click.echo("")
    click.echo(plan.preview())
    if plan.effective and not do_apply:
        click.echo("preview only: run with --apply on the promotion branch to propose the cut for review")
    elif events:
        click.echo(f"{len(events)} item(s) cut from a reviewed tier: commit on the promotion branch and open the PR; "
                   "`tiergit review sync` records what the reviewer kept")


def _append_body(path: Path, findings) -> None:
    """A section for the promotion PR: what the cut removes, and how to keep a line."""
    from tiergit.outfile import append_output

    rows = [f"| `{f.path}:{f.line}` | {f.text[:70].replace('|', '/')} | {f.reason} |" for f in findings]
    section = ("\n## Proposed for the archive (audit)\n\n"
               "To keep an item, restore its line in this PR before merging.\n\n"
               "| where | item | why |\n| --- | --- | --- |\n" + "\n".join(rows) + "\n")
    append_output(path, section)   # `-`: the section alone, after the report
