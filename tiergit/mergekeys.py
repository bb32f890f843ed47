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
- an entry whose heading changed but whose body did not is the same entry renamed,
  so the other side's edits to it merge into the renamed entry instead of both copies
  being kept.

Cost: O(sections) dictionary work, plus difflib ratios only within a group of
repeated headings (a few sections).
"""
from __future__ import annotations

import hashlib
import re
from collections import Counter, defaultdict
from difflib import SequenceMatcher

from tiergit.mergeseq import Key, Piece

# The same marker session.MARKER_RE reads (kept here so the merge never imports session).
MARKER_RE = re.compile(r"<!--\s*(?:tiergit:session\s+)?(s-[0-9a-z]{4,32})\s*-->")
HEADING_ID_RE = re.compile(r"\s\^(m-[0-9a-z]{4,32})\s*$")
SIMILAR = 0.5   # repeated headings: a side's entry is the base's when at least this similar
MAX_PAIRS = 400   # changed namesakes compared pairwise at most (keeps a 300-fold heading linear)


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
    rest = piece.text.split("\n", 1)[1] if "\n" in piece.text else ""
    return re.sub(r"\s+", " ", rest).strip()


def _digest(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:12]


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


def _match_repeated(base: list[Piece], side: list[Piece], head: Key) -> None:
    olds = [p for p in base if p.key[:3] == head]
    news = [p for p in side if p.key[:3] == head]
    taken_o, taken_n, keyed = set(), set(), {}
    unchanged: dict[str, list[int]] = defaultdict(list)
    for i, o in enumerate(olds):
        unchanged[o.text].append(i)
    for j, n in enumerate(news):   # unchanged entries first: exact, and no ratio to compute
        if unchanged.get(n.text):
            i = unchanged[n.text].pop(0)
            taken_o.add(i)
            taken_n.add(j)
            keyed[j] = olds[i].key
    left_o = [i for i in range(len(olds)) if i not in taken_o]
    left_n = [j for j in range(len(news)) if j not in taken_n]
    if len(left_o) * len(left_n) > MAX_PAIRS:
        left_o = []   # too many changed namesakes to compare: the rest are keyed by content
    pairs = sorted(((SequenceMatcher(None, olds[i].text.splitlines(), news[j].text.splitlines(),
                                     autojunk=False).ratio(), i, j) for i in left_o for j in left_n), reverse=True)
    for ratio, i, j in pairs:
        if ratio < SIMILAR or i in taken_o or j in taken_n:
            continue
        taken_o.add(i)
        taken_n.add(j)
        keyed[j] = olds[i].key
    seen: Counter = Counter()
    for j, p in enumerate(news):
        if j in keyed:
            p.key = keyed[j]
        else:   # new here: keyed by content, so the same entry added on both sides is one
            digest = _digest(p.text)
            seen[digest] += 1
            p.key = head + ("h", digest, seen[digest])


def _renames(base: list[Piece], side: list[Piece]) -> None:
    side_keys = {p.key for p in side}
    missing: dict[str, list[Piece]] = defaultdict(list)
    for p in base:
        body = body_of(p)
        if p.key not in side_keys and p.key[0] == "s" and body:
            missing[body].append(p)
    base_keys = {p.key for p in base}
    for p in side:
        if p.key in base_keys or p.key[0] != "s":
            continue
        candidates = missing.get(body_of(p))
        if candidates:
            p.key = candidates.pop(0).key


def assign(base: list[Piece], ours: list[Piece], theirs: list[Piece]) -> None:
    """Re-key the three versions' sections in place (see the module docstring)."""
    versions = [base, ours, theirs]
    _name_keys(versions)
    for head in _repeated(versions):
        for n, p in enumerate(x for x in base if x.key[:3] == head):
            p.key = head + ("b", n)
        _match_repeated(base, ours, head)
        _match_repeated(base, theirs, head)
    _renames(base, ours)
    _renames(base, theirs)
