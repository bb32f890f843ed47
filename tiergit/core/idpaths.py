"""Item id -> the first file it was found in, for every reviewed-tier item: what the gate's `in-wiki`
check and `review sync` ask of a candidate's id. Pure.

A promotion plan meets every wiki item (143,000 at 10k real-sized files) and asks about its
candidates' ids alone. A dict of id strings cost ~85 bytes an item (12 MB at 10k); here an id of
the usual form (`m-` and 8 hex digits, a text hash) is a 32-bit cell and its file a 32-bit number,
sorted once at the first question and searched by bisection. Any other id (a hand-written block id
`^m-…`) goes to a plain dict.
"""
from __future__ import annotations

from array import array
from bisect import bisect_left

_HEX = frozenset("0123456789abcdef")


def _number(iid: str) -> int | None:
    return int(iid[2:], 16) if len(iid) == 10 and iid.startswith("m-") and _HEX.issuperset(iid[2:]) else None


class IdPaths:
    """A read-mostly mapping: `setdefault` while reading files, then `in`, `[]` and `get`."""
    __slots__ = ("ids", "files", "paths", "_numbers", "others", "_sorted")

    def __init__(self) -> None:
        self.ids = array("I")      # the ids of the usual form, as numbers
        self.files = array("I")    # each one's file, by number
        self.paths: list[str] = []
        self._numbers: dict[str, int] = {}
        self.others: dict[str, str] = {}
        self._sorted = True

    def setdefault(self, iid: str, path: str) -> None:
        """Record `iid` in `path` unless it was already found (the first file found keeps it)."""
        value = _number(iid)
        if value is None:
            self.others.setdefault(iid, path)
            return
        number = self._numbers.get(path)
        if number is None:
            number = self._numbers[path] = len(self.paths)
            self.paths.append(path)
        self.ids.append(value)
        self.files.append(number)
        self._sorted = False

    def sort(self) -> None:
        """Sort the cells for bisection (done at the first question otherwise): best called when the
        plan holds little else, as the sort needs a Python int a cell for a moment (~44 bytes each)."""
        if self._sorted:
            return
        # One int a cell, the id above its place in the record: of two cells with one id, the first
        # recorded sorts first (`setdefault`). A key function would make two ints and a list a cell.
        ids, files = self.ids, self.files
        order = [(value << 32) | n for n, value in enumerate(ids)]
        order.sort()
        self.ids = array("I", (key >> 32 for key in order))
        self.files = array("I", (files[key & 0xFFFFFFFF] for key in order))
        self._sorted = True

    def get(self, iid: str, default: str | None = None) -> str | None:
        value = _number(iid)
        if value is None:
            return self.others.get(iid, default)
        self.sort()
        at = bisect_left(self.ids, value)
        return self.paths[self.files[at]] if at < len(self.ids) and self.ids[at] == value else default

    def __contains__(self, iid: object) -> bool:
        return isinstance(iid, str) and self.get(iid) is not None

    def __getitem__(self, iid: str) -> str:
        path = self.get(iid)
        if path is None:
            raise KeyError(iid)
        return path
