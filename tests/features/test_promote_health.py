"""Promotion health in `tiergit status`: candidates waiting, days since the last promotion
(warning after 2, critical after 7 with a schedule), files over budget."""
from __future__ import annotations

import json
from datetime import date, timedelta

from conftest import tiergit, write

from tiergit.core.parse import item_id
from tiergit.shell import logs
from tiergit.shell.store import Store
from tiergit.shell import clock


def test_status_shows_waiting_candidates_last_promotion_and_over_budget(squad_repo):
    repo = squad_repo
    cfg = repo / ".tiergit.yml"
    cfg.write_text(cfg.read_text() + 'schedule: "0 3 * * *"\n')
    old = (clock.today() - timedelta(days=40)).isoformat()
    write(repo / ".squad/memory/cold/picard.md", f"# P\n\n### Work ({old})\n\n- [rule] Keep retries idempotent\n")
    write(repo / ".squad/memory/hot/picard.md", "# Hot\n\n" + "- note\n" * 800)
    store = Store.open(repo)
    iid = item_id("- [rule] Keep retries idempotent")[0]
    logs.append(store, logs.RECALLS, [{"ts": f"{(clock.today() - timedelta(days=i)).isoformat()}T00:00:00Z",
                                       "query": f"q{i}", "id": iid, "score": 0.95} for i in range(1, 10, 2)])
    logs.append(store, logs.REVIEWS, [{"ts": f"{(clock.today() - timedelta(days=5)).isoformat()}T00:00:00Z",
                                       "id": "m-99999999", "action": "proposed", "text": "x"}])
    run = tiergit(repo, "status")
    assert run.returncode == 1, run.stderr          # hot is over its max: CRIT exits 1
    assert "promotion: 1 candidate(s) waiting of 1 considered (run `tiergit promote`)" in run.stdout
    assert "promotion: last on " in run.stdout and "days ago (WARN: over 48 h; run the promotion workflow)" in run.stdout
    total = next(ln for ln in run.stdout.splitlines() if ln.startswith("total"))
    assert total.rstrip().endswith("CRIT")
    assert "over budget: 1 file(s): .squad/memory/hot/picard.md" in run.stdout
    model = json.loads(tiergit(repo, "status", "--json").stdout)
    assert model["promotion"]["candidates_waiting"] == 1 and model["promotion"]["health"] == "warning"
    assert model["promotion"]["candidates_considered"] == 1
    assert model["promotion"]["days_since"] == 5


def test_never_promoted_with_a_schedule_is_critical(squad_repo):
    cfg = squad_repo / ".tiergit.yml"
    cfg.write_text(cfg.read_text() + 'schedule: "0 3 * * *"\n')
    model = json.loads(tiergit(squad_repo, "status", "--json").stdout)
    assert model["promotion"]["health"] == "critical" and model["promotion"]["last_promotion"] is None
    plain = tiergit(squad_repo, "status").stdout
    assert "promotion: last never (CRIT: over 7 days; run the promotion workflow)" in plain
