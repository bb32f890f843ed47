"""Dreaming health in `tiergit status`: on whenever the promotion workflow is installed (no
`schedule:` key needed), hour-granular, checking DREAMS.md and the daily notes, and in the total."""
from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

from conftest import git, ok, tiergit, write

from tiergit.shell.config import load
from tiergit.shell import clock


def _commit_at(repo, message: str, hours_ago: float) -> None:
    when = (clock.now() - timedelta(hours=hours_ago)).strftime("%Y-%m-%dT%H:%M:%S+0000")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message, env={"GIT_COMMITTER_DATE": when, "GIT_AUTHOR_DATE": when,
                                                  "TIERGIT": "0"})


def _checks(repo) -> dict:
    model = json.loads(ok(tiergit(repo, "status", "--json")).stdout)
    return {"total": model["total"]["health"], **{c["name"]: c["health"] for c in model["promotion"]["checks"]}}


def test_without_a_schedule_nothing_is_judged(repo):
    ok(tiergit(repo, "init", "--preset", "openclaw"))
    checks = _checks(repo)
    assert set(checks.values()) == {"healthy"}
    assert "no schedule" in ok(tiergit(repo, "status")).stdout


def test_the_promotion_workflow_turns_the_checks_on_hour_by_hour(repo):
    ok(tiergit(repo, "init", "--preset", "openclaw", "--with-workflows", "--install-spec", "tiergit==0.1.0"))
    cfg = load(repo)
    dreams = repo / "DREAMS.md"        # OpenClaw's own Dreaming output, at the workspace root
    today = clock.now().date()
    write(dreams, "# Dreams\n\n- [rule] a candidate\n")
    write(cfg.tier_file("daily", date=today.isoformat()), "# today\n\n- a note\n")
    _commit_at(repo, "dreaming ran 47 hours ago", 47)
    checks = _checks(repo)
    assert checks["staging"] == "healthy" and checks["daily"] == "healthy"
    assert checks["promotion"] == "critical" and checks["total"] == "critical"   # never promoted

    write(dreams, "# Dreams\n\n- [rule] a candidate\n- [rule] another\n")
    _commit_at(repo, "dreaming ran 50 hours ago", 50)
    assert _checks(repo)["staging"] == "warning"
    write(dreams, "# Dreams\n\n- [rule] a third\n")
    _commit_at(repo, "dreaming ran 8 days ago", 8 * 24)
    assert _checks(repo)["staging"] == "critical"
    write(dreams, "# Dreams\n\n- [rule] edited just now, not committed\n")
    assert _checks(repo)["staging"] == "healthy"                                  # the work tree counts


def test_health_follows_dreams_md_not_tiergits_candidate_listing(repo):
    ok(tiergit(repo, "init", "--preset", "openclaw", "--with-workflows"))
    cfg = load(repo)
    # tiergit's own listing, fresh (as right after `import` or `promote`): not a Dreaming run.
    write(repo / cfg.repo_path(cfg.staging), "# Staged candidates\n\n- [rule] imported\n")
    _commit_at(repo, "import just now", 0)
    model = json.loads(ok(tiergit(repo, "status", "--json")).stdout)
    staging = next(c for c in model["promotion"]["checks"] if c["name"] == "staging")
    assert staging["health"] == "critical" and "DREAMS.md not written yet" in staging["note"]
    # A real Dreaming run writes DREAMS.md: healthy, however old tiergit's listing is.
    write(repo / "DREAMS.md", "# Dreams\n\n- [likely_durable] Use uv for Python installs [memory/2026-04-01.md:3]\n")
    _commit_at(repo, "dreaming ran an hour ago", 1)
    assert _checks(repo)["staging"] == "healthy"


def test_no_daily_note_for_two_days_warns(repo):
    ok(tiergit(repo, "init", "--preset", "openclaw"))
    cfg_file = repo / ".tiergit.yml"
    cfg_file.write_text(cfg_file.read_text() + 'schedule: "0 3 * * *"\n')
    cfg = load(repo)
    day = clock.now().date() - timedelta(days=2)
    write(cfg.tier_file("daily", date=day.isoformat()), "# note\n")
    out = ok(tiergit(repo, "status")).stdout
    assert f"daily notes: newest {day.isoformat()} (WARN: over 48 h)" in out
