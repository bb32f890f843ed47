"""How old an item is: its own leading date, else its entry heading's date, else the
author date of the commit that added its first line (git blame), else the file's mtime.

`item_age` is pure (the caller passes blame dates and mtime); `doc_ages` is the shell
that asks git only when some item has no date of its own.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timezone
from pathlib import Path

from tiergit.core.parse import Item, MemoryDoc, Section

SOURCES = ("item", "heading", "blame", "mtime")


@dataclass(frozen=True)
class Age:
    date: date
    source: str  # one of SOURCES

    def days(self, today: date) -> int:
        return (today - self.date).days


def item_age(section: Section, item: Item, blame: dict[int, date] | None = None,
             mtime: date | None = None) -> Age | None:
    """The age rule of DESIGN.md, in order; None only when nothing at all is known."""
    if item.date is not None:
        return Age(item.date, "item")
    if section.date is not None:
        return Age(section.date, "heading")
    if blame and item.line in blame:
        return Age(blame[item.line], "blame")
    if mtime is not None:
        return Age(mtime, "mtime")
    return None


def doc_ages(repo: Path, rel: str, doc: MemoryDoc) -> dict[str, Age]:
    """item id -> Age for every item of a working-tree file (blame runs at most once)."""
    from tiergit.shell import git

    blame: dict[int, date] | None = None
    mtime: date | None = None
    out: dict[str, Age] = {}
    for section in doc.sections:
        for item in section.items:
            if item.date is None and section.date is None and blame is None:
                blame = git.blame_dates(repo, rel, rev=None)
                try:
                    ts = (repo / rel).stat().st_mtime
                    mtime = datetime.fromtimestamp(ts, tz=timezone.utc).date()
                except OSError:
                    mtime = None
            age = item_age(section, item, blame, mtime)
            if age is not None:
                out.setdefault(item.id, age)
    return out
