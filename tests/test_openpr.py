"""`tiergit promote --apply --pr-body FILE --open-pr`: commit, real push to a bare remote, `gh pr create`.

`gh` talks to the GitHub web API, so it is the one thing replaced: a small script on
PATH records its arguments and answers like gh does. git, the remote and the push are real.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path

from delivery_fixtures import squad_repo, squad_template  # noqa: F401
from conftest import git, tiergit
from test_action import seed_candidates

FAKE_GH = Path(__file__).parent / "fixtures" / "gh"   # records its argv, answers like gh


def with_remote(repo: Path, tmp: Path) -> Path:
    bare = tmp / "remote.git"
    git(tmp, "init", "-q", "--bare", "-b", "main", str(bare))
    git(repo, "remote", "add", "origin", str(bare))
    git(repo, "push", "-q", "-u", "origin", "main")
    return bare


def path_with_gh(tmp: Path, install_fake: bool) -> dict:
    """PATH holding git (and the fake gh when asked) and nothing else, so a real gh is never found."""
    bindir = tmp / "bin"
    bindir.mkdir(exist_ok=True)
    for name in ("git", "sh", "cat", "printf"):
        found = shutil.which(name)
        if found and not (bindir / name).exists():
            (bindir / name).symlink_to(found)
    if install_fake:
        gh = bindir / "gh"
        if not gh.exists():
            gh.symlink_to(FAKE_GH)
    return {"PATH": str(bindir), "FAKE_GH_LOG": str(tmp / "gh.log")}


def test_open_pr_commits_pushes_and_creates_the_pr(squad_repo, tmp_path):
    bare = with_remote(squad_repo, tmp_path)
    ids = seed_candidates(squad_repo)
    git(squad_repo, "checkout", "-q", "-b", "tiergit/promote")
    body = tmp_path / "body.md"
    env = path_with_gh(tmp_path, install_fake=True)
    done = tiergit(squad_repo, "promote", "--apply", "--pr-body", str(body), "--open-pr", env=env)
    assert done.returncode == 0, done.stderr
    assert "https://github.com/acme/memory/pull/8" in done.stdout
    # The promotion was committed on the branch and that commit is on the remote.
    head = git(squad_repo, "rev-parse", "HEAD").stdout.strip()
    assert git(bare, "rev-parse", "refs/heads/tiergit/promote").stdout.strip() == head
    assert git(squad_repo, "log", "-1", "--format=%s").stdout.startswith("tiergit: promote 2 item(s)")
    assert git(squad_repo, "status", "--porcelain").stdout == ""
    pushed_wiki = git(bare, "show", "tiergit/promote:.squad/memory/wiki/auth.md").stdout
    assert all(f"^{iid}" in pushed_wiki for iid in ids)
    calls = (tmp_path / "gh.log").read_text().splitlines()
    assert calls == [f"pr create --head tiergit/promote --title tiergit: promote 2 item(s) into reviewed memory "
                     f"--body-file {body} --label memory"]
    assert "| item | kind | score | recalls | source | reason |" in body.read_text()


def test_open_pr_updates_the_existing_pr_and_retries_without_a_missing_label(squad_repo, tmp_path):
    with_remote(squad_repo, tmp_path)
    seed_candidates(squad_repo)
    git(squad_repo, "checkout", "-q", "-b", "tiergit/promote")
    body = tmp_path / "body.md"
    env = {**path_with_gh(tmp_path, install_fake=True), "FAKE_GH_EXISTS": "1"}
    done = tiergit(squad_repo, "promote", "--apply", "--pr-body", str(body), "--open-pr", env=env)
    assert done.returncode == 0, done.stderr
    assert "https://github.com/acme/memory/pull/7" in done.stdout
    calls = [c.split(" --")[0] for c in (tmp_path / "gh.log").read_text().splitlines()]
    assert calls == ["pr create", "pr edit tiergit/promote", "pr view tiergit/promote"]
    (tmp_path / "gh.log").unlink()
    env = {**path_with_gh(tmp_path, install_fake=True), "FAKE_GH_NOLABEL": "1"}
    done = tiergit(squad_repo, "promote", "--pr-body", str(body), "--open-pr", env=env)
    assert done.returncode == 0, done.stderr
    calls = (tmp_path / "gh.log").read_text().splitlines()
    assert len(calls) == 2 and calls[0].endswith("--label memory") and "--label" not in calls[1]


def test_without_gh_a_clear_error_and_nothing_pushed(squad_repo, tmp_path):
    bare = with_remote(squad_repo, tmp_path)
    seed_candidates(squad_repo)
    git(squad_repo, "checkout", "-q", "-b", "tiergit/promote")
    head = git(squad_repo, "rev-parse", "HEAD").stdout.strip()
    env = path_with_gh(tmp_path, install_fake=False)
    done = tiergit(squad_repo, "promote", "--apply", "--pr-body", str(tmp_path / "b.md"), "--open-pr", env=env)
    assert done.returncode == 2
    assert done.stderr.startswith("tiergit: error: promote --open-pr: the GitHub CLI `gh` is not installed")
    assert "hint: install gh" in done.stderr and "Traceback" not in done.stderr
    assert git(bare, "for-each-ref", "--format=%(refname)").stdout.split() == ["refs/heads/main"]
    assert git(squad_repo, "rev-parse", "HEAD").stdout.strip() == head


def test_refuses_to_open_a_pr_from_the_default_branch(squad_repo, tmp_path):
    bare = with_remote(squad_repo, tmp_path)
    env = path_with_gh(tmp_path, install_fake=True)
    done = tiergit(squad_repo, "promote", "--pr-body", str(tmp_path / "b.md"), "--open-pr", env=env)
    assert done.returncode == 2
    assert "refusing to open a pull request from main" in done.stderr
    assert "git checkout -b tiergit/promote" in done.stderr
    assert not (tmp_path / "gh.log").exists()
    assert git(bare, "for-each-ref", "--format=%(refname)").stdout.split() == ["refs/heads/main"]


def test_no_remote_is_a_clear_error(squad_repo, tmp_path):
    git(squad_repo, "checkout", "-q", "-b", "tiergit/promote")
    env = path_with_gh(tmp_path, install_fake=True)
    done = tiergit(squad_repo, "promote", "--pr-body", str(tmp_path / "b.md"), "--open-pr", env=env)
    assert done.returncode == 2
    assert "no remote to push tiergit/promote to" in done.stderr and "git remote add origin" in done.stderr
    assert os.path.exists(tmp_path / "b.md")
