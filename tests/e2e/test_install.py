"""install/uninstall: chained user hooks, core.hooksPath, linked worktrees, TIERGIT=0."""
from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from conftest import git, tiergit, write

pytestmark = pytest.mark.e2e

HOT = ".squad/memory/hot/picard.md"
BIG = "# Hot\n\n## Current task\n\n" + "- a line of notes that keeps growing\n" * 170
USER_HOOK = "#!/bin/sh\necho user-hook-ran >> \"$(git rev-parse --git-dir)/user-hook.log\"\nexit ${USER_HOOK_EXIT:-0}\n"


def make_hook(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)


def init_squad(repo: Path) -> None:
    proc = tiergit(repo, "init", "--preset", "squad")
    assert proc.returncode == 0, proc.stderr
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "tiergit init")


def test_existing_user_hook_keeps_running_and_is_restored(repo):
    user = repo / ".git/hooks/pre-commit"
    make_hook(user, USER_HOOK)
    init_squad(repo)
    out = tiergit(repo, "install")  # a second install is a no-op, never a double chain
    assert out.returncode == 0
    hooks = repo / ".git/hooks"
    assert (hooks / "pre-commit.tiergit-chained").read_text() == USER_HOOK
    assert "tiergit-hook v4" in (hooks / "pre-commit").read_text()
    log = repo / ".git/user-hook.log"
    assert log.read_text().count("user-hook-ran") == 1  # ran for the init commit

    # Both run: the user's hook first, then tiergit refuses the over-budget file.
    write(repo / HOT, BIG)
    git(repo, "add", "-A")
    refused = git(repo, "commit", "-m", "big", check=False)
    assert refused.returncode == 1 and "BUD001" in refused.stderr
    assert log.read_text().count("user-hook-ran") == 2
    # The user's hook can still block on its own.
    write(repo / HOT, "# Hot\n\n- small\n")
    git(repo, "add", "-A")
    blocked = git(repo, "commit", "-m", "small", check=False, env={"USER_HOOK_EXIT": "3"})
    assert blocked.returncode != 0 and "BUD001" not in blocked.stderr
    assert git(repo, "commit", "-q", "-m", "small").returncode == 0

    un = tiergit(repo, "uninstall")
    assert un.returncode == 0 and "restored pre-commit from pre-commit.tiergit-chained" in un.stdout
    assert user.read_text() == USER_HOOK and os.access(user, os.X_OK)
    assert not (hooks / "pre-commit.tiergit-chained").exists() and not (hooks / "post-merge").exists()
    assert git(repo, "config", "--get", "merge.tiergit.driver", check=False).returncode == 1
    # tiergit no longer checks; the user's hook still runs.
    write(repo / HOT, BIG)
    git(repo, "add", "-A")
    assert git(repo, "commit", "-q", "-m", "big, unchecked").returncode == 0
    assert log.read_text().count("user-hook-ran") == 5


def test_install_never_overwrites_a_taken_chained_slot(repo):
    make_hook(repo / ".git/hooks/pre-commit", USER_HOOK)
    make_hook(repo / ".git/hooks/pre-commit.tiergit-chained", "#!/bin/sh\nexit 0\n")
    (repo / ".tiergit.yml").write_text("version: 1\npreset: squad\n")
    proc = tiergit(repo, "install")
    assert proc.returncode == 2 and "pre-commit.tiergit-chained: is taken" in proc.stderr
    assert (repo / ".git/hooks/pre-commit").read_text() == USER_HOOK


def test_core_hooks_path_is_respected(repo):
    git(repo, "config", "core.hooksPath", ".githooks")
    make_hook(repo / ".githooks/pre-commit", USER_HOOK)
    init_squad(repo)
    assert "tiergit-hook v4" in (repo / ".githooks/pre-commit").read_text()
    assert (repo / ".githooks/pre-commit.tiergit-chained").read_text() == USER_HOOK
    assert not (repo / ".git/hooks/pre-commit").exists()
    write(repo / HOT, BIG)
    git(repo, "add", "-A")
    refused = git(repo, "commit", "-m", "big", check=False)
    assert refused.returncode == 1 and "BUD001" in refused.stderr
    assert tiergit(repo, "uninstall").returncode == 0
    assert (repo / ".githooks/pre-commit").read_text() == USER_HOOK


def test_linked_worktree_uses_the_shared_hooks(squad_repo, tmp_path):
    wt = tmp_path / "wt"
    git(squad_repo, "worktree", "add", "-q", "-b", "feature", str(wt))
    write(wt / HOT, BIG)
    git(wt, "add", "-A")
    refused = git(wt, "commit", "-m", "big in worktree", check=False)
    assert refused.returncode == 1 and f"{HOT}:1: BUD001" in refused.stderr
    write(wt / HOT, "# Hot\n\n- small\n")
    git(wt, "add", "-A")
    assert git(wt, "commit", "-q", "-m", "small in worktree").returncode == 0
    # install from the worktree targets the same (common) hooks dir, not a per-worktree one.
    out = tiergit(wt, "install")
    assert out.returncode == 0 and str(squad_repo / ".git/hooks/pre-commit") in out.stdout


def test_tiergit_zero_skips_tiergit_but_not_the_user_hook(repo):
    make_hook(repo / ".git/hooks/pre-commit", USER_HOOK)
    init_squad(repo)
    write(repo / HOT, BIG)
    git(repo, "add", "-A")
    done = git(repo, "commit", "-m", "skip", check=False, env={"TIERGIT": "0"})
    assert done.returncode == 0, done.stderr
    assert (repo / ".git/user-hook.log").read_text().count("user-hook-ran") == 2


def test_shim_without_tiergit_says_so(squad_repo):
    shim = squad_repo / ".git/hooks/pre-commit"
    text = shim.read_text()
    start = text.index("INSTALL_PYTHON='") + len("INSTALL_PYTHON='")
    shim.write_text(text[:start] + "/nonexistent/python" + text[text.index("'", start):])
    write(squad_repo / HOT, "# Hot\n\n- small\n")
    git(squad_repo, "add", "-A")
    env = {"PATH": "/usr/bin:/bin"}  # git is here; tiergit is not
    proc = git(squad_repo, "commit", "-m", "x", check=False, env=env)
    assert proc.returncode == 1
    assert "tiergit: not found, so memory budgets were not checked." in proc.stderr
    assert "TIERGIT=0" in proc.stderr
    assert git(squad_repo, "commit", "-q", "-m", "x", env={**env, "TIERGIT": "0"}).returncode == 0


def test_init_dry_run_writes_nothing(repo):
    proc = tiergit(repo, "init", "--preset", "openclaw", "--dry-run")
    assert proc.returncode == 0 and "(dry run: nothing written)" in proc.stdout
    assert git(repo, "status", "--porcelain").stdout == ""
    assert not (repo / ".git/hooks/pre-commit").exists()
