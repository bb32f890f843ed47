"""The rank index answers exactly as the rank dict it was built from: every token's rank, and
None for every other byte string; the pure-Python merge over it gives the plain rescan's count."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tiergit.core import bpe, rankindex
from tiergit.shell import rankcache, tokens


@pytest.fixture(scope="module")
def table():
    tokens.reset()
    params = tokens._params("cl100k_base")
    assert params is not None
    ranks = params["mergeable_ranks"]
    return ranks.table() if isinstance(ranks, rankcache.RankSource) else ranks


@pytest.fixture(scope="module")
def index(table):
    return rankindex.RankIndex(rankindex.build(table))


def test_every_token_has_its_rank_and_nothing_else_is_a_token(table, index):
    assert len(index) == len(table) > 100_000
    assert [k for k, v in table.items() if index.get(k) != v] == []
    # one byte more than a token is rarely a token; each such string answers as the dict does
    longer = [k + b"\xff" for k in list(table)[::7]] + [b"", b"\x00" * 9, b"zzzzzzzzzzzzzzzzzzzz"]
    assert [k for k in longer if index.get(k) != table.get(k) or (k in index) != (k in table)] == []


@settings(max_examples=500, deadline=None)
@given(st.binary(max_size=12) | st.text(alphabet="ab -=#\né😀", max_size=8).map(str.encode))
def test_any_bytes_answer_as_the_dict(table, index, key):
    assert index.get(key) == table.get(key)


def _rescan_count(data: bytes, ranks) -> int:
    """The reference merge: rescan every pair after each merge (lowest rank, leftmost)."""
    parts = [data[i:i + 1] for i in range(len(data))]
    while len(parts) > 1:
        best_rank, best = None, -1
        for i in range(len(parts) - 1):
            rank = ranks.get(parts[i] + parts[i + 1])
            if rank is not None and (best_rank is None or rank < best_rank):
                best_rank, best = rank, i
        if best < 0:
            break
        parts[best:best + 2] = [parts[best] + parts[best + 1]]
    return len(parts)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=64) | st.text(alphabet="-=#ab é😀!?\n", max_size=60).map(str.encode))
def test_the_merge_equals_the_rescan_on_the_index_and_the_dict(table, index, data):
    want = _rescan_count(data, table)
    assert bpe.merge_count(data, table) == want == bpe.merge_count(data, index)


def test_a_damaged_or_foreign_index_is_refused(table):
    payload = rankindex.build({b"a": 0, b"b": 1, b"ab": 2})
    small = rankindex.RankIndex(payload)
    assert small.get(b"ab") == 2 and small.get(b"ba") is None and b"a" in small
    other = b"TGRI1" + (b"B" if rankindex.MAGIC[5:6] == b"L" else b"L") + payload[6:]
    for bad in (payload[:-1], payload[:20], other, b"", payload + b"x"):
        with pytest.raises(ValueError):
            rankindex.RankIndex(bad)
