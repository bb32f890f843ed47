"""A line scanner for the markdown memory files are mostly made of: top-level ATX headings,
paragraphs, fenced code and lists. It returns what parse reads from markdown-it's token stream
(every heading, and the top-level blocks: list items, paragraphs, fences) or None for any body it
does not handle, which then goes to markdown-it as before.

Why: markdown-it's block pass was ~40 % of parsing a real-sized store (the first recall index
build parses every memory file). Exactness over coverage: the scanner gives up on every
construct whose block structure depends on more than its own line (thematic breaks and setext
underlines where the two could be confused, block quotes, HTML, reference definitions, indented
code, tabs in indentation, empty list items, a heading inside a list, a fence in a nested list item
whose lines leave its column, a line indented 4+ but not inside a list item). A setext heading
(a paragraph underlined with `===` or `---`: Squad's histories separate entries with `---` right
under the last line) is read as markdown-it reads it: the paragraph's lines become the heading.
tests/core/test_mdscan.py proves it equal to markdown-it on hand-written cases and on every
markdown file of the corpus. Pure: lines in.
"""
from __future__ import annotations

import re

# Off only to compare the scanner with markdown-it (tests/core/test_mdscan.py) or to rule it out.
ENABLED = True
# markdown-it turns NUL into U+FFFD: a body holding one is left to markdown-it.
UNHANDLED_CHARS = re.compile(r"[\x00]")
# Leading indentation, list markers and heading marks: a tab there changes a column.
_LEAD_RE = re.compile(r"[ \t]*(?:(?:[-*+]|[0-9]{1,9}[.)]|#{1,6})[ \t]+)*")
_MARKER_RE = re.compile(r"([-*+]|([0-9]{1,9})[.)])( +|$)")
_HEADING_RE = re.compile(r"(#{1,6})(?: |$)")
# A line that may be a setext underline or a thematic break (at any indentation).
_RULE_RE = re.compile(r" *(?:=+|-+|(?:\* *){3,}|(?:_ *){3,}|(?:- *){3,}) *$")
# A thematic break (`---`, `* * *`): the scanner reads it where it cannot be a setext underline.
_HR_RE = re.compile(r" {0,3}(?:(?:\* *){3,}|(?:_ *){3,}|(?:- *){3,})$")
# Starts of blocks the scanner leaves to markdown-it: quote, HTML, a reference definition
# (or a link label that may run over lines).
_RISKY_START_RE = re.compile(r">|<|\[[^\]]*(?:$|\]:)")
# One marker, then spaces and one tab, then text that starts no other block (see _tab_as_spaces).
_TAB_ITEM_RE = re.compile(r"( *)([-*+]|[0-9]{1,9}[.)])( *\t)([^ \t#>`~<\[\-*+_=0-9].*)$", re.S)
# A quote line whose text starts no other block (a list, heading, fence, rule, HTML, an inner quote
# or code): a paragraph in the quote, which block_ranges never reads as a top-level block.
_PLAIN_QUOTE_RE = re.compile(r">(?: (?! {3}))?[^ \t#>\-*+0-9`~<\[=_|]")
_FENCE_RE = re.compile(r"(`{3,}|~{3,})(.*)$")
# A quote inside a list item whose text starts no other block (`- >= 20,480 bytes → …`): the quote's
# paragraph takes lazy lines as the item's own paragraph would, so the item's range is the same.
_ITEM_QUOTE_RE = re.compile(r">(?: (?! {3}))?(?:[^ \t#>\-*+0-9`~<\[=_|]|=+[ \t]*[^=\s])")
# A setext underline under a paragraph (markdown-it checks it before any rule that ends a paragraph).
_SETEXT_RE = re.compile(r" {0,3}(=+|-+)[ \t]*$")
# Characters JavaScript's trim() and Python's strip() treat differently at a heading's ends.
_TRIM_DIFFERS = re.compile(r"[\ufeff\x1c-\x1f\x85]")
# The characters a line (after its indentation) must start with for _RULE_RE or _MARKER_RE to match it.
_RULE_STARTS = frozenset("=-*_")
_MARKER_STARTS = frozenset("-*+0123456789")
# Deep nesting hits markdown-it's nesting limit; such lines are left to it.
_MAX_INDENT = 30


def _inner(rest: str) -> str | None:
    """The line's text after every list marker at its start (`- - x` -> `x`); None for an empty
    item or one whose text starts 5+ spaces after its marker (indented code in the item)."""
    while True:
        m = _MARKER_RE.match(rest)
        if not m:
            return rest
        if not m[3] or len(m[3]) > 4:
            return None
        rest = rest[m.end():]


def _tab_as_spaces(text: str) -> str | None:
    """A list item's line whose marker is followed by a tab (`1. \tests/...`, a Windows path
    whose backslash became a tab), with the tab as the spaces markdown-it counts for it (to
    the next multiple of 4); None for any other tab in a line's lead."""
    m = _TAB_ITEM_RE.match(text)
    if not m:
        return None
    start = col = len(m[1]) + len(m[2])
    for ch in m[3]:
        col = col + 1 if ch == " " else col + 4 - col % 4
    if col - start > 4:
        return None   # code in the item
    return m[1] + m[2] + " " * (col - start) + m[4]


def _heading_text(rest: str, level: int) -> str:
    """The heading's text as markdown-it gives it: closing #s and spaces dropped."""
    body = rest[level:].rstrip(" \t")
    bare = body.rstrip("#")
    if len(bare) < len(body) and bare and bare[-1] in " \t":
        body = bare
    elif len(bare) < len(body) and not bare:
        body = ""
    return body.strip()


def as_lf(lines: list[str]) -> list[str]:
    """The lines with each ending (\\r\\n, \\r or \\n) as \\n: markdown-it turns \\r\\n and \\r into \\n
    before it reads a line, and rawtext.split_lines ends a line at each of them, so the lines and
    what they hold are the same (a Windows-written history reads as its \\n twin)."""
    return [line.rstrip("\r\n") + "\n" if line[-1:] in ("\r", "\n") else line for line in lines]


def scan(lines: list[str]) -> tuple[list[tuple[int, int, str]], list[tuple[int, str, int]] | None] | None:
    """(headings as (0-based line, level, text), blocks as (start, type, end)) of a body split
    into lines with their endings, equal to what parse reads from markdown-it: blocks None when a
    heading is a setext one (mdblocks.shared_blocks: then each section is read alone); None when
    the body holds anything the scanner does not handle."""
    got = scan_blocks(lines)
    return None if got is None else (got[0], None if got[2] else got[1])


def scan_blocks(lines: list[str]) -> tuple[list[tuple[int, int, str]], list[tuple[int, str, int]], bool] | None:
    """scan's headings and the body's top-level blocks (mdblocks.blocks_of of markdown-it's parse,
    whatever its headings), and whether a heading is a setext one; None as for scan."""
    # long: one pass over the lines; each block kind is a branch that must stay in step with the others
    heads: list[tuple[int, int, str]] = []
    blocks: list[tuple[int, str, int]] = []
    state = None        # None, "para", "item", "item_fence" (a fence in an item), "fence", "comment" or "quote"
    start = 0           # first line of the open block
    ci = 0              # the open list item's content column
    blank_before = False  # a blank line (or a closed fence) since the item's last paragraph text
    fence = ""          # the open fence's marker (its character, at its length)
    nested = False      # the open item holds a nested list (a deeper column the scanner does not track)
    fi = -1             # the column of a fence opened after a nested marker (-1: the item's own fence)
    setext = False      # a paragraph became a setext heading
    # Each regex below runs only when the line's first character allows a match (same answers,
    # a fifth of the regex calls); the characters no body may hold are looked for once.
    joined = "".join(lines)
    if UNHANDLED_CHARS.search(joined):
        return None
    if "\r" in joined:
        lines = as_lf(lines)
    for n, line in enumerate(lines):
        text = line[:-1] if line.endswith("\n") else line
        if state == "comment":
            if "-->" in text:
                state = None
            continue
        if state == "fence":
            stripped = text.lstrip(" ")
            if len(text) - len(stripped) < 4 and stripped.startswith(fence) \
                    and not stripped.rstrip(" \t").lstrip(fence[0]):
                blocks.append((start, "fence", n + 1))
                state = None
            continue
        if state == "item_fence":
            # A fence inside a list item: its lines are the item's; a line left of the item's text
            # column ends both (markdown-it's fence stops there, and no paragraph is open to be lazy).
            stripped = text.lstrip(" ")
            if not stripped:
                continue
            if stripped[0] == "\t":
                return None   # a tab's column decides which side of the item's column the line is
            at = len(text) - len(stripped)
            if at >= ci:
                closes = stripped.startswith(fence) and not stripped.rstrip(" \t").lstrip(fence[0])
                if fi >= 0 and (at < fi or (closes and at != fi)):
                    return None   # the nested item's column decides: left to markdown-it
                if closes and (fi >= 0 or at - ci < 4):
                    state, blank_before = "item", True   # no paragraph is open to take a lazy line
                continue
            state, blank_before = "item", True
        rest = text.lstrip(" ")
        if not rest:
            if state == "para":
                blocks.append((start, "para", n))
                state = None
            elif state == "item":
                blank_before = True
            elif state == "quote":
                state = None
            continue
        if "\t" in text and "\t" in _LEAD_RE.match(text)[0]:
            text = _tab_as_spaces(text)
            if text is None:
                return None
            rest = text.lstrip(" ")
        indent = len(text) - len(rest)
        if indent > _MAX_INDENT:
            return None
        first = rest[0]
        if state == "para" and first in "=-" and _SETEXT_RE.match(text):
            # The paragraph's lines are a setext heading's text (markdown-it's getLines, trimmed).
            body = "".join(lines[start:n])[:-1]
            if _TRIM_DIFFERS.search(body):
                return None
            heads.append((start, 1 if first == "=" else 2, body.strip()))
            state, setext = None, True
            continue
        if state == "quote" or (first == ">" and state is None):
            # A quote of plain lines after a blank line or heading (Squad's `> tagline` under the
            # title): no block; it ends at a blank line or an ATX heading.
            if first == ">" and indent < 4 and _PLAIN_QUOTE_RE.match(rest):
                state = "quote"
                continue
            if state is None or not (first == "#" and indent < 4 and _HEADING_RE.match(rest)):
                return None
            state = None
        if first in _RULE_STARTS and _RULE_RE.match(text):
            # A break after a blank line, heading or fence, or one that ends a list (under its
            # item's text column), is a break; after a paragraph line `---` is a setext underline.
            if not (_HR_RE.match(text) and (state is None or (state == "item" and indent < ci))):
                return None
            if state == "item":
                blocks.append((start, "item", n))
                state = None
            continue
        marker = _MARKER_RE.match(rest) if first in _MARKER_STARTS else None
        inner = _inner(rest) if marker else rest
        if inner is None or (inner is not rest and (_HEADING_RE.match(inner) or _RULE_RE.match(inner)
                                                    or _FENCE_RE.match(inner))):
            return None   # an empty item, or a heading, rule, fence or code in a list item
        # An HTML comment opening a line (Squad's `<!-- Append learnings below -->`) is an HTML
        # block to its first line holding `-->`: no item, and it ends a paragraph or a list.
        comment = inner is rest and indent < 4 and rest.startswith("<!--") and (state != "item" or indent < ci)
        opens_fence = _FENCE_RE.match(rest) if first in "`~" else None
        quote_in_item = inner[:1] == ">" and (inner is not rest or (state == "item" and indent >= ci)) \
            and _ITEM_QUOTE_RE.match(inner)
        if not comment and ((inner[:1] in "<>[" and _RISKY_START_RE.match(inner) and not quote_in_item)
                            or (inner is rest and opens_fence and indent >= 4
                                and not (state == "item" and indent >= ci))):
            return None
        heading = _HEADING_RE.match(rest) if first == "#" else None
        if opens_fence and opens_fence[1][0] == "`" and "`" in opens_fence[2]:
            return None   # not a fence: an inline code span (left to markdown-it)
        if state == "item":
            if indent >= ci:
                if opens_fence and indent - ci < 4:
                    state, fence, fi = "item_fence", opens_fence[1], (indent if nested else -1)
                    continue
                if heading or opens_fence or (blank_before and indent >= ci + 4):
                    return None   # a heading or code block inside the list item
                blank_before, nested = False, nested or marker is not None
                continue
            if indent >= 4:
                return None
            if not (heading or marker or opens_fence or comment) and not blank_before:
                continue          # a lazy continuation line of the item's paragraph
            blocks.append((start, "item", n))
            state = None
        elif state == "para":
            if indent >= 4 or not (heading or opens_fence or comment or (
                    marker and (marker[2] is None or int(marker[2]) == 1))):
                continue          # the paragraph goes on
            blocks.append((start, "para", n))
            state = None
        elif indent >= 4:
            return None           # indented code
        if comment:
            state = None if "-->" in rest else "comment"
        elif heading:
            heads.append((n, len(heading[1]), _heading_text(rest, len(heading[1]))))
        elif opens_fence:
            state, start, fence = "fence", n, opens_fence[1]
        elif marker:
            # `- - x` opens a nested list on the item's own line
            state, start, ci, blank_before = "item", n, indent + marker.end(), False
            nested = inner != rest[marker.end():]
        else:
            state, start = "para", n
    if state == "fence":
        blocks.append((start, "fence", len(lines)))
    elif state == "item_fence":
        blocks.append((start, "item", len(lines)))
    elif state not in (None, "comment", "quote"):
        blocks.append((start, state, len(lines)))
    return heads, blocks, setext
