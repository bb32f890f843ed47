"""The part of an item that answers the question: its best-matching sentence or sub-item.

A Squad item is often a labelled paragraph with a nested list; the words that
matched sit somewhere in the middle. `best()` splits the item's raw text into
lines (sub-items) and sentences, takes the one holding most query concepts (the
earliest on a tie), adds a second one when it holds concepts the first lacks,
and trims each around its first match. Cost: linear in the item's length.
"""
from __future__ import annotations

import re

from tiergit.core import query as query_mod

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
    words = query_mod.item_words(segment)
    return [c.word for c in found if c.matches(words)]


def best(text: str, query: str, width: int = WIDTH) -> tuple[str, list[str]]:
    """(snippet, matched query words): the segment holding most of the query (the earliest on a tie),
    plus a second segment when it holds query words the first lacks; trimmed to `width`."""
    found = query_mod.concepts(query)
    segs = [(seg, matched_in(seg, found)) for seg in segments(text)]
    first, words = max(segs, key=lambda sw: len(sw[1]))     # max keeps the earliest of equals
    rest = [(seg, [w for w in m if w not in words]) for seg, m in segs if seg is not first]
    extra = max(rest, key=lambda sw: len(sw[1]), default=("", []))
    if not extra[1]:
        return trim(first, words, found, width), words
    half = width // 2
    joined = trim(first, words, found, half) + " … " + trim(extra[0], extra[1], found, half)
    return joined, words + extra[1]


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
