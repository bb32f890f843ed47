"""`tiergit context --agent A`: the spawn prompt (hot plus task-relevant items) on stdout."""
from __future__ import annotations

import click

from tiergit.cli import echo_json, open_store
from tiergit.core.spawn_template import render_stats
from tiergit.features.context import SITUATIONS


@click.command()
@click.option("--agent", default=None,
              help="The agent to spawn (a slug such as 'picard'); optional when the hot tier path has no {agent}.")
@click.option("--include-cold", is_flag=True, help="Add the agent's cold tier (its summarized history).")
@click.option("--include-wiki", "wiki", multiple=True, metavar="TOPIC",
              help="Add a reviewed wiki topic (repeatable).")
@click.option("--for", "situation", type=click.Choice(list(SITUATIONS)), default=None,
              help="Pick tiers by situation: cold for resume/debug/incident, wiki for spec/onboard/incident.")
@click.option("--task", default=None,
              help="The task (default: the hot file's Current task); what it will likely need from memory is added.")
@click.option("--why", default=None, help="Why the task matters.")
@click.option("--success", multiple=True, help="A success criterion (repeatable: each becomes a checklist line).")
@click.option("--template", type=click.Path(dir_okay=False), default=None,
              help="Template file (default: <root>/templates/spawn.md, else the packaged one).")
@click.option("--stats", "show_stats", is_flag=True,
              help="Bytes and tokens per section and in total, beside loading every tier (on stderr).")
@click.option("--strict", is_flag=True, help="Exit 1 when the hot part is over its budget.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output (prompt, stats, notes).")
@click.pass_context
def context(ctx: click.Context, agent: str | None, include_cold: bool, wiki: tuple[str, ...], situation: str | None,
            task: str | None, why: str | None, success: tuple[str, ...], template: str | None, show_stats: bool,
            strict: bool, as_json: bool) -> None:
    """Print the spawn prompt for an agent: hot memory plus what the task needs.

    The prompt fills templates/spawn.md: Task, WHY, Success criteria, Escalation and a
    Memory Context with the hot tier and what the task will likely need from
    cold, wiki and archive (relevant and recent items, long ones cut to their
    best sentences, within the `spawn: knowledge_tokens` budget; it says so when
    the task matched little), and ends with the wiki's topics, what was left out
    and when to recall. Whole Cold and Wiki tiers appear only with --include-cold /
    --include-wiki or a --for situation. Sections with nothing to say are left out. Notes and --stats go
    to stderr so stdout can be piped straight to the agent. A hot file over its
    budget is reported; with --strict that exits 1.

    \b
    Examples:
      tiergit context --agent picard --task "Fix token refresh" --success "no 401 after 1 h" --success "tests pass" --stats
      tiergit context --agent picard --for incident --task "login 500s"
      tiergit context --agent picard --include-cold --include-wiki auth
    """
    from tiergit.features import context as ctx_mod

    store = open_store(ctx)
    if agent is None:   # one hot file (openclaw): the same agent name `session` uses
        from tiergit.features.session import resolve
        agent = resolve(store.config, None).agent
    spawn = ctx_mod.build(store, agent, include_cold=include_cold, include_wiki=list(wiki), situation=situation,
                          task=task, why=why, success=list(success), template=template)
    from tiergit.features.promotion.served import log_served

    log_served(store, agent, task, spawn.knowledge)   # served items are real use: they count as recalls
    from tiergit.features import spawn_carried

    spawn_carried.record(store, agent, spawn.knowledge)   # the agent's recalls then bring what the prompt lacks
    st = ctx_mod.stats(store, agent, spawn) if (show_stats or as_json) else None
    if as_json:
        echo_json({"agent": agent, "situation": situation, "prompt": spawn.prompt,
                   "files": [{"path": p.path, "tier": p.tier} for p in spawn.parts],
                   "wiki_topics": spawn.wiki_topics, "notes": spawn.notes, "over_budget": spawn.over_budget,
                   "knowledge": _knowledge_json(spawn.knowledge), "stats": st})
    else:
        click.echo(spawn.prompt, nl=False)
        for note in spawn.notes:
            click.echo(f"tiergit: {note}", err=True)
        if st is not None:
            click.echo(f"tiergit context --agent {agent}: sizes", err=True)
            click.echo(render_stats(st), err=True)
        for line in spawn.over_budget:
            click.echo(f"tiergit: hot over budget: {line}", err=True)
        if spawn.over_budget:
            click.echo("  hint: run `tiergit session end` to compact hot into cold", err=True)
    if strict and spawn.over_budget:
        ctx.exit(1)


def _knowledge_json(known) -> dict | None:
    if known is None:
        return None
    return {"tokens": known.tokens, "budget": known.budget, "dropped": known.dropped,
            "items": [{"id": p.id, "path": p.path, "line": p.line, "tier": p.tier, "entry": p.entry,
                       "tokens": p.tokens, "score": p.score, "relevance": p.relevance} for p in known.picks],
            "wiki_index": known.wiki_index}
