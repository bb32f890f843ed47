"""`tiergit promote --open-pr` without Actions: commit the promotion, push the branch, `gh pr create`.

One pull request per branch: when one is already open, its body is updated instead.
"""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

from tiergit.errors import TiergitError
from tiergit.shell import git

PROTECTED = ("main", "master")
LABEL = "memory"


def _gh(gh: str, repo: Path, args: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run([gh, *args], cwd=repo, capture_output=True, text=True)


def _last_line(proc: subprocess.CompletedProcess) -> str:
    lines = (proc.stderr or proc.stdout).strip().splitlines()
    return lines[-1] if lines else f"exit {proc.returncode}"


def check_ready(store, branch: str) -> tuple[str, str]:
    """(gh, remote) or the error `open_pr` would raise; call it before writing anything."""
    repo = store.repo
    if branch in ("", "HEAD"):
        raise TiergitError("promote --open-pr: HEAD is detached, so there is no branch to push",
                           "run promote on a branch: git checkout -b tiergit/promote")
    gh = shutil.which("gh")
    if gh is None:
        raise TiergitError("promote --open-pr: the GitHub CLI `gh` is not installed",
                           f"install gh and run `gh auth login`, or run promote without --open-pr, commit, "
                           f"push {branch} and open the PR by hand (or use .github/workflows/tiergit-promote.yml)")
    remote = git.remote_for(repo, branch)
    if remote is None:
        raise TiergitError(f"{repo}: no remote to push {branch} to",
                           "add one with `git remote add origin URL`")
    default = git.default_branch(repo, remote)
    if branch in PROTECTED or branch == default:
        raise TiergitError(f"promote --open-pr: refusing to open a pull request from {branch}",
                           "run promote on a branch: git checkout -b tiergit/promote")
    return gh, remote


def promotion_pathspecs(config, written: list[str] | None = None) -> list[str]:
    """What a promotion commit may hold: the store root, every tier and staging path outside it
    (openclaw's repo-root MEMORY.md) as a glob, and the files this run wrote."""
    specs = [config.root]
    # A tier read in place (Squad's decisions.md) is never written by tiergit: not part of a promotion.
    outside = [t.path for t in config.tiers.values() if not t.in_place] + ([config.staging] if config.staging else [])
    for path in outside:
        if path.startswith("/"):
            specs.append(":(glob)" + re.sub(r"\{[^}]*\}", "*", config.repo_path(path)))
    for rel in written or []:
        if rel not in specs:
            specs.append(rel)
    return specs


def open_pr(store, branch: str, title: str, body_path: Path, paths: list[str] | None = None) -> str:
    """Commit the promotion (the store, tier files outside it, and `paths`), push `branch` and open
    (or update) its pull request with `gh`; returns the PR's URL."""
    repo = store.repo
    gh, remote = check_ready(store, branch)
    if not Path(body_path).is_file():
        raise TiergitError(f"{body_path}: pull-request body not found", "pass --pr-body FILE with promote")
    # Only pathspecs that match a change: `git add` refuses one that matches no file.
    changed = [spec for spec in promotion_pathspecs(store.config, paths) if git.changed_paths(repo, [spec])]
    if changed:
        git.commit_paths(repo, changed, title)
    git.push_branch(repo, remote, branch)
    args = ["pr", "create", "--head", branch, "--title", title, "--body-file", str(body_path)]
    created = _gh(gh, repo, args + ["--label", LABEL])
    if created.returncode != 0 and "label" in (created.stderr or "").lower():
        created = _gh(gh, repo, args)   # the repository has no `memory` label: open it without
    if created.returncode == 0:
        return created.stdout.strip()
    if "already exists" not in (created.stderr or ""):
        raise TiergitError(f"gh pr create failed: {_last_line(created)}",
                           "check `gh auth status` and that the branch was pushed")
    edited = _gh(gh, repo, ["pr", "edit", branch, "--title", title, "--body-file", str(body_path)])
    if edited.returncode != 0:
        raise TiergitError(f"gh pr edit failed: {_last_line(edited)}", "check `gh auth status`")
    viewed = _gh(gh, repo, ["pr", "view", branch, "--json", "url", "--jq", ".url"])
    return viewed.stdout.strip() or f"updated the pull request for {branch}"
