"""What git runs for each file marked `merge=tiergit`, without the CLI framework.

git starts one driver process per conflicting file, so start-up is most of the cost: this
entry imports no click, and reads the three versions before importing the parser. When one
side did not change the file (or both made the same change) the answer is the other side,
as in any three-way merge, and no parser is loaded at all; when both sides only appended
entries, `mergefast` settles the file textually, exactly as the entry merge would. `--help`, `--json` and bad
arguments go to the full CLI (`tiergit merge-driver`), which prints the usual messages. The
imports inside functions are that budget: each loads only on the path that needs it. A
TiergitError goes up to the entry's boundary (`errors.guarded`), which prints it.

Odd files: git hands the driver three regular temp files. A symlink, FIFO, device or
folder in their place is refused before anything is read or written (exit 2, one line):
reading a FIFO would hang, and writing %A through a link would write wherever it points.

No store lock: the driver writes only %A, git's own temp file (git then writes the
merged file into the tree itself, under its index.lock), never a store file a tiergit
command reads or writes. Waiting on the store lock would add nothing but a stall: a
merge run while `session end` or a nightly `archive` holds it would sit for up to 60 s
per file, and a merge started under a tiergit command would wait for itself.
"""
from __future__ import annotations

import os
import stat
import sys

from tiergit.errors import TiergitError

LABELS = ("ours", "theirs")


def _read(path: str | os.PathLike) -> bytes:
    # os and open, not pathlib: its import is ~5 ms of every merged file
    with open(path, "rb") as fh:
        return fh.read()


def _fallback(base: str | os.PathLike, ours: str | os.PathLike, theirs: str | os.PathLike, path: str, why: str) -> dict:
    """A file that does not parse: a plain line merge, so nothing is lost (git keeps all stages)."""
    from pathlib import Path

    from tiergit.shell import fsutil, git

    base, ours, theirs = Path(base), Path(ours), Path(theirs)
    merged, conflicts = git.merge_file(ours, base, theirs, (LABELS[0], "base", LABELS[1]))
    if conflicts < 0:
        # Binary: leave ours in place; git keeps base and theirs in the index for `git checkout --theirs`.
        return {"path": path, "conflicts": 1, "fallback": True, "notes": [
            f"{why}; kept ours as it is (git checkout --theirs -- {path} takes the other side)"]}
    fsutil.atomic_write(ours, merged)
    return {"path": path, "conflicts": conflicts, "fallback": True,
            "notes": [f"{why}; merged line by line instead"]}


def check_inputs(paths: list[str | os.PathLike]) -> None:
    """Refuse any input that is not a regular file (no link, FIFO, device, folder). Cost: 3 lstats."""
    for p in paths:
        try:
            mode = os.lstat(p).st_mode
        except OSError as exc:
            raise TiergitError(f"{p}: cannot be read ({exc.strerror})",
                               "run it as git does: tiergit merge-driver %O %A %B %P") from None
        if not stat.S_ISREG(mode):
            kind = ("a symlink" if stat.S_ISLNK(mode) else "a folder" if stat.S_ISDIR(mode)
                    else "a FIFO" if stat.S_ISFIFO(mode) else "a device or socket")
            raise TiergitError(f"{p}: is {kind}, not a regular file; the merge driver reads and writes "
                               "only the regular temp files git gives it",
                               "nothing was written; run it as git does: tiergit merge-driver %O %A %B %P")


def run_driver(base: str | os.PathLike, ours: str | os.PathLike, theirs: str | os.PathLike, path: str) -> dict:
    from tiergit.core import rawtext
    from tiergit.core.merge import MAX_MERGE_BYTES, merge_texts
    from tiergit.shell import mergefast

    check_inputs([base, ours, theirs])
    largest = max(os.stat(p).st_size for p in (base, ours, theirs))
    if largest > MAX_MERGE_BYTES:   # entry matching is not worth minutes: git's line merge is linear
        return _fallback(base, ours, theirs, path, f"{largest} bytes is over the entry-merge cap "
                         f"({MAX_MERGE_BYTES} bytes)")
    try:
        texts = [rawtext.decode(_read(p), path) for p in (base, ours, theirs)]
        result = merge_texts(*texts, path=path, labels=LABELS)
    except TiergitError as exc:
        return _fallback(base, ours, theirs, path, exc.message)
    mergefast.write(os.fspath(ours), result.text.encode("utf-8"))
    return {"path": path, "conflicts": result.conflicts, "fallback": False,
            "conflict_sections": result.conflict_sections, "notes": result.notes}


def main(args: list[str], fast_declined: bool = False) -> int | None:
    """`python -m tiergit merge-driver BASE OURS THEIRS [PATH]`: exit 0 merged, 1 conflicts;
    None for arguments it cannot take, so the CLI explains what is wrong (exit 2).
    `fast_declined`: the isolated entry (mergeentry) already ran the fast path on these files."""
    paths = list(args[:3])
    if len(args) not in (3, 4) or any(a.startswith("-") for a in args) or not all(map(os.path.exists, paths)):
        return None
    # a link, FIFO or device raises TiergitError: the caller's boundary (errors.guarded) prints it
    return _merge(paths, args, fast_declined)


def _merge(paths: list[str], args: list[str], fast_declined: bool) -> int:
    check_inputs(paths)
    base, ours, theirs = paths
    path = args[3] if len(args) == 4 else ours
    if not fast_declined:
        from tiergit.shell import mergefast   # the built-in posix only: one side changed, or both only appended

        data = [_read(p) for p in paths]
        result = mergefast.settle(*data, textual=mergefast.enabled())
        if result is not None:
            if result is not data[1]:
                mergefast.write(ours, result)
            return 0
    outcome = run_driver(base, ours, theirs, path)
    for note in outcome["notes"]:
        sys.stderr.write(f"tiergit merge: {outcome['path']}: {note}\n")
    for where in outcome.get("conflict_sections", []):
        sys.stderr.write(f"tiergit merge: {outcome['path']}: conflict inside {where}\n")
    return 1 if outcome["conflicts"] else 0
