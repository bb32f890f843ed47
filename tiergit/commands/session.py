"""`tiergit session start|end` and `tiergit instructions`."""
from __future__ import annotations

import sys

import click

from tiergit.cli import echo_json, open_store
from tiergit.core.session_report import EndReport
from tiergit.errors import TiergitError

AGENT_HELP = "Agent name (a slug); optional when the hot tier path has no {agent}."


@click.group()
def session() -> None:
    """Start and end an agent's session (hot memory in, one cold entry out).

    Unlike other commands, session writes directly: it is what agents call.

    \b
    Example:
      tiergit session start --agent picard --task "Fix token cache expiry"
      tiergit session end --agent picard
    """


@session.command("start")
@click.option("--agent", default=None, help=AGENT_HELP)
@click.option("--task", default=None, help="One line: what this session is for.")
@click.option("--force", is_flag=True, help="End an unfinished session first (into cold), then start.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.pass_context
def start(ctx: click.Context, agent: str | None, task: str | None, force: bool, as_json: bool) -> None:
    """Write the hot file from its template, carrying over open items.

    Blockers and unchecked todos of the previous session (from the hot file,
    else from the last cold entry) are carried over. Starting over a hot file
    that holds an unfinished session is an error unless --force, which ends
    that session into cold first, so nothing is lost.

    \b
    Example:
      tiergit session start --agent picard --task "Fix token cache expiry"
    """
    from tiergit.features import session as session_mod

    store = open_store(ctx)
    synced = _sync_from_squad(store, agent)
    result = session_mod.start(store.config, agent, task, force)
    report = result.report
    if as_json:
        echo_json({**report, **result.plan.as_dict(), "synced": synced})
        return
    for line in synced:
        click.echo(f"synced     {line}")
    ended = report.get("ended_previous")
    if ended:
        click.echo(_end_summary(EndReport(**ended)))
    after = report["hot_after"]
    click.echo(f"session start {report['agent']}: {report['session']}"
               + (f" \"{report['task']}\"" if report.get("task") else ""))
    click.echo(f"  wrote      {report['hot']}  ({after['bytes']} bytes, {'' if after['tokens_exact'] else '~'}{after['tokens']} tokens, "
               f"{after['percent']:.0f}% of budget, {after['health']})")
    click.echo(f"  carried    {report['carried']} open item(s)")
    for note in result.plan.notes:
        click.echo(f"  note: {note}")


def _sync_from_squad(store, agent: str | None) -> list[str]:
    """Squad preset: bring what Scribe appended to the agent's history.md into cold first
    (see squad_sync); the paths written, each with its reason."""
    from tiergit.features.importing import squad_sync

    return squad_sync.sync(store, agent) if agent else []


def _end_summary(r: EndReport) -> str:
    lines = [f"session end {r.agent}: {r.session} \"{r.task}\""]
    if r.already_written:
        lines.append(f"  skipped    entry already in {r.cold} (an earlier run was interrupted)")
    else:
        lines += [
            f"  kept       {r.kept} item(s) verbatim",
            f"  condensed  {r.condensed} item(s) into {r.condensed_lines} line(s)",
            f"  dropped    {r.dropped} item(s) (logs, tool output, transcript lines)",
            f"  duplicate  {r.duplicates} item(s) already in {r.cold}",
            f"  tokens     {r.tokens_in} in -> {r.tokens_kept} kept ({100 * r.ratio:.1f}%)",
        ]
        if r.summarizer:
            lines.append(f"  summary    {r.summarizer}")
        if r.readded:
            lines.append(f"  re-added   {len(r.readded)} item(s) the summarizer dropped")
        lines.append(f"  wrote      {r.cold}" if r.entry_written else "  wrote      nothing new to keep")
    after = r.hot_after
    lines.append(f"  reset      {r.hot}  ({after['bytes']} bytes, {after['percent']:.0f}% of budget, "
                 f"{after['health']}; {r.carried} open item(s) carried)")
    return "\n".join(lines)


@session.command("end")
@click.option("--agent", default=None, help=AGENT_HELP)
@click.option("--notes", "notes_files", multiple=True, type=click.Path(dir_okay=False, allow_dash=True),
              help="Also compact this notes file ('-' for stdin), e.g. a compacted transcript. Repeatable.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.pass_context
def end(ctx: click.Context, agent: str | None, notes_files: tuple[str, ...], as_json: bool) -> None:
    """Compact hot into one new dated cold entry, then reset hot.

    Decisions, corrections, permissions, errors and fixes, open items, rules
    and facts are kept verbatim; other notes are condensed to a line per
    section; logs, tool output and transcript lines are dropped; items
    already in cold are not written twice. With `compact.command` set in
    .tiergit.yml, that program summarizes instead (notes on stdin, summary on
    stdout) and every item that must be kept is re-added if it left it out.
    In an OpenClaw workspace, the entries of OpenClaw's recall store that grew
    are copied to the recall snapshot log the nightly promotion reads.

    \b
    Example:
      tiergit session end --agent picard
      tiergit transcript compact chat.jsonl -o /tmp/s.md && \\
        tiergit session end --agent picard --notes /tmp/s.md
    """
    from tiergit.core import rawtext
    from tiergit.features import session as session_mod

    store = open_store(ctx)
    notes = []
    for name in notes_files:
        if name == "-":
            data = sys.stdin.buffer.read()
        else:
            try:
                with open(name, "rb") as fh:
                    data = fh.read()
            except OSError as exc:
                raise TiergitError(f"{name}: cannot read notes file ({exc.strerror})",
                                   "pass an existing markdown file, or - for stdin") from None
        notes.append((name, rawtext.decode(data, name, store.config.limits["max_file_bytes"])))
    result = session_mod.end(store.config, agent, notes)
    # In an OpenClaw workspace, what its agent recalled this session goes where the nightly promotion reads it.
    from tiergit.features.promotion import recall_store

    copied, where, oc_note = recall_store.sync(store)
    oc_notes = [n for n in (f"{copied} OpenClaw recall entr{'y' if copied == 1 else 'ies'} copied to {where} "
                            "(the nightly promotion counts them)" if copied else None, oc_note) if n]
    if as_json:
        echo_json({**result.report.as_dict(), **result.plan.as_dict(), "openclaw_recalls_copied": copied})
        return
    click.echo(_end_summary(result.report))
    for note in [*result.plan.notes, *oc_notes]:
        if note != result.report.summarizer:
            click.echo(f"  note: {note}")


@click.command()
@click.option("--agent", default=None, help=AGENT_HELP)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.pass_context
def instructions(ctx: click.Context, agent: str | None, as_json: bool) -> None:
    """Print the snippet that tells an agent how to use its memory tiers.

    Paste it into a Squad charter, AGENTS.md or CLAUDE.md. It comes from
    templates/agent-instructions.md in the store (edit it there), filled in
    with the agent's hot and cold paths, budget and kind prefixes.

    \b
    Example:
      tiergit instructions --agent picard >> .squad/agents/picard/charter.md
    """
    from tiergit.features import instructions as instructions_mod

    store = open_store(ctx)
    data = instructions_mod.render(store.config, agent)
    if not data["known_agent"] and data["agents"]:
        # a typo would hand an agent someone else's (or no) memory paths: say so, but a new agent is allowed
        click.echo(f"tiergit: warning: no memory for agent {data['agent']!r} yet "
                   f"(agents are: {', '.join(data['agents'])})", err=True)
        click.echo(f"  hint: check the name; a new agent gets its hot file with "
                   f"`tiergit session start --agent {data['agent']}`", err=True)
    if as_json:
        echo_json(data)
        return
    click.echo(data["text"].rstrip("\n"))
