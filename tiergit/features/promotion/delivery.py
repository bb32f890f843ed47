"""Delivering a promotion: the branch it is on, and the pull request `promote --open-pr` opens
(through tiergit.shell.openpr, the one module that talks to GitHub)."""
from __future__ import annotations

from pathlib import Path

from tiergit.shell import git, openpr


def current_branch(store) -> str | None:
    return git.current_branch(store.repo)


def check_ready(store) -> None:
    """gh, a remote, not the default branch: refused before anything is written."""
    openpr.check_ready(store, current_branch(store) or "HEAD")


def open_pr(store, accepted: int, pr_body: Path | None, written: list[str]):
    """Commit `written` on the current branch and open the pull request (its URL, or None)."""
    title = f"tiergit: promote {accepted} item(s) into reviewed memory"
    return openpr.open_pr(store, current_branch(store) or "tiergit/promote", title, pr_body, paths=written)
