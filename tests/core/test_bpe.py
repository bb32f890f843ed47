"""Token counting stays exact and linear on any input (issue 11, item 9): the heap-based
merge gives the same count as the plain loop and as tiktoken, on long runs of one
character and on huge lines, where the plain loop was quadratic (8 KB of `-` took 35 s)."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tiergit.core import bpe
from tiergit.shell import tokens


@pytest.fixture(scope="module")
def enc():
    tokens.reset()
    loaded = tokens.encoding("cl100k_base")
    assert loaded is not None
    return loaded


@pytest.fixture(scope="module")
def counter(enc):
    return tokens._rank_counter("cl100k_base")


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300) | st.text(alphabet="-=#ab é😀!?\n", max_size=300).map(lambda t: t.encode()))
def test_heap_merge_equals_the_plain_loop(counter, data):
    assert bpe.heap_merge_count(data, counter.ranks) == bpe.merge_count(data, counter.ranks)


# Long runs and huge lines: what used to hang `check` and the pre-commit hook.
RUNS = ["-" * 20_000, "=" * 9_999, "#" * 12_345, "!?" * 8_000, "é" * 10_000, "😀" * 4_000,
        "a" * 20_000, "1" * 20_000, " " * 20_000, "\n" * 20_000, "x " * 10_000, ".-" * 7_777,
        "word" * 5_000, "\u0301" * 6_000, "- [fact] " + "ab" * 10_000]


@pytest.mark.parametrize("text", RUNS, ids=lambda t: f"{t[:2]!r}x{len(t)}")
def test_long_runs_count_exactly_like_tiktoken(enc, counter, text):
    assert counter.count(text) == len(enc.encode_ordinary(text))


def test_a_large_text_goes_to_the_rust_encoder_and_stays_exact(enc):
    tokens.reset()
    text = "-" * (tokens.LARGE_TEXT + 1)
    count = tokens.count_text(text, "cl100k_base")
    assert count.exact and count.tokens == len(enc.encode_ordinary(text))
    assert tokens.encoding.cache_info().currsize == 1   # the Rust encoder did the work
