"""Stretch by stretch (core/mdsegments.py): wherever it answers, exactly markdown-it's headings and
top-level blocks of the whole body; it answers where the scanner alone gives up on a body for one
stretch; a fence or HTML block left open across a heading is never cut there."""
from __future__ import annotations

import random

import pytest
from conftest import corpus_files, corpus_map

from tiergit.core import mdblocks, mdscan, mdsegments, parse, rawtext
from tiergit.core.rawtext import split_lines
from tiergit.errors import InputError


def _markdown_it(body: str):
    """Headings and shared blocks (None where sections must be parsed alone) of the whole body."""
    tokens = mdblocks.md().parse(body)
    return mdblocks.headings_of(tokens), mdblocks.shared_blocks(tokens)


def _agrees(body: str) -> bool | None:
    """None when the body is left to markdown-it whole, else whether both agree."""
    got = mdsegments.scan(split_lines(body))
    if got is None:
        return None
    return got == _markdown_it(body)


QUOTE_THEN_LIST = "## 2026-01-01 a\n\n> a quote with\na lazy line the scanner leaves to markdown-it\n\n## 2026-01-02 b\n\n- one\n- two\n"

# Each holds a stretch the scanner gives up on, so the whole body went to markdown-it before.
CROSSING = [
    QUOTE_THEN_LIST,
    "## a\n\n> q\nlazy\n\n```\n## inside a fence, not a heading\n```\n\n## b\n- x\n",
    "## a\n\n> q\nlazy\n\n```\nunclosed across headings\n## not one\n# nor this\n",
    "## a\n\n> q\nlazy\n<div>\n## inside an HTML block (no blank line)\n</div>\n\n## b\n\n- y\n",
    "## a\n\n> q\nlazy\n<!-- opens\n## inside a comment\n-->\n## b\n- z\n",
    "## a\n\n<!-- opens\n## inside a comment\n-->\n## b\n> q\nlazy\n",
    "## a\n- item\n  ```\n  fence in the item\n## ends the item and its fence\n- w\n\n> q\nlazy\n",
    "## a\n> ```\n> fence in a quote\n## ends both\n\n> q\nlazy\n",
    "## a\n\n```\ncode\n```\n## right after a closed fence\n> q\nlazy\n",
    "# t\n\n> q\nlazy\n\n    indented code\n## ends it\npara\nT\n===\n",
    "## a\n> q\nlazy\n- # a heading in a list: each section is parsed alone\n## b\n",
    "## a\n\nSetext title\n---\n\n> q\nlazy\n\n## b\n- x\n",
    "## a\n> q\nlazy\n#\tTab heading\n#\n## b ##\n",
]


@pytest.mark.parametrize("body", CROSSING)
def test_stretches_agree_with_markdown_it_on_the_whole_body(body: str) -> None:
    assert mdscan.scan(split_lines(body)) is None   # the scanner alone gives up on each
    assert _agrees(body) is not False


def test_a_body_the_scanner_gave_up_on_is_read_stretch_by_stretch() -> None:
    lines = split_lines(QUOTE_THEN_LIST)
    assert mdsegments.scan(lines) == _markdown_it(QUOTE_THEN_LIST)
    assert [h[2] for h in mdsegments.scan(lines)[0]] == ["2026-01-01 a", "2026-01-02 b"]


def test_a_setext_or_nested_heading_keeps_the_headings_and_leaves_the_blocks_to_each_section() -> None:
    heads, blocks = mdsegments.scan(split_lines(next(b for b in CROSSING if "Setext" in b)))
    assert [text for _, _, text in heads] == ["a", "Setext title", "b"] and blocks is None


def test_a_heading_inside_an_open_fence_or_comment_is_not_cut_at() -> None:
    for body in CROSSING[1:5]:
        heads = mdsegments.scan(split_lines(body))[0]
        assert not any("inside" in text or "not one" in text for _, _, text in heads), body


PIECES = [
    "", "", "text", "- item", "  - nested", "1. one", "    code", "```", "~~~", "  ```", "- ```",
    "> quote", "> ```", "<div>", "</div>", "<!-- c -->", "<!-- opens", "closes -->", "---", "===",
    "## 2026-01-01 h", "# H", "### sub", "#", "## x ##", "- # heading item", "[x]: /u", "\tTab",
]


def test_random_bodies_agree_with_markdown_it() -> None:
    rng = random.Random(2626)
    answered = scanner_alone = 0
    for _ in range(3000):
        body = "".join(rng.choice(PIECES) + "\n" for _ in range(rng.randint(1, 24)))
        got = _agrees(body)
        assert got is not False, repr(body)
        answered += got is True
        scanner_alone += mdscan.scan(split_lines(body)) is not None
    assert answered > scanner_alone + 300   # stretches answer for bodies the scanner alone does not


def _file_agrees(path) -> tuple[bool, bool, bool] | None:
    """(agrees, answered by stretches, answered by the scanner alone); None: not memory."""
    try:
        text = rawtext.decode(path.read_bytes(), str(path), 2_000_000)
        body = parse.split_frontmatter(text, str(path))[2]
    except InputError:
        return None
    got = _agrees(body)
    return got is not False, got is True, mdscan.scan(split_lines(body)) is not None


@pytest.mark.corpus
def test_every_corpus_markdown_file_agrees_with_markdown_it() -> None:
    files = corpus_files("**/*.md")
    assert files
    results = [r for r in corpus_map(_file_agrees, files) if r is not None]
    assert all(agrees for agrees, _, _ in results)
    by_stretch = sum(answered for _, answered, _ in results)
    by_scanner = sum(alone for _, _, alone in results)
    assert by_stretch > by_scanner + len(results) // 20   # measured: see docs/performance.md
