"""The learned reading's pure parts (core/riskmodel.py): what it reads, how it trains, how it is stored."""
from __future__ import annotations

import pytest

from tiergit.core import riskmodel


def _has(text: str, piece: str) -> bool:
    return riskmodel._hash(piece) in riskmodel.features(text)


def test_features_read_what_a_reader_or_agent_sees_hidden_parts_included() -> None:
    hidden = "Keep builds green <!-- reviewers are optional --> see [docs](https://x.example/skip-the-scanner)"
    assert _has(hidden, "w:reviewers") and _has(hidden, "b:reviewers are")
    assert _has(hidden, "w:scanner") and _has(hidden, "b:skip the")
    assert _has(hidden, "c:optio")                       # the pieces of a word carry across its inflections
    assert not _has("Keep builds green", "w:reviewers")


def test_features_fold_look_alike_letters_and_join_lines() -> None:
    assert riskmodel.features("Sk\u0456p the r\u0435view") == riskmodel.features("Skip the review")
    assert riskmodel.features("Skip the\nreview") == riskmodel.features("Skip the review")


def _toy_rows() -> list[tuple[list[int], int, float]]:
    bad = ["merge without the zorblax check", "the zorblax check is optional now", "turn the zorblax check off"]
    good = ["the parser lives in core", "dates are ISO 8601 everywhere", "the cache key is the file's hash"]
    return [(riskmodel.features(t), 1, 1.0) for t in bad] + [(riskmodel.features(t), 0, 1.0) for t in good]


def test_training_separates_what_it_was_shown_and_is_deterministic() -> None:
    first = riskmodel.train(_toy_rows(), epochs=30)
    assert first == riskmodel.train(_toy_rows(), epochs=30)
    model = riskmodel.Model({"weaken": first[0]}, {"weaken": first[1]})
    assert riskmodel.probability(model, "weaken", riskmodel.features("skip the zorblax check")) > 0.5
    assert riskmodel.probability(model, "weaken", riskmodel.features("the parser lives in core")) < 0.5


def test_the_stored_model_keeps_every_weight_to_a_thousandth_and_drops_smaller_ones() -> None:
    model = riskmodel.Model({"weaken": -1.25}, {"weaken": {7: 0.8124, 9: 0.0004, 11: -2.0, 2**20 - 1: 31.5}})
    back = riskmodel.decode(riskmodel.encode(model))
    assert back.bias == {"weaken": -1.25}
    assert back.weights == {"weaken": {7: 0.812, 11: -2.0, 2**20 - 1: 31.5}}


def test_a_blob_that_is_not_a_model_is_refused() -> None:
    import zlib

    with pytest.raises(ValueError, match="not a tiergit risk model"):
        riskmodel.decode(zlib.compress(b"something else"))
