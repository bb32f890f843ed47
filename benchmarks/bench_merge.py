"""How long the entry-aware merge takes, in process and through a real `git merge`.

1. In process: `merge_texts` on every corpus history.md (two sessions each append an
   entry, one edits an item of the first entry), median of --runs, against
   `git merge-file` (git's own line merge of the same three versions) as the baseline.
2. Through git: `git merge` of such a branch with `merge=tiergit` (the driver is a new
   Python process) against `merge=union` (Squad's current setting), median of --runs;
   wall time and CPU time (the CPU figure does not move with the machine's load).

Usage: python benchmarks/bench_merge.py [--runs 7]
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
CORPUS = Path(os.environ.get("TIERGIT_CORPUS", ROOT.parent / "shared" / "corpus"))

from tiergit.core import parse
from tiergit.core.merge import merge_texts  # noqa: E402
from tiergit.features import install  # noqa: E402


def versions(base: str) -> tuple[str, str]:
    doc = parse.parse(base)
    level = "#" * (doc.entry_level or 3)
    ours = base + f"\n{level} 2026-06-01: ours session\n\n**Context:** ours.\n\n- [fact] ours learned a thing\n"
    theirs = base + f"\n{level} 2026-06-02: theirs session\n\n**Context:** theirs.\n\n- [rule] theirs rule\n"
    first = next((s for s in doc.entries if s.items), None)
    if first is not None:
        line = first.items[0].text.split("\n", 1)[0]
        theirs = theirs.replace(line, line + " (edited)", 1)
    return ours, theirs


def median_ms(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True,
                   env={**os.environ, "TIERGIT": "0", "GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@x",
                        "GIT_COMMITTER_NAME": "b", "GIT_COMMITTER_EMAIL": "b@x"})


def git_merge_ms(driver: str, base: str, ours: str, theirs: str, runs: int) -> tuple[float, float]:
    """Median wall time and median CPU time (git and the driver, user + sys) of the merge."""
    times, cpu = [], []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as tmp:
            repo = Path(tmp)
            git(repo, "init", "-q", "-b", "main")
            git(repo, "config", "merge.tiergit.driver", install.driver_command())
            (repo / ".gitattributes").write_text(f"*.md merge={driver}\n")
            for name, text in (("main", base), ("b", theirs), ("main", ours)):
                if name == "b":
                    git(repo, "checkout", "-q", "-b", "b")
                elif text is ours:
                    git(repo, "checkout", "-q", "main")
                (repo / "h.md").write_text(text)
                git(repo, "add", "-A")
                git(repo, "commit", "-q", "-m", name)
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            subprocess.run(["git", "merge", "--no-edit", "-q", "b"], cwd=repo, capture_output=True,
                           env={**os.environ, "GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@x",
                                "GIT_COMMITTER_NAME": "b", "GIT_COMMITTER_EMAIL": "b@x"})
            times.append((time.perf_counter() - start) * 1000)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu.append((after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) * 1000)
    return statistics.median(times), statistics.median(cpu)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args()
    files = sorted(CORPUS.glob("*/.squad/agents/*/history.md"), key=lambda p: p.stat().st_size)
    print(f"in process, median of {args.runs} runs (ms): merge_texts vs git merge-file")
    print(f"{'file':<58} {'bytes':>7} {'tiergit':>8} {'merge-file':>10} {'conflicts':>9}")
    with tempfile.TemporaryDirectory() as tmp:
        tmpdir = Path(tmp)
        for path in files:
            base = path.read_text()
            ours, theirs = versions(base)
            for name, text in (("o", base), ("a", ours), ("b", theirs)):
                (tmpdir / name).write_text(text)
            ours_ms = median_ms(lambda: merge_texts(base, ours, theirs), args.runs)
            mf_ms = median_ms(lambda: subprocess.run(["git", "merge-file", "-p", str(tmpdir / "a"), str(tmpdir / "o"),
                                                      str(tmpdir / "b")], capture_output=True), args.runs)
            conflicts = merge_texts(base, ours, theirs).conflicts
            rel = str(path.relative_to(CORPUS))
            print(f"{rel:<58} {len(base.encode()):>7} {ours_ms:>8.1f} {mf_ms:>10.1f} {conflicts:>9}")
    biggest = files[-1]
    base = biggest.read_text()
    ours, theirs = versions(base)
    print(f"\nreal `git merge` of two sessions on {biggest.relative_to(CORPUS)} ({len(base.encode())} bytes), "
          f"median of {args.runs} runs (ms):")
    for driver in ("union", "tiergit"):
        wall, cpu = git_merge_ms(driver, base, ours, theirs, args.runs)
        print(f"  merge={driver:<8} wall {wall:8.1f}   cpu {cpu:8.1f}")


if __name__ == "__main__":
    main()
