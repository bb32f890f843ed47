"""Markdown blocks: one markdown-it token stream read as the top-level blocks (list items,
paragraphs, fences) that become memory items, with their line ranges. Pure: text in."""
from __future__ import annotations

import re
from functools import lru_cache

from tiergit.core import mdscan


@lru_cache(maxsize=1)
def md():
    from markdown_it import MarkdownIt
    # Only block tokens and the raw text of inline tokens are read: skipping the inline
    # pass roughly halves parse time and leaves every token map and heading text the same.
    return MarkdownIt("commonmark").disable("inline")


def block_ranges(body_lines: list[str]) -> list[tuple[str, int, int]]:
    """(type, start, end) top-level blocks of a section body: list items, paragraphs, fences.
    The line scanner answers where it can (a section read alone after a setext heading), else
    markdown-it."""
    got = mdscan.scan_blocks(body_lines) if mdscan.ENABLED and FAST_BLOCKS else None
    if got is not None:
        return [(kind, start, end) for start, kind, end in got[1]]
    return blocks_of(md().parse("".join(body_lines)))


def headings_of(tokens) -> list[tuple[int, int, str]]:
    """(0-based start line, level, text) of every heading in a parsed token stream."""
    return [(tok.map[0], int(tok.tag[1]), tokens[i + 1].content.strip())
            for i, tok in enumerate(tokens) if tok.type == "heading_open" and tok.map is not None]


def blocks_of(tokens) -> list[tuple[str, int, int]]:
    """block_ranges over an already parsed token stream (line numbers as its token maps)."""
    blocks = []
    depth = 0
    list_depth = 0
    for tok in tokens:
        if tok.type in ("bullet_list_open", "ordered_list_open"):
            list_depth += 1
        elif tok.type in ("bullet_list_close", "ordered_list_close"):
            list_depth -= 1
        elif tok.type == "list_item_open" and list_depth == 1 and tok.map:
            blocks.append(("item", tok.map[0], tok.map[1]))
        elif tok.type == "paragraph_open" and list_depth == 0 and depth == 0 and tok.map:
            blocks.append(("para", tok.map[0], tok.map[1]))
        elif tok.type == "fence" and list_depth == 0 and tok.map:
            blocks.append(("fence", tok.map[0], tok.map[1]))
        if tok.type == "blockquote_open":
            depth += 1
        elif tok.type == "blockquote_close":
            depth -= 1
    return blocks


def item_blocks(body_lines: list[str], blocks: list[tuple[str, int, int]] | None,
                quotes: bool = False) -> list[tuple[str, int, int]]:
    """The blocks that become items: `blocks` (else block_ranges) and, with `quotes` (session notes,
    which read a quote like a paragraph), each run of block-quote lines outside all of them as
    ("para", start, end): a top-level quote is no block above."""
    blocks = block_ranges(body_lines) if blocks is None else blocks
    if not quotes:
        return blocks
    covered = {n for _, start, end in blocks for n in range(start, end)}
    quotes: list[tuple[str, int, int]] = []
    for n, line in enumerate(body_lines):
        if n in covered or not QUOTE_LINE.match(line):
            continue
        if quotes and quotes[-1][2] == n:   # the quote goes on
            quotes[-1] = ("para", quotes[-1][1], n + 1)
        else:
            quotes.append(("para", n, n + 1))
    return sorted(blocks + quotes, key=lambda b: b[1])


QUOTE_LINE = re.compile(r"^ {0,3}>")


# Read each body's blocks from its one markdown-it parse instead of parsing every section
# again (half the parse time). Off only to prove the two equal (tests/core/test_parse_fastblocks.py).
FAST_BLOCKS = True


def shared_blocks(tokens) -> list[tuple[int, str, int]] | None:
    """(start, type, end) of the body's blocks when every heading is a top-level ATX heading
    (one line, no open container around it), so a section parsed alone yields the same blocks;
    None otherwise (a setext heading or a heading in a list or quote: sections are parsed alone)."""
    for tok in tokens:
        if tok.type == "heading_open" and (tok.level != 0 or not tok.markup.startswith("#")):
            return None
    return [(s, t, e) for t, s, e in blocks_of(tokens)]
