"""Subject topics for promoted items: the first `#tag` (set when the candidate is read), else a
subject the item shares: an existing wiki topic it names, else the most shared word of its entry
heading, else its own word most candidates share. A kind name (`decisions`, `rules`) only when
nothing else says what the item is about. Pure; imports only `re`, `sys`, `collections` and tiergit.core."""
from __future__ import annotations

import re
import sys
from collections import Counter

from tiergit.core.candidate import KIND_TOPICS, STOPWORDS, TAG_RE, Candidate, slug

WORD_RE = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
GENERIC = frozenset(
    "session sessions learnings learning context core notes note summary update updates log logs day daily week "
    "misc general project team work progress status entry today yesterday fix fixed fixes add added adds make made "
    "new old first last next also only just more most less than then now via using like need needs get got keep "
    "run runs ran set sets one two three decision decisions rule rules fact facts correction corrections lesson "
    "lessons pattern patterns key what why how who where does done time times way ways thing things them they those "
    "it's".split()) | STOPWORDS


def words(text: str) -> list[str]:
    """Subject words of a text: lowercase, three letters or more, no stop or generic words."""
    text = re.sub(r"\(\d{4}-\d{2}-\d{2}\)|\d{4}-\d{2}-\d{2}|`[^`]*`|https?://\S+", " ", text.lower())
    return [w for w in WORD_RE.findall(text) if len(w) >= 3 and w not in GENERIC]


def _root(w: str) -> str:
    return w[:-1] if len(w) > 4 and w.endswith("s") and not w.endswith("ss") else w


def assign(candidates: list[Candidate], existing: set[str]) -> int:
    """Give each candidate that only has its kind's default topic a subject topic; returns how many
    moved. `existing` are the wiki's topic names (their files), preferred when an item names one."""
    known = {_root(t): t for t in existing if t not in KIND_TOPICS.values() and t != "notes"}
    df: Counter[str] = Counter()
    for c in candidates:
        df.update({_root(w) for w in words(c.text)} | {_root(w) for w in words(c.entry or "")})
    moved = 0
    for c in candidates:
        if c.forced or TAG_RE.search(c.text) or c.topic != KIND_TOPICS.get(c.kind, "notes"):
            continue
        topic = _subject(c, known, df)
        if topic:
            c.topic, moved = sys.intern(slug(topic)), moved + 1   # a few hundred names over ~1M candidates
    return moved


def _subject(c: Candidate, known: dict[str, str], df: Counter[str]) -> str | None:
    own = words(c.text)
    for w in own:
        if _root(w) in known:
            return known[_root(w)]
    # An imperative rule starts with its verb ("Name feature flags …"): the subject follows it.
    body = own[1:] if len(own) > 1 and c.text.lower().startswith(own[0]) else own
    return _pick(words(c.entry or ""), df) or _pick(body, df)


def _pick(seq: list[str], df: Counter[str]) -> str | None:
    """The word of `seq` most candidates share (first on a tie), joined with the next one when
    that one is as shared ("token-cache", "feature-flags"); None when no word is shared."""
    common = [w for w in seq if df[_root(w)] >= 2]
    if not common:
        return None
    best = max(common, key=lambda w: (df[_root(w)], -seq.index(w)))
    at = seq.index(best)
    nxt = seq[at + 1] if at + 1 < len(seq) else None
    return f"{best}-{nxt}" if nxt and df[_root(nxt)] == df[_root(best)] else best
