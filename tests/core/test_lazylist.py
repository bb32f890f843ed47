"""A LazyList encodes as the list it stands for, making each item only as the encoder reaches it."""
from __future__ import annotations

import json

from tiergit.core.lazylist import LazyList


def test_json_of_a_lazy_list_is_the_json_of_its_items_and_items_are_made_while_writing() -> None:
    made: list[int] = []

    def make(n: int) -> dict:
        made.append(n)
        return {"n": n, "square": n * n}

    rows = list(range(5))
    data = {"head": 1, "rows": LazyList(rows, make), "empty": LazyList([], make), "tail": [1, 2]}
    want = json.dumps({"head": 1, "rows": [make(n) for n in rows], "empty": [], "tail": [1, 2]}, indent=2)
    made.clear()
    pieces = json.JSONEncoder(indent=2).iterencode(data)
    first = []
    while not made:
        first.append(next(pieces))
    assert len(made) == 1   # the first row is on its way out before the next one is made
    assert "".join(first) + "".join(pieces) == want
    assert made == rows
