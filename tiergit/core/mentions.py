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
        self.days = array("l")    # that section's day as an ordinal, 0 when it has none
        self.counts: dict[int, int] = {}
        self.dates: dict[int, set[int]] = {}
        self.settled: set[int] = set()   # the hashes `counts` and `dates` answer for

    def add(self, name: int, day: date | None) -> None:
        self.names.append(name)
        self.days.append(day.toordinal() if day else 0)

    def settle(self, wanted: Iterable[str]) -> None:
        """Count the mentions of `wanted` in one pass (the names a plan will ask about)."""
        want = {hash(name) for name in wanted} - self.settled
        if not want:
            return
        counts, dates = self.counts, self.dates
        for name, day in zip(self.names, self.days):
            if name in want:
                counts[name] = counts.get(name, 0) + 1
                if day:
                    dates.setdefault(name, set()).add(day)
        self.settled |= want

    def count(self, name: str) -> int:
        h = hash(name)
        return self.counts.get(h, 0) if h in self.settled else self.names.count(h)

    def days_of(self, name: str) -> set[date]:
        h = hash(name)
        if h in self.settled:
            found = self.dates.get(h, ())
        else:   # each occurrence found by `index` (a C scan), not by a Python loop over every cell
            found, at = set(), -1
            while True:
                try:
                    at = self.names.index(h, at + 1)
                except ValueError:
                    break
                if self.days[at]:
                    found.add(self.days[at])
        return {date.fromordinal(day) for day in found}
