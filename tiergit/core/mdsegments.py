"""The body's headings and top-level blocks, read section by section: the line scanner
(core/mdscan.py) for each stretch between two top-level ATX headings it handles, markdown-it
only for the stretches it does not. Same answer as mdscan.scan, or as markdown-it's parse of the
whole body, wherever it answers; None leaves the body to markdown-it whole, as before.

Why: the scanner gives up on a whole body for one line it does not handle (a quote, a table's
`---`, an HTML block), and 18 % of the corpus's markdown lines sat in such bodies; cut at
headings, 3.6 % do. A 100 KB history cost the merge driver ~40 ms a parse in markdown-it.

Why a cut is exact: an ATX heading at column 0 ends every open block and container (a
paragraph, list, quote or indented code; a fence or HTML block inside a container, with its
container) except a fence or an HTML block open at the top level. So a stretch that ends with
neither open is parsed alone exactly as inside the whole body; one that may end with one open is
joined to the next (tests/core/test_mdsegments.py holds it equal to markdown-it on the corpus).
Pure: lines in.
"""
from __future__ import annotations

import re

from tiergit.core import mdblocks, mdscan
from tiergit.core.rawtext import split_lines

_TOP_HEADING_RE = re.compile(r"#{1,6}(?:[ \t\n]|$)")
_MAX_JOINS = 8   # stretches joined one by one before the rest of the body is taken whole


def scan(lines: list[str], by_stretch: bool = False) -> tuple[list[tuple[int, int, str]], list[tuple[int, str, int]] | None] | None:
    """(headings as (0-based line, level, text), blocks as (start, type, end)) of a body split
    into lines with their endings, as mdscan.scan gives them; blocks None when a heading sits in
    a list or quote or is a setext one (then, as after markdown-it's whole parse, each section is
    parsed alone for its blocks); None when markdown-it must parse the body whole (a NUL).

    `by_stretch`: read every stretch through the memo, for versions of one file read together
    (the merge's three: each unchanged stretch is scanned once). Else the whole body is scanned
    first (a third cheaper for one text) and cut only when the scanner gives up on it."""
    if not by_stretch:
        got = mdscan.scan(lines)
        if got is not None:
            return got
    joined = "".join(lines)
    if mdscan.UNHANDLED_CHARS.search(joined):
        return None
    if "\r" in joined:   # one ending for the memo's keys and markdown-it's stretches alike
        lines = mdscan.as_lf(lines)
    cuts = [n for n, line in enumerate(lines) if n and line[:1] == "#" and _TOP_HEADING_RE.match(line)]
    bounds = [0, *cuts, len(lines)]
    heads: list[tuple[int, int, str]] = []
    blocks: list[tuple[int, str, int]] | None = []
    k = 0
    while k < len(bounds) - 1:
        j, joins = k + 1, 0
        while True:
            (part_heads, part_blocks), still_open = _stretch(lines[bounds[k]:bounds[j]])
            if not still_open or j == len(bounds) - 1:
                break
            joins += 1
            j = j + 1 if joins < _MAX_JOINS else len(bounds) - 1
        base = bounds[k]
        heads += [(n + base, level, text) for n, level, text in part_heads]
        if part_blocks is None or blocks is None:
            blocks = None
        else:
            blocks += [(start + base, kind, end + base) for start, kind, end in part_blocks]
        k = j
    return heads, blocks


def headings(body: str) -> list[tuple[int, int, str]]:
    """Every heading of a body as (0-based line, level, text): the scanner's, stretch by stretch (memoized),
    where it answers; else markdown-it's."""
    got = scan(split_lines(body), by_stretch=True) if mdblocks.FAST_BLOCKS and mdscan.ENABLED else None
    return got[0] if got is not None else mdblocks.headings_of(mdblocks.md().parse(body))


_MEMO: dict[str, object] = {}
_MEMO_SIZE = 2048


def _stretch(lines: list[str]):
    """((headings, blocks or None), whether it may end inside a top-level fence or HTML block, so
    that the heading after it is not one).
    Memoized by text: a merge parses three versions that share most stretches, and so does an
    index of a file's history."""
    text = "".join(lines)
    if text not in _MEMO:
        if len(_MEMO) >= _MEMO_SIZE:
            _MEMO.clear()
        _MEMO[text] = _read_stretch(lines, text)
    return _MEMO[text]


def _read_stretch(lines: list[str], text: str):
    got = mdscan.scan_blocks(lines)
    if got is not None:
        heads, blocks, setext = got
        last = blocks[-1] if blocks else None
        still_open = (last is not None and last[1] == "fence" and last[2] == len(lines)) or _open_comment(text)
        return (heads, None if setext else blocks), still_open
    tokens = mdblocks.md().parse(text)
    shared = mdblocks.shared_blocks(tokens)
    still_open = any(t.level == 0 and t.type in ("fence", "html_block") and t.map and t.map[1] >= len(lines)
                     for t in tokens)
    return (mdblocks.headings_of(tokens), shared), still_open


def _open_comment(text: str) -> bool:
    """Whether an HTML comment may still be open at the end (the scanner reads one to `-->`)."""
    opened = text.rfind("<!--")
    return opened >= 0 and text.find("-->", opened + 4) < 0
