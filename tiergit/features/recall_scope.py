"""What a spawn's recall queries read: the index's rows by rowid range, and hot's rarest names.

A `tier IN (...)` or `agent = ?` test makes FTS5 read the stored row of every match; a query of a
dozen names (`.squad/decisions.md` is `squad`, `decisions`, `md`: words most items hold) matches
most of a large index. On a 10,000-file store one spawn's two queries took ~4.5 s CPU that way.
"""
from __future__ import annotations

import re
import sqlite3

from tiergit.core import query as query_mod

MAX_NAME_WORDS = 8   # a name's words looked up (a long path's first eight)
COUNT_CAP = 2000     # a word in this many items says little about one agent's work: counted no further
TOKEN_RE = re.compile(r"[a-z0-9]+")   # one token to the index's unicode61 tokenizer, as it is stored


def skip_ranges(db: sqlite3.Connection, tiers: list[str], agent: str | None) -> list[tuple[int, int]]:
    """The rowid ranges [first, end) of the indexed files a search for `tiers` (and `agent`) leaves
    out: another tier, or another agent's file. An item carries its file's tier and agent
    (recall_index), so `recall.search(..., skip=these)` with no agent selects the rows the
    tier and agent tests would. Cost: one read of the files table, the test in SQL's own loop."""
    rows = db.execute(f"SELECT first_rowid, first_rowid + items FROM files WHERE items > 0 AND "
                      f"(tier NOT IN ({','.join('?' * len(tiers))}) OR (agent IS NOT NULL AND agent != ?)) "
                      f"ORDER BY first_rowid", [*tiers, agent])
    return rows.fetchall()


def rarest(db: sqlite3.Connection, names: set[str], limit: int, cap: int = COUNT_CAP) -> list[str]:
    """The rarest word of each of up to `limit` of `names` the index holds, fewest items first (a name
    counts as its rarest word: `budgetscope.shared` is `budgetscope`), ties by name. A name with a
    word no item holds is not in memory; the commonest say least about what this agent works on.
    Counts stop at `cap`: words held by more items tie, and such names come last, by name.
    Cost: one capped count per distinct word."""
    df: dict[str, int] = {}
    best: dict[str, tuple[int, str]] = {}
    for name in names:
        words = [c.exact[0] for c in query_mod.concepts(name, MAX_NAME_WORDS)]
        for w in words:
            if w not in df:
                df[w] = items_holding(db, w, cap)
        if words and min(df[w] for w in words) > 0:
            best[name] = min((df[w], w) for w in words)
    chosen = sorted(best, key=lambda name: (best[name][0], name))[:limit]
    return list(dict.fromkeys(best[name][1] for name in chosen))


def items_holding(db: sqlite3.Connection, word: str, cap: int = COUNT_CAP) -> int:
    """How many items hold `word`, counted up to `cap`. The vocabulary's count reads the word's whole
    list of items (~0.6 ms for a word most of a 10k-file store holds); a query that stops at `cap`
    reads its start. A word the tokenizer would split or fold (`in_reply_to`, `café`) is looked up
    in the vocabulary as it is: it is no stored term, so none holds it (and the lookup is cheap)."""
    if TOKEN_RE.fullmatch(word):
        return db.execute("SELECT count(*) FROM (SELECT 1 FROM items WHERE items MATCH ? LIMIT ?)",
                          (f'"{word}"', cap)).fetchone()[0]
    return db.execute("SELECT coalesce(max(doc), 0) FROM vocab WHERE term = ?", (word,)).fetchone()[0]
