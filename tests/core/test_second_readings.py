"""The second, independent readings stay aligned with the labelled sets they read: same items, same
order, and the agreement the benchmarks print (a relabel that silently shifts rows fails here)."""
from __future__ import annotations

import labelled
import pytest


@pytest.mark.parametrize("name, at_least", [("poison", 0.95), ("secrets", 0.95)])
def test_the_second_reading_covers_every_item_and_agrees(name, at_least):
    line = labelled.second_reading(name)
    agree, total = line.split(": ")[1].split(" labels")[0].split("/")
    assert int(total) == (len(labelled.rows("poison.tsv")) if name == "poison"
                          else len(labelled.credentials()) + len(labelled.lookalikes()))
    assert float(line.rsplit(" ", 1)[1]) >= at_least


def test_the_sentence_and_question_readings_cover_their_sets():
    assert len(labelled.rows("sentences_corpus_reader2.tsv")) == len(labelled.rows("sentences_corpus.tsv"))
    import json
    from pathlib import Path

    questions = json.loads((Path(__file__).resolve().parents[2] / "benchmarks/data/recall_questions.json")
                           .read_text())["questions"]
    checked = labelled.rows("recall_questions_reader2.tsv")
    assert len(checked) == len(questions) and sum(r[1] == "yes" for r in checked) >= 40


KEEP = {"nc", "durable", "specific"}


@pytest.mark.parametrize("first, third, label_of, at_least", [
    ("supersede_heldout4.tsv", "supersede_heldout4_reader3.tsv", lambda r: r[0], 0.95),
    ("promote_real.tsv", "promote_real_reader3.tsv", lambda r: r[6], 0.75),
    ("promote_real_new.tsv", "promote_real_new_reader2.tsv", lambda r: r[6], 0.6),
    ("promote_real_round7.tsv", "promote_real_round7_reader2.tsv", lambda r: r[6], 0.6),
    ("promote_openclaw.tsv", "promote_openclaw_reader2.tsv", lambda r: r[6], 0.7),
    ("promote_openclaw.tsv", "promote_openclaw_reader3.tsv", lambda r: r[6], 0.7),
    ("promote_round8.tsv", "promote_round8_reader2.tsv", lambda r: r[6], 0.9),
    ("promote_stop50.tsv", "promote_stop50_reader2.tsv", lambda r: r[6], 0.9),
    ("promote_stop51.tsv", "promote_stop51_reader2.tsv", lambda r: r[6], 0.9),
    ("poison_round2.tsv", "poison_round2_reader2.tsv", lambda r: r[0], 0.95),
    ("poison_round3.tsv", "poison_round3_reader2.tsv", lambda r: r[0], 0.95),
    ("poison_round4.tsv", "poison_round4_reader2.tsv", lambda r: r[0], 0.95),
    ("poison_round5.tsv", "poison_round5_reader2.tsv", lambda r: r[0], 0.95),
    ("poison_round6.tsv", "poison_round6_reader2.tsv", lambda r: r[0], 0.95),
    ("poison_round7.tsv", "poison_round7_reader2.tsv", lambda r: r[0], 0.95),
    ("poison_round8.tsv", "poison_round8_reader2.tsv", lambda r: r[0], 0.95),
    ("poison_round9.tsv", "poison_round9_reader2.tsv", lambda r: r[0], 0.95),
    ("poison_round10.tsv", "poison_round10_reader2.tsv", lambda r: r[0], 0.95),
    ("poison_round11.tsv", "poison_round11_reader2.tsv", lambda r: r[0], 0.95),
    ("poison_round12.tsv", "poison_round12_reader2.tsv", lambda r: r[0], 0.95),
    ("poison_round13.tsv", "poison_round13_reader2.tsv", lambda r: r[0], 0.95),
    ("poison_round14.tsv", "poison_round14_reader2.tsv", lambda r: r[0], 0.95),
    ("poison_round15.tsv", "poison_round15_reader2.tsv", lambda r: r[0], 0.95),
    ("poison_round16.tsv", "poison_round16_reader2.tsv", lambda r: r[0], 0.95),
    ("poison_round17.tsv", "poison_round17_reader2.tsv", lambda r: r[0], 0.95),
    ("sentences_corpus_new.tsv", "sentences_corpus_new_reader3.tsv",
     lambda r: "keep" if r[0] in KEEP else "noise", 0.8),
    ("sentences_corpus_round6.tsv", "sentences_corpus_round6_reader3.tsv",
     lambda r: "keep" if r[0] in KEEP else "noise", 0.85),
    ("sentences_corpus_round6.tsv", "sentences_corpus_round6_reader4.tsv",
     lambda r: "keep" if r[0] in KEEP else "noise", 0.85),
    ("sentences_corpus_round7.tsv", "sentences_corpus_round7_reader2.tsv",
     lambda r: "keep" if r[0] in KEEP else "noise", 0.9),
])
def test_the_independent_third_readings_cover_their_sets_in_order_and_agree(first, third, label_of, at_least):
    """Readers who saw only the items (never the labels, the code or its output): one row per item, numbered in
    the labelled file's order, and the agreement their headers state (keep/noise for sentences)."""
    items, reading = labelled.rows(first), labelled.rows(third)
    assert [int(r[0]) for r in reading] == list(range(1, len(items) + 1))
    second = [("keep" if r[1] in KEEP else "noise") if first.startswith("sentences") else r[1] for r in reading]
    _agree, _total, k = labelled.kappa([label_of(r) for r in items], second)
    assert k >= at_least


def test_the_round6_second_pass_covers_its_sample_in_order_and_agrees() -> None:
    """Round 6's held-out sample: the second pass has one row per sentence, numbered in the first pass's order;
    the agreement bench_judge.py prints (both passes by one author, so an upper bound) stays what was committed."""
    items, reading = labelled.rows("sentences_corpus_round6.tsv"), labelled.rows("sentences_corpus_round6_reader2.tsv")
    assert [int(r[0]) for r in reading] == list(range(1, len(items) + 1)) and len(items) == 56
    assert {r[1] for r in items} == {"round6"}
    first = ["keep" if r[0] in KEEP else "noise" for r in items]
    second = ["keep" if r[1] in KEEP else "noise" for r in reading]
    total, agree, k = labelled.kappa(first, second)
    assert (total, agree) == (56, 55) and k >= 0.9
