"""`tiergit promote --apply --pr-body FILE --open-pr`: commit, real push to a bare remote, `gh pr create`.

`gh` talks to the GitHub web API, so it is the one thing replaced: a small script on
PATH records its arguments and answers like gh does. git, the remote and the push are real.
"""
from __future__ import annotations

import shutil
from datetime import date, timedelta
from pathlib import Path

import pytest
from conftest import git, tiergit, write
from delivery_fixtures import squad_repo, squad_template  # noqa: F401
from test_action import seed_candidates

from tiergit.core.parse import item_id
from tiergit.shell import logs
from tiergit.shell.store import Store
from tiergit.shell import clock

OLD = (clock.today() - timedelta(days=40)).isoformat()

FAKE_GH = Path(__file__).parents[1] / "fixtures" / "gh"   # records its argv, answers like gh


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


REFUSALS = {
    # case: (error the user sees, the fix the hint names)
    "no gh": ("promote --open-pr: the GitHub CLI `gh` is not installed", "install gh and run `gh auth login`"),
    "no remote": ("no remote to push tiergit/promote to", "git remote add origin URL"),
    "default branch": ("promote --open-pr: refusing to open a pull request from main", "git checkout -b tiergit/promote"),
    "detached HEAD": ("promote --open-pr: HEAD is detached", "git checkout -b tiergit/promote"),
}


@pytest.mark.parametrize("case", sorted(REFUSALS))
def test_a_refused_open_pr_writes_nothing(squad_repo, tmp_path, case):
    """--apply --open-pr with items to promote: a failing precondition is exit 2 before any write."""
    bare = None if case == "no remote" else with_remote(squad_repo, tmp_path)
    seed_candidates(squad_repo)
    if case == "detached HEAD":
        git(squad_repo, "checkout", "-q", "--detach")
    elif case != "default branch":
        git(squad_repo, "checkout", "-q", "-b", "tiergit/promote")
    head = git(squad_repo, "rev-parse", "HEAD").stdout.strip()
    body = tmp_path / "body.md"
    env = path_with_gh(tmp_path, install_fake=case != "no gh")
    done = tiergit(squad_repo, "promote", "--apply", "--pr-body", str(body), "--open-pr", env=env)
    message, fix = REFUSALS[case]
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr.startswith("tiergit: error: ") and message in done.stderr.splitlines()[0]
    assert fix in done.stderr and "Traceback" not in done.stderr
    # Nothing touched: no wiki append, no review log, no commit, no body, no push, no gh call.
    assert git(squad_repo, "status", "--porcelain", "--untracked-files=all").stdout == ""
    assert git(squad_repo, "rev-parse", "HEAD").stdout.strip() == head
    assert not body.exists() and not (tmp_path / "gh.log").exists()
    if bare is not None:
        assert git(bare, "for-each-ref", "--format=%(refname)").stdout.split() == ["refs/heads/main"]
    # The same run, once the problem is fixed, promotes: the refusal was the precondition alone.
    if case == "no gh":
        env = path_with_gh(tmp_path, install_fake=True)
    elif case == "no remote":
        with_remote(squad_repo, tmp_path)
    else:
        git(squad_repo, "checkout", "-q", "-b", "tiergit/promote")
    again = tiergit(squad_repo, "promote", "--apply", "--pr-body", str(body), "--open-pr", env=env)
    assert again.returncode == 0, again.stderr
    assert git(squad_repo, "status", "--porcelain").stdout == "" and body.is_file()


def test_openclaw_memory_md_at_the_repo_root_is_in_the_pushed_commit(repo, tmp_path):
    """openclaw's reviewed tier is /MEMORY.md, outside the store root `.tiergit/`: the promotion
    commit holds it, the candidate listing and the review log, and that commit is pushed."""
    assert tiergit(repo, "init", "--preset", "openclaw").returncode == 0
    write(repo / "MEMORY.md", "# Memory\n\n## Rules\n\n- [rule] Answer in English unless asked otherwise\n")
    rule = "- [preference] Use pnpm, not npm, in every workspace"
    write(repo / ".tiergit/warm/MEMORY.md", f"# Warm memory\n\n### Preferences ({OLD})\n\n{rule}\n")
    logs.append(Store.open(repo), logs.RECALLS, [
        {"ts": f"{(clock.today() - timedelta(days=1 + 2 * i)).isoformat()}T09:00:00Z", "query": f"q{i}",
         "agent": "main", "id": item_id(rule)[0], "path": "x", "entry": "x", "score": 0.9, "rank": 1}
        for i in range(4)])
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "openclaw memory")
    bare = with_remote(repo, tmp_path)
    git(repo, "checkout", "-q", "-b", "tiergit/promote")
    body = tmp_path / "body.md"
    env = path_with_gh(tmp_path, install_fake=True)
    done = tiergit(repo, "promote", "--apply", "--pr-body", str(body), "--open-pr", env=env)
    assert done.returncode == 0, done.stderr
    assert "https://github.com/acme/memory/pull/8" in done.stdout
    assert git(repo, "status", "--porcelain", "--untracked-files=all").stdout == ""
    pushed = git(bare, "rev-parse", "refs/heads/tiergit/promote").stdout.strip()
    assert pushed == git(repo, "rev-parse", "HEAD").stdout.strip()
    in_commit = git(bare, "diff-tree", "--no-commit-id", "--name-only", "-r", pushed).stdout.split()
    assert {"MEMORY.md", ".tiergit/candidates.md", ".tiergit/logs/reviews.jsonl"} <= set(in_commit)
    assert all(p == "MEMORY.md" or p.startswith(".tiergit/") for p in in_commit)
    diff = git(bare, "diff", f"{pushed}~1", pushed, "--", "MEMORY.md").stdout
    assert "+<!-- openclaw-memory-promotion:memory:.tiergit/warm/MEMORY.md:5:5 -->" in diff
    assert "+- [rule] Use pnpm, not npm, in every workspace [score=" in diff
    assert (tmp_path / "gh.log").read_text().startswith("pr create --head tiergit/promote")


def test_promotion_pathspecs_reach_tier_files_outside_the_store_root(repo):
    """Pure part: which paths a promotion commit takes, for a custom layout with a placeholder."""
    write(repo / ".tiergit.yml", "version: 1\nroot: mem\nstaging: /notes/STAGED.md\ntiers:\n"
          "  hot: {path: \"hot.md\", next: wiki}\n  wiki: {path: \"/docs/wiki/{topic}.md\", review: pull-request}\n")
    from tiergit.shell.config import load
    from tiergit.shell.openpr import promotion_pathspecs

    assert promotion_pathspecs(load(repo), ["docs/wiki/auth.md", "mem/logs/reviews.jsonl", "x.md"]) == [
        "mem", ":(glob)docs/wiki/*.md", ":(glob)notes/STAGED.md", "docs/wiki/auth.md", "mem/logs/reviews.jsonl",
        "x.md"]
