"""Every numeric rule of the two seed designs, at its threshold, one below and one above.

Squad's tiered-memory skill (hot 4 KB, cold 12 KB, 30-day window, wiki variable) and
OpenClaw's memory-tiering skill (MEMORY.md 200 / 300 lines, daily notes 30 days, archive
90 days, gate 0.70 / 2 recalls, compaction layers 15 / 30 / 50 turns, Dreaming 48 h / 7 days).
In-process, on the pure functions that decide: no repository needed, so they are fast.
"""
from __future__ import annotations

from datetime import date, datetime, timedelta, timezone
from pathlib import Path

import pytest
from conftest import git

from tiergit.core import cuts, parse
from tiergit.core.candidate import Candidate
from tiergit.core.config import GateSettings
from tiergit.features import budget, retention, transcript
from tiergit.features.promotion import dream_health, gate
from tiergit.features.promotion.scoring import Score
from tiergit.shell import config

TODAY = date(2026, 6, 30)


def _cfg(tmp_path: Path, preset: str, extra: str = "") -> config.Config:
    return config.parse_text(f"version: 1\npreset: {preset}\n{extra}", tmp_path / ".tiergit.yml", tmp_path)


def _level(cfg: config.Config, tier: str, metric: str, value: int) -> str:
    return budget.level(value, cfg.tiers[tier].budget[metric])


@pytest.mark.parametrize("value, expected", [
    (199, "healthy"), (200, "warning"), (201, "warning"),
    (299, "warning"), (300, "warning"), (301, "critical"),
])
def test_openclaw_memory_md_line_levels(tmp_path, value, expected):
    # OpenClaw: healthy under 200 lines, warning 200-300, critical over 300.
    assert _level(_cfg(tmp_path, "openclaw"), "cold", "lines", value) == expected


@pytest.mark.parametrize("tier, metric, mx", [
    ("hot", "bytes", 4096), ("hot", "tokens", 1000),      # Squad: hot 2-4 KB, always loaded
    ("cold", "bytes", 12288), ("cold", "tokens", 3000),   # Squad: cold 8-12 KB
])
def test_squad_budgets_block_one_above_max_and_warn_from_80_percent(tmp_path, tier, metric, mx):
    cfg = _cfg(tmp_path, "squad")
    warn = int(mx * 0.8) + (0 if (mx * 0.8).is_integer() else 1)   # first whole value >= 80 %
    assert [_level(cfg, tier, metric, v) for v in (warn - 1, warn, mx - 1, mx, mx + 1)] == [
        "healthy", "warning", "warning", "warning", "critical"]


@pytest.mark.parametrize("metric, warn", [("bytes", 16384), ("tokens", 4000)])
def test_squad_wiki_budget_warns_and_never_blocks(tmp_path, metric, warn):
    # Squad: wiki size is "variable"; tiergit warns from 16 KB / 4000 tokens and never refuses.
    cfg = _cfg(tmp_path, "squad")
    assert [_level(cfg, "wiki", metric, v) for v in (warn - 1, warn, warn + 1, warn * 100)] == [
        "healthy", "warning", "warning", "warning"]


def test_a_team_max_on_the_wiki_blocks_above_it(tmp_path):
    cfg = _cfg(tmp_path, "squad", "tiers:\n  wiki: {budget: {bytes: {warn: 16384, max: 32768}}}\n")
    assert [_level(cfg, "wiki", "bytes", v) for v in (16383, 16384, 32768, 32769)] == [
        "healthy", "warning", "warning", "critical"]


def test_a_warn_only_budget_is_refused_when_malformed(tmp_path):
    with pytest.raises(Exception, match="warn must be a positive number"):
        _cfg(tmp_path, "squad", "tiers:\n  wiki: {budget: {bytes: {warn: 0}}}\n")


def _doc(age_days: int) -> parse.MemoryDoc:
    day = TODAY - timedelta(days=age_days)
    return parse.parse(f"# Cold\n\n### Work ({day.isoformat()})\n\n- [fact] a thing\n", "cold.md")


@pytest.mark.parametrize("age, expired", [(29, False), (30, False), (31, True)])
def test_cold_ttl_30_days(age, expired):
    # Squad: a 30-day rolling window; an entry 30 days old is still inside it.
    assert bool(cuts.expired_cuts(_doc(age), TODAY, 30)) is expired


def _daily_plan(tmp_path: Path, age_days: int, archive_month_age: int | None = None):
    from tiergit.shell.store import Store

    cfg = _cfg(tmp_path, "openclaw")
    day = TODAY - timedelta(days=age_days)
    note = cfg.tier_file("daily", date=day.isoformat())
    note.parent.mkdir(parents=True, exist_ok=True)
    note.write_text(f"# {day}\n\n- a note\n")
    return retention.plan_archive(Store(repo=tmp_path, config=cfg), TODAY), note


@pytest.mark.parametrize("age, moved", [(29, False), (30, False), (31, True)])
def test_openclaw_daily_notes_archive_after_30_days(tmp_path, age, moved):
    plan, note = _daily_plan(tmp_path, age)
    rel = note.relative_to(tmp_path).as_posix()
    assert any(c.path == rel and c.new is None for c in plan.changes) is moved


@pytest.mark.parametrize("days_after_move, deleted", [(89, False), (90, False), (91, True)])
def test_openclaw_archive_kept_90_days(tmp_path, days_after_move, deleted):
    """The purge counts from the day tiergit recorded moving the file, and deletes only files
    it recorded: the owner's file beside it stays."""
    from tiergit.features import archive_record
    from tiergit.features.plan import Plan
    from tiergit.shell.store import Store

    cfg = _cfg(tmp_path, "openclaw")
    store = Store(repo=tmp_path, config=cfg)
    moved_on = date(2026, 4, 20)
    folder = tmp_path / retention.archive_dir(store) / "2026-03"
    folder.mkdir(parents=True)
    (folder / "2026-03-02.md").write_text("# archived\n")
    (folder / "owners-notes.md").write_text("# the owner's\n")
    rec = Plan("tiergit archive")
    archive_record.record(rec, store, [f"{retention.archive_dir(store)}/2026-03/2026-03-02.md"], moved_on)
    rec.apply(tmp_path)
    # Archive leaves the tree only when git holds it unchanged (nothing lost): commit it.
    for args in (("init", "-q", "-b", "main"), ("add", "-A"), ("commit", "-q", "-m", "archive")):
        git(tmp_path, *args)
    plan = retention.plan_archive(store, moved_on + timedelta(days=days_after_move))
    assert any(c.path.endswith("2026-03/2026-03-02.md") and c.new is None for c in plan.changes) is deleted
    assert not any(c.path.endswith("owners-notes.md") for c in plan.changes)


def _verdict(score: float, recalls: int, age_days: int) -> gate.GateVerdict:
    cand = Candidate(id="m-00000001", text="Pin the broker SDK to an exact version", raw="- [rule] Pin the broker SDK",
                     kind="rule", source="cold/a.md", line=3, entry=None,
                     age_day=TODAY - timedelta(days=age_days), target_tier="wiki", topic="rules")
    sc = Score(total=score, signals={s: score for s in ("relevance", "frequency", "diversity", "recency",
                                                          "consolidation", "conceptual")}, weights={})
    ctx = gate.Context(settings=GateSettings(), today=TODAY, review=gate.ReviewState(), wiki_ids={})
    return gate.evaluate(cand, sc, recalls, ctx)


@pytest.mark.parametrize("score, accepted", [(0.69, False), (0.70, True), (0.71, True)])
def test_gate_min_score_070(score, accepted):
    v = _verdict(score, 5, 60)
    assert v.accepted is accepted and (accepted or v.failed == "score")


@pytest.mark.parametrize("recalls, accepted", [(1, False), (2, True), (3, True)])
def test_gate_min_recalls_2(recalls, accepted):
    v = _verdict(0.9, recalls, 60)
    assert v.accepted is accepted and (accepted or v.failed == "recalls")


@pytest.mark.parametrize("age, accepted", [(29, False), (30, True), (31, True)])
def test_gate_min_age_30_days(age, accepted):
    # Squad: "after 30 days cold moves to the wiki".
    v = _verdict(0.9, 5, age)
    assert v.accepted is accepted and (accepted or v.failed == "age")


@pytest.mark.parametrize("age, layer", [
    (14, "full"), (15, "key"), (16, "key"),            # newest 15 turns in full
    (29, "key"), (30, "decisions"), (31, "decisions"),  # turns 15-29 keep key exchanges
    (49, "decisions"), (50, "summary"), (51, "summary"),
])
def test_compaction_layer_boundaries(age, layer):
    # OpenClaw's layer table (age 0 = the newest turn).
    assert transcript.LAYERS[transcript._layer_of(age)][0] == layer


NOW = datetime(2026, 6, 30, 12, 0, tzinfo=timezone.utc)


@pytest.mark.parametrize("hours, expected", [
    (47, "healthy"), (48, "healthy"), (49, "warning"),
    (167, "warning"), (168, "warning"), (169, "critical"),
])
def test_dreaming_recency_hours(hours, expected):
    # OpenClaw: no run in 48 h -> warning; no output in 7 days -> critical.
    then = NOW - timedelta(hours=hours)
    assert dream_health.judge_hours(dream_health.hours_since(then, NOW), True) == expected


def test_dreaming_recency_is_off_without_a_schedule_and_never_ran_is_critical_with_one():
    assert dream_health.judge_hours(None, False) == "healthy"
    assert dream_health.judge_hours(500, False) == "healthy"
    assert dream_health.judge_hours(None, True) == "critical"


@pytest.mark.parametrize("gap, expected", [(0, "healthy"), (1, "healthy"), (2, "warning"),
                                           (7, "warning"), (8, "critical")])
def test_daily_notes_for_recent_days(gap, expected):
    assert dream_health.judge_daily(TODAY - timedelta(days=gap), TODAY, True) == expected


@pytest.mark.parametrize("preset, tier, command", [
    ("squad", "hot", "`tiergit session end`"),
    ("squad", "cold", "`tiergit check --fix`"),
    ("openclaw", "warm", "`tiergit check --fix`"),
    ("openclaw", "daily", "`tiergit archive --apply`"),
    ("openclaw", "cold", "`tiergit audit --apply` on the promotion branch"),
    ("squad", "decisions", "`squad nap`"),            # Squad's own file, read in place: Squad trims it
])
def test_every_over_budget_hint_names_the_command_that_fixes_its_tier(tmp_path, preset, tier, command):
    from tiergit.features.checks import budget_findings

    cfg = _cfg(tmp_path, preset, f"tiers:\n  {tier}: {{budget: {{lines: {{warn: 2, max: 3}}}}}}\n")
    t = cfg.tiers[tier]
    for lines, code in ((2, "BUD002"), (4, "BUD001")):
        m = budget.Measure(bytes=lines, lines=lines, tokens=lines, tokens_exact=True)
        found = [f for f in budget_findings(budget.judge("x.md", t, m), t) if f.code == code]
        assert found and command in found[0].hint, (code, found[0].hint if found else None)


def _signals(count: int = 0, queries: int = 0, last_days_ago: int | None = None, concepts: int = 0) -> dict:
    from tiergit.core.config import DEFAULT_WEIGHTS
    from tiergit.features.promotion.scoring import RecallStats, score

    days = {TODAY - timedelta(days=last_days_ago)} if last_days_ago is not None else set()
    st = RecallStats(count=count, score_sum=float(count), queries={f"q{i}" for i in range(queries)}, days=days)
    return score(st, 0, set(), concepts, TODAY, None, dict(DEFAULT_WEIGHTS), 14).signals


@pytest.mark.parametrize("days, above_half", [(13, True), (14, None), (15, False)])
def test_recency_half_life_14_days(days, above_half):
    r = _signals(count=1, last_days_ago=days)["recency"]
    assert (r == pytest.approx(0.5)) if above_half is None else ((r > 0.5) is above_half)


@pytest.mark.parametrize("n, full", [(9, False), (10, True), (11, True)])
def test_frequency_saturates_at_10_recalls(n, full):
    assert (_signals(count=n)["frequency"] == pytest.approx(1.0)) is full


@pytest.mark.parametrize("n, full", [(4, False), (5, True), (6, True)])
def test_diversity_saturates_at_5_queries(n, full):
    assert (_signals(count=n, queries=n)["diversity"] == pytest.approx(1.0)) is full


@pytest.mark.parametrize("n, full", [(5, False), (6, True), (7, True)])
def test_conceptual_saturates_at_6_tags_or_links(n, full):
    assert (_signals(concepts=n)["conceptual"] == pytest.approx(1.0)) is full


def test_score_weights_are_openclaws():
    from tiergit.core.config import DEFAULT_WEIGHTS

    assert DEFAULT_WEIGHTS == {"relevance": 0.30, "frequency": 0.24, "diversity": 0.15, "recency": 0.15,
                               "consolidation": 0.10, "conceptual": 0.06}
