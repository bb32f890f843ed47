"""The promotion parse cache keeps parsed kinds between runs: a new label vocabulary
(kinds.CLASSIFIER_VERSION) must not reuse kinds the previous one gave; rows are written
one per document and dropped when no file uses them any more."""
from __future__ import annotations

import pickle
import sqlite3

from tiergit.shell import parse_cache

TEXT = "# Agent\n\n## Learnings\n\n- **Key learning:** retries need a jittered backoff\n"


def _rows(path) -> dict:
    db = sqlite3.connect(path)
    rows = dict(db.execute("SELECT key, doc FROM docs"))
    db.close()
    return rows


def _rewrite(path, rows) -> None:
    db = sqlite3.connect(path)
    db.executemany("INSERT OR REPLACE INTO docs VALUES (?, ?)", list(rows.items()))
    db.commit()
    db.close()


def test_cache_from_an_older_vocabulary_is_rebuilt(tmp_path, monkeypatch):
    path = tmp_path / "parse-cache-v3.sqlite"
    cache = parse_cache.ParseCache(path, {})
    assert cache.parse(TEXT, "a.md").items[0].kind == "rule"
    cache.save()
    rows = _rows(path)
    assert len(rows) == 1
    changed = {}
    for key, blob in rows.items():
        doc, keys = pickle.loads(blob)
        doc.sections[-1].items[0].kind = "context"   # what the narrow vocabulary gave
        changed[key] = pickle.dumps((doc, keys))
    _rewrite(path, changed)
    # Written by the current classifier: reused as is (that is the cache's job).
    assert parse_cache.ParseCache(path, {}).parse(TEXT, "a.md").items[0].kind == "context"
    # Written under another VERSION (an older classifier): parsed again.
    monkeypatch.setattr(parse_cache.ParseCache, "VERSION", (1, "old"))
    assert parse_cache.ParseCache(path, {}).parse(TEXT, "a.md").items[0].kind == "rule"


def test_rows_no_file_uses_are_dropped(tmp_path):
    path = tmp_path / "parse-cache-v3.sqlite"
    first = parse_cache.ParseCache(path, {})
    first.parse(TEXT, "a.md")
    first.parse(TEXT + "- more\n", "b.md")
    first.save()
    assert len(_rows(path)) == 2
    second = parse_cache.ParseCache(path, {})
    second.parse(TEXT, "a.md")          # b.md is gone from the store
    assert not second.new                # a.md came from the cache, not the parser
    second.save()
    assert len(_rows(path)) == 1


def test_a_first_run_writes_its_documents_in_batches_and_reads_them_back(tmp_path, monkeypatch):
    """A run never holds every new document's pickle: past FLUSH_EVERY they are written, and a
    file asked for again is read back from the cache, not parsed again."""
    monkeypatch.setattr(parse_cache, "FLUSH_EVERY", 3)
    path = tmp_path / "parse-cache-v3.sqlite"
    cache = parse_cache.ParseCache(path, {})
    texts = [TEXT + f"- item {n}\n" for n in range(7)]
    docs = [cache.parse(t, f"{n}.md") for n, t in enumerate(texts)]
    assert len(cache.new) == 1 and len(_rows(path)) == 6    # two batches of 3 written
    parsed = []
    monkeypatch.setattr(parse_cache.parse, "parse", lambda *a, **k: parsed.append(a) or None)
    assert cache.parse(texts[0], "0.md") == docs[0] and not parsed   # from the file
    cache.save()
    assert len(_rows(path)) == 7 and not cache.new


def test_a_reader_that_never_asks_for_item_keys_holds_none_of_them(tmp_path):
    """`archive` parses every cold file and never asks for the items' keys: they were kept by
    document id for the whole run (~160 MB at 10k real-sized files). Only the last one is kept."""
    import tracemalloc

    path = tmp_path / "parse-cache-v3.sqlite"
    body = "".join(f"- **Key learning:** retry number {n} needs a jittered backoff of {n} seconds\n"
                   for n in range(40))
    texts = [TEXT + f"- file {i}\n" + body for i in range(120)]
    first = parse_cache.ParseCache(path, {})
    for i, t in enumerate(texts):
        first.parse(t, f"{i}.md")
    first.save()
    warm = parse_cache.ParseCache(path, {})
    tracemalloc.start()
    try:
        warm.parse(texts[0], "0.md")
        before = tracemalloc.get_traced_memory()[0]
        for i, t in enumerate(texts[1:], 1):
            warm.parse(t, f"{i}.md")
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    one_file = len(texts[0].encode())
    # the keys set of 119 files is ~40 KB; every file's (clean, key) pairs were ~1 MB
    assert grown < 119 * one_file // 4, f"{grown} bytes kept over 119 files of {one_file} bytes"


def test_item_keys_answer_only_for_the_document_parsed_last(tmp_path):
    cache = parse_cache.ParseCache(tmp_path / "c.sqlite", {})
    a = cache.parse(TEXT, "a.md")
    assert [k for k, _ in cache.item_keys(a)] == ["**Key learning:** retries need a jittered backoff"]
    b = cache.parse(TEXT + "- more\n", "b.md")
    cache.parse(TEXT, "a.md")
    try:
        cache.item_keys(b)
        raise AssertionError("gave keys of a document parsed before the last")
    except ValueError:
        pass
