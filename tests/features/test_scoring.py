"""The six promotion signals and their weights (pure), and weights read from .tiergit.yml."""
from __future__ import annotations

import json
import math
from datetime import date, timedelta

import pytest
from conftest import tiergit, write

from tiergit.core.config import DEFAULT_WEIGHTS
from tiergit.core.configcheck import scoring_settings
from tiergit.core.parse import item_id
from tiergit.features.promotion.scoring import concepts, recall_stats, score
from tiergit.shell import logs
from tiergit.shell.store import Store
from tiergit.shell import clock

TODAY = date(2026, 6, 1)


def ev(iid: str, day: int, query: str, s: float = 0.8) -> dict:
    return {"ts": f"{(TODAY - timedelta(days=day)).isoformat()}T12:00:00Z", "query": query, "id": iid, "score": s}


def test_signals_follow_the_published_model():
    stats = recall_stats([ev("m-1", 0, "a"), ev("m-1", 7, "b", 0.6), ev("m-1", 14, "A "), ev("m-2", 0, "z"),
                          {"id": 5}, {"ts": "garbage", "id": "m-1", "query": "c", "score": True}])
    st = stats["m-1"]
    assert st.count == 4 and st.queries == {"a", "b", "c"} and len(st.days) == 3
    sc = score(st, mentions=2, mention_days=set(), concept_count=3, today=TODAY, age_day=None,
               weights=DEFAULT_WEIGHTS, half_life_days=14)
    assert sc.signals["relevance"] == pytest.approx((0.8 + 0.6 + 0.8 + 0.0) / 4)
    assert sc.signals["frequency"] == pytest.approx(math.log1p(6) / math.log1p(10))
    assert sc.signals["diversity"] == pytest.approx(3 / 5)
    assert sc.signals["recency"] == pytest.approx(1.0)
    assert sc.signals["consolidation"] == pytest.approx(1.0)       # 14 days of spread >= 7
    assert sc.signals["conceptual"] == pytest.approx(0.5)
    expected = sum(sc.signals[k] * w for k, w in DEFAULT_WEIGHTS.items())
    assert sc.total == pytest.approx(expected, abs=1e-6)


def test_recency_halves_every_half_life_and_nothing_scores_zero_signals():
    st = recall_stats([ev("m-1", 14, "a")])["m-1"]
    sc = score(st, 0, set(), 0, TODAY, None, DEFAULT_WEIGHTS, 14)
    assert sc.signals["recency"] == pytest.approx(0.5)
    empty = score(None, 0, set(), 0, TODAY, None, DEFAULT_WEIGHTS, 14)
    assert empty.total == 0 and empty.weakest() == "relevance"


def test_concepts_count_tags_and_links():
    assert concepts("Use [[auth-flow]] with #auth and #gateway, see [docs](https://x.y/z)") == 4
    assert concepts("Heading # not a tag, colour &#35;") == 0


def test_weights_come_from_the_config(squad_repo):
    cfg = squad_repo / ".tiergit.yml"
    cfg.write_text(cfg.read_text() + "scoring:\n  weights: {relevance: 1.0, frequency: 0, diversity: 0, "
                   "recency: 0, consolidation: 0, conceptual: 0}\n")
    assert scoring_settings({"weights": {"relevance": 1.0, "bogus": 3}}).weights["relevance"] == 1.0
    old = (clock.today() - timedelta(days=50)).isoformat()
    write(squad_repo / ".squad/memory/cold/picard.md", f"# P\n\n### Work ({old})\n\n- [rule] Keep retries idempotent\n")
    iid = item_id("- [rule] Keep retries idempotent")[0]
    logs.append(Store.open(squad_repo), logs.RECALLS,
                [{"ts": f"{old}T00:00:00Z", "query": "q", "id": iid, "score": 0.75}] * 2)
    row = json.loads(tiergit(squad_repo, "promote", "--json").stdout)["candidates"][0]
    assert row["score"] == pytest.approx(0.75)
    assert row["verdict"] == "promote"
