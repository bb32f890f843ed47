"""The near-duplicate index keeps every wiki item as word numbers and a (path, line) place: what it
answers is the same as holding each key and label as strings, in a fraction of the memory."""
import random
import tracemalloc

from tiergit.core.candidate import norm_key
from tiergit.core.dupindex import DupIndex

TEXTS = ["Refresh tokens in the gateway, never in the browser client",
         "Always run the full test suite before pushing to main",
         "Pin MSAL to 2.x until the broker supports the new cache format",
         "Use Redis for the session cache", "Cache JWKS for ten minutes", "Use Redis for the session cache"]


def test_wiki_items_keep_their_key_and_label():
    index = DupIndex()
    for n, text in enumerate(TEXTS):
        index.add_at(norm_key(text), f"wiki/{'a' if n % 2 else 'b'}.md", n * 3 + 1)
    index.add_at("", "wiki/c.md", 40)   # no words: not an item, but its file is a wiki place
    assert index.places == ["wiki/b.md", "wiki/a.md", "wiki/c.md"]
    assert len(index) == len(TEXTS)
    assert [index.key(i) for i in range(len(TEXTS))] == [norm_key(t) for t in TEXTS]
    assert [index.label(i) for i in range(3)] == ["wiki/b.md:1", "wiki/a.md:4", "wiki/b.md:7"]
    assert index.find(norm_key("Use Redis as the session cache"), 85) == "wiki/a.md:10 (100% similar)"
    assert index.find(norm_key("Cache JWKS for five minutes"), 85) is None   # a changed value


def test_given_labels_and_skip():
    index = DupIndex()
    index.add(norm_key(TEXTS[3]), "m-00000001 (cold/a.md:3)")
    index.add("", "never kept")
    assert len(index) == 1 and index.label(0) == "m-00000001 (cold/a.md:3)"
    assert index.find(norm_key(TEXTS[3]), 85, skip="m-00000001") is None
    assert index.find(norm_key(TEXTS[3]), 85, skip="m-00000002").startswith("m-00000001 (cold/a.md:3)")


def test_a_wiki_item_costs_a_fraction_of_its_key_and_label_as_strings():
    rng = random.Random(7)
    vocab = [f"word{n}" for n in range(3000)]
    tracemalloc.start()
    try:
        wiki = [(line, f".squad/memory/wiki/topic{line % 500}.md", " ".join(rng.choices(vocab, k=15)))
                for line in range(20000)]
        index = DupIndex()
        for line, path, key in wiki:
            index.add_at(key, path, line)
        del wiki   # what the index holds, not what it was built from
        used = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    # Keys and "path:line" labels as strings, beside the postings: 7.6 MB here. As word numbers and
    # places: 3.6 MB, most of it the postings.
    assert len(index) == 20000 and used < 5_000_000, used


def test_more_than_65535_words_keep_their_numbers():
    index = DupIndex()
    for n in range(70000):
        index.add_at(f"w{n} common", "wiki/a.md", n + 1)
    assert index.flat.typecode == "I" and len(index.words) == 70001
    assert index.key(0) == "w0 common" and index.key(69999) == "w69999 common"
    assert index.find("w69999 common", 85) == "wiki/a.md:70000 (100% similar)"
