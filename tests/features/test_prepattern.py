"""The pre-tokenizer in the standard library's `re` (tiergit.core.prepattern) splits every text it
accepts exactly as tiktoken's `regex` pattern does (that counting such a text never imports `regex`:
tests/features/test_tokens.py)."""
from __future__ import annotations

import sys

import pytest
from conftest import CORPUS
from hypothesis import given, settings
from hypothesis import strategies as st

from tiergit.core import prepattern
from tiergit.shell import tokens


@pytest.fixture(autouse=True)
def _private_caches(tmp_path, monkeypatch):
    monkeypatch.setenv("TIERGIT_CACHE_DIR", str(tmp_path / "tiergit-cache"))
    tokens.reset()
    yield
    tokens.reset()


def _counter():
    counter = tokens._rank_counter("cl100k_base")
    assert counter is not None and counter.unicode is not None
    return counter


def _same_split(counter, text: str) -> bool:
    return [m.group() for m in counter.unicode.finditer(text)] == [m.group() for m in counter.pattern.finditer(text)]


def test_every_code_point_it_accepts_splits_as_regex_does():
    """Each character `unicode_safe` accepts, beside letters, digits, space, marks and `'s`: the
    same pieces as tiktoken's pattern (run over every code point, in strings of 512)."""
    counter = _counter()
    safe = [chr(cp) for cp in range(sys.maxunicode + 1)
            if 0xD800 > cp or cp > 0xDFFF if prepattern.unicode_safe(chr(cp))]
    assert len(safe) > 250_000
    for glue in ("", " a", "1'", "_\n  "):
        for start in range(0, len(safe), 512):
            text = glue.join(safe[start:start + 512])
            assert _same_split(counter, text), (glue, hex(ord(safe[start])))


def test_the_characters_re_classes_differently_go_to_regex():
    # a number that is no decimal digit (re: a letter), U+001C-U+001F (re: space), an unassigned one
    for text in ("m² of floor", "Chapter Ⅻ", "½ cup", "a\x1cb", "\U000e0080 tag"):
        assert not prepattern.unicode_safe(text), text
    counter = _counter()
    for text in ("naïve café — ok 😀", "日本語のテキスト、句読点。", "Ünïcödé_snake_case 123456 ‘quoted’", "Ελληνικά's"):
        assert prepattern.unicode_safe(text)
        assert counter.pattern_for(text) is counter.unicode
        assert _same_split(counter, text)
    assert counter.pattern_for("m² of floor") is counter.pattern


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=200)
       | st.from_regex(r"[ \n\r\t#*\-\[\]a-zA-Z0-9'’_.:é😀—→ü日本<|>²]{0,120}", fullmatch=True))
def test_any_text_it_accepts_splits_as_regex_does(text):
    counter = _counter()
    if prepattern.unicode_safe(text):
        assert _same_split(counter, text)
        if not prepattern.ascii_safe(text):
            assert counter.pattern_for(text) is counter.unicode


@pytest.mark.corpus
def test_every_corpus_file_it_accepts_splits_as_regex_does():
    counter = _counter()
    accepted = 0
    for path in sorted(CORPUS.rglob("*.md")):
        text = path.read_text(encoding="utf-8", errors="replace")
        if not text.isascii() and prepattern.unicode_safe(text):
            accepted += 1
            assert _same_split(counter, text), path
    assert accepted > 500


def test_patterns_it_cannot_translate_get_none():
    assert prepattern.unicode_pattern(r"\p{Lu}+|\s") is None            # another property
    assert prepattern.unicode_pattern(r"[\p{L}\p{N}]+") is None         # a class that is not negated
    assert prepattern.unicode_pattern(r"[^\p{L}]+") is None             # a negated class of one of them
    assert prepattern.unicode_pattern(r"[^_\p{L}\p{N}]+") is None       # `_` among the others
    assert prepattern.unicode_pattern(r"\p{L}+|[^\r\n\p{L}\p{N}]") == r"[^\W\d_]+|(?:[^\r\n\w]|_)"
