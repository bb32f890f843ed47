"""A real `git merge` where both branches changed N memory files: merge=tiergit against
merge=union (Squad's setting) measured in the same run, for N = 1, 10, 100.

git starts the driver once per file, so this measures the driver's start-up as much as the
merge. Files are real corpus histories (cycled); each branch appends its own dated entry to
every file. Prints the median wall and CPU time (git plus drivers, user + sys) and the ratio.

    python benchmarks/bench_merge_files.py [--counts 1 10 100] [--runs 3]
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

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from realstore import CORPUS  # noqa: E402

from tiergit.features import install  # noqa: E402

# As installed: bytecode reused between driver processes (see bench_scale.py).
ENV = {**{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},
       "PYTHONPYCACHEPREFIX": str(Path(tempfile.gettempdir()) / "tiergit-bench-pycache"), "TIERGIT": "0",
       "GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@x", "GIT_COMMITTER_NAME": "b", "GIT_COMMITTER_EMAIL": "b@x"}


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, env=ENV)


def build(repo: Path, driver: str, n: int, sources: list[Path]) -> None:
    git(repo, "init", "-q", "-b", "main")
    git(repo, "config", "merge.tiergit.driver", install.driver_command())
    (repo / ".gitattributes").write_text(f"*.md merge={driver}\n")
    names = [f"a{i:03d}.md" for i in range(n)]
    for i, name in enumerate(names):
        (repo / name).write_text(sources[i % len(sources)].read_text("utf-8", "replace"))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    for branch, day in (("b", "2026-06-02"), ("main", "2026-06-01")):
        git(repo, "checkout", "-q", *(["-b"] if branch == "b" else []), branch)
        for name in names:
            with open(repo / name, "a") as fh:
                fh.write(f"\n### {day}: {branch} session\n\n- [fact] {branch} learned a thing\n")
        git(repo, "commit", "-q", "-am", branch)


def merge_once(driver: str, n: int, sources: list[Path]) -> tuple[float, float]:
    with tempfile.TemporaryDirectory() as tmp:
        repo = Path(tmp)
        build(repo, driver, n, sources)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        proc = subprocess.run(["git", "merge", "--no-edit", "-q", "b"], cwd=repo, capture_output=True, env=ENV)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if proc.returncode not in (0, 1):   # 1: a file kept conflict markers (still a full merge)
            raise SystemExit(f"merge={driver} N={n} failed:\n{proc.stdout.decode()}{proc.stderr.decode()}")
        return wall, (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--counts", type=int, nargs="+", default=[1, 10, 100])
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    sources = sorted(CORPUS.glob("*/.squad/agents/*/history.md"))
    if not sources:
        raise SystemExit(f"bench_merge_files: no corpus at {CORPUS}")
    merge_once("tiergit", 1, sources)   # compiles the bytecode once, as an install does
    print(f"{'N':>4}  {'union wall':>10} {'cpu':>7}   {'tiergit wall':>12} {'cpu':>7}   cpu ratio")
    for n in args.counts:
        got = {d: [merge_once(d, n, sources) for _ in range(args.runs)] for d in ("union", "tiergit")}
        med = {d: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v)) for d, v in got.items()}
        ratio = med["tiergit"][1] / max(med["union"][1], 1e-3)
        print(f"{n:>4}  {med['union'][0]:>9.3f}s {med['union'][1]:>6.3f}s   {med['tiergit'][0]:>11.3f}s "
              f"{med['tiergit'][1]:>6.3f}s   {ratio:5.1f}x", flush=True)


if __name__ == "__main__":
    main()
