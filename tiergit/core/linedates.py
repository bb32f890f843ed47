"""Line dates from a file's versions, oldest first: what `git blame` answers, computed forward.

`git blame` walks the whole history once per file, so dating a store costs files x depth.
Walking the history once for every file (`git log --raw`, `git cat-file --batch`) and
carrying each line's date from version to version costs the sum of the versions' sizes.
A line keeps its date while it survives from one version to the next (common prefix and
suffix first, then difflib for the middle); new lines take the version's date. Along the
first-parent line a merged line takes the merge's date (blame would name the branch
commit): later, never earlier, so a promotion gate on age stays on the safe side. Pure.
"""
from __future__ import annotations

from datetime import date
from difflib import SequenceMatcher


def lines_of(data: bytes) -> list[bytes]:
    """git's lines: split on LF; a final LF does not start another line."""
    parts = data.split(b"\n")
    return parts[:-1] if parts and parts[-1] == b"" else parts


def carry(old: list[bytes], old_dates: list[date], new: list[bytes], day: date) -> list[date]:
    """Dates of `new`'s lines: those kept from `old` keep theirs, the rest get `day`."""
    out = [day] * len(new)
    head = 0
    limit = min(len(old), len(new))
    while head < limit and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < limit - head and old[-1 - tail] == new[-1 - tail]:
        tail += 1
    out[:head] = old_dates[:head]
    if tail:
        out[len(new) - tail:] = old_dates[len(old) - tail:]
    mid_old, mid_new = old[head:len(old) - tail], new[head:len(new) - tail]
    if mid_old and mid_new:
        matcher = SequenceMatcher(None, mid_old, mid_new, autojunk=False)
        for tag, i1, i2, j1, j2 in matcher.get_opcodes():
            if tag == "equal":
                out[head + j1:head + j2] = old_dates[head + i1:head + i2]
    return out


def forward_dates(versions: list[tuple[date, bytes]]) -> dict[int, date]:
    """1-based line -> date for the last version, given every version oldest first."""
    lines: list[bytes] = []
    dates: list[date] = []
    for day, data in versions:
        new = lines_of(data)
        dates = carry(lines, dates, new, day)
        lines = new
    return {n: d for n, d in enumerate(dates, 1)}
