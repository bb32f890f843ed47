"""`tiergit recall QUERY`: ranked items from cold, wiki, archive and staging; logs each hit."""
from __future__ import annotations

import click

from tiergit.cli import open_store


@click.command()
@click.argument("query", nargs=-1, required=True)
@click.option("--agent", default=None, help="Who is asking: their own agent files plus shared ones; logged.")
@click.option("--tier", "tiers", multiple=True,
              help="Search only this tier (repeatable; also 'archive', 'staging'). Default: all but hot.")
@click.option("-n", "limit", type=int, default=10, show_default=True, help="How many hits.")
@click.option("--full", is_flag=True, help="Print each hit's whole item instead of its best-matching sentence.")
@click.option("--no-log", is_flag=True, help="Do not append the hits to the recall log.")
@click.option("--include-spawned", is_flag=True,
              help="With --agent: also the items the agent's last `context` prompt carried (left out by default).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.pass_context
def recall(ctx: click.Context, query: tuple[str, ...], agent: str | None, tiers: tuple[str, ...], limit: int,
           full: bool, no_log: bool, include_spawned: bool, as_json: bool) -> None:
    """Find what the team already knows: items ranked by BM25, best first.

    Each hit shows its relevance (1.00 for the best, falling with the rank),
    where it is, the words it matched and its best-matching sentence or
    sub-item; --full prints whole items. Questions work: stop words are
    dropped, words match by stem, identifiers by their parts, and a date
    ("on 12 March, 2026", "in June 2026") favours the items written then.

    Searches cold, wiki (and any non-session tier), the archive and staged
    candidates. Each hit is appended to the recall log (<root>/logs/recalls.jsonl),
    which promotion scoring reads; --no-log skips that. The index is cached
    under the git dir and re-reads only files that changed. With --agent, the
    items that agent's last `tiergit context` prompt carried are left out (it
    holds them already; a note on stderr says how many); --include-spawned
    keeps them.

    \b
    Example:
      tiergit recall "token cache expiry" --agent picard -n 5
    """
    from tiergit.features.recall import recall as run_recall

    store = open_store(ctx)
    text = " ".join(query).strip()
    from tiergit.features.recall import render

    from tiergit.features import spawn_carried

    carried = spawn_carried.leave_out(store, agent, include_spawned)
    hits, stats = run_recall(store, text, agent=agent, tiers=list(tiers) or None, limit=limit, log=not no_log,
                             leave_out=carried)
    click.echo(render(text, agent, hits, stats.files, full, as_json, not no_log, stats.reindexed, stats.removed,
                      stats.skipped), nl=False)
    for path in stats.skipped or []:
        click.echo(f"(skipped unreadable {path}; `tiergit check` says why)", err=True)
    if carried:
        click.echo(spawn_carried.note(len(carried)), err=True, nl=False)
