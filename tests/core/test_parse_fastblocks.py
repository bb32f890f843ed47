"""The one-parse block path (mdblocks.FAST_BLOCKS) gives exactly the items of parsing each section
alone: on hand-written edge cases (setext headings, headings in quotes and lists, fences, lazy
lines) and on every markdown file of the real corpus."""
from __future__ import annotations

import pytest
from conftest import corpus_files, corpus_map

from tiergit.errors import InputError
from tiergit.core import mdblocks, parse, rawtext

EDGE_CASES = [
    "# Title\n\nintro para\n\n## Learnings\n\n- a fact\n- [rule] never do x\n  continued\n\n### 2026-01-02 s\n\n- x\n",
    "Title\n=====\n\n- item under setext\n\nSub\n---\n\npara\n",
    "> ## 2026-01-01 quoted\n> - quoted item\n\n## 2026-01-02 real\n\n- one\n",
    "- # heading in a list\n- two\n\n## 2026-02-02\n\n**Decision:** keep it\n",
    "```\n# not a heading\n```\n\n## 2026-03-03\n\n- after fence\n```py\n## inside\n```\n",
    "## Entry\nlazy paragraph\ncontinues\n## 2026-04-04\n    indented code\n- item\n* other list\n1. ordered\n",
    "---\ntitle: x\n---\n\n## 2026-05-05 fm\n\n- with frontmatter\n",
    "",
    "no headings at all\n\n- just a list\n",
]


def _snapshot(text: str) -> list:
    doc = parse.parse(text, "x.md")
    return [(s.heading, s.level, s.line, s.text, [i.as_tuple() for i in s.items]) for s in doc.sections]


def _both(text: str) -> tuple[list, list]:
    mdblocks.FAST_BLOCKS = False
    try:
        slow = _snapshot(text)
    finally:
        mdblocks.FAST_BLOCKS = True
    return slow, _snapshot(text)


@pytest.mark.parametrize("text", EDGE_CASES)
def test_one_parse_equals_section_parses(text: str) -> None:
    slow, fast = _both(text)
    assert fast == slow


def test_setext_and_nested_headings_take_the_section_path() -> None:
    md = mdblocks.md()
    assert mdblocks.shared_blocks(md.parse("T\n===\n\n- x\n")) is None
    assert mdblocks.shared_blocks(md.parse("> # q\n")) is None
    assert mdblocks.shared_blocks(md.parse("# a\n\n- x\n")) == [(2, "item", 3)]


def _same_items(path) -> bool | None:
    """None: not memory (bad frontmatter, binary...); else whether both block paths agree."""
    try:
        text = rawtext.decode(path.read_bytes(), str(path), 2_000_000)
        slow, fast = _both(text)
    except InputError:
        return None
    return fast == slow


@pytest.mark.corpus
def test_every_corpus_markdown_file_gives_the_same_items() -> None:
    files = corpus_files("**/*.md")
    assert files
    results = corpus_map(_same_items, files)
    assert [str(p) for p, same in zip(files, results) if same is False] == []
    assert sum(same is True for same in results) > 100


def test_a_bare_carriage_return_gives_the_same_items() -> None:
    text = "## 2026-01-01 a\r\n\r\n- one\r\n\r\n## 2026-01-02 b\r\r\n**Role:** x\r\n**Status:** y\r\n"
    slow, fast = _both(text)
    assert fast == slow


def test_a_bare_carriage_return_near_the_end_does_not_crash() -> None:
    # a bare \r ends a line for markdown-it and split_lines alike: two items, both paths
    text = "## 2026-01-01 a\n\n- one\r- two\r\n"
    slow, fast = _both(text)
    assert fast == slow
    assert [i.line for i in parse.parse(text, "x.md").items] == [3, 4]
