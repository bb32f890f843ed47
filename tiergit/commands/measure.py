"""`tiergit measure`: per agent, tokens of the legacy full load against hot, hot+cold, hot+cold+wiki."""
from __future__ import annotations

import click

from tiergit.cli import echo_json, open_store


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.pass_context
def measure(ctx: click.Context, as_json: bool) -> None:
    """Show what a spawn costs per agent, before and after the tiers.

    For each agent: the legacy full load (its legacy files, e.g. history.md and
    decisions.md; every tier when none is left), the share of it that is old
    noise (entries older than the cold ttl), the default spawn (hot only),
    hot + cold and hot + cold + wiki, in tokens, and the % a default spawn
    saves. Token counts are exact (tiktoken) and cached by blob id.

    \b
    Example:
      tiergit measure --json
    """
    from tiergit.features import measure as measure_mod

    store = open_store(ctx)
    rows = measure_mod.measure(store)
    if as_json:
        echo_json({"agents": [r.as_dict() for r in rows], "summary": measure_mod.summary(rows)})
        return
    if not rows:
        click.echo("no agents found: nothing to measure (`tiergit import squad` or `session start` first)")
        return
    click.echo(measure_mod.render(rows))
