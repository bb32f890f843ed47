"""Where tiergit keeps its per-worktree state: `<git dir>/tiergit` (caches, locks, journal, temps).

One home for the path so every cache, lock and temp agrees on it. Stdlib only at import
(the pre-commit hook path uses it); the git process is started lazily by `state_dir`.
"""
from __future__ import annotations

from pathlib import Path

STATE_NAME = "tiergit"
FALLBACK_NAME = ".git-tiergit"   # beside the files when no git dir is found (never committed)


def under(git_dir: Path) -> Path:
    """The state folder inside a known git dir. Cost: none."""
    return git_dir / STATE_NAME


def state_dir(repo: Path) -> Path:
    """The state folder of the worktree at `repo`, asking git (honours $GIT_DIR, linked
    worktrees). Cost: one `git rev-parse`. Raises TiergitError outside a repository."""
    from tiergit.shell import git

    return under(git.git_dir(repo))


def near(path: Path) -> Path | None:
    """The state folder of the repository holding `path`, found without a git process
    (walks up to `.git`, follows a linked worktree's `gitdir:` file), else None."""
    for parent in [path.parent, *path.parent.parents]:
        dot = parent / ".git"
        if dot.is_dir():
            return under(dot)
        if dot.is_file():
            try:
                text = dot.read_text(encoding="utf-8").strip()
            except OSError:
                return None
            if text.startswith("gitdir:"):
                gd = Path(text[7:].strip())
                return under((gd if gd.is_absolute() else (parent / gd)).resolve())
            return None
    return None


def local(repo: Path) -> Path:
    """The state folder for locks and the journal: `near` the work tree, else a fallback
    folder in it (a store outside git still gets one lock and one journal)."""
    base = near(Path(repo) / ".tiergit.yml")
    return base if base is not None else Path(repo) / FALLBACK_NAME
