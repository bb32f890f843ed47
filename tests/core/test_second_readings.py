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
