"""How many sections mention a name (an item's text key, an id a section holds), and on which days.

A promotion plan meets every item's key and every id in every section (~56 names a file on a
real-sized store) and reads the names of its candidates alone. A dict entry per name, its hash an
int object, cost ~90 bytes a name (a 10k-file plan ~50 MB, growing with the store). Here each
section's mention of a name is two array cells (its hash, 8 bytes; its day, 4), and `settle`
counts them once for the names the plan will ask about; any other name is counted by a scan of the
arrays in C. A name is kept by Python's `hash()`, so two names sharing a 64-bit hash share a count.
Pure.
"""
from __future__ import annotations

from array import array
from collections.abc import Iterable
from datetime import date


class MentionLog:
    """Every (name, day) a section mentions, each name once a section (the caller's `here` set)."""
    __slots__ = ("names", "days", "counts", "dates", "settled")

    def __init__(self) -> None:
        self.names = array("q")   # hash(name), one cell a section that mentions it
        self.days = array("i")    # that section's day as an ordinal (up to 3,652,059), 0 when it has none
        self.counts: dict[int, int] = {}
        self.dates: dict[int, int | set[int]] = {}   # a name's one day, or its days (most have one)
        self.settled: set[int] | None = set()   # the hashes `counts` and `dates` answer for (None: all)

    def add(self, name: int, day: date | None) -> None:
        self.names.append(name)
        self.days.append(day.toordinal() if day else 0)

    def settle(self, wanted: Iterable[str | int]) -> None:
        """Count the mentions of `wanted` in one pass (the names a plan will ask about; an int is a
        name's hash already)."""
        cells = self._cells()
        want = {_hash(name) for name in wanted} - self.settled
        if not want:
            return
        counts, dates = self.counts, self.dates
        for name, day in zip(*cells):
            if name in want:
                counts[name] = counts.get(name, 0) + 1
                if day:
                    seen = dates.get(name)
                    if seen is None:
                        dates[name] = day
                    elif type(seen) is int:
                        if seen != day:
                            dates[name] = {seen, day}
                    else:
                        seen.add(day)
        if self.settled:
            self.settled |= want
        else:
            self.settled = want   # the first settle: no copy of a set of every candidate's names

    def forget_cells(self) -> None:
        """Let the cells and the set of settled names go once every name that will be asked about is
        settled (a plan's peak holds the counts alone: at 10k files the cells and the set were ~13 MB).
        Afterwards every name answers from the counts, so a name that was not settled reads as never
        mentioned; settling more is an error."""
        self.names, self.days, self.settled = None, None, None

    def _cells(self) -> tuple[array, array]:
        if self.names is None:
            raise ValueError("the mention log's cells were let go (forget_cells): nothing more can be counted")
        return self.names, self.days

    def _answers(self, h: int) -> bool:
        """Whether the dicts answer for `h` (settled, or every name once the cells are gone)."""
        return self.settled is None or h in self.settled

    def count(self, name: str | int) -> int:
        h = _hash(name)
        return self.counts.get(h, 0) if self._answers(h) else self._cells()[0].count(h)

    def days_of(self, name: str | int) -> set[date]:
        h = _hash(name)
        if self._answers(h):
            found = self.dates.get(h, ())
            found = (found,) if type(found) is int else found
        else:   # each occurrence found by `index` (a C scan), not by a Python loop over every cell
            names, days = self._cells()
            found, at = set(), -1
            while True:
                try:
                    at = names.index(h, at + 1)
                except ValueError:
                    break
                if days[at]:
                    found.add(days[at])
        return {date.fromordinal(day) for day in found}


def _hash(name: str | int) -> int:
    return name if type(name) is int else hash(name)
