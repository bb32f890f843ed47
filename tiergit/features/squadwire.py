"""Squad spawns through tiergit: `init` and `install` insert tiergit's memory instructions into
Squad's coordinator, spawn template and Scribe charter (core/squadwire.py holds the text),
`uninstall` takes them out again byte for byte, `check` reports a file `squad upgrade`
rewrote without them, and `check --fix` puts them back.

Only a repository whose config adopts Squad histories into per-agent tiers is wired
(`squad_sync.applies`), and only Squad files that exist. Writes are one journaled plan
under the store lock.
"""
from __future__ import annotations

from pathlib import Path

from tiergit.core import squadwire
from tiergit.core.diagnostics import Finding
from tiergit.features.plan import Plan

CODE = "SQW001"


def _read(repo: Path, rel: str) -> str | None:
    path = repo / rel
    if not path.is_file() or path.is_symlink():
        return None
    with open(path, encoding="utf-8", newline="") as fh:   # keep CRLF as it is: byte for byte back
        return fh.read()


def applies(repo: Path) -> bool:
    from tiergit.errors import TiergitError
    from tiergit.features.importing.squad_sync import applies as adopts_histories
    from tiergit.shell import config as config_mod

    try:
        return adopts_histories(config_mod.load(repo))
    except TiergitError:
        return False


def plan_wire(repo: Path) -> Plan:
    plan = Plan("tiergit: Squad's spawn through tiergit")
    if not applies(repo):
        return plan
    for target in squadwire.TARGETS:
        old = _read(repo, target.path)
        if old is None:
            continue
        new = squadwire.wire(old, target)
        if new is None:
            plan.notes.append(f"{target.path}: no place for tiergit's memory instructions found "
                              f"(looked for {' or '.join(repr(a) for a in target.anchors)}); left as it is")
            continue
        plan.add(target.path, new, old, reason="memory from `tiergit context`, `session end`, `recall`")
    return plan


def plan_unwire(repo: Path) -> Plan:
    plan = Plan("tiergit: Squad's own files restored")
    for target in squadwire.TARGETS:
        old = _read(repo, target.path)
        if old is not None and squadwire.wired(old, target):
            plan.add(target.path, squadwire.unwire(old, target), old, reason="tiergit's insertion removed")
    return plan


def _run(repo: Path, plan: Plan, dry_run: bool, verb: str) -> list[str]:
    if not dry_run and plan.effective:
        from tiergit.shell.fsutil import store_lock

        with store_lock(repo):
            plan.apply(repo)
    return [f"{verb} {c.path} ({c.reason})" for c in plan.effective] + plan.notes


def wire(repo: Path, dry_run: bool = False) -> list[str]:
    """Insert the wiring where it is missing; one line per file (and per file with no anchor)."""
    return _run(repo, plan_wire(repo), dry_run, "wired")


def unwire(repo: Path, dry_run: bool = False) -> list[str]:
    return _run(repo, plan_unwire(repo), dry_run, "restored")


def findings(repo: Path) -> list[Finding]:
    """A Squad file that lost the wiring (`squad upgrade` rewrites the coordinator and the
    template): a warning naming the command that puts it back."""
    return [Finding(c.path, 1, CODE, "warning",
                    "Squad's spawn does not go through tiergit here (`squad upgrade` rewrites this file), so "
                    "agents load their whole history.md and never see what `session end` wrote",
                    "run `tiergit check --fix` (or `tiergit install`) to put tiergit's memory instructions back")
            for c in plan_wire(repo).effective]
