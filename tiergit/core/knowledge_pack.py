"""What a spawn's knowledge block holds: candidates valued by relevance, recency and kind, packed per token.

Pure. The caller (tiergit/features/knowledge.py) gathers candidates from the recall index:
the recall hits for the task (and for the names hot mentions), and the agent's own newest
items. Each gets a value:

    value = W_RELEVANCE * relevance + W_RECENCY * recency + W_NAMES * names share, times the kind's weight

(relevance: recall's 0..1 against the best hit; recency: 0.5 ** (newness rank / RECENCY_HALF),
the agent's newest item 1.0, newest by the commit that wrote it where the caller knows it;
names share: the share of the identifiers and paths named by the task or hot that the item
holds), times up to 1 + W_SPECIFIC for the names and + W_WORDS for the long words (7+ letters) the
item adds to the block. The block is filled greedily by marginal value per token (`per_token`): a
name or word already shown adds nothing again, a long item competes segment by segment
(tiergit/core/snippet.py) so one long item cannot take the budget, each text once, and nothing
the prompt already holds (hot).
Cost: the candidates' segments (a few hundred) times a log, lazily re-valued as the block grows.
"""
from __future__ import annotations

import heapq
import re
from dataclasses import dataclass, replace
from datetime import datetime, timezone

from tiergit.core import query as query_mod
from tiergit.core import snippet

W_RELEVANCE, W_RECENCY, W_NAMES = 1.0, 1.2, 0.6
W_SPECIFIC, SPECIFIC_CAP = 2.0, 8   # up to x3 for an item adding 8 identifiers, paths or code spans
RECENCY_HALF = 25.0           # items: the agent's 25th newest item weighs half its newest
KIND_WEIGHT = {"decision": 1.3, "correction": 1.3, "open": 1.25, "error": 1.2, "rule": 1.1, "log": 0.8}
LONG_TOKENS = 90              # an item over this is cut to its best sentences
SNIPPET_CHARS = 320
MIN_TOKENS = 12               # value per token: a tiny item is not worth more than a short line
SHOWN_FIRST = 0.3             # picks the task matched at least this well are shown first
NAMES_CHARS = 400             # the closing's index of names memory mentions in several entries
LOW_RELEVANCE = 0.35          # best relevance under this: the block says the task matched little
SEGMENTS = 1.0                # 1: a long item is packed segment by segment; 0: cut to its best sentences
ITEM_TOKENS = 180             # one long item's segments past its first: up to this much (and a third of the budget)
W_WORDS, WORDS_CAP = 6.0, 12   # up to +6 for a piece adding 12 long words (7+ letters) the block lacks
WORD_MIN = 7
OFF_QUERY = 0.25              # a segment without the task's words keeps this share of its item's relevance
NAME_RE = re.compile(r"`([^`\n]{3,60})`|[\w.-]+/[\w./-]+"
                     r"|\b(?:\w+(?:\.\w+)+|[A-Za-z]+[a-z0-9]*[A-Z]\w*|\w+_\w+)\b")


@dataclass
class Candidate:
    id: str
    path: str
    line: int
    tier: str
    entry: str
    kind: str
    text: str                 # the item as written
    relevance: float = 0.0    # recall's relevance to the task, 0..1 (0: not a hit)
    score: float = 0.0        # recall's share of the task's words the item holds
    recency: float = 0.0      # 1.0 for the agent's newest item, halving every RECENCY_HALF items
    value: float = 0.0
    tokens: int = 0
    cut: bool = False         # the text is the item's best sentences, not the whole item
    part: int = -1            # a segment's place in its item (-1: the whole item)
    base: float = 0.0         # value before the names and words it adds (set while packing)
    held: frozenset = frozenset()   # the names its text holds (set while packing)
    words: frozenset = frozenset()  # its long content words (set while packing)
    date: str | None = None   # the item's date (ISO), for the staleness and supersede checks


def _named(text: str, trim: str = ""):
    """Each name a text mentions, as written (stripped of space and the `trim` characters), that is four
    characters or more and not a number, date or bare path of digits."""
    for m in NAME_RE.finditer(text):
        name = (m.group(1) or m.group(0)).strip().strip(trim)
        if len(name) >= 4 and not re.fullmatch(r"[\d.:/-]+", name):
            yield name


def names(text: str) -> set[str]:
    """Identifiers, dotted names, paths and code spans a text mentions (lowercased)."""
    return {name.lower() for name in _named(text)}


LONG_WORD_RE = re.compile(r"[^\W\d_]{%d,}" % WORD_MIN)


def long_words(text: str) -> frozenset:
    """A text's long words (lowercased): the content a sentence carries beyond its names."""
    return frozenset(w.lower() for w in LONG_WORD_RE.findall(text))


def per_token(c: Candidate) -> float:
    """What a pick is worth per token, as the packing ranks it (a tiny one counts as MIN_TOKENS)."""
    return c.value / max(c.tokens, MIN_TOKENS)


def recency_weights(order: list[str]) -> dict[str, float]:
    """Item id -> recency weight, `order` newest first."""
    return {item_id: 0.5 ** (rank / RECENCY_HALF) for rank, item_id in enumerate(order)}


def _base(c: Candidate, wanted_names: set[str], relevance_share: float = 1.0) -> float:
    """The item's worth before its names count: relevance, recency and the task's names, times its kind."""
    low = c.text.lower()
    share = sum(1 for n in wanted_names if n in low) / len(wanted_names) if wanted_names else 0.0
    base = W_RELEVANCE * c.relevance * relevance_share + W_RECENCY * c.recency + W_NAMES * share
    return base * KIND_WEIGHT.get(c.kind, 1.0)


def value(c: Candidate, wanted_names: set[str]) -> float:
    # a concrete item (the names, paths and code it holds) is worth more than prose of the same length
    specific = 1.0 + W_SPECIFIC * min(len(names(c.text)), SPECIFIC_CAP) / SPECIFIC_CAP
    return _base(c, wanted_names) * specific


def normal(text: str) -> str:
    return re.sub(r"\W+", " ", text).strip().lower()


def shorten(c: Candidate, query: str, count) -> None:
    """Cut a long item to its best sentences for the query (its first ones when nothing matches)."""
    c.tokens = count(c.text)
    if c.tokens <= LONG_TOKENS:
        return
    best, matched = snippet.best(c.text, query, SNIPPET_CHARS) if query.strip() else ("", [])
    if not matched:
        best = " ".join(snippet.segments(c.text))[:SNIPPET_CHARS].rstrip() + "…"
    c.text, c.cut = best, True
    c.tokens = count(c.text)


def pieces(c: Candidate, query: str, count) -> list[Candidate]:
    """A long item as its segments (sub-items and sentences, tiergit/core/snippet.py), each valued and
    packed on its own so the block holds the best parts of many items rather than the first part of
    a few; a short item stays whole."""
    c.tokens = count(c.text)
    if c.tokens <= LONG_TOKENS:
        return [c]
    out = []
    for n, seg in enumerate(snippet.segments(c.text)):
        if count(seg) > LONG_TOKENS:      # one long sentence: its part around the task's words
            seg = snippet.best(seg, query, SNIPPET_CHARS)[0] if query.strip() else seg[:SNIPPET_CHARS] + "…"
        piece = replace(c, text=seg, cut=True, part=n)
        piece.tokens = count(seg)
        out.append(piece)
    return out


def pack(candidates: list[Candidate], budget: int, max_items: int, count, *, query: str,
         wanted_names: set[str], already: str = "", overhead=None) -> tuple[list[Candidate], int, int]:
    """(picks in value order, tokens used, candidates left out by the budget).

    Greedy by marginal value per token: each step takes the candidate (an item, or a segment of
    a long one) worth most per token given what is picked already, a name the block or the prompt
    shows adding nothing again. `count(text) -> tokens`; `overhead(c) -> tokens` is what showing
    `c` adds beyond its text (its header line); `already` is the prompt text outside this block:
    an item it holds is skipped.
    """
    pool = _pool(candidates, count, query=query, wanted_names=wanted_names, already=already)
    shown = names(already)
    chosen: dict[str, list[Candidate]] = {}
    used = 0
    left: set[str] = set()
    shown_words = long_words(already)

    def rank(c: Candidate) -> tuple:
        c.value = c.base * (1.0 + W_SPECIFIC * min(len(c.held - shown), SPECIFIC_CAP) / SPECIFIC_CAP
                            + W_WORDS * min(len(c.words - shown_words), WORDS_CAP) / WORDS_CAP)
        return (-per_token(c), c.path, c.line, c.part)

    # lazy greedy: a candidate's worth only falls as the block grows, so a popped candidate whose
    # fresh worth still ranks first is the best; the others are re-ranked only when they surface
    heap = [(rank(c), n) for n, c in enumerate(pool)]
    heapq.heapify(heap)
    while heap:
        _old, n = heapq.heappop(heap)
        c = pool[n]
        fresh = rank(c)
        if heap and fresh > heap[0][0]:
            heapq.heappush(heap, (fresh, n))
            continue
        cost = c.tokens + (overhead(c) if overhead and c.id not in chosen else 0)
        whole = sum(p.tokens for p in chosen.get(c.id, ())) + c.tokens
        if used + cost > budget or (c.id not in chosen and len(chosen) >= max_items) or (
                c.id in chosen and whole > min(ITEM_TOKENS, budget // 3)):
            if c.relevance > 0:
                left.add(c.id)
            continue
        chosen.setdefault(c.id, []).append(c)
        used += cost
        shown |= c.held
        shown_words |= c.words
    return _joined(chosen, count), used, len(left - set(chosen))


def _pool(candidates: list[Candidate], count, *, query: str, wanted_names: set[str], already: str) -> list[Candidate]:
    """What `pack` chooses from: each distinct item not in `already`, whole or as its segments, valued."""
    held = normal(already)
    seen: set[str] = set()
    pool: list[Candidate] = []
    found = query_mod.concepts(query) if query.strip() else []
    for c in candidates:
        key = normal(c.text)
        if not key or key in seen or (len(key) > 20 and key in held):
            continue        # the same item copied into cold and the archive, or a blocker hot shows already
        seen.add(key)
        c.value = value(c, wanted_names)     # the whole item's, for the closing's list of what was left out
        if c.value <= 0:
            continue
        if SEGMENTS:
            parts = pieces(c, query, count)
        else:
            shorten(c, query, count)
            parts = [c]
        for part in parts:
            # a segment of an item the task hit carries the hit only if it holds the task's words
            off_query = part.part >= 0 and part.relevance > 0 and not (found and snippet.matched_in(part.text, found))
            part.base = _base(part, wanted_names, OFF_QUERY if off_query else 1.0)
            part.held = names(part.text)
            part.words = long_words(part.text) if W_WORDS else frozenset()
            pool.append(part)
    return pool


def _joined(chosen: dict[str, list[Candidate]], count) -> list[Candidate]:
    """The picks, an item's chosen segments joined in their order: what the task matched first, then the
    rest (recent, named by hot), each by value."""
    picks = []
    for parts in chosen.values():
        if len(parts) == 1:
            picks.append(parts[0])
            continue
        parts.sort(key=lambda p: p.part)
        # what the joined text is worth is what its segments were worth when picked
        merged = replace(parts[0], text=" … ".join(p.text for p in parts), value=sum(p.value for p in parts))
        merged.tokens = count(merged.text)
        picks.append(merged)
    picks.sort(key=lambda c: (c.relevance < SHOWN_FIRST, -c.value))
    return picks


def newest_first(files: list[tuple[str, list[tuple[str, str | None]]]],
                 written: dict[str, int] | None = None) -> list[str]:
    """Item ids newest first, from each file's (tier, [(item id, date or None)] in line order).

    `written` (item id -> commit time, from the repository's history of the legacy file the item
    came from) wins where known: its day replaces the item's date and its time orders one day's
    items. Otherwise a file's direction is read from its dated items (most Squad histories append,
    some prepend); an undated item takes the date of the item written before it; the archive is
    older than the other tiers on the same date."""
    written = written or {}
    keyed = []
    for tier, items in files:
        dates = [d for _i, d in items if d]
        rising = sum(1 for a, b in zip(dates, dates[1:]) if b > a)
        falling = sum(1 for a, b in zip(dates, dates[1:]) if b < a)
        in_order = items if rising >= falling else list(reversed(items))
        last = ""
        # in a file the history dates, an item dated neither by it nor by a date of its own is a line
        # tiergit wrote about the file (a "moved to the archive" pointer), not a new note: it goes last
        timed = any(item_id in written for item_id, _d in items)
        for pos, (item_id, day) in enumerate(in_order):
            last = day or last
            when = written.get(item_id)
            rank = 0 if tier == "archive" else 1
            if when is not None:
                keyed.append(((_day(when), when, rank, pos), item_id))
            else:
                keyed.append(((day or ("" if timed else last), 0, rank, pos), item_id))
    keyed.sort(key=lambda k: k[0], reverse=True)
    return [item_id for _k, item_id in keyed]


def _day(seconds: int) -> str:
    return datetime.fromtimestamp(seconds, tz=timezone.utc).date().isoformat()


def name_index(entries: list[tuple[str, str]], shown: str, max_chars: int) -> list[str]:
    """The names (identifiers, paths, code spans) the agent's memory mentions in the most entries and the
    prompt does not show yet, as written, most entries first, within `max_chars`: an index of what
    `recall` can bring back. `entries` is (entry heading, item text); a name counts once per entry
    and must recur (two entries or more) to be listed."""
    spread: dict[str, set[str]] = {}
    written: dict[str, str] = {}
    for entry, text in entries:
        for raw in _named(text, ".,;:"):
            if "`" not in raw:
                spread.setdefault(raw.lower(), set()).add(entry)
                written.setdefault(raw.lower(), raw)
    held = shown.lower()
    ranked = sorted((n for n, where in spread.items() if len(where) >= 2 and n not in held),
                    key=lambda n: (-len(spread[n]), n))
    out, used = [], 0
    for name in ranked:
        cost = len(written[name]) + 4
        if used + cost > max_chars:
            break
        out.append(written[name])
        used += cost
    return out
