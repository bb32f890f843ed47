"""A tree that keeps its memory: merge attributes only on tier files (never an owner's file
beside them), status rows for the archive and staging, and status exiting 1 on CRIT."""
from __future__ import annotations

import json
from datetime import date, timedelta

from conftest import commit, git, ok, tiergit, write
from tiergit.shell import clock

TODAY = clock.today()


def _merge_attr(repo, rel: str) -> str:
    return git(repo, "check-attr", "merge", "--", rel).stdout.strip().rsplit(": ", 1)[-1]


def test_openclaw_merge_attributes_cover_dated_notes_only(repo):
    ok(tiergit(repo, "init", "--preset", "openclaw"))
    tier_files = ["memory/2026-04-01.md", "memory/2026-04-01-1432.md", "memory/2026-04-02-zebra-plan.md",
                  "MEMORY.md", "memory/archive/2026-04/2026-04-02.md"]
    owners = ["memory/HANDOFF.md", "memory/decisions.md", "memory/archive/2026-04/shipwright-improvements.md",
              "memory/topics/auth.md", "memory/dreaming/light/2026-04-01.md"]
    assert [_merge_attr(repo, r) for r in tier_files] == ["tiergit"] * len(tier_files)
    assert [_merge_attr(repo, r) for r in owners] == ["unspecified"] * len(owners)


def test_squad_merge_attributes_follow_the_one_archive_layout(repo):
    ok(tiergit(repo, "init", "--preset", "squad"))
    assert _merge_attr(repo, ".squad/memory/archive/2026-04/cold/picard.md") == "tiergit"
    assert _merge_attr(repo, ".squad/memory/local/notes.md") == "unspecified"


def test_status_shows_archive_and_staging_and_exits_1_on_crit(squad_repo):
    repo = squad_repo
    cold = repo / ".squad/memory/cold/picard.md"
    write(cold, "# Picard\n\n" + "".join(
        f"### Session {i} ({(TODAY - timedelta(days=60 - i)).isoformat()})\n\n- [rule] Lesson {i} holds.\n\n"
        for i in range(6)))
    commit(repo, "cold")
    ok(tiergit(repo, "archive", "--apply"))
    commit(repo, "archive")
    run = tiergit(repo, "status")
    assert run.returncode == 0, run.stdout + run.stderr
    lines = run.stdout.splitlines()
    archive = next(ln for ln in lines if ln.startswith("archive "))
    assert ".squad/memory/archive/: 1 file(s)" in archive and "(1 moved by tiergit, 0 due" in archive
    staging = next(ln for ln in lines if ln.startswith("staging "))
    assert "3 candidate(s) waiting for review" in staging          # the archived rules, staged
    data = json.loads(ok(tiergit(repo, "status", "--json")).stdout)
    assert [p["place"] for p in data["places"]] == ["archive", "staging"]
    later = {"TIERGIT_TODAY": (TODAY + timedelta(days=91)).isoformat()}
    due = json.loads(tiergit(repo, "status", "--json", env=later).stdout)["places"][0]
    assert due["due"] == 1

    write(repo / ".squad/memory/hot/picard.md", "# Hot\n\n" + "- note\n" * 800)   # over its max
    crit = tiergit(repo, "status")
    assert crit.returncode == 1 and "CRIT" in crit.stdout and "Traceback" not in crit.stderr
    assert tiergit(repo, "check", "--all").returncode == 1                         # the same verdict
