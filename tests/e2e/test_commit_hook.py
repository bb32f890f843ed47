"""The pre-commit hook refuses an over-budget or secret-bearing commit, through real `git commit`."""
from __future__ import annotations

import pytest
from conftest import git, write

pytestmark = pytest.mark.e2e


def test_oversized_hot_file_is_refused_then_accepted_after_trim(squad_repo):
    hot = squad_repo / ".squad/memory/hot/picard.md"
    write(hot, "# Hot memory\n\n## Current task\n\n" + "- a line of notes that keeps growing\n" * 170)
    assert hot.stat().st_size > 6000
    git(squad_repo, "add", "-A")
    refused = git(squad_repo, "commit", "-m", "big hot", check=False)
    assert refused.returncode != 0
    assert ".squad/memory/hot/picard.md:1: BUD001" in refused.stderr
    assert "max 4096" in refused.stderr and str(hot.stat().st_size) in refused.stderr
    assert "hint:" in refused.stderr
    write(hot, "# Hot memory\n\n## Current task\n\n- a short note\n")
    git(squad_repo, "add", "-A")
    accepted = git(squad_repo, "commit", "-m", "trimmed", check=False)
    assert accepted.returncode == 0, accepted.stderr
    assert git(squad_repo, "log", "-1", "--format=%s").stdout.strip() == "trimmed"


def test_github_token_in_cold_is_refused_naming_line_and_kind(squad_repo):
    cold = squad_repo / ".squad/memory/cold/picard.md"
    token = "ghp_" + "A1b2C3d4E5" * 3 + "F6g7H8"
    write(cold, f"# Cold\n\n### Deploy (2026-05-01)\n\n- used token {token} for the push\n")
    git(squad_repo, "add", "-A")
    refused = git(squad_repo, "commit", "-m", "leak", check=False)
    assert refused.returncode != 0
    assert ".squad/memory/cold/picard.md:5: SEC001" in refused.stderr
    assert "GitHub token" in refused.stderr


def test_hook_reads_the_index_not_the_work_tree(squad_repo):
    hot = squad_repo / ".squad/memory/hot/picard.md"
    write(hot, "# Hot\n\n- small\n")
    git(squad_repo, "add", "-A")
    write(hot, "# Hot\n\n" + "- unstaged growth that is not being committed\n" * 200)
    done = git(squad_repo, "commit", "-m", "small staged", check=False)
    assert done.returncode == 0, done.stderr
    # The index was not touched: the big version is still only in the work tree.
    assert git(squad_repo, "diff", "--stat").stdout.strip() != ""


def test_tiergit_zero_skips(squad_repo):
    write(squad_repo / ".squad/memory/hot/picard.md", "- x\n" * 3000)
    git(squad_repo, "add", "-A")
    done = git(squad_repo, "commit", "-m", "skip", check=False, env={"TIERGIT": "0"})
    assert done.returncode == 0, done.stderr


def test_hook_uses_the_staged_config_not_unstaged_edits(squad_repo):
    cfg = squad_repo / ".tiergit.yml"
    original = cfg.read_text()
    write(squad_repo / ".squad/memory/hot/picard.md", "# Hot\n\n" + "- note\n" * 60)  # 429 bytes
    git(squad_repo, "add", "-A")
    # Loosening the budget in the work tree only does not let the file through...
    cfg.write_text(original + "tiers:\n  hot: {budget: {bytes: 8192}}\n")
    strict = original + "tiers:\n  hot: {budget: {bytes: 300}}\n"
    (squad_repo / "strict.yml").write_text(strict)
    blob = git(squad_repo, "hash-object", "-w", "strict.yml").stdout.strip()
    git(squad_repo, "update-index", "--cacheinfo", f"100644,{blob},.tiergit.yml")
    refused = git(squad_repo, "commit", "-m", "x", check=False)
    assert refused.returncode == 1 and "max 300" in refused.stderr
    # ...and a staged, looser config is what the commit is checked against.
    git(squad_repo, "add", ".tiergit.yml")
    accepted = git(squad_repo, "commit", "-q", "-m", "looser budget", check=False)
    assert accepted.returncode == 0, accepted.stderr
