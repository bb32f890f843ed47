"""`recall`: rank items in cold, wiki, archive and staging by BM25 (SQLite FTS5), and log each hit.

Ranking is FTS5's bm25() over the item text (weight 1.0) and its entry heading
(weight 0.5); the query's words are OR-ed, so an item need not contain all of
them. Each hit also gets `score`, a 0..1 relevance the promotion scoring can
average: the IDF-weighted share of the query's words that the item contains.
The final order is bm25 x (0.5 + score) over bm25's best candidates.
"""
from __future__ import annotations

import math
import re
import sqlite3
from dataclasses import asdict, dataclass

from tiergit import logs, recall_index
from tiergit.config import check_slug
from tiergit.errors import TiergitError

WORD_RE = re.compile(r"\w+", re.UNICODE)
MAX_QUERY_TERMS = 64
EXTRA_TIERS = ("archive", "staging")


@dataclass
class Hit:
    rank: int
    id: str
    path: str
    entry: str
    date: str | None
    kind: str
    tier: str
    agent: str | None
    line: int
    score: float     # 0..1: IDF-weighted share of the query's words found in the item
    bm25: float      # FTS5 bm25, sign flipped so that higher is better
    text: str        # the item's clean text

    def as_dict(self) -> dict:
        return asdict(self)


def terms(text: str) -> list[str]:
    """Query words as FTS5's unicode61 tokenizer sees them (lowercase, unique, in order)."""
    return list(dict.fromkeys(w.lower() for w in WORD_RE.findall(text) if w.strip("_")))


def default_tiers(config) -> list[str]:
    """Every tier an agent does not already hold in its prompt (not session-lifetime hot), plus
    the archive and the staged candidates."""
    return [n for n, t in config.tiers.items() if t.lifetime != "session"] + list(EXTRA_TIERS)


def check_tiers(config, wanted: list[str]) -> list[str]:
    allowed = list(config.tiers) + list(EXTRA_TIERS)
    for name in wanted:
        if name not in allowed:
            raise TiergitError(f"{config.path.name}: no tier named {name!r} to recall from",
                               f"choose from: {', '.join(allowed)}")
    return wanted


def search(db: sqlite3.Connection, query: str, tiers: list[str], agent: str | None = None,
           limit: int = 10) -> list[Hit]:
    """Best-first hits for `query` (one per item id) from an up-to-date index."""
    words = terms(query)[:MAX_QUERY_TERMS]
    if not words:
        raise TiergitError("recall: the query has no words to search for",
                           'give a few words, e.g. tiergit recall "token cache expiry"')
    match = " OR ".join('"' + w.replace('"', '""') + '"' for w in words)
    where = ["items MATCH ?", f"tier IN ({','.join('?' * len(tiers))})"]
    params: list = [match, *tiers]
    if agent is not None:
        where.append("(agent IS NULL OR agent = ?)")
        params.append(agent)
    sql = (f"SELECT item_id, path, entry, date, kind, tier, agent, line, clean, bm25(items, 1.0, 0.5) AS r "
           f"FROM items WHERE {' AND '.join(where)} ORDER BY r LIMIT ?")
    rows = db.execute(sql, [*params, max(limit * 4, limit + 20)]).fetchall()
    idf = _idf(db, words)
    total = sum(idf.values()) or 1.0
    best: dict[str, Hit] = {}
    for item_id, path, entry, day, kind, tier, ag, line, clean, r in rows:
        if item_id in best:
            continue
        present = set(terms(clean + " " + (entry or "")))
        score = sum(v for w, v in idf.items() if w in present) / total
        best[item_id] = Hit(rank=0, id=item_id, path=path, entry=entry, date=day, kind=kind, tier=tier,
                            agent=ag, line=int(line), score=round(score, 4), bm25=round(-r, 4), text=clean)
    # bm25 favours short items; weighting it by coverage puts items holding more of the query first.
    ordered = sorted(best.values(), key=lambda h: (-h.bm25 * (0.5 + h.score), h.path, h.line))[:limit]
    for rank, hit in enumerate(ordered, 1):
        hit.rank = rank
    return ordered


def _idf(db: sqlite3.Connection, words: list[str]) -> dict[str, float]:
    """BM25's IDF per query word, from the index's own vocabulary."""
    n_docs = db.execute("SELECT count(*) FROM items").fetchone()[0] or 1
    found = dict(db.execute(f"SELECT term, doc FROM vocab WHERE term IN ({','.join('?' * len(words))})",
                            words).fetchall())
    return {w: math.log((n_docs - found.get(w, 0) + 0.5) / (found.get(w, 0) + 0.5) + 1.0) for w in words}


def recall(store, query: str, agent: str | None = None, tiers: list[str] | None = None, limit: int = 10,
           log: bool = True) -> tuple[list[Hit], recall_index.RefreshStats]:
    """Refresh the index, search, and append one recall event per hit (unless log=False)."""
    if agent is not None:
        check_slug("agent", agent)
    if limit < 1:
        raise TiergitError(f"recall: -n must be at least 1 (got {limit})", "example: -n 5")
    chosen = check_tiers(store.config, tiers or default_tiers(store.config))
    db = recall_index.connect(recall_index.index_path(store.repo))
    try:
        stats = recall_index.refresh(store, db)
        if "archive" in chosen:
            from tiergit import recall_history

            recall_history.refresh(store, db)
        hits = search(db, query, chosen, agent, limit)
    finally:
        db.close()
    if log and hits:
        logs.append(store, logs.RECALLS, [
            {"query": query, "agent": agent, "id": h.id, "path": h.path, "entry": h.entry,
             "score": h.score, "rank": h.rank} for h in hits])
    return hits, stats
