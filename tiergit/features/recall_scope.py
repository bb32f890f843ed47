"""What a spawn's recall queries read: the index's rows by rowid range, and hot's rarest names.

A `tier IN (...)` or `agent = ?` test makes FTS5 read the stored row of every match; a query of a
dozen names (`.squad/decisions.md` is `squad`, `decisions`, `md`: words most items hold) matches
most of a large index. On a 10,000-file store one spawn's two queries took ~4.5 s CPU that way.
"""
from __future__ import annotations

import sqlite3

from tiergit.core import query as query_mod

MAX_NAME_WORDS = 8   # a name's words looked up (a long path's first eight)


def skip_ranges(db: sqlite3.Connection, tiers: list[str], agent: str | None) -> list[tuple[int, int]]:
    """The rowid ranges [first, end) of the indexed files a search for `tiers` (and `agent`) leaves
    out: another tier, or another agent's file. An item carries its file's tier and agent
    (recall_index), so `recall.search(..., skip=these)` with no agent selects the rows the
    tier and agent tests would. Cost: one read of the files table."""
    wanted = set(tiers)
    rows = db.execute("SELECT tier, agent, first_rowid, items FROM files WHERE items > 0")
    return sorted((first, first + n) for tier, owner, first, n in rows
                  if tier not in wanted or (agent is not None and owner is not None and owner != agent))


def rarest(db: sqlite3.Connection, names: set[str], limit: int) -> list[str]:
    """The rarest word of each of up to `limit` of `names` the index holds, fewest items first (a name
    counts as its rarest word: `budgetscope.shared` is `budgetscope`), ties by name. A name with a
    word no item holds is not in memory; the commonest say least about what this agent works on.
    Cost: one vocabulary lookup per distinct word (FTS5 counts a word's items from its list)."""
    df: dict[str, int] = {}
    best: dict[str, tuple[int, str]] = {}
    for name in names:
        words = [c.exact[0] for c in query_mod.concepts(name, MAX_NAME_WORDS)]
        for w in words:
            if w not in df:
                df[w] = db.execute("SELECT coalesce(max(doc), 0) FROM vocab WHERE term = ?", (w,)).fetchone()[0]
        if words and min(df[w] for w in words) > 0:
            best[name] = min((df[w], w) for w in words)
    chosen = sorted(best, key=lambda name: (best[name][0], name))[:limit]
    return list(dict.fromkeys(best[name][1] for name in chosen))
