"""Sorted, disjoint rowid ranges [first, end): the files a recall query leaves out (recall.search's
`skip`). Pure: ranges in, ranges or a test out."""
from __future__ import annotations

from bisect import bisect_right


def merged(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The ranges with touching ones joined: a build numbers the files' items in path order, so
    a tier whose files share a folder (`.squad/memory/hot/*`) is one run of rowids, not a range
    per file (2,000 at 10k files, each a Python call per match before)."""
    out: list[tuple[int, int]] = []
    for first, end in ranges:
        if out and out[-1][1] == first:
            out[-1] = (out[-1][0], end)
        else:
            out.append((first, end))
    return out


def keeper(ranges: list[tuple[int, int]]):
    """rowid -> 1 unless it falls in one of the ranges, else 0 (an SQL function's answer)."""
    starts, ends = [a for a, _ in ranges], [b for _, b in ranges]

    def keep(rowid: int) -> int:
        i = bisect_right(starts, rowid) - 1
        return 0 if i >= 0 and rowid < ends[i] else 1
    return keep
