"""Near-duplicate lookup over content-word keys (core/candidate.norm_key): what the promotion
gate and `propose` ask before a line is promoted or staged twice. Pure."""
from __future__ import annotations

from rapidfuzz import fuzz


class DupIndex:
    """Near-duplicate lookup: an inverted index of content words picks the texts that share
    at least half of the shorter one's words; rapidfuzz's token_set_ratio decides among them."""

    def __init__(self) -> None:
        self.keys: list[str] = []
        self.labels: list[str] = []
        self.words: list[frozenset[str]] = []
        self.postings: dict[str, list[int]] = {}

    def add(self, key: str, label: str) -> None:
        words = set(key.split())
        if not words:
            return
        idx = len(self.keys)
        self.keys.append(key)
        self.labels.append(label)
        self.words.append(frozenset(words))
        for w in words:
            self.postings.setdefault(w, []).append(idx)

    def find(self, key: str, ratio: float, skip: str | None = None) -> str | None:
        """The best near-duplicate's label, or None; labels starting with `skip` (the item itself) are passed over."""
        words = set(key.split())
        if not words or not self.keys:
            return None
        shared: dict[int, int] = {}
        for w in words:
            for idx in self.postings.get(w, ()):
                shared[idx] = shared.get(idx, 0) + 1
        best: tuple[float, int] | None = None
        for idx, n in sorted(shared.items()):
            theirs = self.words[idx]
            if n * 2 < min(len(words), len(theirs)) or (skip and self.labels[idx].startswith(skip)):
                continue
            other = self.keys[idx]
            value = fuzz.token_set_ratio(key, other, score_cutoff=ratio)
            if not value or _swapped(words, theirs):
                continue
            # token_set_ratio is 100 for any subset; a short text must match closely as a whole.
            if min(len(words), len(theirs)) < 4 and fuzz.ratio(key, other) < ratio:
                continue
            if value and (best is None or value > best[0]):
                best = (value, idx)
        return None if best is None else f"{self.labels[best[1]]} ({best[0]:.0f}% similar)"


def _swapped(a: set[str] | frozenset[str], b: frozenset[str]) -> bool:
    """Exactly one word differs on each side and the two are not spelling variants:
    "cache JWKS for ten minutes" vs "… five minutes" states a different fact."""
    only_a, only_b = a - b, b - a
    if len(only_a) != 1 or len(only_b) != 1:
        return False
    return fuzz.ratio(next(iter(only_a)), next(iter(only_b))) < 80
