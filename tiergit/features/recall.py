"""`recall`: rank items in cold, wiki, archive and staging by BM25 (SQLite FTS5), and log each hit.

Ranking is FTS5's bm25() over the item text (weight 1.0) and its entry heading (weight 0.5); the query's
words are OR-ed, so an item need not contain all of them. Each hit also gets `score`, a 0..1 relevance
the promotion scoring can average: the IDF-weighted share of the query's words that the item contains
(a word found only in its entry heading counts half). The final order is score + bm25 / (the best
candidate's bm25) + the phrase share (the longest run of the query's words an item holds word for
word, as a share of the query; items holding a three-word run are candidates even below bm25's cut)
over bm25's best candidates; `relevance` is that value relative to the best hit, so displayed scores
fall with the rank. Query words are widened by tiergit/core/query.py (stems, identifier parts, last
word as a prefix); a date the query names is a span of days (core/querydates.py), not a word.
"""
from __future__ import annotations

import json as json_mod
import math
import sqlite3

from tiergit.core import query as query_mod
from tiergit.core import querydates, rowranges, snippet
from tiergit.errors import TiergitError

TYPE_CHECKING = False
if TYPE_CHECKING:   # recall_index (patterns, progress, typing) is imported where an index is built:
    from tiergit.features.recall_index import RefreshStats  # recall_fast's search needs none of it

MAX_QUERY_TERMS = 64
EXTRA_TIERS = ("archive", "staging")
IDENT_WEIGHT = 2.0
MAX_SQL_RANGES = 8      # rowid ranges left out by SQL tests; past this, by one Python test a match
PHRASE_WEIGHT = 1.0     # an item holding the whole query word for word gains as much as full coverage
DATE_WEIGHT = 1.0       # an item dated when the query says gains as much as holding all its words


class Hit:
    """One recall hit. A plain class, not a dataclass: `dataclasses` imports inspect, ast and
    tokenize (~15 ms of a ~100 ms warm query); equality, repr and as_dict are a dataclass's."""
    __slots__ = ("rank", "id", "path", "entry", "date", "kind", "tier", "agent", "line", "score", "bm25", "text",
                 "matched", "relevance", "snippet", "raw", "relation")

    def __init__(self, rank: int, id: str, path: str, entry: str, date: str | None, kind: str,  # noqa: A002
                 tier: str, agent: str | None, line: int,
                 score: float,     # 0..1: IDF-weighted share of the query's words found in the item
                 bm25: float,      # FTS5 bm25, sign flipped so that higher is better
                 text: str,        # the item's clean text
                 matched: list[str] | None = None,   # the query words the item contains
                 relevance: float = 0.0,   # the ranking value relative to the best hit (1.0), falls with the rank
                 snippet: str = "",        # the best-matching sentence or sub-item (tiergit/core/snippet.py)
                 raw: str = "",            # the item as written (nested list and all)
                 relation: str = "") -> None:   # stale against the repository, or superseded by / superseding another item
        self.rank, self.id, self.path, self.entry, self.date, self.kind = rank, id, path, entry, date, kind
        self.tier, self.agent, self.line, self.score, self.bm25, self.text = tier, agent, line, score, bm25, text
        self.matched = [] if matched is None else matched
        self.relevance, self.snippet, self.raw, self.relation = relevance, snippet, raw, relation

    def as_dict(self) -> dict:
        """The fields in order (as dataclasses.asdict: the matched list copied)."""
        out = {name: getattr(self, name) for name in self.__slots__}
        out["matched"] = list(self.matched)
        return out

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self.as_dict() == other.as_dict()   # type: ignore[attr-defined]

    __hash__ = None   # type: ignore[assignment]   # mutable, as a dataclass with eq

    def __repr__(self) -> str:
        return f"Hit({', '.join(f'{k}={v!r}' for k, v in self.as_dict().items())})"


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


def search(db: sqlite3.Connection, query: str, tiers: list[str], agent: str | None = None,  # long: a query's steps
           limit: int = 10, skip: list[tuple[int, int]] | None = None, runs: bool = True,
           snippets: bool = True, leave_out: frozenset[str] = frozenset(), dates: bool = True) -> list[Hit]:
    """Best-first hits for `query` (one per item id) from an up-to-date index.

    Cost: one FTS5 query over the widened terms (see tiergit/core/query.py), one vocabulary
    lookup per term, and a word-set scan of the best `4 x limit` candidates.

    `skip`, when given, replaces the tier filter: the sorted, disjoint rowid ranges
    [first, end) of every file whose tier is not in `tiers` (a file's items sit at one rowid
    range, so this selects the same rows). `tier IN (...)` makes FTS5 read every match's stored
    row; a rowid test does not (~5 ms of a 10k-file warm query).

    `runs=False`: no candidates by runs of the query's words (a list of names is no sentence: a run
    across two names means nothing, and scoring those candidates evaluates the query again).
    `snippets=False`: no `Hit.snippet` (the spawn cuts its picks itself: ~10 ms of a 10k-file spawn).
    `leave_out`: item ids never returned (what the agent's spawn prompt carries: shell/spawncarried.py).
    `dates`: items dated when the query says are candidates too, and gain DATE_WEIGHT.
    """
    span, query = querydates.split(query) if dates else (None, query)
    found = query_mod.concepts(query, MAX_QUERY_TERMS)
    if not found:
        raise TiergitError("recall: the query has no words to search for",
                           'give a few words, e.g. tiergit recall "token cache expiry"')
    where = ["items MATCH ?"]
    params: list = [query_mod.match_expression(found)]
    if skip is None:
        where.append(f"tier IN ({','.join('?' * len(tiers))})")
        params.extend(tiers)
    elif skip:
        skip = rowranges.merged(skip)
        if len(skip) <= MAX_SQL_RANGES:   # a test in SQL's own loop, not a Python call per match
            where.extend(["NOT (rowid >= ? AND rowid < ?)"] * len(skip))
            params.extend(bound for pair in skip for bound in pair)
        else:
            db.create_function("tiergit_keep", 1, rowranges.keeper(skip), deterministic=True)
            where.append("tiergit_keep(rowid)")
    if agent is not None:
        where.append("(agent IS NULL OR agent = ?)")
        params.append(agent)
    cond = " AND ".join(where)
    select = ("SELECT item_id, path, entry, date, kind, tier, agent, line, clean, text, bm25(items, 1.0, 0.5) AS r "
              "FROM items WHERE ")
    pool = max(limit * 4, limit + 20) + len(leave_out)
    rows = db.execute(f"{select}{cond} ORDER BY r LIMIT ?", [*params, pool]).fetchall()
    if span:   # the items dated then: bm25's cut may leave them out
        rows += db.execute(f"{select}{cond} AND date BETWEEN ? AND ? ORDER BY r LIMIT ?",
                           [*params, *map(str, span), pool]).fetchall()
    # an item that holds a run of the query word for word (a pasted fragment, a quoted name) is a
    # candidate even when bm25 ranks it below the cut (its words may be common ones); it is scored
    # with the question's own bm25 like every other candidate
    words = query_mod.phrase_words(query)
    phrases = query_mod.phrase_expression(words) if runs else None
    if phrases is not None:
        ids = [r[0] for r in db.execute(f"SELECT rowid FROM items WHERE {cond} ORDER BY bm25(items, 1.0, 0.5) "
                                        "LIMIT ?", [phrases, *params[1:], limit * 2])]
        if ids:
            seen = {row[0] for row in rows}
            more = db.execute(f"{select}{cond} AND rowid IN ({','.join('?' * len(ids))})", [*params, *ids])
            rows += [row for row in more.fetchall() if row[0] not in seen]
    idf = _idf(db, found)
    total = sum(idf.values()) or 1.0
    ident = {c.word for c in found if len(query_mod.split_identifier(c.word)) > 1}
    best: dict[str, Hit] = {}
    phrase: dict[str, float] = {}
    heads: dict[str, set[str]] = {}   # the entry heading's words: many candidates share one
    for item_id, path, entry, day, kind, tier, ag, line, clean, raw, r in rows:
        if item_id in best or item_id in leave_out:
            continue
        body, key = query_mod.item_words(clean), entry or ""
        head = heads[key] if key in heads else heads.setdefault(key, query_mod.item_words(key))
        in_body = [c.word for c in found if c.matches(body)]
        in_head = [c.word for c in found if c.word not in in_body and c.matches(head)]
        matched = in_body + in_head
        # a word only the entry heading holds counts half: every item under that heading shares it;
        # so does an identifier met only by its parts (`chunk` and `text` for `chunk_text_t`)
        score = (sum(idf[w] * (1.0 if w in body or w not in ident else 0.5) for w in in_body)
                 + 0.5 * sum(idf[w] for w in in_head)) / total
        best[item_id] = Hit(rank=0, id=item_id, path=path, entry=entry, date=day, kind=kind, tier=tier,
                            agent=ag, line=int(line), score=round(score, 4), bm25=round(-r, 4), text=clean,
                            matched=matched, raw=raw)
        phrase[item_id] = query_mod.phrase_share(words, clean)
    # bm25 favours short items, and on a small store (a word in half the items) it is ~0 for all:
    # coverage plus bm25 relative to the best candidate keeps both signals on one 0..2 scale.
    top_bm25 = max((h.bm25 for h in best.values()), default=0.0) or 1.0
    for h in best.values():
        h.relevance = h.score + h.bm25 / top_bm25 + PHRASE_WEIGHT * phrase[h.id]
        h.relevance += DATE_WEIGHT * querydates.within(span, h.date)
    ordered = sorted(best.values(), key=lambda h: (-h.relevance, h.path, h.line))[:limit]
    top = ordered[0].relevance if ordered and ordered[0].relevance > 0 else 1.0
    for rank, hit in enumerate(ordered, 1):
        hit.rank = rank
        hit.snippet = snippet.best(hit.raw or hit.text, query)[0] if snippets else ""
        hit.relevance = round(hit.relevance / top, 4)   # 1.0 for the best hit, falling with the rank
    return ordered


def _idf(db: sqlite3.Connection, found: list[query_mod.Concept]) -> dict[str, float]:
    """BM25's IDF per concept, from the index's own vocabulary (a prefix counts every word it starts)."""
    row = db.execute("SELECT items FROM summary WHERE id = 1").fetchone()   # recall_index.item_count
    n_docs = (int(row[0]) if row else 0) or 1
    out = {}
    for c in found:
        # an identifier's parts are separate tokens to FTS5: it is in no more items than its rarest part
        pick = "min" if len(query_mod.split_identifier(c.word)) > 1 else "max"
        docs = [db.execute(f"SELECT coalesce({pick}(doc), 0) FROM vocab WHERE term IN "
                           f"({','.join('?' * len(c.exact))})", c.exact).fetchone()[0]]
        for p in c.prefixes:
            docs.append(db.execute("SELECT coalesce(sum(doc), 0) FROM vocab WHERE term >= ? AND term < ?",
                                   (p, p + "\U0010ffff")).fetchone()[0])
        df = min(max(docs), n_docs)
        # a name written as code (`chunk_text_t`, `BorderStyle`) is what the question turns on: it weighs double
        out[c.word] = math.log((n_docs - df + 0.5) / (df + 0.5) + 1.0) * (IDENT_WEIGHT if pick == "min" else 1.0)
    return out


def recall(store, query: str, agent: str | None = None, tiers: list[str] | None = None, limit: int = 10,
           log: bool = True, leave_out: frozenset[str] = frozenset()) -> tuple[list[Hit], RefreshStats]:
    """Refresh the index, search, and append one recall event per hit (unless log=False); items in
    `leave_out` are never hits (what the agent's spawn carries: shell/spawncarried.py)."""
    if agent is not None:
        from tiergit.core.configschema import check_slug

        check_slug("agent", agent)
    if limit < 1:
        raise TiergitError(f"recall: -n must be at least 1 (got {limit})", "example: -n 5")
    from tiergit.features import recall_index

    chosen = check_tiers(store.config, tiers or default_tiers(store.config))
    db = recall_index.connect(recall_index.index_path(store.repo))
    try:
        stats = recall_index.refresh(store, db)
        if "archive" in chosen:
            from tiergit.features import recall_history

            recall_history.refresh(store, db)
        hits = search(db, query, chosen, agent, limit, leave_out=leave_out)
        if any(h.kind == recall_index.UNJUDGED for h in hits):   # after a large build (features/recall_kinds.py)
            from tiergit.features import recall_kinds

            recall_kinds.judge(db, hits, *recall_kinds.reading(store))
        save_fast_row(store, db)
    finally:
        db.close()
    mark(store, hits)
    if log and hits:
        from tiergit.shell import logs

        logs.append(store, logs.RECALLS, log_events(query, agent, hits))
    return hits, stats


def mark(store, hits: list[Hit]) -> None:
    """Each hit's relation to the repository and to the other hits (features/staleness.py)."""
    from tiergit.features import staleness

    marks = staleness.relations(store, [staleness.Cited(h.path, h.line, h.id, h.raw or h.text,
                                                        staleness.iso_day(h.date), h.kind) for h in hits])
    for h in hits:
        rel = marks.get((h.path, h.line))
        h.relation = rel.note() if rel else ""


def log_events(query: str, agent: str | None, hits: list[Hit]) -> list[dict]:
    """One recall-log event per hit: `score` the share of the query's words the item holds,
    `relevance` how well it answered the query (1.0: the best hit), which promotion's relevance averages."""
    return [{"query": query, "agent": agent, "id": h.id, "path": h.path, "entry": h.entry,
             "score": h.score, "relevance": h.relevance, "rank": h.rank} for h in hits]


def save_fast_row(store, db: sqlite3.Connection) -> None:
    """Leave what tiergit/features/recall_fast.py needs from the config in the index (written only when
    it changed): the repo, the config's key, the default and allowed tiers, the log's path, and what
    judging a kind needs (the label vocabulary, the file size limit)."""
    import json

    from tiergit.shell import listing, logs

    cfg = store.config
    row = json.dumps({"repo": str(store.repo), "config": str(cfg.path), "store_dir": str(cfg.store_dir),
                      "key": listing.config_key(store), "default": default_tiers(cfg),
                      "allowed": list(cfg.tiers) + list(EXTRA_TIERS),
                      "log": str(logs.log_path(store, logs.RECALLS)),
                      "labels": cfg.labels, "max_bytes": cfg.limits["max_file_bytes"]})   # recall_kinds
    old = db.execute("SELECT value FROM fastpath WHERE id = 1").fetchone()
    if not old or old[0] != row:
        db.execute("INSERT OR REPLACE INTO fastpath VALUES (1, ?)", (row,))


def render(query: str, agent: str | None, hits: list[Hit], files: int, full: bool, as_json: bool,
           logged: bool, reindexed: int = 0, removed: int = 0, skipped: list[str] | None = None) -> str:
    """The text `tiergit recall` prints (the CLI command and recall_fast print the same)."""
    if as_json:
        return json_mod.dumps({"query": query, "agent": agent, "logged": bool(hits) and logged,
                               "index": {"files": files, "reindexed": reindexed, "removed": removed,
                                         "skipped": skipped if skipped is not None else []},
                               "hits": [h.as_dict() for h in hits]}, indent=2, default=str) + "\n"
    if not hits:
        return f"no items match {query!r}\n"
    out = []
    for h in hits:
        # relevance (1.00 = best hit) falls with the rank; score is the share of the query the item holds
        out.append(f"{h.rank:>2}. {h.relevance:.2f}  {h.path}:{h.line}  {h.kind}  {h.date or '-'}  {h.id}")
        out.append(f"    {h.entry or '(no heading)'}  [matched: {', '.join(h.matched) or '-'}]")
        if h.relation:
            out.append(f"    ! {h.relation}")
        if full:
            import textwrap  # only --full prints whole items

            out.append(textwrap.indent((h.raw or h.text).rstrip(), "    "))
        else:
            out.append(f"    {h.snippet}")
    return "\n".join(out) + "\n"
