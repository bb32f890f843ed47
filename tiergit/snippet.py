"""The part of an item that answers the question: its best-matching sentence or sub-item.

A Squad item is often a labelled paragraph with a nested list; the words that
matched sit somewhere in the middle. `best()` splits the item's raw text into
lines (sub-items) and sentences, scores each by the query concepts it holds
(IDF-free: the count of distinct concepts, then the shortest), and trims the
winner around its first match. Cost: linear in the item's length.
"""
from __future__ import annotations

import re

from tiergit import query as query_mod

SENTENCE_RE = re.compile(r"(?<=[.!?;])\s+(?=[A-Z`*\[(\"'])")
MARKER_RE = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
WORD_RE = re.compile(r"\w+", re.UNICODE)
WIDTH = 220


def segments(text: str) -> list[str]:
    """Sub-items and sentences of an item, list markers stripped, in order."""
    out = []
    for line in text.splitlines():
        line = MARKER_RE.sub("", line).strip()
        if not line:
            continue
        out.extend(s.strip() for s in SENTENCE_RE.split(line) if s.strip())
    return out or [text.strip()]


def matched_in(segment: str, found: list[query_mod.Concept]) -> list[str]:
    from tiergit.recall import item_words

    words = item_words(segment)
    pool = sorted(words)
    return [c.word for c in found if c.matches(words, pool)]


def best(text: str, query: str, width: int = WIDTH) -> tuple[str, list[str]]:
    """(snippet, matched query words): the segment holding most of the query, trimmed to `width`."""
    found = query_mod.concepts(query)
    scored = [(len(matched_in(seg, found)), -len(seg), n, seg) for n, seg in enumerate(segments(text))]
    count, _neg, _n, seg = max(scored, key=lambda t: (t[0], t[1] if t[0] else 0, -t[2]))
    words = matched_in(seg, found)
    return trim(seg, words, found, width), words


def trim(seg: str, words: list[str], found: list[query_mod.Concept], width: int) -> str:
    """`seg` cut to `width` characters around its first matched word, with … where cut."""
    if len(seg) <= width:
        return seg
    start = 0
    wanted = [c for c in found if c.word in words]
    for m in WORD_RE.finditer(seg):
        w = m.group().lower()
        if any(c.matches({w}) for c in wanted):
            start = max(0, m.start() - width // 4)
            break
    end = min(len(seg), start + width)
    start = max(0, end - width)
    return ("…" if start else "") + seg[start:end].strip() + ("…" if end < len(seg) else "")
