"""Wall time the pre-commit hook adds to `git commit` in a 1,000-file memory store.

Builds a temporary repository (squad preset, 1,000 memory files: hot and cold files
for 500 agents), then repeatedly changes and stages 5 memory files and times
`git commit` with the installed hook against `git commit --no-verify`. Every run
commits fresh content, so the hook never hits its token cache: the worst case.
Prints medians, the difference, and a cProfile of one hook run (the biggest costs).

Usage: python benchmarks/bench_hook.py [--runs 9] [--files 1000]
"""
from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

WORDS = ("token cache expiry carrier webhook retry backlog index migration release staging "
         "snapshot timezone parser contract schema review budget queue worker deploy rollback").split()


def git(repo: Path, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, check=True,
                          env={**os.environ, **(env or {})})


def entry(rng: random.Random, n: int) -> str:
    words = " ".join(rng.choice(WORDS) for _ in range(14))
    return (f"### Session {n} (2026-05-{n % 28 + 1:02d})\n\n"
            f"- **Pattern:** {words}.\n- [fact] {' '.join(rng.choice(WORDS) for _ in range(10))}.\n\n")


def cold_file(rng: random.Random, agent: str, entries: int) -> str:
    return f"# {agent} — cold memory\n\n## Core Context\n\n- [rule] keep it short\n\n" + "".join(
        entry(rng, i) for i in range(entries))


def build(tmp: Path, files: int) -> Path:
    repo = tmp / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    subprocess.run([sys.executable, "-m", "tiergit", "init", "--preset", "squad"], cwd=repo, check=True,
                   capture_output=True)
    rng = random.Random(7)
    mem = repo / ".squad/memory"
    for i in range(files // 2):
        agent = f"agent{i:03d}"
        (mem / "hot" / f"{agent}.md").write_text(f"# {agent}\n\n## Current task\n\n- task {i}\n")
        (mem / "cold" / f"{agent}.md").write_text(cold_file(rng, agent, 12))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", "store")
    return repo


def change_five(repo: Path, rng: random.Random, run: int) -> None:
    mem = repo / ".squad/memory/cold"
    for k in range(5):
        path = mem / f"agent{(run * 5 + k) % 500:03d}.md"
        path.write_text(path.read_text() + entry(rng, 100 + run))
        git(repo, "add", str(path.relative_to(repo)))


def time_commit(repo: Path, verify: bool, run: int) -> tuple[float, float]:
    """(wall seconds, CPU seconds of git and its hook processes) for one commit."""
    args = ["commit", "-q", "-m", f"run {run}"] + ([] if verify else ["--no-verify"])
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    git(repo, *args)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def profile_hook(repo: Path, rng: random.Random) -> str:
    change_five(repo, rng, 999)
    prof = cProfile.Profile()
    code = "from tiergit.features.hookrun import main\nmain('pre-commit')\n"
    cwd = os.getcwd()
    os.chdir(repo)
    try:
        prof.runctx(code, {}, {})
    finally:
        os.chdir(cwd)
    git(repo, "reset", "-q", "--hard", "HEAD")
    out = io.StringIO()
    stats = pstats.Stats(prof, stream=out)
    stats.sort_stats("cumulative").print_stats(r"tiergit|tiktoken|subprocess.py.*\(run\)|yaml/__init__", 14)
    return out.getvalue()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("--files", type=int, default=1000)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["TIERGIT_CACHE_DIR"] = str(Path(tmp) / "cache")
        repo = build(Path(tmp), args.files)
        rng = random.Random(11)
        # Warm-up: the first hook run builds the encoding's rank cache (once per machine).
        change_five(repo, rng, 0)
        time_commit(repo, True, 0)
        hooked, plain = [], []
        for run in range(1, args.runs + 1):
            change_five(repo, rng, run)
            hooked.append(time_commit(repo, True, run))
            change_five(repo, rng, run + 1000)
            plain.append(time_commit(repo, False, run + 1000))
        count = len([p for p in git(repo, "ls-files", ".squad/memory").stdout.split()
                     if p.startswith((".squad/memory/hot/", ".squad/memory/cold/")) and p.endswith(".md")])
        walls_h, cpus_h = [w for w, _ in hooked], [c for _, c in hooked]
        walls_p, cpus_p = [w for w, _ in plain], [c for _, c in plain]
        mh, mp = statistics.median(walls_h), statistics.median(walls_p)
        load = os.getloadavg()[0]
        print(f"store: {count} memory files; each commit stages 5 changed cold files (~3 KB, over the 2,400-token warn level in bytes, so counted exactly)")
        print(f"machine: {os.cpu_count()} CPUs, load average {load:.2f} (wall times grow with load; CPU times less so)")
        print(f"git commit with tiergit hook : median {mh:.3f} s wall, {statistics.median(cpus_h):.3f} s CPU "
              f"over {args.runs} runs (wall min {min(walls_h):.3f}, max {max(walls_h):.3f})")
        print(f"git commit --no-verify       : median {mp:.3f} s wall, {statistics.median(cpus_p):.3f} s CPU "
              f"over {args.runs} runs (wall min {min(walls_p):.3f}, max {max(walls_p):.3f})")
        print(f"hook adds                    : {mh - mp:.3f} s wall median (target <= 0.350 s), "
              f"{statistics.median(cpus_h) - statistics.median(cpus_p):.3f} s CPU")
        print("\nprofile of one hook run (cumulative):")
        print(profile_hook(repo, rng))


if __name__ == "__main__":
    main()
