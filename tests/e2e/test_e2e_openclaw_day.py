"""An OpenClaw day on a real corpus workspace, end to end through real git: a MEMORY.md over
its 300-line max -> `audit --apply` proposes the cut on the promotion branch -> a reviewer
keeps one line and merges -> `review sync` -> within budget, and the day's note holds the
`Dream review:` line. Paths come from the config (the openclaw preset's layout may move)."""
from __future__ import annotations

import json
import re
import shutil
from datetime import date

import pytest
from conftest import CORPUS, commit, git, ok, tiergit_process

from tiergit.features.budget import line_count
from tiergit.shell.config import load
from tiergit.shell import clock

pytestmark = [pytest.mark.e2e, pytest.mark.corpus]
WORKSPACE = CORPUS / "openclaw_robertsong2019_openclaw-workspace"
DATED = re.compile(r"^(\d{4}-\d{2}-\d{2})\.md$")


def _copy_workspace(repo) -> int:
    """MEMORY.md and the plain daily notes, placed where the preset keeps them; their count."""
    shutil.copy(WORKSPACE / "MEMORY.md", repo / "MEMORY.md")
    cfg = load(repo)
    notes = 0
    for src in sorted((WORKSPACE / "memory").glob("*.md"))[-10:]:
        m = DATED.match(src.name)
        if m:
            dest = cfg.tier_file("daily", date=m[1])
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(src, dest)
            notes += 1
    return notes


def test_openclaw_day_prunes_memory_md_through_review(repo):
    ok(tiergit_process(repo, "init", "--preset", "openclaw", "--with-workflows",
                       "--install-spec", "tiergit==0.1.0"))
    assert _copy_workspace(repo) > 0
    original = (repo / "MEMORY.md").read_text()
    assert line_count(original) > 300, "the fixture workspace must start over the 300-line max"
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "the workspace as OpenClaw left it", env={"TIERGIT": "0"})

    run = tiergit_process(repo, "status", "--json")
    assert run.returncode == 1, run.stderr                   # CRIT exits 1, like check
    status = json.loads(run.stdout)
    assert status["total"]["health"] == "critical"
    assert status["promotion"]["scheduled"] is True          # the promotion workflow is installed
    check = tiergit_process(repo, "check")
    assert check.returncode == 1 and "BUD001" in check.stdout and "`tiergit audit --apply`" in check.stdout

    # Nightly, on the promotion branch: the cut is proposed like a promotion.
    git(repo, "switch", "-q", "-c", "tiergit/promote")
    body = repo.parent / "pr-body.md"
    audit = json.loads(ok(tiergit_process(repo, "audit", "--apply", "--pr-body", str(body), "--json")).stdout)
    assert audit["applied"] and audit["prune_events"] > 0
    pruned = (repo / "MEMORY.md").read_text()
    assert line_count(pruned) < 200
    cfg = load(repo)    # the archive is where the config puts it (openclaw: /memory/archive/, not under root)
    archive = repo / cfg.repo_path(cfg.archive)
    archived = "".join(p.read_text() for p in archive.rglob("*.md"))
    gone = [ln for ln in original.splitlines() if ln.strip() and ln not in pruned.splitlines()]
    assert gone and all(ln in archived for ln in gone)        # nothing lost: every cut line is archived
    assert "## Proposed for the archive (audit)" in body.read_text()
    commit(repo, "tiergit: promote and archive memory")      # through the hook: now within budget

    # Review: the reviewer restores one cut item (a list line) in the PR, then merges.
    keep = next(ln for ln in gone if ln.startswith("- "))
    (repo / "MEMORY.md").write_text(pruned.rstrip("\n") + "\n\n" + keep + "\n")
    commit(repo, "review: keep one item")
    git(repo, "switch", "-q", "main")
    ok(git(repo, "merge", "-q", "--no-ff", "-m", "merge the promotion PR", "tiergit/promote"))

    synced = json.loads(ok(tiergit_process(repo, "review", "sync", "--json")).stdout)
    actions = [e["action"] for e in synced["events"]]
    assert actions.count("prune-kept") >= 1 and actions.count("pruned") > 0
    assert ok(tiergit_process(repo, "check")).returncode == 0
    after = json.loads(ok(tiergit_process(repo, "status", "--json")).stdout)
    memory_row = next(f for f in after["files"] if f["path"] == "MEMORY.md")
    assert memory_row["health"] == "healthy"
    cfg = load(repo)
    note = cfg.tier_file("daily", date=clock.today().isoformat())
    lines = note.read_text().splitlines()
    assert any(re.fullmatch(r"- \[\d\d:\d\d\] Dream review: accepted 0, rejected 0; pruned \d+, kept \d+", ln)
               for ln in lines)
