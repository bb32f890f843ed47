"""Wiki item ids kept as numbers: the same answers as a dict that keeps the first file of each id."""
import random
import tracemalloc

import pytest

from tiergit.core.idpaths import IdPaths


def test_answers_as_a_dict_that_keeps_the_first_file():
    rng = random.Random(3)
    ids = [f"m-{rng.getrandbits(32):08x}" for _ in range(500)] + ["m-custom1", "m-0000000g", "m-ABCDEF12", "x"]
    plain, kept = {}, IdPaths()
    for n in range(3000):
        iid, path = rng.choice(ids), f"wiki/{rng.randrange(20)}.md"
        plain.setdefault(iid, path)
        kept.setdefault(iid, path)
        if n == 1500:   # asked part-way: what is added later still counts
            assert all(kept.get(i) == plain.get(i) for i in ids)
    assert all(kept.get(i) == plain.get(i) for i in ids + ["m-00000000", "m-ffffffff", "m-"])
    assert all((i in kept) == (i in plain) for i in ids + ["m-12345678", None])
    first = next(i for i in ids if i in plain)
    assert kept[first] == plain[first]
    with pytest.raises(KeyError):
        kept["m-12345678" if "m-12345678" not in plain else "m-nothere"]


def test_an_id_costs_a_fraction_of_a_dict_entry():
    rng = random.Random(5)
    tracemalloc.start()
    try:
        kept = IdPaths()
        for n in range(50000):
            kept.setdefault(f"m-{rng.getrandbits(32):08x}", f".squad/memory/wiki/topic{n % 300}.md")
        assert "m-00000000" not in kept   # sorted: the form it is asked in
        used = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    # a dict of the id strings: ~85 bytes an id (4.3 MB); as numbers: 12 bytes and the 300 paths
    assert used < 1_500_000, used
