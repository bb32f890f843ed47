"""tiergit through the real pre-commit framework: `.pre-commit-hooks.yaml` from a git
clone of this project, a venv that pre-commit builds and pip-installs tiergit into, a
commit refused and then accepted, and the post-merge report.

Offline: pip may not use any index (PIP_NO_INDEX=1, a dead proxy). pre-commit's venv
still builds and installs tiergit from the cloned source; the already-installed
dependencies (click, tiktoken, …, and setuptools for the build) are lent to it with
PYTHONPATH, a folder of links to exactly those distributions (tiergit itself excluded).
"""
from __future__ import annotations

import re
import subprocess
import sys

import pytest
import yaml
from conftest import PROJECT, git, tiergit, write
from offline_build import lend, source_checkout

pytestmark = pytest.mark.e2e

HOT = ".squad/memory/hot/picard.md"
BIG = "# Hot\n\n## Current task\n\n" + "- a line of notes that keeps growing\n" * 170


def test_hooks_manifest_declares_both_hooks():
    hooks = {h["id"]: h for h in yaml.safe_load((PROJECT / ".pre-commit-hooks.yaml").read_text())}
    check, post = hooks["tiergit-check"], hooks["tiergit-post-merge"]
    assert check["stages"] == ["pre-commit", "pre-push", "manual"] and check["language"] == "python"
    assert post["stages"] == ["post-merge"] and post["always_run"] is True and post["pass_filenames"] is False


def test_real_pre_commit_refuses_then_accepts(tmp_path):
    src, rev = source_checkout(tmp_path)
    deps = tmp_path / "deps"
    lend(deps)
    env = {"PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"), "PYTHONPATH": str(deps),
           "PIP_NO_INDEX": "1", "PIP_NO_BUILD_ISOLATION": "0",  # pip reads "0" as: no isolation
           "HTTPS_PROXY": "http://127.0.0.1:9", "HTTP_PROXY": "http://127.0.0.1:9"}

    repo = tmp_path / "team"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    assert tiergit(repo, "init", "--preset", "squad", "--no-install").returncode == 0
    (repo / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {src}\n    rev: {rev}\n    hooks:\n"
        "      - id: tiergit-check\n      - id: tiergit-post-merge\n")
    installed = subprocess.run([sys.executable, "-m", "pre_commit", "install", "--hook-type", "pre-commit",
                                "--hook-type", "post-merge"], cwd=repo, capture_output=True, text=True)
    assert installed.returncode == 0, installed.stderr
    git(repo, "add", "-A")
    first = git(repo, "commit", "-m", "tiergit init", check=False, env=env)
    assert first.returncode == 0, first.stdout + first.stderr
    # pre-commit installed tiergit from the clone into its own venv.
    venvs = list((tmp_path / "pre-commit-home").glob("repo*/py_env-*/bin/tiergit"))
    assert len(venvs) == 1

    write(repo / HOT, BIG)
    git(repo, "add", "-A")
    refused = git(repo, "commit", "-m", "big hot", check=False, env=env)
    assert refused.returncode == 1
    out = refused.stdout + refused.stderr
    assert re.search(r"tiergit check \(memory budgets, format, secrets\)\.+Failed", out), out
    assert f"{HOT}:1: BUD001 [critical] hot tier over budget: 6314 bytes > max 4096" in out

    # Trimmed and staged, with the big text left unstaged in the work tree: pre-commit
    # stashes it, so the hook sees the staged content only, and restores it afterwards.
    write(repo / HOT, "# Hot\n\n## Current task\n\n- a short note\n")
    git(repo, "add", "-A")
    write(repo / HOT, BIG)
    accepted = git(repo, "commit", "-m", "trimmed", check=False, env=env)
    assert accepted.returncode == 0, accepted.stdout + accepted.stderr
    assert re.search(r"tiergit check \(memory budgets, format, secrets\)\.+Passed", accepted.stdout + accepted.stderr)
    assert (repo / HOT).read_text() == BIG
    assert git(repo, "show", f"HEAD:{HOT}").stdout == "# Hot\n\n## Current task\n\n- a short note\n"

    # post-merge through the framework: a report, never a block.
    git(repo, "stash", "-q")
    git(repo, "checkout", "-q", "-b", "feature")
    write(repo / HOT, BIG)
    git(repo, "commit", "-q", "--no-verify", "-am", "big on a branch")
    git(repo, "checkout", "-q", "main")
    merged = git(repo, "merge", "--no-ff", "-m", "merge feature", "feature", check=False, env=env)
    assert merged.returncode == 0, merged.stdout + merged.stderr
    report = merged.stdout + merged.stderr
    assert "tiergit post-merge report (never blocks)" in report
    assert "tiergit: the merge changed 1 memory file(s):" in report and f"CRIT {HOT}" in report
