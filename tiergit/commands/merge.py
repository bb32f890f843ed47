"""`tiergit merge-driver %O %A %B %P`: what git runs for files marked `merge=tiergit`."""
from __future__ import annotations

from pathlib import Path

import click

from tiergit.cli import echo_json

LABELS = ("ours", "theirs")


def _fallback(base: Path, ours: Path, theirs: Path, path: str, why: str) -> dict:
    """A file that does not parse: a plain line merge, so nothing is lost (git keeps all stages)."""
    from tiergit import fsutil, git

    merged, conflicts = git.merge_file(ours, base, theirs, (LABELS[0], "base", LABELS[1]))
    if conflicts < 0:
        # Binary: leave ours in place; git keeps base and theirs in the index for `git checkout --theirs`.
        return {"path": path, "conflicts": 1, "fallback": True, "notes": [
            f"{why}; kept ours as it is (git checkout --theirs -- {path} takes the other side)"]}
    fsutil.atomic_write(ours, merged)
    return {"path": path, "conflicts": conflicts, "fallback": True,
            "notes": [f"{why}; merged line by line instead"]}


def run_driver(base: Path, ours: Path, theirs: Path, path: str) -> dict:
    from tiergit import fsutil, parse
    from tiergit.errors import TiergitError
    from tiergit.merge import merge_texts

    from tiergit.merge import MAX_MERGE_BYTES

    largest = max(p.stat().st_size for p in (base, ours, theirs))
    if largest > MAX_MERGE_BYTES:   # entry matching is not worth minutes: git's line merge is linear
        return _fallback(base, ours, theirs, path, f"{largest} bytes is over the entry-merge cap "
                         f"({MAX_MERGE_BYTES} bytes)")
    try:
        texts = [parse.decode(p.read_bytes(), path) for p in (base, ours, theirs)]
        result = merge_texts(*texts, path=path, labels=LABELS)
    except TiergitError as exc:
        return _fallback(base, ours, theirs, path, exc.message)
    fsutil.atomic_write(ours, result.text)
    return {"path": path, "conflicts": result.conflicts, "fallback": False,
            "conflict_sections": result.conflict_sections, "notes": result.notes}


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
    `tiergit install` registers this driver; `tiergit init` marks the store's
    *.md files `merge=tiergit` in .gitattributes.

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
