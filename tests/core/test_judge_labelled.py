"""The text judgement measured on the project's labelled sets (tests/labels/), tuned and held-out
parts separately; lines written by the team run everywhere, corpus references where the corpus is."""
from __future__ import annotations

import judge_eval as je
import labelled
import pytest
from conftest import CORPUS


@pytest.fixture(scope="module")
def written_lines():
    return je.memory_lines(None)


def test_labelled_sets_have_the_promised_size_and_a_held_out_part():
    kinds = labelled.rows("kinds_written.tsv") + labelled.rows("kinds_corpus.tsv")
    cands = labelled.rows("candidates_written.tsv") + labelled.rows("candidates_corpus.tsv")
    assert len(kinds) >= 400 and len(cands) >= 200
    assert {row[1] for row in kinds} == {"tune", "held"}
    assert {row[2] for row in cands} == {"tune", "held"}
    assert {row[0] for row in kinds} >= {"decision", "rule", "fact", "correction", "permission", "error", "open",
                                         "context", "chatter", "junk", "injection"}


@pytest.mark.parametrize("split", ["tune", "held"])
def test_session_end_keeps_durable_written_lines_and_drops_chatter(written_lines, split):
    m = je.memory_metrics([ln for ln in written_lines if ln.split == split])
    assert m["durable_recall"] >= 0.95, [ln.text for ln in m["missed"]]
    assert m["transcript_recall"] >= 0.95
    assert m["chatter_dropped"] >= 0.8, [ln.text for ln in m["chatter_kept"]]


@pytest.mark.parametrize("split", ["tune", "held"])
def test_gate_on_written_candidates(split):
    cands = [c for c in je.candidate_lines(None) if c.split == split]
    m = je.gate_metrics(cands)
    assert m["precision"] >= 0.97, m["bad_promoted"]
    assert m["recall"] >= 0.85, m["good_rejected"]


@pytest.mark.corpus
def test_gate_on_real_dreaming_candidates_and_corpus_lines_of_the_tuned_part():
    # The held-out part is measured, not asserted: benchmarks/bench_judge.py prints it and
    # docs/judge.md records it (below target on real Dreaming candidates of unseen workspaces).
    cands = [c for c in je.candidate_lines(CORPUS) if c.split == "tune" and c.set in ("dreams", "corpus-cold")]
    m = je.gate_metrics(cands)
    # Transcripts, reflections, dumps, reports and junk do not pass; one real chat line ("Keep a dream
    # journal …", advice to a user) still does.
    assert m["promoted"] >= 5 and m["precision"] >= 0.9, m["bad_promoted"]


@pytest.mark.corpus
@pytest.mark.parametrize("split", ["tune", "held"])
def test_session_end_drops_real_chatter_and_junk(split):
    lines = [ln for ln in je.memory_lines(CORPUS) if ln.set == "corpus" and ln.split == split]
    # Since issue 21 a line that carries specifics is kept whatever its label: these round-1 labels call
    # status lines with counts and code names (`1369 passed / 0 failed`, `` `azd deploy` success ``) and
    # tables, paths and code names chatter or junk, so about a third of them is kept now (0.705 / 0.609
    # of them dropped, tune / held; keep-everything 0). Round 5 keeps counts too (`All 396 tests pass`: the
    # second reader of the sentence labels and the issue call numbers specifics): 0.690 / 0.522. The noise
    # target (>= 85 % of noise tokens) is checked on the sentence labels that follow the definition
    # (tests/features/test_sentence_keep.py); this floor catches a judgement that stops dropping chatter.
    assert je.memory_metrics(lines)["chatter_dropped"] >= 0.5


@pytest.mark.corpus
def test_the_token_budget_caps_durable_recall_on_real_lines():
    # Measured, not tuned: labelled durable corpus lines hold ~42 % of the labelled lines' tokens, so
    # keeping 0.95 of them verbatim keeps > 30 % of tokens, twice the replay's 15 % limit; even a
    # perfect judge keeping the shortest durable lines first within 15 % stays near 0.55 (docs/judge.md).
    c = je.ceiling([ln for ln in je.memory_lines(CORPUS) if ln.set == "corpus"])
    assert c["share_for_095"] > 0.30 and 0.4 < c["best_recall"] < 0.7, c

