"""Entry-aware three-way merge of memory files (what `tiergit merge-driver` runs). Pure.

A file is cut into sections at the entry level (dated entries keyed by heading and
date, pinned sections by heading); a section is cut into items (keyed by item id)
and the text between them. Both levels merge by key (see mergeseq), so entries or
items added on both sides are all kept; only the same item changed differently on
both sides becomes a conflict, marked inside its entry, unless both sides only inserted
lines there (mergelines). Frontmatter merges key by key. Line endings and BOM: mergeskin.
"""
from __future__ import annotations

import re
from collections import Counter

from tiergit.core import mergederived as derived
from tiergit.core import mdsegments, mergekeys, mergelines, mergeskin
from tiergit.core import parse as parse_mod
from tiergit.core.mergeseq import (
    Conflict,
    Out,
    Piece,
    adjacency,
    descending_dates,
    merge_sequences,
    render,
    sort_new_by_date,
)
from tiergit.core.record import Record

DEFAULT_LABELS = ("ours", "theirs")
# Larger files are merged line by line (git merge-file): memory files are capped at 256 KB
# by default (limits.max_file_bytes), and an entry merge of a 50 MB file took minutes
# (600 KB takes ~3 s: benchmarks/bench_merge.py).
MAX_MERGE_BYTES = 512 * 1024


class MergeResult(Record):
    _fields = ("text", "conflicts", "conflict_sections", "notes")

    def __init__(self, text: str, conflicts: int, conflict_sections: list[str] | None = None,
                 notes: list[str] | None = None) -> None:
        self.text, self.conflicts = text, conflicts
        self.conflict_sections = [] if conflict_sections is None else conflict_sections   # headings with markers
        self.notes = [] if notes is None else notes


class _Doc:
    def __init__(self, frontmatter_text: str, metadata: dict, sections: list[Piece]) -> None:
        self.frontmatter_text, self.metadata, self.sections = frontmatter_text, metadata, sections


def _split_level(docs: list[parse_mod.MemoryDoc]) -> int:
    """One cut level for all three versions, so a section means the same thing in each."""
    levels = [d.entry_level for d in docs if d.entry_level is not None]
    return min(levels) if levels else 2


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().lower()


def _label(item: parse_mod.Item, text: str) -> str:
    """How a note or conflict names the item: its clean text, as the parse already made it when `text` is
    the item's own (a 60 KB section's ~400 items, cut in three versions: ~3 ms of a merge)."""
    first = (item.clean if text == item.text else parse_mod.clean_text(text)).split("\n")[0]
    return f"item '{first[:50]}'"


def _chunks(lines: list[str], start: int, end: int, items: list[parse_mod.Item]) -> list[Piece]:
    """Items of lines[start:end] keyed by id, the text between them keyed by its content.

    Blank lines belong to the piece before them and are not part of its key, so a
    trailing blank line that moves when something is appended is not a change.
    """
    pieces: list[Piece] = []
    seen: Counter = Counter()

    def add(first: int, last: int, kind: str, item: parse_mod.Item | None = None) -> None:
        while pieces and first < last and not lines[first].strip():
            pieces[-1].text += lines[first]
            first += 1
        content_end = last
        while content_end > first and not lines[content_end - 1].strip():
            content_end -= 1
        content, trail = "".join(lines[first:content_end]), "".join(lines[content_end:last])
        if not content and pieces:
            pieces[-1].text += trail
            return
        if not content and not trail:
            return
        key_base = ("i", item.id) if item is not None else ("g", _norm(content))
        seen[key_base] += 1
        label = _label(item, content) if item is not None else ""
        pieces.append(Piece(key_base + (seen[key_base],), content + trail, kind,
                            item.date if item is not None else None, label))

    cursor = start
    for item in items:
        first, last = item.line - 1, item.end_line
        if first < cursor or last > end:
            continue
        add(cursor, first, "glue")
        text = "".join(lines[first:last])
        add(first, last, "list" if parse_mod.LIST_MARKER_RE.match(text) else "block", item)
        cursor = last
    add(cursor, end, "glue")
    return pieces


def _split_tail(pieces: list[Piece]) -> str:
    """Take the section's trailing blank lines off its last piece, so appending after
    that piece on two sides does not move them into the middle."""
    if not pieces:
        return ""
    last = pieces[-1]
    if not last.text.endswith("\n"):
        return ""
    content = last.text.rstrip("\n")
    if content.strip() == "":
        return ""
    tail = last.text[len(content) + 1:]
    last.text = content + "\n"
    return tail


def _document(text: str, path: str, level: int, doc: parse_mod.MemoryDoc) -> _Doc:
    fm_lines = doc.frontmatter_text.count("\n")
    lines = text.splitlines(keepends=True)
    if (doc.entry_level or 2) == level:
        # parse() already cut this version at the same level: reuse its sections.
        cuts = [(s.line - 1, s.level, s.heading) for s in doc.sections if s.level > 0]
    else:
        body = "".join(lines[fm_lines:])
        cuts = [(fm_lines + start, lvl, heading) for start, lvl, heading in mdsegments.headings(body)
                if lvl <= level]
    bounds = [(fm_lines, 0, None)] if not cuts or cuts[0][0] > fm_lines else []
    bounds += cuts
    sections: list[Piece] = []
    seen: Counter = Counter()
    for n, (start, lvl, heading) in enumerate(bounds):
        end = bounds[n + 1][0] if n + 1 < len(bounds) else len(lines)
        if start >= end:
            continue
        key_base = ("s", lvl, _norm(heading)) if heading is not None else ("preamble",)
        seen[key_base] += 1
        sections.append(Piece(key_base + (seen[key_base],), "".join(lines[start:end]), "section",
                              parse_mod.heading_date(heading) if heading else None,
                              f"'{heading}'" if heading else "the top of the file"))
    return _Doc(doc.frontmatter_text, doc.metadata, sections)


def _cut_into_chunks(section: Piece) -> Piece:
    """Items and glue of one section, found only for sections both sides changed (most
    sections of a real merge are equal on all sides and are never cut)."""
    if section.children or not section.text:
        return section
    try:
        items = parse_mod.parse(section.text, by_stretch=True, kinds=False).items
    except parse_mod.InputError:
        items = []   # a body that starts with `---` reads as frontmatter alone: merge it as text
    lines = section.text.splitlines(keepends=True)
    section.children = _chunks(lines, 0, len(lines), sorted(items, key=lambda i: i.line))
    section.tail = _split_tail(section.children)
    return section


def _blank_between_chunks(prev: Out, nxt: Out) -> bool:
    # Two list items may touch; a paragraph next to anything needs a blank line.
    return not (prev.kind == "list" and nxt.kind == "list")


def _merge_section(base: Piece | None, ours: Piece, theirs: Piece, labels: tuple[str, str],
                   notes: list[str]) -> list[Out]:
    if ours.text == theirs.text or (base is not None and theirs.text == base.text):
        return [ours]
    if base is not None and ours.text == base.text:
        return [theirs]
    ours, theirs = _cut_into_chunks(ours), _cut_into_chunks(theirs)
    base_chunks = _cut_into_chunks(base).children if base is not None else []
    seq = merge_sequences(base_chunks, ours.children, theirs.children,
                          lambda b, o, t: _merge_chunk(b, o, t), conflict_on_replace=True)
    notes.extend(f"{ours.label}: {n}" for n in seq.notes)
    outs = sort_new_by_date(seq.outs, {p.key for p in base_chunks}, descending_dates(ours.children))
    text, conflicts = render(outs, adjacency(base_chunks, ours.children, theirs.children), labels,
                             _blank_between_chunks)
    tail = theirs.tail if base is not None and ours.tail == base.tail else ours.tail
    lined = mergelines.insertions_only(base.text, ours.text, theirs.text) if conflicts and base is not None else None
    if lined is not None:   # both wrote after the same block: both kept, as union would
        return [Piece(ours.key, lined, "section", ours.date, ours.label)]
    return [Piece(ours.key, text + tail, "section", ours.date, ours.label, [], conflicts)]


def _merge_chunk(base: Piece | None, ours: Piece, theirs: Piece) -> list[Out]:
    if ours.text == theirs.text or (base is not None and theirs.text == base.text):
        return [ours]
    if base is not None and ours.text == base.text:
        return [theirs]
    if ours.text.rstrip("\n \t") == theirs.text.rstrip("\n \t"):
        return [ours]   # only the blank lines after it differ: not worth a conflict
    return [Conflict([ours], [theirs], ours.label)]


def _dump_key(key, value) -> str:
    import yaml  # only a frontmatter conflict needs it; the merge driver starts once per file

    return yaml.safe_dump({key: value}, sort_keys=False, allow_unicode=True, default_flow_style=False)


def _merge_value(b: object, o: object, t: object, has_b: bool) -> tuple[object, bool]:
    """(merged value, clean). Mappings changed on both sides merge one level down."""
    if o == t or (has_b and t == b):
        return o, True
    if has_b and o == b:
        return t, True
    if isinstance(o, dict) and isinstance(t, dict) and (not has_b or isinstance(b, dict)):
        base = b if has_b else {}
        out = {}
        for key in list(o) + [k for k in t if k not in o]:
            if key in o and key in t:
                value, clean = _merge_value(base.get(key), o[key], t[key], key in base)
                if not clean:
                    return None, False
                out[key] = value
            elif not (key in base and base[key] == (o[key] if key in o else t[key])):
                out[key] = o[key] if key in o else t[key]
        return out, True
    return None, False


def merge_frontmatter(base: _Doc, ours: _Doc, theirs: _Doc, labels: tuple[str, str],
                      fixed: dict | None = None) -> tuple[str, int]:
    """Key by key; the text is kept verbatim whenever only one side changed it and it
    already carries the derived values `fixed` (see mergederived)."""
    fixed = fixed or {}
    b, o, t = (derived.apply(d.metadata, fixed) for d in (base, ours, theirs))
    if ours.frontmatter_text == theirs.frontmatter_text or theirs.frontmatter_text == base.frontmatter_text:
        if derived.fits(ours.metadata, fixed):
            return ours.frontmatter_text, 0
    elif ours.frontmatter_text == base.frontmatter_text and derived.fits(theirs.metadata, fixed):
        return theirs.frontmatter_text, 0
    lines, conflicts = [], 0
    for key in list(o) + [k for k in t if k not in o]:
        in_o, in_t = key in o, key in t
        if in_o and in_t:
            value, clean = _merge_value(b.get(key), o[key], t[key], key in b)
            if clean:
                lines.append(_dump_key(key, value))
            else:
                conflicts += 1
                lines.append(f"<<<<<<< {labels[0]}\n{_dump_key(key, o[key])}=======\n"
                             f"{_dump_key(key, t[key])}>>>>>>> {labels[1]}\n")
        else:
            value = o[key] if in_o else t[key]
            # Present on one side only: new (keep), or deleted by the other side (drop if unchanged).
            if key in b and b[key] == value:
                continue
            lines.append(_dump_key(key, value))
    if not lines:
        return "", conflicts
    return "---\n" + "".join(lines) + "---\n", conflicts


def merge_texts(base: str, ours: str, theirs: str, path: str = "<memory>",
                labels: tuple[str, str] = DEFAULT_LABELS) -> MergeResult:
    """Merge three versions of a memory file. Raises InputError when one does not parse."""
    if ours == theirs or base == theirs:
        return MergeResult(ours, 0)
    if base == ours:
        return MergeResult(theirs, 0)
    skin = mergeskin.skin_of(base, ours)
    b, o, t = (mergeskin.bare(text) for text in (base, ours, theirs))
    if o == t or b == t or b == o:   # only a line ending or BOM told the sides apart
        return MergeResult(mergeskin.dress(t if b == o else o, skin), 0)
    result = _merge_bare(b, o, t, path, labels)
    result.text = mergeskin.dress(result.text, skin)
    return result


def _merge_bare(base: str, ours: str, theirs: str, path: str, labels: tuple[str, str]) -> MergeResult:
    parsed = [parse_mod.parse(text, path, with_items=False, by_stretch=True) for text in (base, ours, theirs)]
    level = _split_level(parsed)
    b, o, t = (_document(text, path, level, doc) for text, doc in zip((base, ours, theirs), parsed))
    mergekeys.assign(b.sections, o.sections, t.sections)
    notes: list[str] = []
    seq = merge_sequences(b.sections, o.sections, t.sections,
                          lambda bp, op, tp: _merge_section(bp, op, tp, labels, notes),
                          conflict_on_replace=False)
    notes.extend(seq.notes)
    outs = sort_new_by_date(seq.outs, {p.key for p in b.sections}, descending_dates(o.sections))
    body, conflicts = render(outs, adjacency(b.sections, o.sections, t.sections), labels,
                             lambda prev, nxt: True)
    in_conflict = [p.label for p in outs if isinstance(p, Piece) and p.conflicts]
    in_conflict += [p.label for p in outs if isinstance(p, Conflict)]
    fixed = derived.values((o.metadata, t.metadata), (ours[len(o.frontmatter_text):], theirs[len(t.frontmatter_text):]),
                           body)
    fm_text, fm_conflicts = merge_frontmatter(b, o, t, labels, fixed)
    if fm_conflicts:
        in_conflict.insert(0, "the frontmatter")
    return MergeResult(fm_text + body, conflicts + fm_conflicts, in_conflict, notes)
