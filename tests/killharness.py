"""Kill harness: run a mutating tiergit command as a real process, SIGKILL it at a random
moment, rerun it, and compare the tree with an uninterrupted run (used by
tests/e2e/test_kill.py with a few kills per command, by benchmarks/bench_kill.py with 200+).

Each scenario builds a committed repo once; every kill works on a fresh copy of it.
"""
from __future__ import annotations

import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

FIXTURE = Path(__file__).parent / "fixtures" / "squad"
TODAY = "2026-11-30"
# what differs between two honest runs: event times and the minute on a log line
VOLATILE = [(re.compile(r'"ts":"[^"]*"'), '"ts":""'), (re.compile(r"\[\d\d:\d\d\]"), "[hh:mm]"),
            (re.compile(r"session: s-\d+"), "session: s-N")]   # a new hot file's random session id


def run(repo: Path, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tiergit", *args], cwd=repo, capture_output=True, text=True,
                          env={**os.environ, "TIERGIT_TODAY": TODAY, **(env or {})})


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True)


def _commit(repo: Path, msg: str) -> None:
    git(repo, "add", "-A")
    git(repo, "-c", "core.hooksPath=/dev/null", "commit", "-q", "--allow-empty", "-m", msg)


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def _entries(agent: str, n: int, start_month: int = 1) -> str:
    """n dated entries in the Squad style, each with a rule and a context line (text we wrote)."""
    out = [f"# {agent} history\n\n## Core Context\n\n- {agent} owns the build pipeline and its caches.\n\n## Learnings\n"]
    for i in range(n):
        month = (start_month + i // 4 - 1) % 12 + 1
        out.append(f"\n### 2025-{month:02d}-{(i % 4) * 7 + 1:02d}: Topic {i} for {agent}\n\n"
                   f"- [rule] Rule number {i} of {agent}: keep the cache key stable across reruns.\n"
                   f"- Context line {i} of {agent} about the nightly job and its retries.\n")
    return "".join(out)


def base_repo(path: Path) -> Path:
    path.mkdir(parents=True)
    git(path, "init", "-q", "-b", "main")
    _write(path / "README.md", "# demo\n")
    _commit(path, "initial")
    proc = run(path, "init", "--preset", "squad")
    assert proc.returncode == 0, proc.stderr
    _commit(path, "tiergit init")
    return path


def build(name: str, path: Path) -> tuple[Path, list[str]]:
    """A committed repo ready for `name`; returns it and the command's arguments."""
    repo = base_repo(path)
    mem = repo / ".squad" / "memory"
    if name == "session-end":
        _write(mem / "cold" / "picard.md", _entries("picard", 30))
        _commit(repo, "cold")
        assert run(repo, "session", "start", "--agent", "picard", "--task", "fix the cache").returncode == 0
        hot = mem / "hot" / "picard.md"
        hot.write_text(hot.read_text() + "\n- [decision] Cache keys carry the lockfile hash.\n"
                       "- Root cause: the key ignored the Node major version.\n")
        _commit(repo, "hot")
        return repo, ["session", "end", "--agent", "picard"]
    if name == "archive":
        _write(mem / "cold" / "picard.md", _entries("picard", 16))
        _write(mem / "archive" / "2025-01" / "cold" / "riker.md", "# Archive\n\n- Riker archived line kept in git.\n")
        _commit(repo, "cold and an old archive month")
        return repo, ["archive", "--apply"]
    if name == "check-fix":
        _write(mem / "cold" / "picard.md", _entries("picard", 40))
        _commit(repo, "cold over budget")
        return repo, ["check", "--fix"]
    if name in ("promote", "review-sync"):
        for i in range(4):
            assert run(repo, "propose", "--apply", "--topic", "build", "--kind", "rule",
                       f"Proposed rule {i}: cache keys include the lockfile hash, variant {i}").returncode == 0
        _commit(repo, "staged")
        if name == "promote":
            return repo, ["promote", "--apply"]
        assert run(repo, "promote", "--apply").returncode == 0
        wiki = mem / "wiki" / "build.md"
        lines = wiki.read_text().splitlines(keepends=True)
        wiki.write_text("".join(ln for ln in lines if "variant 2" not in ln))
        _commit(repo, "promotion merged, one item rejected")
        return repo, ["review", "sync"]
    if name == "import":
        shutil.copytree(FIXTURE / ".squad", repo / ".squad", dirs_exist_ok=True)
        _commit(repo, "legacy squad")
        return repo, ["import", "squad", "--apply", "--retire-legacy"]
    raise ValueError(name)


COMMANDS = ["session-end", "archive", "promote", "import", "review-sync", "check-fix"]


def snapshot(repo: Path) -> dict[str, str]:
    """Every file of the work tree (not .git), volatile parts normalized."""
    out = {}
    for p in sorted(repo.rglob("*")):
        rel = p.relative_to(repo).as_posix()
        if rel.startswith(".git/") or rel == ".git" or not p.is_file():
            continue
        text = p.read_text(errors="replace")
        for rx, rep in VOLATILE:
            text = rx.sub(rep, text)
        out[rel] = text
    return out


def lines_of(snap: dict[str, str]) -> set[str]:
    return {ln.strip() for text in snap.values() for ln in text.splitlines() if len(ln.strip()) > 3}


@dataclass
class Outcome:
    killed: bool          # the process was still running when the kill came
    same: bool            # after the rerun the tree equals the uninterrupted run's
    lost: list[str]       # lines the uninterrupted run keeps that this one lost
    errors: list[str]     # "internal error" / tracebacks from the rerun


def reference(template: Path, args: list[str], work: Path) -> tuple[dict[str, str], float]:
    """The uninterrupted result (run, then the same rerun a killed run gets) and its run time."""
    repo = work / "ref"
    shutil.copytree(template, repo, symlinks=True)
    t0 = time.monotonic()
    run(repo, *args)
    took = time.monotonic() - t0
    run(repo, *args)
    return snapshot(repo), took


def kill_once(template: Path, args: list[str], ref: dict[str, str], delay: float, work: Path) -> Outcome:
    repo = work / f"k{random.getrandbits(40):x}"
    shutil.copytree(template, repo, symlinks=True)
    proc = subprocess.Popen([sys.executable, "-m", "tiergit", *args], cwd=repo, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, env={**os.environ, "TIERGIT_TODAY": TODAY})
    time.sleep(delay)
    killed = proc.poll() is None
    if killed:
        proc.send_signal(signal.SIGKILL)
    proc.wait()
    again = run(repo, *args)
    errors = [ln for ln in (again.stdout + again.stderr).splitlines()
              if "internal error" in ln or "Traceback" in ln]
    snap = snapshot(repo)
    lost = sorted(lines_of(ref) - lines_of(snap))
    shutil.rmtree(repo, ignore_errors=True)
    return Outcome(killed, snap == ref, lost, errors)


def diff_keys(a: dict[str, str], b: dict[str, str]) -> list[str]:
    return sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
