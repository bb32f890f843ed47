"""The line scanner (core/mdscan.py) gives exactly markdown-it's headings and top-level blocks
wherever it answers: on hand-written tricky markdown, on bodies stitched at random from tricky
lines, and on every markdown file of the real corpus; and parse gives the same items with it
and without it."""
from __future__ import annotations

import random

import pytest
from conftest import corpus_files, corpus_map

from tiergit.errors import InputError
from tiergit.core import mdblocks, mdscan, parse, rawtext
from tiergit.core.rawtext import split_lines


def _markdown_it(body: str):
    tokens = mdblocks.md().parse(body)
    return parse._headings(body, tokens), mdblocks.shared_blocks(tokens)


def _agrees(body: str) -> bool | None:
    """None when the scanner leaves the body to markdown-it, else whether both agree: on the
    headings and the blocks parse reads (none to share after a setext heading), and on every
    top-level block (what a section read alone takes: mdblocks.block_ranges)."""
    got = mdscan.scan(split_lines(body))
    if got is None:
        return None
    tokens = mdblocks.md().parse(body)
    every = [(start, kind, end) for kind, start, end in mdblocks.blocks_of(tokens)]
    return got == _markdown_it(body) and mdscan.scan_blocks(split_lines(body))[1] == every


# Bodies the scanner must read itself (the common shapes of memory files), equal to markdown-it.
HANDLED = [
    "",
    "plain\n",
    "# Title\n\nintro para\nstill intro\n\n## Learnings\n\n- a fact\n- [rule] never do x\n  continued\n\n### 2026-01-02 s\n\n- x\n",
    "## 2026-01-01 a\n- one\nlazy line of one\n- two\n\n  indented para of two\n\nafter the list\n",
    "## Closing #s ##\n#no heading\n####### seven\n#\n## \n# a # b #\n## trailing   \n",
    "para\n- interrupts\n\npara\n2. does not interrupt\n1. does\n",
    "- a\n* other marker, a new list\n+ and another\n1. ordered\n2) other delimiter\n",
    "- a\n  - nested\n    - deeper\n      text\n   back in the item\nlazy\n\n- b\n",
    "```\n# not a heading\n- not an item\n```\n\n## 2026-03-03\n\n- after fence\n```py\n## inside\n\n```\ntail\n",
    "~~~~\n~~~\nstill code\n~~~~~\npara\n````\nunclosed fence\n",
    "para\n```\nfence interrupts\n```\n- item\n```\nfence after item\n```\n",
    "intro\n\n---\n\n## 2026-04-04\n\n- one\n---\n- two\n\n***\n_ _ _\n",
    "10. ten\n    still ten\n11. eleven\n\n  para after blank under the column\n",
    "- item with `code` and [link](x) and **bold:** text\n- [ ] open box\n- [x] done\n",
    "## 2026-05-05\n\n**Decision:** keep it\n**Why:** because\n\n1. one\n2. two\n",
    "- a\n\n     five spaces after a blank: a paragraph in the item (5 < 2 + 4)\n",
    "#5 is not a heading\n  # indented heading\n   ### three spaces\n",
    "text with trailing spaces   \n  \n   \nnext para\n",
    "# Project Context\n\n<!-- Append new learnings below. -->\n\n## Learnings\n- one\n<!-- a note\n# not a heading\n-->\npara\n<!-- c --> after\n",
    "- a\n # heading ends the list\n- b\n  - c\n## h\n",
]

# Bodies whose block structure depends on more than a line: left to markdown-it (or agreeing).
TRICKY = [
    "Title\n=====\n\n- item under setext\n\nSub\n---\n\npara\n",
    "> ## 2026-01-01 quoted\n> - quoted item\n\n## 2026-01-02 real\n\n- one\n",
    "- # heading in a list\n- two\n",
    "## Entry\nlazy paragraph\ncontinues\n## 2026-04-04\n    indented code\n- item\n",
    "<!-- comment -->\n- item\n<div>\nhtml\n</div>\n",
    "- a\n  <!-- comment in the item -->\n",
    "[ref]: https://example.com\n\npara\n",
    "-\n  empty item\n- b\n",
    "-     five spaces: code in the item\n",
    "- a\n\tb\n",
    "\t- tab indented\n",
    "- a\n  ```\n  fence in item\n  ```\n",
    "- a\n  ---\n",
    "para\n---\n",
    "para\n***\n",
    "    code at the top\n",
    "- a\n\n          code in the item\n",
    "a\r\nb\rc\n",
    "nul\x00byte\n",
    "``` not `a fence`\n",
    "1. a\n     4-space lazy\n",
    "- a\n    - 4 spaces\n",
    "  - a\n - b\n   - c\n    - d\n",
    "12345678901. too long\n1234567890) ten digits\n",
    "[unclosed label\ncontinues]: /url\n",
    "- [a]: b\n",
    "- a\n> quote ends it\n",
]


@pytest.mark.parametrize("body", HANDLED)
def test_the_scanner_reads_common_markdown_as_markdown_it_does(body: str) -> None:
    assert _agrees(body) is True


@pytest.mark.parametrize("body", TRICKY)
def test_the_scanner_never_disagrees_with_markdown_it(body: str) -> None:
    assert _agrees(body) is not False


def test_a_tab_after_a_list_marker_counts_to_the_next_tab_stop() -> None:
    body = "**Files:**\n1. \tests/A.cs (14 tests)\n2. \tests/B.cs\n   still two\n\n- \tests/C.cs\n"
    assert mdscan.scan(split_lines(body)) is not None
    assert _agrees(body) is True
    assert mdscan.scan(split_lines("-    \tcode in the item\n")) is None


def test_a_plain_quote_after_a_blank_line_or_heading_is_read_as_no_block() -> None:
    body = "# Picard\n\n> Knowledge base for the lead. Append-only.\n> Second line.\n\n## Learnings\n- a\n"
    assert mdscan.scan(split_lines(body)) == ([(0, 1, "Picard"), (5, 2, "Learnings")], [(6, "item", 7)])
    assert _agrees(body) is True
    for body in ("> q\nlazy line\n", "para\n> q\n", "> - list in a quote\n", "- a\n\n> q\n"):
        assert mdscan.scan(split_lines(body)) is None, body


def test_a_fence_inside_a_list_item_is_the_items_to_its_close_or_the_items_end() -> None:
    body = ("- **Fix:** use the converter\n  ```csharp\n  # not a heading\n  ---\n  ```\n  after it\n- next\n"
            "1. step\n   ~~~\n   unclosed until the item ends\n\nplain paragraph\n")
    assert mdscan.scan(split_lines(body)) == ([], [(0, "item", 6), (6, "item", 7), (7, "item", 11), (11, "para", 12)])
    assert _agrees(body) is True
    assert mdscan.scan(split_lines("- a\n  ```\n\tcode\n  ```\n")) is None   # a tab decides the side


def test_a_paragraph_underlined_is_a_setext_heading_and_its_sections_are_read_alone() -> None:
    # Squad's histories separate entries with `---` right under the last line: markdown-it reads
    # the paragraph above as a level-2 heading, and so does the scanner (no markdown-it needed).
    body = ("## 2026-03-20 backup\n\n**Learning:** SQLite's `.backup` is the safest way\nto copy a live db\n---\n\n"
            "- next item\n\nTitle\n===\n\npara\n")
    got = mdscan.scan(split_lines(body))
    assert got == ([(0, 2, "2026-03-20 backup"), (2, 2, "**Learning:** SQLite's `.backup` is the safest way\n"
                    "to copy a live db"), (8, 1, "Title")], None)   # None: each section is read alone
    assert mdscan.scan_blocks(split_lines(body))[1] == [(6, "item", 8), (11, "para", 12)]
    assert _agrees(body) is True
    for odd in ("a\n\ufeffb\n---\n", "a\n- \n", "a\n-\t\n", "a\n   ==\n"):
        assert _agrees(odd) is not False, odd


def test_parse_reads_a_setext_body_without_markdown_it(monkeypatch) -> None:
    body = "# T\n\n## 2026-01-01 a\n- one\n\nlast line\n---\n\n## 2026-01-02 b\n- two\n  ```\n  x\n  ```\n"
    want = _items(body)
    monkeypatch.setattr(mdblocks, "md", lambda: (_ for _ in ()).throw(AssertionError("markdown-it was called")))
    assert _items(body) == want


def test_a_fence_in_a_nested_item_is_read_when_its_lines_keep_its_column() -> None:
    body = ("- **Manual recovery:**\n  - Example:\n    ```bash\n    curl 'http://x/solr?action=REQUESTRECOVERY'\n"
            "    ```\n  - Find the replica first.\n- next\n")
    assert mdscan.scan(split_lines(body)) == ([], [(0, "item", 6), (6, "item", 7)])
    assert _agrees(body) is True
    # after a fence no paragraph is open: a line under the item's column is no lazy line of it
    body = "- a\n  ```\n  x\n  ```\ntext\n\n10. ten\n     ```\n     ```\n    more of ten\n"
    assert mdscan.scan(split_lines(body)) == ([], [(0, "item", 4), (4, "para", 5), (6, "item", 10)])
    assert _agrees(body) is True
    # a line between the item's column and the fence's: which item holds it is left to markdown-it
    for odd in ("- a\n  - b\n    ```\n   x\n    ```\n", "- a\n  - b\n    ```\n     ```\n  c\n"):
        assert mdscan.scan(split_lines(odd)) is None, odd


def test_what_the_scanner_leaves_to_markdown_it() -> None:
    for body in ("para\n    ---\n=== \n", "> q\nlazy\n", "<div>\n", "-\n", "a\x00b\n", "- a\n  # h\n", "    code\n"):
        assert mdscan.scan(split_lines(body)) is None, body


# Lines that change block structure, stitched at random: wherever the scanner answers, it must
# give markdown-it's headings and blocks exactly.
PIECES = [
    "", "", "", "text", "more text", "  indented text", "    four spaces", "      six spaces", "        eight",
    "- item", "* star item", "+ plus item", "1. one", "2. two", "1) paren", "10. ten", "  - nested", "    - deeper",
    "   - three in", " - one in", "-", "- ", "-  two spaces", "-     five", "- - double", "- # heading item",
    "# H1", "## H2 ##", "###", "  ## indented h", "    # code h", "#nospace", "####### seven",
    "```", "```py", "~~~", "````", "  ```", "    ```", "``` a`b", "- ```",
    "---", "***", "* * *", "___", "- - -", "  ---", "===", "--", "=",
    "> quote", "<!-- c -->", "<!-- opens", "closes -->", "  <!-- x -->", "    <!-- code -->", "- <!-- c -->",
    "<!-->", "<div>", "[x]: /u", "[rule] text", "- [ ] box", "**Decision:** d",
    "\tTab", "- a\tb", "text\x0cff", "trailing  ", "  ",
    "- \tests/path", "1. \tests/x.cs", "-\ttab item", "  - \tnested", "-   \tcode in item", "- \t- two",
    "10.\tten", "- \t", "    - \tdeep",
    "> plain quote", ">no space", "   > three in", "> > inner", "> - item in quote", "> ```", ">", "> # h",
    "> text `code` more", "    > code",
    "  ```bash", "   ~~~", "  ````", "  code in a fence", "  # comment in a fence", "  ---", "\tcode",
    "    ```", "     ```", "      ```", "    ```bash", "    code in a nested fence", "   ===", "--- ", "-\t", "== =",
    "- > quoted item", "  > quote in an item", "   - >= 20,480 bytes", "  > ===", "  >= x", "  > - x", "  >", "- >", "  >> two",
]


def test_random_bodies_agree_with_markdown_it() -> None:
    rng = random.Random(26)
    answered = 0
    for _ in range(4000):
        body = "".join(rng.choice(PIECES) + "\n" for _ in range(rng.randint(1, 12)))
        got = _agrees(body)
        assert got is not False, repr(body)
        answered += got is True
    assert answered > 800   # the scanner answers for a fair share, not only for trivial bodies


def test_bodies_written_with_cr_lf_or_cr_endings_read_as_markdown_it_reads_them() -> None:
    """markdown-it reads \\r\\n and \\r as \\n: so does the scanner (a Windows-written history once went
    to markdown-it whole, ~40 ms of a merge driver's run on a 100 KB file)."""
    rng = random.Random(43)
    answered = 0
    for _ in range(1500):
        body = "".join(rng.choice(PIECES) + rng.choice(("\r\n", "\r\n", "\r", "\n"))
                       for _ in range(rng.randint(1, 12)))
        got = _agrees(body)
        assert got is not False, repr(body)
        answered += got is True
    assert answered > 300
    crlf = "# Title\r\n\r\n## 2026-01-02 a\r\n\r\n- one\r\n  more\r\n- two\r\n"
    assert mdscan.scan(split_lines(crlf)) == mdscan.scan(split_lines(crlf.replace("\r\n", "\n")))


def _items(text: str) -> list:
    doc = parse.parse(text, "x.md")
    return [(s.heading, s.level, s.line, s.text, [i.as_tuple() for i in s.items]) for s in doc.sections]


def _file_agrees(path) -> bool | None:
    """None: not memory (bad frontmatter, binary...); else whether the scanner and markdown-it
    agree on the body and parse gives the same items with the scanner and without it."""
    try:
        text = rawtext.decode(path.read_bytes(), str(path), 2_000_000)
        body = parse.split_frontmatter(text, str(path))[2]
        with_scan = _items(text)
    except InputError:
        return None
    mdscan.ENABLED = False
    try:
        without = _items(text)
    finally:
        mdscan.ENABLED = True
    return _agrees(body) is not False and with_scan == without


@pytest.mark.corpus
def test_every_corpus_markdown_file_gives_the_same_items_with_the_scanner() -> None:
    files = corpus_files("**/*.md")
    assert files
    results = corpus_map(_file_agrees, files)
    assert [str(p) for p, same in zip(files, results) if same is False] == []
    answered = sum(mdscan.scan(split_lines(parse.split_frontmatter(
        rawtext.decode(p.read_bytes(), str(p), 2_000_000), str(p))[2])) is not None
        for p, same in zip(files, results) if same)
    assert answered > len(files) // 2   # most corpus files take the scanner
