"""A list whose items are made as they are read: for JSON output only (`cli.echo_json`).

json's encoder with an indent walks a list with `not lst` and `for item in lst`, so a long row list
(a 50k-file `promote --json` has ~200k candidates, a dict each) never has to exist whole. Nothing
else may take one for a list: it holds no items, so `==`, indexing and slicing see an empty list.
Pure.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence


class LazyList(list):
    """`make(item)` for each item of `source`, in order, each time it is iterated."""

    def __init__(self, source: Sequence, make: Callable[[object], object]) -> None:
        super().__init__()
        self._source, self._make = source, make

    def __len__(self) -> int:
        return len(self._source)

    def __iter__(self) -> Iterator:
        return map(self._make, self._source)
