"""What git runs for each file marked `merge=tiergit`, without the CLI framework.

git starts one driver process per conflicting file, so start-up is most of the cost: this
entry imports no click, and reads the three versions before importing the parser. When one
side did not change the file (or both made the same change) the answer is the other side,
as in any three-way merge, and no parser is loaded at all. `--help`, `--json` and bad
arguments go to the full CLI (`tiergit merge-driver`), which prints the usual messages.
"""
from __future__ import annotations

import sys
from pathlib import Path

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
    from tiergit.merge import MAX_MERGE_BYTES, merge_texts

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


def trivial(base: bytes, ours: bytes, theirs: bytes) -> bytes | None:
    """The merge result when at most one side changed the file, else None. Pure."""
    if ours == theirs or base == theirs:
        return ours
    if base == ours:
        return theirs
    return None


def main(args: list[str]) -> int:
    """`python -m tiergit merge-driver BASE OURS THEIRS [PATH]`: exit 0 merged, 1 conflicts."""
    paths = [Path(a) for a in args[:3]]
    if len(args) not in (3, 4) or any(a.startswith("-") for a in args) or not all(p.is_file() for p in paths):
        from tiergit.cli import main as cli_main   # the CLI explains what is wrong (exit 2)

        cli_main()
        return 2
    base, ours, theirs = paths
    path = args[3] if len(args) == 4 else str(ours)
    data = [p.read_bytes() for p in paths]
    result = trivial(*data)
    if result is not None:
        if result is not data[1]:
            from tiergit import fsutil

            fsutil.atomic_write(ours, result)
        return 0
    outcome = run_driver(base, ours, theirs, path)
    for note in outcome["notes"]:
        sys.stderr.write(f"tiergit merge: {outcome['path']}: {note}\n")
    for where in outcome.get("conflict_sections", []):
        sys.stderr.write(f"tiergit merge: {outcome['path']}: conflict inside {where}\n")
    return 1 if outcome["conflicts"] else 0
