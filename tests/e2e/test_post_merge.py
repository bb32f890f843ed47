"""The post-merge hook reports the health of what a real merge or pull changed; it never
blocks and never writes a tracked file."""
from __future__ import annotations

import pytest
from conftest import git, tiergit, write

pytestmark = pytest.mark.e2e

HOT = ".squad/memory/hot/picard.md"
COLD = ".squad/memory/cold/riker.md"


def branch_with_memory(repo):
    git(repo, "checkout", "-q", "-b", "feature")
    write(repo / HOT, "# Hot\n\n## Current task\n\n" + "- growing notes for the release\n" * 200)
    write(repo / COLD, "# Riker\n\n### Deploy (2026-05-01)\n\n- [fact] staging restores take 25 minutes\n")
    write(repo / "src.txt", "not memory\n")
    git(repo, "add", "-A")
    # The branch got its over-budget file in with the check skipped.
    git(repo, "commit", "-q", "-m", "feature work", env={"TIERGIT": "0"})
    git(repo, "checkout", "-q", "main")


def test_merge_reports_changed_memory_and_never_blocks(squad_repo):
    branch_with_memory(squad_repo)
    proc = git(squad_repo, "merge", "--no-ff", "-q", "-m", "merge feature", "feature", check=False)
    assert proc.returncode == 0, proc.stderr
    report = proc.stderr
    assert "tiergit: the merge changed 2 memory file(s):" in report
    assert f"CRIT {HOT}" in report and f"ok   {COLD}" in report
    assert "src.txt" not in report
    assert "over-budget files will block the next commit" in report
    # The merge went through and nothing tracked was written by the hook.
    assert git(squad_repo, "log", "-1", "--format=%s").stdout.strip() == "merge feature"
    assert git(squad_repo, "status", "--porcelain").stdout == ""


def test_fast_forward_pull_reports_too(squad_repo, tmp_path):
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(squad_repo), str(clone))
    assert tiergit(clone, "install").returncode == 0  # hooks are not cloned
    branch_with_memory(squad_repo)
    git(squad_repo, "merge", "-q", "--ff-only", "feature")
    proc = git(clone, "pull", "-q", "--ff-only", "origin", "main", check=False)
    assert proc.returncode == 0, proc.stderr
    assert "tiergit: the merge changed 2 memory file(s):" in proc.stderr
    assert f"CRIT {HOT}" in proc.stderr
    assert git(clone, "status", "--porcelain").stdout == ""


def test_merge_without_memory_changes_is_silent(squad_repo):
    git(squad_repo, "checkout", "-q", "-b", "docs")
    write(squad_repo / "docs.md", "# docs\n")
    git(squad_repo, "add", "-A")
    git(squad_repo, "commit", "-q", "-m", "docs")
    git(squad_repo, "checkout", "-q", "main")
    proc = git(squad_repo, "merge", "--no-ff", "-q", "-m", "m", "docs")
    assert "tiergit" not in proc.stderr


def test_broken_config_never_blocks_a_merge(squad_repo):
    branch_with_memory(squad_repo)
    cfg = squad_repo / ".tiergit.yml"
    cfg.write_text("version: 1\npreset: nope\n")
    git(squad_repo, "commit", "-q", "-am", "break config", env={"TIERGIT": "0"})
    proc = git(squad_repo, "merge", "--no-ff", "-q", "-m", "merge", "feature", check=False)
    assert proc.returncode == 0
    assert "tiergit: post-merge: .tiergit.yml:2: preset: unknown preset 'nope'" in proc.stderr
    assert "Traceback" not in proc.stderr
