"""`tiergit merge-driver %O %A %B %P`: what git runs for files marked `merge=tiergit`."""
from __future__ import annotations

from pathlib import Path

import click

from tiergit.cli import echo_json

# The merge itself lives beside the click-free entry git runs (`tiergit.features.driverrun`).
from tiergit.features.driverrun import run_driver


@click.command("merge-driver")
@click.argument("base", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.argument("ours", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.argument("theirs", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.argument("path", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print the outcome as JSON.")
@click.pass_context
def merge_driver(ctx: click.Context, base: Path, ours: Path, theirs: Path, path: str | None,
                 as_json: bool) -> None:
    """Merge two versions of a memory file entry by entry (git's %O %A %B %P).

    Writes the result into OURS (%A). Entries and list items added on either
    side are all kept, in date order; only the same item changed differently on
    both sides gets conflict markers, inside its entry (exit 1). A file that
    does not parse is merged line by line like git's own merge, never dropped.
    `tiergit install` registers it as an isolated `python -I -S` entry that
    settles one-sided and append-only merges itself (the same bytes) and runs
    this merge for the rest; `tiergit init` marks the store's *.md files
    `merge=tiergit` in .gitattributes.

    \b
    Example (what git runs):
      tiergit merge-driver .merge_file_O .merge_file_A .merge_file_B .squad/memory/cold/picard.md
    """
    outcome = run_driver(base, ours, theirs, path or str(ours))
    if as_json:
        echo_json(outcome)
    else:
        for note in outcome["notes"]:
            click.echo(f"tiergit merge: {outcome['path']}: {note}", err=True)
        for where in outcome.get("conflict_sections", []):
            click.echo(f"tiergit merge: {outcome['path']}: conflict inside {where}", err=True)
    ctx.exit(1 if outcome["conflicts"] else 0)
