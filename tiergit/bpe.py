"""Exact BPE token counts in pure Python from a verified rank table.

Building tiktoken's Rust encoder (CoreBPE) costs ~70 ms of CPU, a quarter of a
pre-commit hook. A hook counts a few small files, so it counts them here instead:
the same pre-tokenizer pattern (with the same `regex` module tiktoken's reference
implementation uses), a piece that is itself a token counts 1, and any other piece
is merged pair by pair, lowest rank first, exactly as tiktoken's byte_pair_merge.
tests/test_tokens.py checks that every count equals tiktoken's.
"""
from __future__ import annotations


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
        for piece in self.pattern.findall(text):
            data = piece.encode("utf-8")
            total += 1 if data in ranks else merge_count(data, ranks)
        return total


def merge_count(data: bytes, ranks: dict[bytes, int]) -> int:
    """How many tokens byte-pair merging leaves for one piece (ties: the leftmost pair)."""
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
