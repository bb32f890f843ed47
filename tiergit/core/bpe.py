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
    def __init__(self, name: str, ranks: dict[bytes, int], pat_str: str) -> None:
        import regex  # a tiktoken dependency, already imported by tiktoken itself

        self.name = name
        self.ranks = ranks
        self.pattern = regex.compile(pat_str)

    def count(self, text: str) -> int:
        """Tokens in `text`, special-token text counted as ordinary text (encode_ordinary)."""
        ranks = self.ranks
        total = 0
        for piece in self.pattern.finditer(text):
            data = piece.group().encode("utf-8")
            if data in ranks:
                total += 1
            elif len(data) <= SHORT_PIECE:
                total += merge_count(data, ranks)
            else:
                total += heap_merge_count(data, ranks)
        return total


def merge_count(data: bytes, ranks: dict[bytes, int]) -> int:
    """How many tokens byte-pair merging leaves for one piece (ties: the leftmost pair).

    Cost: O(n^2) in len(data); used for short pieces only."""
    parts = [data[i:i + 1] for i in range(len(data))]
    while len(parts) > 1:
        best_rank, best = None, -1
        for i in range(len(parts) - 1):
            rank = ranks.get(parts[i] + parts[i + 1])
            if rank is not None and (best_rank is None or rank < best_rank):
                best_rank, best = rank, i
        if best < 0:
            break
        parts[best:best + 2] = [parts[best] + parts[best + 1]]
    return len(parts)


def heap_merge_count(data: bytes, ranks: dict[bytes, int]) -> int:
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
