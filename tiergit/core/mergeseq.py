"""Three-way merge of keyed sequences: diff3 regions, then a keyed union inside each region.

A sequence is a list of `Piece`s (sections of a file, or the items and glue text of
one section). Pieces are matched by key, never by line, so two sides that append
different things at the same place are both kept instead of interleaved.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from difflib import SequenceMatcher
from typing import Callable, Union

Key = tuple


@dataclass
class Piece:
    key: Key
    text: str
    kind: str = "glue"            # "section", "list" (list item), "block" (paragraph/fence), "glue"
    date: date | None = None
    label: str = ""               # what a message calls it (a heading, an item's first words)
    children: list["Piece"] = field(default_factory=list)
    conflicts: int = 0            # conflict regions inside `text` (after a merge)
    tail: str = ""                # a section's trailing blank lines (not part of any child)


@dataclass
class Conflict:
    ours: list[Piece]
    theirs: list[Piece]
    label: str = ""
    kind: str = "conflict"
    key: Key = ("conflict",)


Out = Union[Piece, Conflict]
# merge_same(base or None, ours, theirs) -> what one key becomes when both sides have it
MergeSame = Callable[[Piece | None, Piece, Piece], list[Out]]


@dataclass
class SeqResult:
    outs: list[Out]
    notes: list[str] = field(default_factory=list)


def _regions(base: list[Key], ours: list[Key], theirs: list[Key]):
    """diff3: yield ('sync', b, o, t) for keys stable in all three, else ('region', bs, os, ts) slices."""
    def matches(a: list[Key], b: list[Key]) -> dict[int, int]:
        out = {}
        for blk in SequenceMatcher(None, a, b, autojunk=False).get_matching_blocks():
            for n in range(blk.size):
                out[blk.a + n] = blk.b + n
        return out

    to_o, to_t = matches(base, ours), matches(base, theirs)
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


def merge_sequences(base: list[Piece], ours: list[Piece], theirs: list[Piece], merge_same: MergeSame,
                    conflict_on_replace: bool) -> SeqResult:
    """Merge three keyed sequences. With `conflict_on_replace`, a region where both sides
    removed the same base piece and each put something different there is one conflict."""
    result = SeqResult([])
    kb, ko, kt = [p.key for p in base], [p.key for p in ours], [p.key for p in theirs]
    base_index = {k: i for i, k in enumerate(kb)}
    for tag, b, o, t in _regions(kb, ko, kt):
        if tag == "sync":
            result.outs.extend(merge_same(base[b], ours[o], theirs[t]))
            continue
        bs, os_, ts = base[b[0]:b[1]], ours[o[0]:o[1]], theirs[t[0]:t[1]]
        if _same_texts(os_, bs):
            result.outs.extend(ts)
        elif _same_texts(ts, bs) or _same_texts(os_, ts):
            result.outs.extend(os_)
        else:
            _merge_region(bs, os_, ts, kb, ko, kt, base_index, o[0], t[0], merge_same,
                          conflict_on_replace, result)
    return result


def _anchor(side_keys: list[Key], pos: int, base_index: dict[Key, int]) -> int:
    """Base index of the nearest piece before `pos` on that side that the base also has."""
    for j in range(pos - 1, -1, -1):
        if side_keys[j] in base_index:
            return base_index[side_keys[j]]
    return -1


def _merge_region(bs, os_, ts, kb, ko, kt, base_index, o_start, t_start, merge_same,
                  conflict_on_replace, result: SeqResult) -> None:
    b_map = {p.key: p for p in bs}
    o_map = {p.key: p for p in os_}
    t_map = {p.key: p for p in ts}
    deleted_by_both = [k for k in b_map if k not in o_map and k not in t_map]
    o_added = [k for k in o_map if k not in b_map and k not in t_map]
    t_added = [k for k in t_map if k not in b_map and k not in o_map]
    if conflict_on_replace and deleted_by_both and o_added and t_added:
        label = next((b_map[k].label for k in deleted_by_both if b_map[k].label), "")
        result.outs.append(Conflict(list(os_), list(ts), label))
        return
    placed: list[tuple[tuple, list[Out]]] = []
    for k, p in b_map.items():
        if k in o_map and k in t_map:
            placed.append(((base_index[k], 0, 0), merge_same(p, o_map[k], t_map[k])))
        elif k in o_map or k in t_map:
            kept = o_map.get(k) or t_map[k]
            if kept.text.rstrip() != p.text.rstrip():
                # Edited on one side, deleted on the other: keep the edit (nothing is lost).
                result.notes.append(f"kept {kept.label or 'a piece'}: edited on one side, deleted on the other")
                placed.append(((base_index[k], 0, 0), [kept]))
    for n, p in enumerate(os_):
        if p.key in b_map:
            continue
        order = (_anchor(ko, o_start + n, base_index), 1, n)
        if p.key in t_map:
            placed.append((order, merge_same(None, p, t_map[p.key])))
        else:
            placed.append((order, [p]))
    for n, p in enumerate(ts):
        if p.key in b_map or p.key in o_map:
            continue
        placed.append(((_anchor(kt, t_start + n, base_index), 2, n), [p]))
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
