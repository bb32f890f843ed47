"""Three-way merge of keyed sequences: diff3 regions, then a keyed union inside each region.

A sequence is a list of `Piece`s (sections of a file, or the items and glue text of
one section). Pieces are matched by key, never by line, so two sides that append
different things at the same place are both kept instead of interleaved.
"""
from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Callable   # not typing: ~3 ms of every merged file
from datetime import date
from difflib import SequenceMatcher

from tiergit.core.record import Record

Key = tuple


class Piece(Record):
    """kind: "section", "list" (list item), "block" (paragraph/fence), "glue"; label: what a message
    calls it (a heading, an item's first words); conflicts: conflict regions inside `text` (after a
    merge); tail: a section's trailing blank lines (not part of any child)."""
    _fields = ("key", "text", "kind", "date", "label", "children", "conflicts", "tail")

    def __init__(self, key: Key, text: str, kind: str = "glue", date: date | None = None, label: str = "",
                 children: list[Piece] | None = None, conflicts: int = 0, tail: str = "") -> None:
        self.key, self.text, self.kind, self.date, self.label = key, text, kind, date, label
        self.children: list[Piece] = [] if children is None else children
        self.conflicts, self.tail = conflicts, tail


class Conflict(Record):
    _fields = ("ours", "theirs", "label", "kind", "key")

    def __init__(self, ours: list[Piece], theirs: list[Piece], label: str = "", kind: str = "conflict",
                 key: Key = ("conflict",)) -> None:
        self.ours, self.theirs, self.label, self.kind, self.key = ours, theirs, label, kind, key


Out = Piece | Conflict
# merge_same(base or None, ours, theirs) -> what one key becomes when both sides have it
MergeSame = Callable[[Piece | None, Piece, Piece], list[Out]]


class SeqResult(Record):
    _fields = ("outs", "notes")

    def __init__(self, outs: list[Out], notes: list[str] | None = None) -> None:
        self.outs, self.notes = outs, [] if notes is None else notes


def key_matches(a: list[Key], b: list[Key]) -> dict[int, int]:
    """Index in `a` -> index in `b` of the keys a diff of the two sequences pairs."""
    out = {}
    for blk in SequenceMatcher(None, a, b, autojunk=False).get_matching_blocks():
        for n in range(blk.size):
            out[blk.a + n] = blk.b + n
    return out


def diff3_regions(base: list[Key], ours: list[Key], theirs: list[Key], to_o: dict[int, int], to_t: dict[int, int]):
    """diff3: yield ('sync', b, o, t) for keys stable in all three, else ('region', bs, os, ts) slices."""
    bi = oi = ti = 0
    for b in range(len(base)):
        if b in to_o and b in to_t and to_o[b] >= oi and to_t[b] >= ti:
            o, t = to_o[b], to_t[b]
            if bi < b or oi < o or ti < t:
                yield "region", (bi, b), (oi, o), (ti, t)
            yield "sync", b, o, t
            bi, oi, ti = b + 1, o + 1, t + 1
    if bi < len(base) or oi < len(ours) or ti < len(theirs):
        yield "region", (bi, len(base)), (oi, len(ours)), (ti, len(theirs))


def _same_texts(a: list[Piece], b: list[Piece]) -> bool:
    return len(a) == len(b) and all(x.key == y.key and x.text == y.text for x, y in zip(a, b))


class _Whole:
    """The three whole sequences by key, and the keys that must not be settled region by region:
    a base piece one side moved (the diff of that side does not pair it) goes where that side put
    it (ours' place when both moved it), and a piece both sides added goes where ours put it,
    each once, with both sides' changes."""

    def __init__(self, base: dict[Key, Piece], ours: dict[Key, Piece], theirs: dict[Key, Piece],
                 moved_o: set[Key], moved_t: set[Key], both_new: set[Key], reordered_o: set[Key],
                 reordered_t: set[Key]) -> None:
        self.base, self.ours, self.theirs = base, ours, theirs
        self.moved_o, self.moved_t, self.both_new = moved_o, moved_t, both_new
        self.reordered_o, self.reordered_t = reordered_o, reordered_t

    def special(self, pieces: list[Piece]) -> bool:
        return any(p.key in self.moved_o or p.key in self.moved_t or p.key in self.both_new
                   or p.key in self.reordered_o or p.key in self.reordered_t for p in pieces)


def _whole(base: list[Piece], ours: list[Piece], theirs: list[Piece], to_o: dict[int, int],
           to_t: dict[int, int]) -> _Whole:
    b, o, t = ({p.key: p for p in seq} for seq in (base, ours, theirs))
    moved_o = {p.key for i, p in enumerate(base) if p.key in o and i not in to_o}
    moved_t = {p.key for i, p in enumerate(base) if p.key in t and i not in to_t}
    return _Whole(b, o, t, moved_o, moved_t, (set(o) & set(t)) - set(b),
                  _reordered(base, ours) if moved_o else set(), _reordered(base, theirs) if moved_t else set())


def _longest_runs(values: list[int]) -> list[int]:
    """For each value, the length of the longest increasing run of values ending with it. O(n log n)."""
    tails: list[int] = []
    out = []
    for v in values:
        at = bisect_left(tails, v)
        tails[at:at + 1] = [v]
        out.append(at + 1)
    return out


def _reordered(base: list[Piece], side: list[Piece]) -> set[Key]:
    """Base pieces the side kept that some least reading of its reorder moved: those missing from
    at least one longest run of them the side kept in base order. Of two swapped entries either
    may have moved (the text cannot tell), so both are."""
    at = {p.key: i for i, p in enumerate(base)}
    kept = [(at[p.key], p.key) for p in side if p.key in at]
    values = [v for v, _ in kept]
    ending = _longest_runs(values)
    starting = _longest_runs([-v for v in reversed(values)])[::-1]
    best = max(ending, default=0)
    on_a_longest = [e + s - 1 == best for e, s in zip(ending, starting)]
    per_level = Counter(e for e, on in zip(ending, on_a_longest) if on)
    return {k for (_, k), e, on in zip(kept, ending, on_a_longest) if not on or per_level[e] > 1}


def merge_sequences(base: list[Piece], ours: list[Piece], theirs: list[Piece], merge_same: MergeSame,
                    conflict_on_replace: bool) -> SeqResult:
    """Merge three keyed sequences. With `conflict_on_replace`, a region where both sides
    removed the same base piece and each put something different there is one conflict.
    Moves are moves: a piece one side moved comes out once, where it was moved to."""
    result = SeqResult([])
    kb, ko, kt = [p.key for p in base], [p.key for p in ours], [p.key for p in theirs]
    to_o, to_t = key_matches(kb, ko), key_matches(kb, kt)
    whole = _whole(base, ours, theirs, to_o, to_t)
    base_index = {k: i for i, k in enumerate(kb)}
    for tag, b, o, t in diff3_regions(kb, ko, kt, to_o, to_t):
        if tag == "sync":
            result.outs.extend(merge_same(base[b], ours[o], theirs[t]))
            continue
        bs, os_, ts = base[b[0]:b[1]], ours[o[0]:o[1]], theirs[t[0]:t[1]]
        if whole.special(bs) or whole.special(os_) or whole.special(ts):
            pass
        elif _same_texts(os_, bs):
            result.outs.extend(ts)
            continue
        elif _same_texts(ts, bs) or _same_texts(os_, ts):
            result.outs.extend(os_)
            continue
        _merge_region(bs, os_, ts, (ko, kt, base_index, o[0], t[0]), whole, merge_same,
                      conflict_on_replace, result)
    return result


def _anchor(side_keys: list[Key], pos: int, base_index: dict[Key, int]) -> int:
    """Base index of the nearest piece before `pos` on that side that the base also has."""
    for j in range(pos - 1, -1, -1):
        if side_keys[j] in base_index:
            return base_index[side_keys[j]]
    return -1


def _one_side(base: Piece, kept: Piece, notes: list[str], moved: bool) -> list[Out]:
    """A base piece one side deleted: gone, unless the other side edited or moved it (nothing is lost)."""
    edited = kept.text.rstrip() != base.text.rstrip()
    if not edited and not moved:
        return []
    notes.append(f"kept {kept.label or 'a piece'}: {'edited' if edited else 'moved'} on one side, "
                 "deleted on the other")
    return [kept]


def _moved(key: Key, whole: _Whole, merge_same: MergeSame, notes: list[str]) -> list[Out]:
    """A base piece one side moved: merged with the other side's version, or alone."""
    o, t = whole.ours.get(key), whole.theirs.get(key)
    if o is not None and t is not None:
        return merge_same(whole.base[key], o, t)
    moved = key in (whole.reordered_o if o is not None else whole.reordered_t)
    return _one_side(whole.base[key], o or t, notes, moved)


def _merge_region(bs, os_, ts, where, whole: _Whole, merge_same, conflict_on_replace,
                  result: SeqResult) -> None:
    ko, kt, base_index, o_start, t_start = where
    b_map = {p.key: p for p in bs}
    o_map = {p.key: p for p in os_}
    t_map = {p.key: p for p in ts}
    deleted_by_both = [k for k in b_map if k not in whole.ours and k not in whole.theirs]
    o_added = [k for k in o_map if k not in whole.base and k not in whole.theirs]
    t_added = [k for k in t_map if k not in whole.base and k not in whole.ours]
    if conflict_on_replace and deleted_by_both and o_added and t_added and not (
            whole.special(bs) or whole.special(os_) or whole.special(ts)):
        label = next((b_map[k].label for k in deleted_by_both if b_map[k].label), "")
        result.outs.append(Conflict(list(os_), list(ts), label))
        return
    placed: list[tuple[tuple, list[Out]]] = []
    for k, p in b_map.items():
        if k in whole.moved_o or k in whole.moved_t:
            continue   # it comes out where it was moved to
        if k in o_map and k in t_map:
            placed.append(((base_index[k], 0, 0), merge_same(p, o_map[k], t_map[k])))
        elif k in o_map or k in t_map:
            moved = k in (whole.reordered_o if k in o_map else whole.reordered_t)
            placed.append(((base_index[k], 0, 0), _one_side(p, o_map.get(k) or t_map[k], result.notes, moved)))
    for n, p in enumerate(os_):
        order = (_anchor(ko, o_start + n, base_index), 1, n)
        if p.key in whole.moved_o:
            placed.append((order, _moved(p.key, whole, merge_same, result.notes)))
        elif p.key in whole.both_new:
            placed.append((order, merge_same(None, p, whole.theirs[p.key])))
        elif p.key not in whole.base:
            placed.append((order, [p]))
    for n, p in enumerate(ts):
        if p.key in whole.ours and p.key not in whole.moved_t or p.key in whole.moved_o:
            continue   # settled with ours' piece (or in its base place)
        if p.key in whole.moved_t or p.key not in whole.base:
            placed.append(((_anchor(kt, t_start + n, base_index), 2, n),
                           _moved(p.key, whole, merge_same, result.notes) if p.key in whole.base else [p]))
    placed.sort(key=lambda item: item[0])
    for _, outs in placed:
        result.outs.extend(outs)


def sort_new_by_date(outs: list[Out], base_keys: set[Key], descending: bool) -> list[Out]:
    """Runs of consecutive new dated pieces (added on either side) go in date order."""
    out: list[Out] = []
    run: list[Piece] = []

    def flush():
        run.sort(key=lambda p: p.date, reverse=descending)
        out.extend(run)
        run.clear()

    for item in outs:
        if isinstance(item, Piece) and item.date is not None and item.key not in base_keys:
            run.append(item)
        else:
            flush()
            out.append(item)
    flush()
    return out


def descending_dates(pieces: list[Piece]) -> bool:
    """True when the file keeps newest first (most consecutive dated pieces go down)."""
    dates = [p.date for p in pieces if p.date is not None]
    down = sum(1 for a, b in zip(dates, dates[1:]) if b < a)
    up = sum(1 for a, b in zip(dates, dates[1:]) if b > a)
    return down > up


def render(outs: list[Out], adjacent: set[tuple[Key, Key]], labels: tuple[str, str],
           blank_between: Callable[[Out, Out], bool], nl: str = "\n") -> tuple[str, int]:
    """Join merged pieces. Where two pieces meet that did not meet on either side, make sure
    the first ends with a newline (and a blank line when markdown needs one). `nl` is the
    file's line ending."""
    parts: list[str] = []
    conflicts = 0
    prev: Out | None = None
    for item in outs:
        if isinstance(item, Conflict):
            text = conflict_text(item, labels, nl)
            conflicts += 1
        else:
            text = item.text
            conflicts += item.conflicts
        if not text:
            continue
        if parts:
            if not parts[-1].endswith("\n"):
                parts.append(nl)
            if (prev.key, item.key) not in adjacent and blank_between(prev, item):
                tail = "".join(parts[-2:])
                if not tail.endswith(nl + nl) and tail != nl:
                    parts.append(nl)
        parts.append(text)
        prev = item
    return "".join(parts), conflicts


def conflict_text(item: Conflict, labels: tuple[str, str], nl: str = "\n") -> str:
    def side(pieces: list[Piece]) -> str:
        text = "".join(p.text for p in pieces)
        return text if not text or text.endswith("\n") else text + nl
    return f"<<<<<<< {labels[0]}{nl}{side(item.ours)}======={nl}{side(item.theirs)}>>>>>>> {labels[1]}{nl}"


def adjacency(*sequences: list[Piece]) -> set[tuple[Key, Key]]:
    pairs = set()
    for seq in sequences:
        pairs.update((a.key, b.key) for a, b in zip(seq, seq[1:]))
    return pairs
