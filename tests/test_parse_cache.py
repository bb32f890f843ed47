"""The promotion parse cache keeps parsed kinds between runs: a new label vocabulary
(parse.CLASSIFIER_VERSION) must not reuse kinds the previous one gave."""
from __future__ import annotations

import pickle

from tiergit import candidates

TEXT = "# Agent\n\n## Learnings\n\n- **Key learning:** retries need a jittered backoff\n"


def _write(path, version, labels, docs):
    with open(path, "wb") as fh:
        pickle.dump((version, labels, docs), fh)


def test_cache_from_an_older_vocabulary_is_rebuilt(tmp_path):
    path = tmp_path / "parse-cache.pickle"
    cache = candidates.ParseCache(path, {})
    assert cache.parse(TEXT, "a.md").items[0].kind == "rule"
    cache.save()
    with open(path, "rb") as fh:
        version, labels, docs = pickle.load(fh)
    for doc in docs.values():
        doc.sections[-1].items[0].kind = "context"   # what the narrow vocabulary gave
    # Written by the current classifier: reused as is (that is the cache's job).
    _write(path, version, labels, docs)
    assert candidates.ParseCache(path, {}).parse(TEXT, "a.md").items[0].kind == "context"
    # Written before CLASSIFIER_VERSION existed (VERSION 1): parsed again.
    _write(path, 1, labels, docs)
    assert candidates.ParseCache(path, {}).parse(TEXT, "a.md").items[0].kind == "rule"
