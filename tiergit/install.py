"""Hook shims and merge-driver config: install chains an existing hook, uninstall restores it."""
from __future__ import annotations

import sys
from pathlib import Path

from tiergit import git
from tiergit.errors import TiergitError

HOOKS = ("pre-commit", "post-merge")
MARKER = "tiergit-hook v1"
LEGACY_SUFFIX = ".legacy"
SHIM_DIR = Path(__file__).parent / "templates" / "hooks"
DRIVER_NAME = "tiergit entry-by-entry memory merge"


def shim_text(hook: str, python: str | None = None) -> str:
    text = (SHIM_DIR / hook).read_text()
    return text.replace("@INSTALL_PYTHON@", (python or sys.executable).replace("'", ""))


def is_ours(path: Path) -> bool:
    try:
        return MARKER in path.read_text(errors="replace")[:400]
    except OSError:
        return False


def driver_command(python: str | None = None) -> str:
    return f"'{(python or sys.executable)}' -m tiergit merge-driver %O %A %B %P"


def install(repo: Path, dry_run: bool = False) -> list[str]:
    """Install both shims and the merge driver; returns what was done, one line each."""
    hooks_dir = git.hooks_dir(repo)
    done = []
    for hook in HOOKS:
        target = hooks_dir / hook
        legacy = hooks_dir / (hook + LEGACY_SUFFIX)
        if target.exists() and not is_ours(target):
            if legacy.exists():
                raise TiergitError(f"{target}: a user hook exists and {legacy.name} is already taken",
                                   f"merge the two by hand, or remove {legacy}")
            done.append(f"kept existing {hook} hook as {legacy} (it still runs first)")
            if not dry_run:
                target.rename(legacy)
        done.append(f"installed {target}")
        if not dry_run:
            hooks_dir.mkdir(parents=True, exist_ok=True)
            target.write_text(shim_text(hook))
            target.chmod(0o755)
    done.append("registered merge driver merge.tiergit.driver in .git/config")
    if not dry_run:
        git.config_set(repo, "merge.tiergit.name", DRIVER_NAME)
        git.config_set(repo, "merge.tiergit.driver", driver_command())
    return done


def uninstall(repo: Path, dry_run: bool = False) -> list[str]:
    hooks_dir = git.hooks_dir(repo)
    done = []
    for hook in HOOKS:
        target = hooks_dir / hook
        legacy = hooks_dir / (hook + LEGACY_SUFFIX)
        if target.exists() and is_ours(target):
            done.append(f"removed {target}")
            if not dry_run:
                target.unlink()
            if legacy.exists():
                done.append(f"restored {hook} from {legacy.name}")
                if not dry_run:
                    legacy.rename(target)
        elif target.exists():
            done.append(f"left {target} alone (not installed by tiergit)")
    if git.config_get(repo, "merge.tiergit.driver"):
        done.append("removed merge driver config")
        if not dry_run:
            git.config_unset(repo, "merge.tiergit.driver")
            git.config_unset(repo, "merge.tiergit.name")
    return done or ["nothing to uninstall"]
