"""Must show: the labelled durable corpus lines replayed through `session end` (one session per
labelled file, real store, real session start/end). Every line the judgement calls durable in
place is in cold afterwards; the share of *all* labelled durable lines in cold is printed and
held to the level this round reached (the issue's target, every labelled line, is not met: see
docs/judge.md)."""
from __future__ import annotations

import pytest
from conftest import CORPUS, HAVE_CORPUS, corpus_map

pytestmark = pytest.mark.corpus

# Measured on 2026-12-01 with statements kept within the entry budget (tune 20/66 = 0.303, held
# 14/30 = 0.467; before them 0.273 / 0.400): floors that guard against regressions, not the target.
RECALL_FLOOR = {"tune": 0.30, "held": 0.45}


@pytest.fixture(scope="module")
def results():
    if not HAVE_CORPUS:
        pytest.skip("no corpus")
    import replay_labelled
    return replay_labelled.outcomes(CORPUS, mapper=corpus_map)


def test_every_line_the_judgement_keeps_is_in_cold_after_session_end(results):
    lost = [r.line.ref for r in results if r.kept_kind and not r.in_cold]
    assert not lost, lost
    assert sum(r.kept_kind for r in results) >= 20


def test_labelled_durable_recall_through_session_end(results):
    for split in ("tune", "held"):
        part = [r for r in results if r.line.split == split]
        recall = sum(r.in_cold for r in part) / len(part)
        print(f"{split}: {sum(r.in_cold for r in part)}/{len(part)} labelled durable lines in cold = {recall:.3f}")
        assert recall >= RECALL_FLOOR[split], (split, recall)
