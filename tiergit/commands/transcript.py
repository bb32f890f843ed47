"""`tiergit transcript compact FILE`: progressive compaction of a chat transcript by turn age."""
from __future__ import annotations

from pathlib import Path

import click

from tiergit.cli import echo_json
from tiergit.errors import TiergitError


@click.group()
def transcript() -> None:
    """Work with agent session transcripts.

    \b
    Example:
      tiergit transcript compact ~/.claude/projects/app/session.jsonl -o notes.md
    """


@transcript.command("compact")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the markdown here (default: stdout); the per-layer table then goes to stdout.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output (markdown included).")
@click.option("--tokenizer", default="cl100k_base", show_default=True, help="tiktoken encoding for the counts.")
def compact(file: Path, output: Path | None, as_json: bool, tokenizer: str) -> None:
    """Compact a session transcript by turn age.

    The newest 15 turns stay in full, turns 15–30 keep their key sentences
    (~40 %), turns 30–50 decisions and outcomes (~15 %), older turns one line
    each (~5 %). Decisions, corrections, permissions, errors and open items
    are kept verbatim in every layer; tool output is dropped outside the newest
    layer. Reads JSON Lines ({"role", "content"} per line, content a string or
    a list of parts, as Claude Code and OpenAI write them) or markdown with
    `User:` / `Assistant:` turns. Prints tokens per layer.

    \b
    Example:
      tiergit transcript compact session.jsonl -o /tmp/session.md
      tiergit session end --agent picard --notes /tmp/session.md
    """
    from tiergit.core import chatlog, rawtext
    from tiergit.features import transcript as transcript_mod
    from tiergit.outfile import write_output

    name = str(file)
    try:
        data = file.read_bytes()
    except OSError as exc:
        raise TiergitError(f"{name}: cannot read transcript ({exc.strerror})", "pass an existing file") from None
    if output is not None and output.resolve() == file.resolve():
        raise TiergitError(f"{output}: would overwrite the transcript it compacts",
                           "write the compacted markdown to another file")
    text = rawtext.decode(data, name, 64 * 1024 * 1024)
    turns, skipped = chatlog.read(text, name)
    result = transcript_mod.compact(turns, name, tokenizer)
    result.skipped_lines = skipped
    if output is not None:
        write_output(output, result.markdown)
    figures = {"file": name, "turns": result.turns, "skipped_lines": skipped,
               "tokens_in": result.tokens_in, "tokens_out": result.tokens_out,
               "layers": [layer.as_dict() for layer in result.layers],
               "output": str(output) if output else None}
    if as_json:
        echo_json({**figures, "markdown": None if output else result.markdown})
        return
    table = [f"{'layer':<10} {'turns':>9} {'tokens in':>10} {'tokens out':>11} {'verbatim':>9}"]
    for layer in result.layers:
        span = f"{layer.first}-{layer.last}"
        table.append(f"{layer.name:<10} {span:>9} {layer.tokens_in:>10} {layer.tokens_out:>11} {layer.kept_verbatim:>9}")
    pct = 100 * result.tokens_out / result.tokens_in if result.tokens_in else 0.0
    table.append(f"{'total':<10} {result.turns:>9} {result.tokens_in:>10} {result.tokens_out:>11}   ({pct:.0f}% kept)")
    if skipped:
        table.append(f"({skipped} metadata line(s) without a chat turn skipped)")
    if output is None:
        click.echo(result.markdown.rstrip("\n"))
        click.echo("\n".join(table), err=True)
    else:
        click.echo("\n".join(table))
        click.echo(f"wrote {output}")
