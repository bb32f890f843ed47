"""Turning a question into FTS5 search terms: stop words out, stems, identifiers split, last word as a prefix.

The index keeps FTS5's plain `unicode61` tokens, so every widening happens on
the query side (no index rebuild, no tokenizer change):
- stop words ("why did we ...") are dropped when something else is left;
- each word also matches by its stem as a prefix (`caching` -> `cach*`, so
  `cache`, `cached`, `caches` match), a light suffix-stripping stemmer;
- the last word matches as a prefix (someone still typing `BorderSty`);
- dates and clock times (a task title's `2026-02-22 14:05`) are not searched for;
- an identifier is split into its parts (`ControlSkin.BorderStyle` ->
  `controlskin`, `borderstyle`, `control`, `skin`, `border`, `style`) and two
  adjacent words are also tried joined (`border style` -> `borderstyle`).
A `Concept` is one word of the question with its alternatives; an item
"contains" the concept when any alternative matches one of its words.
Cost: pure string work, linear in the query length.
"""
from __future__ import annotations

import re

WORD_RE = re.compile(r"\w+", re.UNICODE)
RAW_TOKEN_RE = re.compile(r"[\w.]+", re.UNICODE)
# Dates and clock times in a task title ("2026-02-22 14:05 — Fix X") match every dated entry: not query words.
DATE_TIME_RE = re.compile(r"\b\d{4}-\d{2}-\d{2}(?:[T ]\d{1,2}:\d{2}(?::\d{2})?Z?)?\b|\b\d{1,2}:\d{2}\b")
CAMEL_RE = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")
MIN_STEM = 4
INFLECT_MIN = 5   # a word already its own stem matches its inflections from this length
INFLECTIONS = ("s", "ed", "ing")
SUFFIXES = ("ations", "ation", "ings", "ing", "ments", "ment", "ness", "ions", "ion", "ies", "ied",
            "er", "ed", "es", "ly", "s", "e", "y")
STOP_WORDS = frozenset("""
a about above after again all also am an and any are as at be because been before being below between both
but by can could did do does doing done down during each few for from further get got had has have having he
her here hers how i if in into is it its itself just me more most my no nor not now of off on once only or
other our ours out over own same she should so some such than that the their them then there these they this
those through to too under until up very was we were what when where which while who whom why will with would
you your yours yet ever still thing things way know tell show find use used using need needs make made
""".split())


class Concept:
    """One word of the question: what it looked like, and the FTS5 terms that count as it.
    A plain class: `dataclasses` costs ~15 ms of imports on the warm recall path."""
    __slots__ = ("word", "exact", "prefixes")

    def __init__(self, word: str, exact: list[str] | None = None, prefixes: list[str] | None = None) -> None:
        self.word = word
        self.exact = [] if exact is None else exact          # whole tokens
        self.prefixes = [] if prefixes is None else prefixes  # token prefixes (stems, the last word)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.word, self.exact, self.prefixes) == (other.word, other.exact, other.prefixes)  # type: ignore[attr-defined]

    __hash__ = None   # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Concept(word={self.word!r}, exact={self.exact!r}, prefixes={self.prefixes!r})"

    def matches(self, words: set[str]) -> bool:
        if any(w in words for w in self.exact):
            return True
        return any(w.startswith(p) for p in self.prefixes for w in words)

    def fts(self) -> list[str]:
        """FTS5 query atoms for this concept (quoted; prefixes starred)."""
        atoms = [_quote(w) for w in self.exact]
        atoms += [_quote(p) + "*" for p in self.prefixes]
        return list(dict.fromkeys(atoms))


def _quote(word: str) -> str:
    return '"' + word.replace('"', '""') + '"'


def stem(word: str) -> str:
    """A light English stem: the word minus one common suffix, never shorter than MIN_STEM."""
    if len(word) <= MIN_STEM or not word.isalpha():
        return word
    for suffix in SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= MIN_STEM:
            return word[: -len(suffix)]
    return word


def split_identifier(token: str) -> list[str]:
    """`ControlSkin.BorderStyle` / `token_cache` / `getHTTPClient` -> lowercase parts (>= 2 chars)."""
    parts = []
    for piece in re.split(r"[._\-/]+", token):
        parts.extend(m.lower() for m in CAMEL_RE.findall(piece))
    return [p for p in parts if len(p) >= 2]


def item_words(text: str) -> set[str]:
    """An item's words as FTS5 sees them (lowercase), plus the parts of its identifiers
    (`RotateKeys` -> rotate, keys), so a question in plain words covers an item that spells
    them as one identifier."""
    words = {w.lower() for w in WORD_RE.findall(text) if w.strip("_")}
    for token in RAW_TOKEN_RE.findall(text):
        if any(c.isupper() for c in token[1:]) or "_" in token or "." in token.strip("."):
            words.update(split_identifier(token))
    return words


def concepts(text: str, max_terms: int = 64) -> list[Concept]:
    """The question's concepts, in order; stop words dropped unless nothing else is left."""
    raw = [t.strip(".") for t in RAW_TOKEN_RE.findall(DATE_TIME_RE.sub(" ", text))]
    raw = [t for t in raw if t and WORD_RE.search(t)]
    words = [w.lower() for t in raw for w in WORD_RE.findall(t) if w.strip("_")]
    content = [w for w in words if w not in STOP_WORDS and len(w) > 1]
    keep = set(content) if content else set(words)
    out: dict[str, Concept] = {}
    for token in raw:
        for w in WORD_RE.findall(token):
            lw = w.lower()
            if lw not in keep or lw in out or not w.strip("_"):
                continue
            c = Concept(lw, exact=[lw])
            s = stem(lw)
            if s != lw:
                c.prefixes.append(s)
            elif len(lw) >= INFLECT_MIN and lw.isalpha():   # `avoid` -> avoided, avoids, avoiding
                c.exact.extend(lw + end for end in INFLECTIONS)
            parts = split_identifier(w)
            if len(parts) > 1:
                c.exact.extend(p for p in parts if p not in STOP_WORDS)
            out[lw] = c
    found = list(out.values())[:max_terms]
    if found:
        last = found[-1]
        if len(last.word) >= 3 and last.word not in last.prefixes and not any(
                last.word.startswith(p) for p in last.prefixes):
            last.prefixes.append(last.word)
            # its inflections are in the prefix now (an FTS5 match of both would count twice)
            last.exact = [w for w in last.exact if w == last.word or not w.startswith(last.word)]
    _join_neighbours(found)
    return found


def _join_neighbours(found: list[Concept]) -> None:
    """`border style` also matches `borderstyle` (an identifier the index holds as one token)."""
    for a, b in zip(found, found[1:]):
        if a.word.isalpha() and b.word.isalpha():
            joined = a.word + b.word
            a.exact.append(joined)


def match_expression(found: list[Concept]) -> str:
    """The FTS5 MATCH string: every atom of every concept, OR-ed."""
    atoms = [atom for c in found for atom in c.fts()]
    return " OR ".join(dict.fromkeys(atoms))


# -- phrases: a query that quotes an item ------------------------------------------------------

PHRASE_MIN = 3          # words in a row, stop words included: "for each release" is a phrase, "the api" not
MAX_PHRASES = 24


def phrase_words(text: str) -> list[str]:
    """The query's words in order, lowercase, stop words kept (a phrase is matched as written), dates out."""
    return [w.lower() for w in WORD_RE.findall(DATE_TIME_RE.sub(" ", text)) if w.strip("_")]


def phrase_expression(words: list[str]) -> str | None:
    """An FTS5 MATCH string OR-ing every PHRASE_MIN-word window of the query that holds a content word
    (a window of stop words alone, "what is the", matches everything), or None when there is none."""
    windows = []
    for i in range(len(words) - PHRASE_MIN + 1):
        window = words[i:i + PHRASE_MIN]
        if any(w not in STOP_WORDS and len(w) > 1 for w in window):
            windows.append('"' + " ".join(w.replace('"', '""') for w in window) + '"')
    windows = list(dict.fromkeys(windows))[:MAX_PHRASES]
    return " OR ".join(windows) if windows else None


def phrase_share(words: list[str], text: str) -> float:
    """The longest run of the query's words that the text holds word for word, as a share of the query's
    words (0 under PHRASE_MIN words). Cost: query words x text words."""
    if len(words) < PHRASE_MIN:
        return 0.0
    body = [w.lower() for w in WORD_RE.findall(text) if w.strip("_")]
    at: dict[str, list[int]] = {}
    for i, w in enumerate(body):
        at.setdefault(w, []).append(i)
    best = 0
    for start in range(len(words)):
        if len(words) - start <= best:
            break
        for pos in at.get(words[start], ()):
            run = 1
            while start + run < len(words) and pos + run < len(body) and body[pos + run] == words[start + run]:
                run += 1
            best = max(best, run)
    return best / len(words) if best >= PHRASE_MIN else 0.0
