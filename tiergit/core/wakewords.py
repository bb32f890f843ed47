"""Word prefilters for the judgement's regexes: a pattern runs only when the text holds one of the
words it cannot match without (its "wake" words), or starts with one of its openings.

A regex alternation tries every branch at every position of a text, and most items match none
of the patterns; a lookup of the text's tokens in a table answers for all of a module's patterns
at once. Pure; imports only `re` (core/judge.py and core/durable_shape.py each hold one table).
"""
from __future__ import annotations

import re
from functools import reduce
from operator import or_

# Distinct tokens remembered per table (~10 MB at most); a 1k-file store's items hold far fewer,
# the corpus's ~115k (judge's table).
MAX_TOKENS = 100_000


class _TokenBits(dict):
    """A whitespace-free token's bits: the patterns one of whose words it holds (found on first sight)."""

    def __init__(self, word_bits: dict[str, int]) -> None:
        super().__init__()
        self.word_bits = word_bits
        # One scan for "holds any word" (most tokens hold none), its branches grouped by first letter:
        # re tries a group's letter once, not every word's (~2x faster than a flat alternation).
        groups: dict[str, list[str]] = {}
        for word in sorted(word_bits, key=len, reverse=True):
            groups.setdefault(word[0], []).append(re.escape(word[1:]))
        self.any_word = re.compile("|".join(f"{re.escape(first)}(?:{'|'.join(rests)})" for first, rests in groups.items()))

    def __missing__(self, token: str) -> int:
        bits = 0
        if self.any_word.search(token):
            for word, bit in self.word_bits.items():
                if word in token:
                    bits |= bit
        if len(self) < MAX_TOKENS:   # when full, new tokens are looked at each time: the common ones came first
            self[token] = bits
        return bits


class WakeWords:
    """`table`: pattern -> (openings, words); a lowercased text that neither starts with one of the
    openings nor holds one of the words cannot match the pattern. No word may hold whitespace:
    then a word is in a text exactly when it is in one of the text's whitespace-separated tokens."""

    def __init__(self, table: dict[re.Pattern, tuple[tuple[str, ...], tuple[str, ...]]]) -> None:
        # Keyed by id: hashing a compiled pattern hashes its code each time.
        self.bit = {id(pattern): 1 << n for n, pattern in enumerate(table)}
        self.all = (1 << len(table)) - 1
        word_bits: dict[str, int] = {}
        for pattern, (_, words) in table.items():
            for word in words:
                assert word and not any(c.isspace() for c in word), word
                word_bits[word] = word_bits.get(word, 0) | self.bit[id(pattern)]
        self.starts = tuple((starts, self.bit[id(pattern)]) for pattern, (starts, _) in table.items() if starts)
        self.any_start = tuple(opening for starts, _ in self.starts for opening in starts)
        self.tokens = _TokenBits(word_bits)
        self.token_bits = self.tokens.__getitem__

    def of(self, pattern: re.Pattern) -> int:
        """The pattern's bit (0 for a pattern without words: test it with `may_match`)."""
        return self.bit.get(id(pattern), 0)

    def bits(self, low: str) -> int:
        """The bits of the patterns that may match `low` (a lowercased text)."""
        bits = reduce(or_, map(self.token_bits, low.split()), 0)
        if low.startswith(self.any_start):   # one test for most texts, which start with no opening
            for starts, bit in self.starts:
                if low.startswith(starts):
                    bits |= bit
        return bits

    def tokens_bits(self, tokens: list[str]) -> int:
        """The bits of the patterns one of whose words the whitespace-free tokens hold."""
        return reduce(or_, map(self.token_bits, tokens), 0)

    def may_match(self, pattern: re.Pattern, low: str) -> bool:
        """False only when the pattern cannot match `low`; True for a pattern without words."""
        bit = self.bit.get(id(pattern))
        return bit is None or bool(self.bits(low) & bit)
