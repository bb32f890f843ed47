"""Near-duplicate lookup over content-word keys (core/candidate.norm_key): what the promotion
gate and `propose` ask before a line is promoted or staged twice. Pure."""
from __future__ import annotations

from array import array

from rapidfuzz import fuzz


class DupIndex:
    """Near-duplicate lookup: an inverted index of content words picks the texts that share
    at least half of the shorter one's words; rapidfuzz's token_set_ratio decides among them.

    Compact because `promote` holds one over every wiki item (80,000 at 10k files): each text's
    word set is split again only for the texts that share enough words, and the postings are
    arrays of C ints (a set and a list of int objects per text cost ~2.6 KB an item)."""

    def __init__(self) -> None:
        self.keys: list[str] = []
        self.labels: list[str] = []
        self.sizes = array("I")                      # each text's count of distinct words
        self.postings: dict[str, array] = {}

    @classmethod
    def of_wiki(cls, wiki) -> "DupIndex":
        """The index over reviewed-tier items (`Corpus.wiki`'s (line, path, key)), each labelled `path:line`:
        what the gate and `propose` name as the item a line repeats."""
        index = cls()
        for line, path, key in wiki:
            index.add(key, f"{path}:{line}")
        return index

    def add(self, key: str, label: str) -> None:
        words = set(key.split())
        if not words:
            return
        idx = len(self.keys)
        self.keys.append(key)
        self.labels.append(label)
        self.sizes.append(len(words))
        postings = self.postings
        for w in words:
            ids = postings.get(w)
            if ids is None:
                ids = postings[w] = array("I")
            ids.append(idx)

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
            if n * 2 < min(len(words), self.sizes[idx]) or (skip and self.labels[idx].startswith(skip)):
                continue
            other = self.keys[idx]
            theirs = frozenset(other.split())
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
