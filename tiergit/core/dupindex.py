"""Near-duplicate lookup over content-word keys (core/candidate.norm_key): what the promotion
gate and `propose` ask before a line is promoted or staged twice. Pure."""
from __future__ import annotations

from array import array

from rapidfuzz import fuzz


class DupIndex:
    """Near-duplicate lookup: an inverted index of content words picks the texts that share
    at least half of the shorter one's words; rapidfuzz's token_set_ratio decides among them.

    Compact because `promote` holds one over every wiki item (143,000 at 10k files): a text is
    kept as its words' numbers in one flat array (its key is joined again only for the texts that
    share enough words), a wiki label as its path's number and its line, and the postings as
    arrays of C ints. A str and an f-string label per item cost ~230 bytes an item (33 MB at 10k)."""

    def __init__(self) -> None:
        self.vocab: dict[str, int] = {}              # word -> its number
        self.words: list[str] = []                   # number -> word
        self.postings: list[array] = []              # word number -> the texts holding it
        self.flat = array("H")                       # every text's word numbers, in order ("I" past 65,535 words)
        self.starts = array("I", [0])                # text i's words: flat[starts[i]:starts[i + 1]]
        self.sizes = array("I")                      # each text's count of distinct words
        self.places: list[str] = []                  # a label's path, by number
        self.place_of = array("I")                   # each text's path number and line:
        self.lines = array("I")                      # its label is "path:line" ...
        self.labels: dict[int, str] = {}             # ... unless it was given one (`add`)
        self._numbers: dict[str, int] = {}           # path -> its number

    def add_at(self, key: str, path: str, line: int) -> None:
        """A reviewed-tier item, labelled `path:line`: what the gate and `propose` name as the item
        a line repeats. Its path is listed in `places` even when its key is empty."""
        number = self._numbers.get(path)
        if number is None:
            number = self._numbers[path] = len(self.places)
            self.places.append(path)
        self._add(key, number, line)

    def add(self, key: str, label: str) -> None:
        if self._add(key, 0, 0):
            self.labels[len(self.sizes) - 1] = label

    def __len__(self) -> int:
        return len(self.sizes)

    def _add(self, key: str, place: int, line: int) -> bool:
        seq = key.split()
        if not seq:
            return False
        idx, vocab, postings, flat = len(self.sizes), self.vocab, self.postings, self.flat
        distinct: set[int] = set()
        for w in seq:
            n = vocab.get(w)
            if n is None:
                n = vocab[w] = len(self.words)
                self.words.append(w)
                postings.append(array("I"))
                if n > 0xFFFF and flat.typecode == "H":
                    flat = self.flat = array("I", flat)
            flat.append(n)
            if n not in distinct:
                distinct.add(n)
                postings[n].append(idx)
        self.starts.append(len(flat))
        self.sizes.append(len(distinct))
        self.place_of.append(place)
        self.lines.append(line)
        return True

    def key(self, idx: int) -> str:
        """Text `idx`'s key as it was added (keys are space-joined words: `norm_key`)."""
        words = self.words
        return " ".join([words[n] for n in self.flat[self.starts[idx]:self.starts[idx + 1]]])

    def label(self, idx: int) -> str:
        given = self.labels.get(idx)
        return given if given is not None else f"{self.places[self.place_of[idx]]}:{self.lines[idx]}"

    def find(self, key: str, ratio: float, skip: str | None = None) -> str | None:
        """The best near-duplicate's label, or None; labels starting with `skip` (the item itself) are passed over."""
        words = set(key.split())
        if not words or not self.sizes:
            return None
        shared: dict[int, int] = {}
        for w in words:
            n = self.vocab.get(w)
            for idx in self.postings[n] if n is not None else ():
                shared[idx] = shared.get(idx, 0) + 1
        best: tuple[float, int] | None = None
        for idx, n in sorted(shared.items()):
            if n * 2 < min(len(words), self.sizes[idx]) or (skip and self.label(idx).startswith(skip)):
                continue
            other = self.key(idx)
            theirs = frozenset(other.split())
            value = fuzz.token_set_ratio(key, other, score_cutoff=ratio)
            if not value or _swapped(words, theirs):
                continue
            # token_set_ratio is 100 for any subset; a short text must match closely as a whole.
            if min(len(words), len(theirs)) < 4 and fuzz.ratio(key, other) < ratio:
                continue
            if value and (best is None or value > best[0]):
                best = (value, idx)
        return None if best is None else f"{self.label(best[1])} ({best[0]:.0f}% similar)"


def _swapped(a: set[str] | frozenset[str], b: frozenset[str]) -> bool:
    """Exactly one word differs on each side and the two are not spelling variants:
    "cache JWKS for ten minutes" vs "… five minutes" states a different fact."""
    only_a, only_b = a - b, b - a
    if len(only_a) != 1 or len(only_b) != 1:
        return False
    return fuzz.ratio(next(iter(only_a)), next(iter(only_b))) < 80
