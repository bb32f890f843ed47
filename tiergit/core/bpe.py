"""Exact BPE token counts in pure Python from a verified rank table.

Building tiktoken's Rust encoder (CoreBPE) costs ~70 ms of CPU, a quarter of a
pre-commit hook. A hook counts a few small files, so it counts them here instead:
the same pre-tokenizer pattern (with the same `regex` module tiktoken's reference
implementation uses), a piece that is itself a token counts 1, and any other piece
is merged pair by pair, lowest rank first, exactly as tiktoken's byte_pair_merge.
tests/features/test_tokens.py checks that every count equals tiktoken's.

Cost: O(n log n) in the length of a piece. The obvious loop (rescan every pair after
each merge) is quadratic, and a pre-tokenizer piece can be as long as the input: a
120 KB run of `-` is one piece, which took minutes. Short pieces (almost all of them)
keep the simple loop, which is faster below ~64 bytes.
"""
from __future__ import annotations

import heapq

# Pieces up to this many bytes use the plain rescan loop (fewer Python objects).
SHORT_PIECE = 64


class RankCounter:
    """`ranks`: a dict, or anything with the same `in` and `get` (tiergit.core.rankindex)."""

    def __init__(self, name: str, ranks, pat_str: str) -> None:
        import regex  # a tiktoken dependency, already imported by tiktoken itself

        self.name = name
        self.ranks = ranks
        self.pattern = regex.compile(pat_str)
        # piece -> tokens: a piece's count depends on the piece alone, and words repeat
        # (a real-sized memory file has ~2,500 pieces, a third of them distinct)
        self.pieces: dict[str, int] = {}

    def count(self, text: str) -> int:
        """Tokens in `text`, special-token text counted as ordinary text (encode_ordinary)."""
        return self.count_pieces(piece.group() for piece in self.pattern.finditer(text))

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
        if self.pattern.groups == 0:
            return self.pattern.findall(text)
        return [piece.group() for piece in self.pattern.finditer(text)]

    def changed_pieces(self, text: str, base: str) -> tuple[list[str], list[str]]:
        """(the pieces of `base`, the pieces of `text`) left once the pieces both texts start
        and end with are taken off. tiktoken merges each pre-tokenizer piece on its own, so a
        text's count is the sum of its pieces' counts: count(text) == count(base) -
        count_pieces(first) + count_pieces(second), exactly (a commit that appends an entry
        counts only the entry and the piece it touches)."""
        new, old = self.split(text), self.split(base)
        limit = min(len(new), len(old))
        head = 0
        while head < limit and new[head] == old[head]:
            head += 1
        tail = 0
        while tail < limit - head and new[-1 - tail] == old[-1 - tail]:
            tail += 1
        return old[head:len(old) - tail], new[head:len(new) - tail]


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
