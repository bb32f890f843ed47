"""rowranges: touching ranges join, and the keep test answers 0 exactly inside a range."""
from __future__ import annotations

from tiergit.core import rowranges


def test_touching_ranges_join_and_gaps_stay() -> None:
    assert rowranges.merged([(1, 5), (5, 9), (12, 15), (15, 16), (20, 21)]) == [(1, 9), (12, 16), (20, 21)]
    assert rowranges.merged([]) == []


def test_keep_leaves_out_exactly_the_rows_inside_a_range() -> None:
    ranges = [(3, 6), (10, 11)]
    keep = rowranges.keeper(ranges)
    assert [r for r in range(0, 14) if not keep(r)] == [3, 4, 5, 10]
