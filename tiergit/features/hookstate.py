"""`tiergit check --hooks`: is tiergit's hook installed, chained safely, and not cut short?

Reports, as ruff-style findings (HK0xx), the states that silently break a team's
hooks: tiergit's old shim in pre-commit's migration slot (it calls itself forever),
lines another tool appended after tiergit's shim (Squad's two-layer state backend
does this), a chained hook that is not executable, a husky-managed hooks folder,
and a `merge=tiergit` attribute without the driver registered.
Cost: reads a handful of small files and runs `git rev-parse` / `git config` once each.
"""
from __future__ import annotations

import os
import re
from pathlib import Path

from tiergit.core.diagnostics import Finding
from tiergit.shell import git
from tiergit.shell.hookchain import (
    CHAINED,
    HOOKS,
    LEGACY,
    kind_of,
    shim_version,
    split_appended,
)

FIX = "run `tiergit install` (it keeps every hook it finds and chains it under <hook>.tiergit-chained)"


def _show(repo: Path, path: Path) -> str:
    try:
        return path.relative_to(repo).as_posix()
    except ValueError:
        return str(path)


def _text(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None


def inspect_hook(repo: Path, hooks_dir: Path, hook: str) -> list[Finding]:
    """Findings for one hook name. Pure but for reading the three files of its chain."""
    slot, legacy, chained = hooks_dir / hook, hooks_dir / (hook + LEGACY), hooks_dir / (hook + CHAINED)
    texts = {p: _text(p) for p in (slot, legacy, chained)}
    kinds = {p: kind_of(t) for p, t in texts.items()}
    found: list[Finding] = []
    ours = next((p for p in (slot, legacy) if kinds[p] == "tiergit"), None)
    if ours is None and kinds[slot] == "pre-commit" and framework_runs_tiergit(repo, hook):
        return found   # tiergit runs through the pre-commit framework (.pre-commit-hooks.yaml)
    if ours is None:
        owner = f" ({kinds[slot]} owns it)" if kinds[slot] not in ("absent", "other") else ""
        found.append(Finding(_show(repo, slot), 1, "HK001", "warning",
                             f"{hook} hook: tiergit's shim is not installed{owner}", FIX))
        return found
    text = texts[ours] or ""
    version = shim_version(text)
    if ours == legacy and version < 2:
        found.append(Finding(_show(repo, ours), 1, "HK002", "critical",
                             f"tiergit's v1 {hook} shim sits in {legacy.name}, where it runs itself on every "
                             f"commit (a manager such as pre-commit moved it there)", FIX))
    elif version < 2:
        found.append(Finding(_show(repo, ours), 1, "HK006", "warning",
                             f"tiergit's {hook} shim is v{version}: it chains {legacy.name}, which pre-commit's "
                             "migration mode turns into a call to itself", FIX))
    if ours == legacy and kinds[slot] == "pre-commit" and framework_runs_tiergit(repo, hook) and version < 3:
        found.append(Finding(_show(repo, ours), 1, "HK008", "critical",
                             f"tiergit's {hook} check runs twice on every {hook.replace('-', ' ')}: pre-commit runs "
                             f"this v{version} shim first, then tiergit again from .pre-commit-config.yaml", FIX))
    _, tail, line = split_appended(text)
    if tail:
        who = kind_of(tail)
        who = f" by {who}" if who not in ("other", "absent") else ""
        count = len([t for t in tail.splitlines() if t.strip()])
        if version < 2:
            found.append(Finding(_show(repo, ours), line, "HK003", "critical",
                                 f"{count} line(s) appended{who} after tiergit's {hook} shim never run "
                                 "(the v1 shim ends in exec)", FIX + "; the new shim keeps them and runs them"))
        else:
            found.append(Finding(_show(repo, ours), line, "HK003", "info",
                                 f"{count} line(s) appended{who} after tiergit's {hook} shim; they run after "
                                 "tiergit's part passes",
                                 f"to run them before tiergit, move them into {chained.name}"))
    if texts[chained] is not None and not os.access(chained, os.X_OK):
        found.append(Finding(_show(repo, chained), 1, "HK004", "warning",
                             f"the chained {hook} hook is not executable, so it never runs",
                             f"chmod +x {_show(repo, chained)}"))
    return found


def framework_runs_tiergit(repo: Path, hook: str) -> bool:
    """Whether .pre-commit-config.yaml already runs tiergit's hook for `hook` (via .pre-commit-hooks.yaml)."""
    hook_id = {"pre-commit": "tiergit-check", "post-merge": "tiergit-post-merge"}[hook]
    config = _text(repo / ".pre-commit-config.yaml") or ""
    return re.search(rf"id:\s*['\"]?{hook_id}\b", config) is not None


def shared_folder(repo: Path, hooks_dir: Path) -> str | None:
    """The hooks folder, repo-relative, when it is in the work tree and not ignored: the team commits it
    (husky, lefthook, a committed core.hooksPath), so no file there may hold a path of this machine."""
    try:
        rel = hooks_dir.resolve().relative_to(repo.resolve()).as_posix()
    except ValueError:
        return None
    if rel == "." or rel.split("/")[0] == ".git" or git.check_ignore(repo, [rel + "/pre-commit"]):
        return None
    return rel


def _machine_path(repo: Path, hooks_dir: Path, folder: str) -> list[Finding]:
    found = []
    for hook in HOOKS:
        for path in (hooks_dir / hook, hooks_dir / (hook + LEGACY)):
            text = _text(path) or ""
            if kind_of(text) == "tiergit" and re.search(r"^\s*INSTALL_PYTHON='", text, re.M):
                found.append(Finding(_show(repo, path), 1, "HK009", "warning",
                                     f"{folder}/ is shared with the team (in the work tree, not ignored), but "
                                     "this shim names this machine's interpreter", FIX))
    return found


def _merge_driver(repo: Path) -> list[Finding]:
    attrs = _text(repo / ".gitattributes") or ""
    if "merge=tiergit" not in attrs or git.config_get(repo, "merge.tiergit.driver"):
        return []
    line = next(i for i, t in enumerate(attrs.splitlines(), 1) if "merge=tiergit" in t)
    return [Finding(".gitattributes", line, "HK005", "warning",
                    "memory files are marked merge=tiergit but merge.tiergit.driver is not registered in this "
                    "clone, so git merges them as plain text", "run `tiergit install`")]


def inspect(repo: Path) -> list[Finding]:
    """Every hook finding for the repository at `repo` (its hooks folder, core.hooksPath included)."""
    hooks_dir = git.hooks_dir(repo)
    found: list[Finding] = []
    if hooks_dir.name == "_" and hooks_dir.parent.name == ".husky":
        found.append(Finding(_show(repo, hooks_dir), 1, "HK007", "warning",
                             "hooks are managed by husky, which rewrites this folder",
                             "add `tiergit hook pre-commit` to .husky/pre-commit and `tiergit hook post-merge` "
                             "to .husky/post-merge instead of `tiergit install`"))
    for hook in HOOKS:
        found += inspect_hook(repo, hooks_dir, hook)
    folder = shared_folder(repo, hooks_dir)
    if folder is not None:
        found += _machine_path(repo, hooks_dir, folder)
    return found + _merge_driver(repo)
