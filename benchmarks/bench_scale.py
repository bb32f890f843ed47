"""Every command on real-sized stores of growing size, first and warm, each beside its floor.

For each size (memory files; default 1000 and 10000; 50000 when you have the time) a store is
built by `realstore.py` (files near their budget, from whole corpus entries, `--depth` commits
of history), then each command runs as agents, hooks and CI run it, through the installed
`tiergit` script (the one door, fast paths included), and prints its CPU time (user+sys of
the process and its children: steady under load), wall time and peak RSS beside the floor
measured in the same run:

    status, check --all          floor: cat of every store file
    recall                       floor: grep -ril over the store
    context, archive, promote    floor: cat (the previews: nothing is written)
    hook, nothing / 5 staged     floor: python -I -S -c pass (the interpreter's start); "5 new":
                                 each run stages text no earlier run counted; "after a commit":
                                 the same, each run's files then committed, as a run of commits
    --help                       floor: python -c "import click"

"first" is each command run with `.git/tiergit` (every cache and index) removed just before
it; "warm" is the median of --runs runs after it. The scaling check fits t = c * n^k on CPU
above the interpreter floor between neighbouring sizes (and smallest to largest) and exits 1
when k > --max-exponent (default 1.3).

    python benchmarks/bench_scale.py [--sizes 1000 10000] [--depth 300] [--runs 3]
        [--only status check recall context archive promote hook help] [--warm-only] [--keep DIR]

The first index build parses in forked workers (one per core) when 400+ files changed, so its
CPU sums the workers: compare its wall time. --single-worker builds it in one process first.
"""
from __future__ import annotations

import argparse
import math
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import realstore  # noqa: E402

PY = sys.executable
# As installed: compiled bytecode is reused between processes (PYTHONDONTWRITEBYTECODE would
# make every hook and driver process compile tiergit from source, ~50 ms each).
PYC = Path(tempfile.gettempdir()) / "tiergit-bench-pycache"
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
os.environ["PYTHONPYCACHEPREFIX"] = str(PYC)
QUERY = ["recall", "token", "cache", "expiry", "--no-log"]
TASK = "fix the token cache expiry"
# the installed console script beside this interpreter (what agents type), else python -m
SCRIPT = next((str(p) for p in (Path(PY).parent / "tiergit",) if p.is_file()), None)


def timed(cmd: list[str], cwd: Path, env: dict | None = None, stdin=None) -> tuple[float, float, float]:
    """(CPU seconds of the child and its children, wall seconds, peak RSS in MB) of one run."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, cwd=cwd, stdout=out, stderr=err, env={**os.environ, **(env or {})},
                                stdin=stdin if stdin is not None else subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode not in (0, 1):
            err.seek(0)
            raise SystemExit(f"bench_scale: {' '.join(cmd)} failed ({proc.returncode}):\n"
                             f"{err.read().decode(errors='replace')[-800:]}")
    # wait4's usage covers the child and the children it waited for (git, index workers);
    # ru_maxrss is the largest of them, in KB on Linux. A child's figure starts at this
    # process's own size (it is kept across fork and exec), so one at or under it reads 0.
    rss = usage.ru_maxrss if usage.ru_maxrss > resource.getrusage(resource.RUSAGE_SELF).ru_maxrss else 0
    return usage.ru_utime + usage.ru_stime, wall, rss / 1024


def median_of(runs: int, cmd: list[str], cwd: Path, **kw) -> tuple[float, float, float]:
    got = sorted((timed(cmd, cwd, **kw) for _ in range(runs)), key=lambda r: r[0])
    return statistics.median(c for c, _, _ in got), statistics.median(w for _, w, _ in got), got[len(got) // 2][2]


def tg(*args: str) -> list[str]:
    return [SCRIPT, *args] if SCRIPT else [PY, "-m", "tiergit", *args]


def store_files(repo: Path) -> list[str]:
    return [str(p) for p in sorted((repo / ".squad" / "memory").rglob("*.md"))]


GROUPS = ("status", "check", "recall", "context", "archive", "promote", "hook", "help")
# group -> (argv after `tiergit`, floor name)
COMMANDS = {
    "status": (["status"], "cat"),
    "check": (["check", "--all"], "cat"),
    "recall": (QUERY, "grep"),
    "context": (["context", "--agent", "agent00000", "--task", TASK], "cat"),
    "archive": (["archive"], "cat"),
    "promote": (["promote"], "cat"),
}


def forget(repo: Path) -> None:
    """Every cache and index tiergit keeps (`.git/tiergit`): the next command runs first."""
    import shutil

    shutil.rmtree(repo / ".git" / "tiergit", ignore_errors=True)


def floors(repo: Path, runs: int) -> dict[str, float]:
    # find batches the names (50k paths overflow one argument list)
    return {"cat": median_of(runs, ["sh", "-c", "find .squad/memory -name '*.md' -exec cat {} + > /dev/null"], repo)[0],
            "grep": median_of(runs, ["grep", "-ril", "token cache", ".squad/memory"], repo)[0],
            "python -I -S": median_of(runs, [PY, "-I", "-S", "-c", "pass"], repo)[0],
            "python -c pass": median_of(runs, [PY, "-c", "pass"], repo)[0],
            "import click": median_of(runs, [PY, "-c", "import click"], repo)[0]}


def measure(repo: Path, runs: int, only: set[str], single_worker: bool = False,
            warm_only: bool = False) -> dict[str, tuple]:
    """row -> (cpu, wall, floor cpu, peak RSS MB, floor name)."""
    files = store_files(repo)
    floor = floors(repo, runs)
    out: dict[str, tuple] = {"python -I -S -c pass": (floor["python -I -S"], 0.0, floor["python -I -S"], 0.0, "")}
    for group in [g for g in GROUPS if g in only and g in COMMANDS]:
        argv, fname = COMMANDS[group]
        name = " ".join(argv[:2] if group in ("check",) else argv[:1])
        if not warm_only:
            forget(repo)
            if group == "recall" and single_worker:
                cpu, wall, rss = timed(tg(*argv), repo, env={"TIERGIT_INDEX_WORKERS": "1"})
                out["recall first, 1 worker"] = (cpu, wall, floor[fname], rss, fname)
                forget(repo)
            cpu, wall, rss = timed(tg(*argv), repo)
            out[f"{name} first"] = (cpu, wall, floor[fname], rss, fname)
        else:
            timed(tg(*argv), repo)
        cpu, wall, rss = median_of(runs, tg(*argv), repo)
        out[f"{name} warm"] = (cpu, wall, floor[fname], rss, fname)
    if "hook" in only:
        hook_rows(repo, runs, files, floor["python -I -S"], out)
    if "help" in only:
        cpu, wall, rss = median_of(max(runs, 5), tg("--help"), repo)
        out["--help"] = (cpu, wall, floor["import click"], rss, "import click")
    return out


def hook_rows(repo: Path, runs: int, files: list[str], floor: float, out: dict) -> None:
    """What the installed shim execs on every commit: `<install python> -I -S -c <tiergit.hookentry> pre-commit`."""
    from tiergit.features.install import hook_entry_args

    subprocess.run(tg("install"), cwd=repo, capture_output=True, check=True)
    hook = [PY, *hook_entry_args(), "pre-commit"]
    cpu, wall, rss = median_of(runs, hook, repo)
    out["hook, nothing staged"] = (cpu, wall, floor, rss, "python -I -S")
    cold = [f for f in files if "/cold/" in f][-5:]
    for f in cold:
        with open(f, "a") as fh:
            fh.write("\n### Bench session (2026-05-01)\n\n- [fact] the bench appended this line\n")
    subprocess.run(["git", "add", *cold], cwd=repo, check=True)
    cpu, wall, rss = median_of(runs, hook, repo)
    out["hook, 5 files staged"] = (cpu, wall, floor, rss, "python -I -S")
    # As a real commit: each run stages text no run before it counted (no cached token count),
    # also on a store an earlier --keep run measured (its counts are still in .git/tiergit).
    nonce = f"{os.getpid()}-{time.time_ns()}"
    got = []
    for run in range(runs):
        for f in cold:
            with open(f, "a") as fh:
                fh.write(f"- [fact] the bench appended line {run} for a new blob ({nonce})\n")
        subprocess.run(["git", "add", *cold], cwd=repo, check=True)
        got.append(timed(hook, repo))
    got.sort(key=lambda r: r[0])
    out["hook, 5 new files staged"] = (*got[len(got) // 2][:2], floor, got[len(got) // 2][2], "python -I -S")
    # As a run of commits: each one commits what the hook passed (HEAD's counts are then the
    # hook's own), the next appends to the same files; nothing staged was counted before.
    start = subprocess.run(["git", "rev-parse", "HEAD"], cwd=repo, capture_output=True, text=True, check=True).stdout.strip()
    got = []
    for run in range(runs + 1):
        for f in cold:
            with open(f, "a") as fh:
                fh.write(f"- [fact] the bench committed line {run} ({nonce})\n")
        subprocess.run(["git", "add", *cold], cwd=repo, check=True)
        timing = timed(hook, repo)
        if run:   # the first commit only puts the hook's counts under HEAD
            got.append(timing)
        subprocess.run(["git", "commit", "-q", "--no-verify", "-m", f"bench {run}"], cwd=repo, check=True)
    got.sort(key=lambda r: r[0])
    out["hook, 5 files, after a commit"] = (*got[len(got) // 2][:2], floor, got[len(got) // 2][2], "python -I -S")
    subprocess.run(["git", "reset", "-q", "--hard", start], cwd=repo, check=True)


def exponent(n1: int, t1: float, n2: int, t2: float) -> float:
    return math.log(max(t2, 1e-3) / max(t1, 1e-3)) / math.log(n2 / n1)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    ap.add_argument("--depth", type=int, default=300)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--max-exponent", type=float, default=1.3)
    ap.add_argument("--warm-only", action="store_true", help="skip the first runs (each rebuilds every cache)")
    ap.add_argument("--only", nargs="+", choices=GROUPS, help="only these groups of rows (a shorter run)")
    ap.add_argument("--single-worker", action="store_true",
                    help="also build the recall index in one process first (TIERGIT_INDEX_WORKERS=1)")
    ap.add_argument("--keep", type=Path, help="build the stores in this folder and keep them (a store "
                    "already there is measured as it is: only one whose run stopped early is cold)")
    args = ap.parse_args()
    only = set(args.only or GROUPS)
    load = os.getloadavg()
    print(f"machine: {os.cpu_count()} cores, load {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f} "
          f"(1 / 5 / 15 min); command: {' '.join(tg())}", flush=True)
    results: dict[int, dict] = {}
    with tempfile.TemporaryDirectory() as tmp:
        where = args.keep or Path(tmp)
        where.mkdir(parents=True, exist_ok=True)
        for n in args.sizes:
            repo = where / f"store{n}"
            if repo.exists():   # left by an earlier --keep run that stopped before measuring it
                print(f"store of {n} files: reusing {repo} as it is", flush=True)
            else:
                info = realstore.build(repo, n, args.depth)
                print(f"store of {n} files, {info['commits']} commits, {info['bytes'] / 1e6:.1f} MB "
                      f"(built in {info['seconds']:.0f} s)", flush=True)
            results[n] = measure(repo, args.runs, only, args.single_worker, args.warm_only)
            for name, (cpu, wall, floor, rss, fname) in results[n].items():
                print(f"  {name:<24} cpu {cpu:7.3f} s  wall {wall:7.3f} s   floor {fname or '':>12} {floor:6.3f} s"
                      f"  ({cpu / max(floor, 1e-3):6.1f}x)" + (f"   peak RSS {rss:6.1f} MB" if rss else ""), flush=True)
        print(f"load at the end: {os.getloadavg()[0]:.1f}", flush=True)
    sizes = sorted(set(args.sizes))
    failed = []
    pairs = list(zip(sizes, sizes[1:])) + ([(sizes[0], sizes[-1])] if len(sizes) > 2 else [])
    for small, large in pairs:
        print(f"scaling check, {small} -> {large} files (t ~ n^k on CPU time above the interpreter floor):")
        for name in [n for n in results[small] if n != "python -I -S -c pass" and n in results[large]]:
            base = results[small]["python -I -S -c pass"][2]
            k = exponent(small, results[small][name][0] - base, large, results[large][name][0] - base)
            kw = exponent(small, results[small][name][1], large, results[large][name][1])
            mark = "ok" if k <= args.max_exponent else "SUPER-LINEAR"
            print(f"  {name:<24} k = {k:5.2f}  {mark}   (wall k = {kw:5.2f})")
            if k > args.max_exponent:
                failed.append(f"{name} ({small}->{large})")
    if failed:
        sys.exit(f"bench_scale: super-linear: {', '.join(failed)}")


if __name__ == "__main__":
    main()
