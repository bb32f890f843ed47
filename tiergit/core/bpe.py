"""Exact BPE token counts in pure Python from a verified rank table.

Building tiktoken's Rust encoder (CoreBPE) costs ~70 ms of CPU, a quarter of a
pre-commit hook. A hook counts a few small files, so it counts them here instead:
the same pre-tokenizer pattern (with the same `regex` module tiktoken's reference
implementation uses; on most text, its form in the standard `re`: tiergit.core.prepattern), a piece that
is itself a token counts 1, and any other piece is merged pair by pair, lowest rank
first, exactly as tiktoken's byte_pair_merge. A changed file is counted from its
earlier version's count: only the lines around the change are split (`seams`).
tests/features/test_tokens.py checks that every count equals tiktoken's.

Cost: O(n log n) in the length of a piece. The obvious loop (rescan every pair after
each merge) is quadratic, and a pre-tokenizer piece can be as long as the input: a
120 KB run of `-` is one piece, which took minutes. Short pieces (almost all of them)
keep the simple loop, which is faster below ~64 bytes.
"""
from __future__ import annotations

import heapq
import re

from tiergit.core.prepattern import ascii_pattern, ascii_safe, unicode_pattern, unicode_safe

# Pieces up to this many bytes use the plain rescan loop (fewer Python objects).
SHORT_PIECE = 64


class RankCounter:
    """`ranks`: a dict, or anything with the same `in` and `get` (tiergit.core.rankindex)."""

    def __init__(self, name: str, ranks, pat_str: str) -> None:
        self.name = name
        self.ranks = ranks
        self.pat_str = pat_str
        self._pattern = None
        # The same pattern for the standard library's `re` (tiergit.core.prepattern): a hook that
        # counts plain-ASCII or `unicode_safe` files never imports `regex` (~17 ms), nor compiles its pattern.
        ascii_pat, unicode_pat = ascii_pattern(pat_str), unicode_pattern(pat_str)
        self.ascii = re.compile(ascii_pat) if ascii_pat is not None else None
        self.unicode = re.compile(unicode_pat) if unicode_pat is not None else None
        # piece -> tokens: a piece's count depends on the piece alone, and words repeat
        # (a real-sized memory file has ~2,500 pieces, a third of them distinct)
        self.pieces: dict[str, int] = {}

    @property
    def pattern(self):
        """The encoding's pattern, compiled by `regex` (a tiktoken dependency) on first use."""
        if self._pattern is None:
            import regex  # here: most text never needs it (`pattern_for`)

            self._pattern = regex.compile(self.pat_str)
        return self._pattern

    def pattern_for(self, text: str):
        """A `re` form of the pattern for text it splits the same way (tiergit.core.prepattern),
        else the encoding's own."""
        if self.ascii is not None and ascii_safe(text):
            return self.ascii
        if self.unicode is not None and unicode_safe(text):
            return self.unicode
        return self.pattern

    def count(self, text: str) -> int:
        """Tokens in `text`, special-token text counted as ordinary text (encode_ordinary)."""
        return self.count_pieces(piece.group() for piece in self.pattern_for(text).finditer(text))

    def count_pieces(self, words) -> int:
        """Tokens in these pre-tokenizer pieces: each piece is merged on its own."""
        ranks, pieces = self.ranks, self.pieces
        total = 0
        for word in words:
            n = pieces.get(word)
            if n is None:
                data = word.encode("utf-8")
                if data in ranks:
                    n = 1
                elif len(data) <= SHORT_PIECE:
                    n = merge_count(data, ranks)
                else:
                    n = heap_merge_count(data, ranks)
                if len(data) <= SHORT_PIECE:   # long runs (a 120 KB line of `-`) are not kept
                    pieces[word] = n
            total += n
        return total

    def split(self, text: str) -> list[str]:
        """The pre-tokenizer pieces of `text` (findall gives whole matches only without groups)."""
        pattern = self.pattern_for(text)
        if pattern.groups == 0:
            return pattern.findall(text)
        return [piece.group() for piece in pattern.finditer(text)]

    def _pieces_between(self, text: str, start: int, end: int) -> list[str] | None:
        """The pieces of `text` from `start` to `end`, matched in the whole text (its lookaheads
        and `$` see what follows), or None when a piece runs past `end`. No piece reads past the
        character at `end` (a line start, `seams`): the ASCII pattern serves when the text up to
        it is ASCII, whatever follows (a real file's `—` far from the change)."""
        pieces: list[str] = []
        if start >= end:
            return pieces
        for piece in self.pattern_for(text[start:end + 1]).finditer(text, start):
            if piece.end() > end:
                return None
            pieces.append(piece.group())
            if piece.end() == end:
                return pieces
        return None

    def changed_pieces(self, text: str, base: str) -> tuple[list[str], list[str]]:
        """(the pieces of `base`, the pieces of `text`) left once the pieces both texts start
        and end with are taken off. tiktoken merges each pre-tokenizer piece on its own, so a
        text's count is the sum of its pieces' counts: count(text) == count(base) -
        count_pieces(first) + count_pieces(second), exactly (a commit that appends an entry
        counts only the entry and the piece it touches).

        Only the lines around the change are split: both texts are cut at line starts inside
        the text they share (`seam`), where every piece boundary is the same; the cut at the
        end is checked against the pieces themselves (None from `_pieces_between`: split all)."""
        head, tail = seams(text, base)
        if head or tail:
            old = self._pieces_between(base, head, len(base) - tail)
            new = self._pieces_between(text, head, len(text) - tail)
            if old is not None and new is not None:
                return _trim(new, old)
        return _trim(self.split(text), self.split(base))


def _trim(new: list[str], old: list[str]) -> tuple[list[str], list[str]]:
    """(old, new) without the pieces both start and end with."""
    limit = min(len(new), len(old))
    head = 0
    while head < limit and new[head] == old[head]:
        head += 1
    tail = 0
    while tail < limit - head and new[-1 - tail] == old[-1 - tail]:
        tail += 1
    return old[head:len(old) - tail], new[head:len(new) - tail]


def common_prefix(a: str, b: str) -> int:
    """Length of the text `a` and `b` start with (O(n log n) in C: a binary search on slices)."""
    lo, hi = 0, min(len(a), len(b))
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[:mid] == b[:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def common_suffix(a: str, b: str, most: int) -> int:
    """Length (at most `most`) of the text `a` and `b` end with (reversed copies: C speed)."""
    return min(most, common_prefix(a[::-1], b[::-1]))


def _starts_piece(text: str, at: int) -> bool:
    """A line that starts with this character starts a new piece in tiktoken's patterns: no piece
    runs from a line break into a character that is not space (o200k's punctuation runs may take
    `/`); the end of the text ends every piece."""
    return at >= len(text) or not (text[at].isspace() or text[at] == "/")


def seams(text: str, base: str) -> tuple[int, int]:
    """(head, tail): `text[:head] == base[:head]` and both end with the same `tail` characters,
    each cut just after a line break both share, where a piece starts in both texts (0: none)."""
    same = common_prefix(text, base)
    head = text.rfind("\n", 0, same) + 1
    while head and not (_starts_piece(text, head) and _starts_piece(base, head)):
        head = text.rfind("\n", 0, head - 1) + 1
    end = common_suffix(text, base, min(len(text), len(base)) - head)
    nl = text.find("\n", len(text) - end) if end else -1
    while 0 <= nl < len(text) - 1:
        if _starts_piece(text, nl + 1):
            return head, len(text) - nl - 1
        nl = text.find("\n", nl + 1)
    return head, 0


def merge_count(data: bytes, ranks) -> int:
    """How many tokens byte-pair merging leaves for one piece (ties: the leftmost pair).

    Each pair's rank is looked up once and only the two pairs beside a merge are looked up
    again (under 3n lookups, not a rescan of every pair after each merge: a lookup in a
    rank index costs ~0.7 us). Cost: O(n^2) comparisons in len(data); short pieces only."""
    get = ranks.get
    parts = [data[i:i + 1] for i in range(len(data))]
    pairs = [get(parts[i] + parts[i + 1]) for i in range(len(parts) - 1)]
    while True:
        best_rank, best = None, -1
        for i, rank in enumerate(pairs):
            if rank is not None and (best_rank is None or rank < best_rank):
                best_rank, best = rank, i
        if best < 0:
            return len(parts)
        parts[best:best + 2] = [parts[best] + parts[best + 1]]
        del pairs[best]
        if best > 0:
            pairs[best - 1] = get(parts[best - 1] + parts[best])
        if best < len(pairs):
            pairs[best] = get(parts[best] + parts[best + 1])


def heap_merge_count(data: bytes, ranks) -> int:
    """merge_count in O(n log n): the same merges in the same order.

    Parts are named by their start offset and linked through `nxt`/`prv`. The heap
    holds (rank, left start, right end) for adjacent pairs; ordering by (rank, start)
    is exactly "lowest rank, then leftmost", because parts never reorder. A heap entry
    is stale when its left part was absorbed or either part has grown since, which
    shows as `nxt[nxt[start]] != end`; stale entries are skipped when popped.
    """
    n = len(data)
    nxt = list(range(1, n + 2))  # nxt[n] = n + 1 is a sentinel
    prv = list(range(-1, n))
    alive = [True] * n
    heap: list[tuple[int, int, int]] = []
    get = ranks.get
    for i in range(n - 1):
        rank = get(data[i:i + 2])
        if rank is not None:
            heap.append((rank, i, i + 2))
    heapq.heapify(heap)
    parts = n
    while heap:
        _, start, end = heapq.heappop(heap)
        mid = nxt[start]
        if not alive[start] or mid >= n or nxt[mid] != end:
            continue
        alive[mid] = False  # merge the right part into the left one
        nxt[start] = end
        if end < n:
            prv[end] = start
        parts -= 1
        before = prv[start]
        if before >= 0:
            rank = get(data[before:end])
            if rank is not None:
                heapq.heappush(heap, (rank, before, end))
        if end < n:
            after = nxt[end]
            rank = get(data[start:after])
            if rank is not None:
                heapq.heappush(heap, (rank, start, after))
    return parts
