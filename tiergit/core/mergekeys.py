"""Which sections of the three versions of a memory file are "the same entry".

mergeseq matches pieces by key. A section's first key is its heading and how many
times that heading came before (`("s", level, heading, n)`); this module refines the
keys of all three versions together, before the merge, so that:

- an entry that names itself (a session marker `<!-- s-… -->` as `session end` writes,
  or a block id `^m-…` at the end of its heading) is matched by that name alone, whatever
  its heading or position;
- entries that share a heading (two same-day sessions with the same task) are matched
  to the base entry they resemble most, and a new one is keyed by its content, so an
  entry inserted before its namesake never shifts the match onto the wrong one
  (which duplicated entries);
- a section under a base heading that keeps under half of that entry's words is a new
  entry reusing the heading (the old one was deleted), not an edit of it;
- an entry whose heading changed but whose body did not is the same entry renamed,
  so the other side's edits to it merge into the renamed entry instead of both copies
  being kept; so is one renamed and edited on the same side, when its date is the same
  and it keeps 80 % of the entry's words.

Cost: O(size of the three versions) for word sets and dictionaries, plus, within a group of
repeated headings (a few sections): word-set overlaps, at most MAX_PAIRS of them.
"""
from __future__ import annotations

import re
from collections import Counter, defaultdict
from difflib import SequenceMatcher
from functools import lru_cache

from tiergit.core.mergeseq import Key, Piece
from tiergit.core.sha1 import sha1   # not hashlib: its OpenSSL load is ~3 ms of every merged file

# The same marker hotfile.MARKER_RE reads (kept here so the merge never imports the session code).
MARKER_RE = re.compile(r"<!--\s*(?:tiergit:session\s+)?(s-[0-9a-z]{4,32})\s*-->")
HEADING_ID_RE = re.compile(r"\s\^(m-[0-9a-z]{4,32})\s*$")
MAX_PAIRS = 2500   # namesakes compared pairwise at most (a 300-fold heading stays fast)
WORD_RE = re.compile(r"\w{4,}")
KEPT = 0.5   # a namesake that keeps less than half of the base entry's words is another entry
RENAMED = 0.8   # a new heading keeping this share of a deleted entry's words is that entry


def kept_words(old: str, new: str) -> float:
    """Share of the distinct words (4+ letters) of `old` that `new` still has. Cost: O(n)."""
    words = set(WORD_RE.findall(old.lower()))
    return len(words & set(WORD_RE.findall(new.lower()))) / len(words) if words else 1.0


def own_name(piece: Piece) -> str | None:
    """The session marker in the entry's first lines, or the block id on its heading."""
    lines = piece.text.split("\n", 4)
    ident = HEADING_ID_RE.search(lines[0].rstrip("\r"))
    if ident:
        return ident.group(1)
    for line in lines[1:4]:
        marker = MARKER_RE.search(line)
        if marker:
            return marker.group(1)
    return None


def body_of(piece: Piece) -> str:
    """The section without its heading line, whitespace folded (what a rename keeps)."""
    return _folded_body(piece.text)


@lru_cache(maxsize=4096)
def _folded_body(text: str) -> str:
    # Each base section is compared with both sides: fold its text once. str.split() splits on
    # the whitespace `\s+` matches (both ask Py_UNICODE_ISSPACE), without a regex.
    return " ".join(text.split("\n", 1)[1].split()) if "\n" in text else ""


def _digest(text: str) -> str:
    return sha1(text.encode("utf-8")).hexdigest()[:12]


def _name_keys(versions: list[list[Piece]]) -> None:
    for pieces in versions:
        seen: Counter = Counter()
        for p in pieces:
            name = own_name(p) if p.key[0] == "s" else None
            if name is not None:
                seen[name] += 1
                p.key = ("n", name, seen[name])


def _repeated(versions: list[list[Piece]]) -> set[Key]:
    """Heading keys (without the occurrence number) that occur twice in any version."""
    out: set[Key] = set()
    for pieces in versions:
        counts = Counter(p.key[:3] for p in pieces if p.key[0] == "s")
        out.update(k for k, n in counts.items() if n > 1)
    return out


def aligned(base: list[Piece], side: list[Piece]) -> dict[int, int]:
    """side index -> base index of sections with the same body, in the same order (a diff
    of the two sequences of bodies): identical namesakes pair by position, not by luck,
    and a renamed entry pairs with the entry it was. Cost: one difflib pass over the
    section lists (like the merge's own diff of keys)."""
    bodies: dict[str, int] = {}
    a = [bodies.setdefault(body_of(p), len(bodies)) for p in base]
    b = [bodies.setdefault(body_of(p), len(bodies)) for p in side]
    out = {}
    for blk in SequenceMatcher(None, a, b, autojunk=False).get_matching_blocks():
        for n in range(blk.size):
            out[blk.b + n] = blk.a + n
    return out


def _pair_in_order(olds: list[Piece], news: list[Piece], diffed: set[tuple[int, int]],
                   words: dict[int, set[str]]) -> dict[int, int]:
    """news index -> olds index: the order-preserving pairing with the best total score
    (identical text 2, plus 0.5 when the diff of the whole file pairs them too, which
    tells identical namesakes apart by their neighbours; else the share of words kept,
    when at least KEPT). An LCS-style table: O(len(olds) * len(news)) word-set overlaps."""
    words_o, words_n = [_words(p, words) for p in olds], [_words(p, words) for p in news]

    def score(i: int, j: int) -> float:
        if olds[i].text == news[j].text:
            return 2.5 if (i, j) in diffed else 2.0
        share = len(words_o[i] & words_n[j]) / len(words_o[i]) if words_o[i] else 1.0
        return share if share >= KEPT else 0.0

    rows, cols = len(olds), len(news)
    best = [[0.0] * (cols + 1) for _ in range(rows + 1)]
    for i in range(rows):
        for j in range(cols):
            s = score(i, j)
            best[i + 1][j + 1] = max(best[i][j + 1], best[i + 1][j], best[i][j] + s if s else 0.0)
    pairs, i, j = {}, rows, cols
    while i and j:
        if best[i][j] == best[i - 1][j]:
            i -= 1
        elif best[i][j] == best[i][j - 1]:
            j -= 1
        else:
            pairs[j - 1] = i - 1
            i, j = i - 1, j - 1
    return pairs


def _words(piece: Piece, memo: dict[int, set[str]]) -> set[str]:
    """A section's body words, once per merge (both sides pair against the same base sections)."""
    got = memo.get(id(piece))
    if got is None:
        got = memo[id(piece)] = set(WORD_RE.findall(body_of(piece).lower()))
    return got


def _match_repeated(base: list[Piece], side: list[Piece], head: Key, same: dict[int, int],
                    words: dict[int, set[str]]) -> None:
    """Key a side's namesakes by their base entries in order (`_pair_in_order`); past
    MAX_PAIRS, only unchanged ones, by the diff of the texts (`same`). The rest are new,
    keyed by content so the same entry added on both sides is one."""
    base_pos = [i for i, p in enumerate(base) if p.key[:3] == head]
    side_pos = [j for j, p in enumerate(side) if p.key[:3] == head]
    olds, news = [base[i] for i in base_pos], [side[j] for j in side_pos]
    local = {g: n for n, g in enumerate(base_pos)}
    diffed = {(local[same[g]], j) for j, g in enumerate(side_pos)
              if same.get(g) in local and base[same[g]].text == side[g].text}
    if len(olds) * len(news) <= MAX_PAIRS:
        keyed = {j: olds[i].key for j, i in _pair_in_order(olds, news, diffed, words).items()}
    else:
        keyed = {j: olds[i].key for i, j in diffed}
    # A namesake moved past another one crosses the in-order pairing: an unpaired one that is
    # an unpaired base entry's exact text is that entry, moved.
    taken = set(keyed.values())
    for j, p in enumerate(news):
        twin = next((o for o in olds if o.key not in taken and o.text == p.text), None) if j not in keyed else None
        if twin is not None:
            keyed[j] = twin.key
            taken.add(twin.key)
    seen: Counter = Counter()
    for j, p in enumerate(news):
        if j in keyed:
            p.key = keyed[j]
        else:
            digest = _digest(p.text)
            seen[digest] += 1
            p.key = head + ("h", digest, seen[digest])


def _renames(base: list[Piece], side: list[Piece], same: dict[int, int]) -> None:
    """A new section whose body is a base section's that this side no longer has: the
    same entry, renamed. The diff of bodies (`same`) decides first, so of two identical
    bodies the one in the same place is taken."""
    side_keys = {p.key for p in side}
    base_keys = {p.key for p in base}
    missing: dict[str, list[Piece]] = defaultdict(list)
    for p in base:
        body = body_of(p)
        if p.key not in side_keys and p.key[0] == "s" and body:
            missing[body].append(p)
    fresh = [(j, p) for j, p in enumerate(side) if p.key not in base_keys and p.key[0] == "s"]
    for j, p in fresh:
        old = base[same[j]] if j in same else None
        if old is not None and old in missing.get(body_of(p), []):
            missing[body_of(p)].remove(old)
            p.key = old.key
    for j, p in fresh:
        candidates = missing.get(body_of(p)) if p.key not in base_keys else None
        if candidates:
            p.key = candidates.pop(0).key
    _edited_renames(base, side, [p for _, p in fresh if p.key not in base_keys], missing)


def _edited_renames(base: list[Piece], side: list[Piece], fresh: list[Piece],
                    missing: dict[str, list[Piece]]) -> None:
    """A new dated section with a missing base entry's date that keeps RENAMED of that
    entry's words is that entry, renamed and edited (or appended to) on the same side.
    Cost: word sets of the few sections involved."""
    left = [p for group in missing.values() for p in group if p.date is not None]
    for p in fresh:
        if p.date is None:
            continue
        scored = [(kept_words(body_of(o), body_of(p)), n) for n, o in enumerate(left) if o.date == p.date]
        best = max(scored, default=(0.0, -1))
        if best[0] >= RENAMED:
            p.key = left.pop(best[1]).key


def _replaced(base: list[Piece], side: list[Piece]) -> None:
    """A section under a base heading whose body has almost nothing of the base entry's is
    a new entry that reuses the heading (the old one was deleted on that side)."""
    by_key = {p.key: p for p in base if p.key[0] == "s"}
    seen: Counter = Counter()
    for p in side:
        old = by_key.get(p.key)
        if old is None or old.text == p.text or kept_words(body_of(old), body_of(p)) >= KEPT:
            continue
        digest = _digest(p.text)
        seen[digest] += 1
        p.key = p.key[:3] + ("h", digest, seen[digest])


def assign(base: list[Piece], ours: list[Piece], theirs: list[Piece]) -> None:
    """Re-key the three versions' sections in place (see the module docstring)."""
    versions = [base, ours, theirs]
    _name_keys(versions)
    same = {id(side): aligned(base, side) for side in (ours, theirs)}
    words: dict[int, set[str]] = {}   # by id(): every section lives until the merge ends
    for head in _repeated(versions):
        for n, p in enumerate(x for x in base if x.key[:3] == head):
            p.key = head + ("b", n)
        _match_repeated(base, ours, head, same[id(ours)], words)
        _match_repeated(base, theirs, head, same[id(theirs)], words)
    for side in (ours, theirs):
        _replaced(base, side)
        _renames(base, side, same[id(side)])
        _new_entries(base, side)


def _new_entries(base: list[Piece], side: list[Piece]) -> None:
    """A dated entry the base does not have is keyed by its content: two sessions that
    each added an entry under the same heading are two entries (the same text added on
    both sides is still one). Undated sections added on both sides still merge, and so do
    sections whose heading is a line of the base's text: a `---` written right under a
    paragraph makes that paragraph a (setext) heading on each side that wrote one."""
    base_keys = {p.key for p in base}
    base_lines: set[str] | None = None
    seen: Counter = Counter()
    for p in side:
        if p.key[0] == "s" and p.date is not None and p.key not in base_keys and p.key[3] != "h":
            if base_lines is None:
                base_lines = {line.strip() for q in base for line in q.text.split("\n")[1:]}
            if p.text.split("\n", 1)[0].strip() in base_lines:
                continue
            digest = _digest(p.text)
            seen[digest] += 1
            p.key = p.key[:3] + ("h", digest, seen[digest])
