"""Hook shims and merge-driver config: install chains an existing hook, uninstall restores it.

Where each shim goes beside other hook managers is decided in `tiergit.shell.hookchain`;
this module applies that plan (new files written first, then moves). Cost: a few
small file reads and writes, two `git config` calls.
"""
from __future__ import annotations

import os
import sys
from contextlib import nullcontext
from pathlib import Path

from tiergit.errors import TiergitError
from tiergit.features.hookstate import framework_runs_tiergit, shared_folder
from tiergit.shell import git, resources
from tiergit.shell.fsutil import atomic_write, lock
from tiergit.shell.hookchain import (
    HOOKS,
    MARKER_RE,
    ChainError,
    Step,
    plan_install,
    plan_uninstall,
)

MARKER = "tiergit-hook v"
DRIVER_NAME = "tiergit entry-by-entry memory merge"


def sh_quote(text: str) -> str:
    """One POSIX-sh word: single quotes, with any quote in the text closed and escaped."""
    return "'" + text.replace("'", "'\\''") + "'"


def python_for_sh(python: str | None = None) -> str:
    """The interpreter path as Git for Windows' sh and Linux sh both read it (forward slashes)."""
    path = python or sys.executable
    return path.replace("\\", "/") if os.name == "nt" else path


# In a hooks folder the team commits, the shim names no machine's interpreter: it reads this
# clone's from .git/config (never committed), else finds tiergit on PATH or as python3 -m tiergit.
PYTHON_KEY = "tiergit.python"
SHARED_PYTHON = f'"$(git config --get {PYTHON_KEY})"'


def shim_text(hook: str, python: str | None = None, shared: bool = False) -> str:
    text = resources.read("hooks", hook)
    text = text.replace("@HOOK_ENTRY@", "-m tiergit hook" if shared else " ".join(a if a in ("-I", "-S", "-c") else sh_quote(a) for a in hook_entry_args()))
    return text.replace("@INSTALL_PYTHON@", SHARED_PYTHON if shared else sh_quote(python_for_sh(python)))


def _package_parent() -> str:
    """The folder holding this tiergit package (what an isolated `-I -S` interpreter adds to its path)."""
    import tiergit

    locations = list(tiergit.__spec__.submodule_search_locations or [])
    root = Path(locations[0]).resolve().parent
    return root.as_posix() if os.name == "nt" else str(root)


def hook_entry_args() -> list[str]:
    """The interpreter arguments the pre-commit shim runs (before the hook name): an isolated
    interpreter without `site` that imports tiergit.hookentry from where this tiergit is
    installed. A shim in a folder the team commits names no machine's path: it keeps `-m tiergit hook`."""
    code = f"import sys; sys.path.append({_package_parent()!r}); from tiergit.hookentry import main; sys.exit(main())"
    return ["-I", "-S", "-c", code]


def is_ours(path: Path) -> bool:
    try:
        return bool(MARKER_RE.search(path.read_text(errors="replace")[:400]))
    except OSError:
        return False


def driver_command(python: str | None = None) -> str:
    """git runs this with sh (Git for Windows too) and quotes %O %A %B %P itself.

    git starts it once per file, so the interpreter starts isolated and without `site`
    (`-I -S`, about half the start-up) and runs `tiergit.mergeentry`, found where this
    tiergit is installed (see that module)."""
    code = f"import sys; sys.path.append({_package_parent()!r}); from tiergit.mergeentry import run; run()"
    return f"{sh_quote(python_for_sh(python))} -I -S -c {sh_quote(code)} %O %A %B %P"


def _apply(steps: list[Step]) -> None:
    """Writes first (temp, fsync, rename; LF endings even on Windows), then moves and removals."""
    for step in steps:
        if step.op == "move":
            if step.dst.exists():
                raise TiergitError(f"{step.dst}: exists", "move it away, then run the command again")
            step.src.rename(step.dst)
        elif step.op == "remove":
            step.src.unlink()
        elif step.op == "write":
            atomic_write(step.dst, step.text.encode("utf-8"))
            step.dst.chmod(0o755)


def _order(steps: list[Step]) -> list[Step]:
    """Moves out of a slot happen before the write into it; removals before restores."""
    rank = {"remove": 0, "move": 1, "write": 2, "none": 3}
    return sorted(steps, key=lambda s: rank[s.op])


def _locked(repo: Path, dry_run: bool):
    """One install or uninstall at a time per clone: the plan is made and applied under the lock."""
    return nullcontext() if dry_run else lock(git.common_dir(repo) / "tiergit-hooks.lock")


def install(repo: Path, dry_run: bool = False, python: str | None = None) -> list[str]:
    """Install both shims and the merge driver; returns what was done, one line each.

    `python`: the interpreter the shims and driver run (default: this one)."""
    with _locked(repo, dry_run):
        return _install(repo, dry_run, python)


def _install(repo: Path, dry_run: bool, python: str | None) -> list[str]:
    hooks_dir = git.hooks_dir(repo)
    shared = shared_folder(repo, hooks_dir)
    done = []
    try:
        plans = [plan_install(hooks_dir, hook, shim_text(hook, python, shared is not None),
                              framework_runs_tiergit(repo, hook))
                 for hook in HOOKS]
    except ChainError as exc:
        raise TiergitError(str(exc), exc.hint) from None
    for steps in plans:
        done += [s.note for s in steps]
        if not dry_run:
            hooks_dir.mkdir(parents=True, exist_ok=True)
            _apply(_order(steps))
    if hooks_dir.name == "_" and hooks_dir.parent.name == ".husky":  # husky rewrites its folder
        done.append("note: husky manages these hooks and may rewrite them; add `tiergit hook pre-commit` to "
                    ".husky/pre-commit and `tiergit hook post-merge` to .husky/post-merge")
    if shared is not None:
        done += _shared_notes(shared, [s for steps in plans for s in steps])
        if not dry_run:
            git.config_set(repo, PYTHON_KEY, python_for_sh(python))
    done.append("registered merge driver merge.tiergit.driver in .git/config")
    if not dry_run:
        git.config_set(repo, "merge.tiergit.name", DRIVER_NAME)
        git.config_set(repo, "merge.tiergit.driver", driver_command(python))
    return done


def _shared_notes(folder: str, steps: list[Step]) -> list[str]:
    changed = sorted({f"{folder}/{p.name}" for s in steps if s.op != "none" for p in (s.dst, s.src) if p})
    return [f"note: {folder}/ is in the work tree and not ignored, so the team shares it: the shims there "
            "name no interpreter of this machine (this clone's is in .git/config tiergit.python; another "
            "clone finds `tiergit` on PATH, else `python3 -m tiergit`, else refuses with a hint; TIERGIT=0 skips)",
            f"note: files changed there, to commit for the team: {', '.join(changed) or 'none'}"]


def uninstall(repo: Path, dry_run: bool = False) -> list[str]:
    """Remove tiergit's shims (restoring what they chained) and the merge driver config."""
    with _locked(repo, dry_run):
        return _uninstall(repo, dry_run)


def _uninstall(repo: Path, dry_run: bool) -> list[str]:
    hooks_dir = git.hooks_dir(repo)
    done = []
    try:
        plans = [plan_uninstall(hooks_dir, hook) for hook in HOOKS]
    except ChainError as exc:
        raise TiergitError(str(exc), exc.hint) from None
    for steps in plans:
        done += [s.note for s in steps]
        if not dry_run:
            _apply(_order(steps))
    if git.config_get(repo, PYTHON_KEY) and not dry_run:
        git.config_unset(repo, PYTHON_KEY)
    if git.config_get(repo, "merge.tiergit.driver"):
        done.append("removed merge driver config")
        if not dry_run:
            git.config_unset(repo, "merge.tiergit.driver")
            git.config_unset(repo, "merge.tiergit.name")
    return done or ["nothing to uninstall"]
