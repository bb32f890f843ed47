"""The merge driver's fast path as text: append-only merges settled exactly as merge.merge_texts would.

git starts the driver once per file, so an interpreter start is most of its cost. This module
imports nothing (no `os`, no `re`, no `datetime`, no dataclasses, no markdown-it) and
settles, byte for byte as the entry merge does, the case a memory merge almost always is: both
sides appended (the base is a prefix of each side). Each side's text may start new sections
and may first add lines to the base's last section: one side only blank lines, or both when
that section ends with a list item, ours then theirs, theirs opening with a heading (the item
merge keeps ours' pieces, then theirs'). Anything else returns None and the caller runs the
full entry merge (`merge.merge_texts`).

When it answers, the entry merge would: keep every base section (all unchanged), give the base's
last section the added lines (with the item merge's choice of trailing blank lines), then put
ours' new sections before theirs' (one diff3 region anchored on the last base section), sort
each run of new dated sections by date (newest first when the file is newest-first), and join
them with a blank line where two sections meet that did not meet in any version. It answers only when it can prove that:

- headings are where markdown-it puts them: no fence, HTML block (bar one-line comments),
  setext underline, link reference definition, heading inside a list or quote or indented,
  and no line break but `\\n` (so line numbers and `str.splitlines` agree);
- no frontmatter, no CR, no BOM, no NUL; at most MAX_MERGE_BYTES per version;
- every section key is unique: no heading repeated within a version, no new section reusing a
  base heading or session marker or the other side's, the base's last section keeps its key
  (mergekeys would otherwise pair namesakes, renames or replacements);
- inside the last section: no added line that could open a dated item (new dated items are
  sorted), no line of one side's that occurs in the other's (a shared item key), no block id.

`tests/features/test_merge_fast.py` checks the headings against markdown-it and the answers against the
full merge on real corpus histories (real `git merge`s).
tiergit.shell.mergefast reads and writes the files around it; `tiergit.mergeentry` is what
`tiergit install` registers, and `driverrun` (the full driver) asks here first too.
"""
from tiergit.core.mdheadings import heading_date, headings, own_name

MAX_MERGE_BYTES = 512 * 1024   # merge.MAX_MERGE_BYTES (a test keeps the two equal)
# Line breaks str.splitlines knows besides \n (merge._document cuts with it), CR, BOM, NUL.
_ODD = ("\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029", "\ufeff", "\x00")
def _sections(lines: list[str], heads: list[tuple[int, int, str]], level: int, first: int):
    """[start line, end line, heading or None, level] cut at headings of `level` or above;
    lines before the first cut (from `first`) come first with heading None."""
    cuts = [(i, lvl, text) for i, lvl, text in heads if lvl <= level]
    out = []
    if not cuts or cuts[0][0] > first:
        out.append([first, cuts[0][0] if cuts else len(lines), None, 0])
    for n, (i, lvl, text) in enumerate(cuts):
        out.append([i, cuts[n + 1][0] if n + 1 < len(cuts) else len(lines), text, lvl])
    return out


def _key(text: str, heading: str | None, level: int) -> tuple:
    if heading is None:
        return ("preamble",)
    name = own_name(text)
    return ("n", name) if name is not None else ("s", level, " ".join(heading.split()).lower())


def _tail(text: str) -> str:
    """merge._split_tail: the blank lines after a section's last line (bar its own newline)."""
    return text[len(text.rstrip("\n")) + 1:] if text.endswith("\n") else ""


def _item_dated(line: str) -> bool:
    """True when the line could open an item parse.ITEM_DATE_RE dates (a superset: every
    optional part of the pattern tried, any `[...]` taken for its `[\\w+]`)."""
    s = line.lstrip()
    starts = [s]
    if s[:1] in ("-", "*", "+") and s[1:2].isspace():
        starts.append(s[1:].lstrip())
    digits = 0
    while digits < len(s) and s[digits].isdecimal():
        digits += 1
    if digits and s[digits:digits + 1] in (".", ")") and s[digits + 1:digits + 2].isspace():
        starts.append(s[digits + 1:].lstrip())
    starts += [t[t.index("]") + 1:].lstrip() for t in starts if t.startswith("[") and "]" in t]
    return any(heading_date(t.lstrip("*")[:10]) is not None for t in starts)


def _both_grew(last: str, px: str, py: str) -> str | None:
    """The base's last section when both sides added lines to it and one side's lines are
    only blank ones: merge._merge_section cuts it into items, every item of the blank side is
    the base's, so the merge keeps the other side's items in their order (no new dated item
    to sort) and chooses the trailing blank lines as it does. None otherwise."""
    ours_tail, theirs_tail = _tail(last + px), _tail(last + py)
    tail = theirs_tail if ours_tail == _tail(last) else ours_tail
    if not last.strip() or any(_item_dated(line) for line in (px + "\n" + py).split("\n")):
        return None
    if not px.strip("\n") or not py.strip("\n"):
        text = last + (py if not px.strip("\n") else px)
        return text[:len(text) - len(_tail(text))] + tail
    # Both added items: ours' follow the base's (adjacent in ours), then theirs' (one diff3
    # region, ours first) after a blank line (theirs' first piece is a heading: never a list
    # item). Only when no base item changes (a blank line, then an unindented line), no item
    # of one side can share a key with the other's, and theirs starts with a heading.
    ty = py.lstrip("\n")
    if not (px.startswith("\n") and py.startswith("\n") and ty.startswith("#") and px.strip("\n")[:1] not in " \t"):
        return None
    if "^m-" in px or "^m-" in py or not _disjoint(px, py) or not _ends_with_item(last):
        return None
    text = last + px
    body = text[:len(text) - len(_tail(text))]
    return body + ("" if body.endswith("\n") else "\n") + "\n" + ty[:len(ty) - len(_tail(ty))] + tail


def _rule(line: str) -> bool:
    """A thematic break (`---`, `* * *`, `___`): text between items, never an item."""
    marks = line.replace(" ", "").replace("\t", "")
    return len(marks) >= 3 and len(set(marks)) == 1 and marks[0] in "-*_"


def _ends_with_item(section: str) -> bool:
    """True when the section's last block is surely an item: a list item opened at column 0
    after a blank line (a paragraph may be text between items, as a rule, a quote or a
    heading is): text added after it by both sides then starts new pieces instead of growing
    that one on both sides (a conflict in the item merge)."""
    lines = section.rstrip("\n \t").split("\n")
    start = len(lines) - 1
    while start > 0 and lines[start - 1].strip():
        start -= 1
    first = lines[start]
    digits = len(first) - len(first.lstrip("0123456789"))
    marker = first[:2] in ("- ", "* ", "+ ") or (0 < digits < 10 and first[digits:digits + 2] in (". ", ") "))
    if start == 0 or _rule(first) or not marker:
        return False
    return not any(_rule(ln) or ln.lstrip()[:1] in (">", "<", "|", "#") for ln in lines[start:])


def _fold(text: str) -> str:
    return " ".join(text.split()).lower()


def _disjoint(px: str, py: str) -> bool:
    """True when no item or text between items of one side can have the same key as one of the
    other's (mergeseq keys: an item by its folded, lowercased clean text, other text by its
    folded content): no line of either, list marker and `[kind]` off, occurs in the other."""
    for one, other in ((px, py), (py, px)):
        folded = _fold(other)
        for line in one.split("\n"):
            probe = line.strip()
            if not probe:
                continue
            digits = 0
            while digits < len(probe) and probe[digits].isdecimal():
                digits += 1
            if probe[:1] in ("-", "*", "+") and probe[1:2].isspace():
                probe = probe[2:].lstrip()
            elif 0 < digits and probe[digits:digits + 1] in (".", ")") and probe[digits + 1:digits + 2].isspace():
                probe = probe[digits + 2:].lstrip()
            while probe.startswith("[") and "]" in probe:   # a check box, a [kind]
                probe = probe[probe.index("]") + 1:].lstrip()
            probe = _fold(probe)[:24]
            if not probe or probe in folded:
                return False   # an empty item matches any other empty one
    return True


def _text_of(lines: list[str], start: int, end: int, whole_end: bool) -> str:
    body = "\n".join(lines[start:end])
    return body + "\n" if end < len(lines) or whole_end else body


def _new_part(lines: list[str], secs) -> tuple[str, list[tuple]]:
    """A side's added text: the lines that continue the base's last section, and its new
    sections as (text, key, date)."""
    ends = not lines[-1]
    if ends:
        lines = lines[:-1]
    prefix, pieces = "", []
    for s, e, h, lvl in secs:
        e = min(e, len(lines))
        if s >= e:
            continue
        text = _text_of(lines, s, e, ends)
        if h is None:
            prefix = text
        else:
            pieces.append((text, _key(text, h, lvl), heading_date(h)))
    return prefix, pieces


def merge(base: str, ours: str, theirs: str) -> str | None:
    """merge.merge_texts(base, ours, theirs).text when both sides only appended (see the module
    docstring), else None. Conflicts never come out of here."""
    if not (base.endswith("\n") and ours.startswith(base) and theirs.startswith(base)) or base.startswith("---"):
        return None
    x, y = ours[len(base):], theirs[len(base):]
    if not x or not y or x == y or max(len(ours), len(theirs)) > MAX_MERGE_BYTES:
        return None   # one side unchanged: the caller's trivial case; bytes cap: a rough guard
    if any(c in t for t in (base, x, y) for c in _ODD):
        return None
    blines = base.split("\n")
    blines.pop()   # base ends with \n
    xlines, ylines = x.split("\n"), y.split("\n")
    bh = headings(blines)
    xh = headings(xlines, blines[-1])
    yh = headings(ylines, blines[-1])
    if bh is None or xh is None or yh is None:
        return None
    dated = [lvl for _, lvl, text in bh + xh + yh if heading_date(text)]
    level = min(dated) if dated else 2
    # (text, key, date) per section; the base's texts end with \n, a side's last may not.
    base_pieces = [(_text_of(blines, s, e, True), h, lvl) for s, e, h, lvl in _sections(blines, bh, level, 0)]
    base_keys = [_key(t, h, lvl) for t, h, lvl in base_pieces]
    if len(set(base_keys)) != len(base_keys):
        return None
    px, xs = _new_part(xlines, _sections(xlines, xh, level, 0))
    py, ys = _new_part(ylines, _sections(ylines, yh, level, 0))
    merged_last = _grown_last(base_pieces[-1], base_keys[-1], px, py)
    if merged_last is None or not _keys_unique(base_keys, xs, ys):
        return None
    return _join(base_pieces, merged_last, _order(base_pieces, xs, ys), len(xs), len(ys))


def _grown_last(last_piece: tuple, last_key: tuple, px: str, py: str) -> str | None:
    """The base's last section with what each side added to it, or None when that needs the
    item merge (both wrote into it) or changes its key."""
    last_text, last_head, last_level = last_piece
    for prefix in (px, py):
        if prefix and _key(last_text + prefix, last_head, last_level) != last_key:
            return None
    if px and py and px != py:
        return _both_grew(last_text, px, py) if last_head is not None else None
    return last_text + (px or py)


def _keys_unique(base_keys: list, xs: list[tuple], ys: list[tuple]) -> bool:
    """No new section repeats a key within its side, the base's, or the other side's."""
    taken = set(base_keys)
    for pieces in (xs, ys):
        keys = {k for _, k, _ in pieces}
        if len(keys) != len(pieces) or keys & taken:
            return False
        taken |= keys
    return True


def _order(base_pieces: list[tuple], xs: list[tuple], ys: list[tuple]) -> list[tuple]:
    """Ours' new sections, then theirs', each run of dated ones sorted in the file's direction
    (from ours' dates: newest first when the file is newest-first)."""
    ours_dates = [heading_date(h) if h is not None else None for _, h, _ in base_pieces]
    ours_dates += [d for _, _, d in xs]
    ours_dates = [d for d in ours_dates if d is not None]
    down = sum(1 for a, b in zip(ours_dates, ours_dates[1:]) if b < a)
    up = sum(1 for a, b in zip(ours_dates, ours_dates[1:]) if b > a)
    new = [(t, ("x", n), d) for n, (t, _, d) in enumerate(xs)] + [(t, ("y", n), d) for n, (t, _, d) in enumerate(ys)]
    order, run = [], []
    for piece in new:
        if piece[2] is not None:
            run.append(piece)
            continue
        run.sort(key=lambda p: p[2], reverse=down > up)
        order += run
        run = []
        order.append(piece)
    run.sort(key=lambda p: p[2], reverse=down > up)
    return order + run


def _join(base_pieces: list[tuple], merged_last: str, order: list[tuple], nx: int, ny: int) -> str:
    """The sections joined, with a blank line where two meet that met in no version."""
    # Pieces that met in some version: consecutive base sections, the last base section and
    # each side's first new one, and consecutive new ones of one side.
    last = ("b", len(base_pieces) - 1)
    adjacent = {(last, ("x", 0)), (last, ("y", 0))}
    adjacent.update((("x", n), ("x", n + 1)) for n in range(nx))
    adjacent.update((("y", n), ("y", n + 1)) for n in range(ny))
    parts = [t for t, _, _ in base_pieces[:-1]] + [merged_last]
    prev = last
    for text, ident, _ in order:
        if not parts[-1].endswith("\n"):
            parts.append("\n")
        if (prev, ident) not in adjacent:
            tail = "".join(parts[-2:])
            if not tail.endswith("\n\n") and tail != "\n":
                parts.append("\n")
        parts.append(text)
        prev = ident
    return "".join(parts)
