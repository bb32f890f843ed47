"""Every command on realistic stores of growing size, each beside its floor, with a scaling check.

For each size (memory files; default 1000 and 10000) a store is built by `realstore.py` from
real corpus entries with `--depth` commits of history (deep blame), then each command runs as
a CLI process (what agents, hooks and CI run) and its CPU time (user+sys, steady under load)
and wall time are printed beside the floor measured in the same run:

    recall cold / warm        floor: grep -ril over the store
    status warm, check warm   floor: cat of every store file
    promote plan (warm)       floor: cat
    hook, nothing / 5 staged  floor: python -c pass (the interpreter)

The scaling check fits t = c * n^k between the smallest and largest size for each command and
exits 1 when k > --max-exponent (default 1.3: linear plus noise). The history and merge-driver
figures come from bench_history.py and bench_merge.py.

    python benchmarks/bench_scale.py [--sizes 1000 10000] [--depth 300] [--runs 3]
        [--only recall status check promote hook] [--single-worker] [--keep DIR]

The recall cold build parses in forked workers (one per core) when 400+ files changed, so its
CPU (which sums the workers) does not show the gain: compare its wall time, and with
--single-worker the same build in one process (TIERGIT_INDEX_WORKERS=1). Each row also
prints the peak RSS of its largest process (the median run's).
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
    return [PY, "-m", "tiergit", *args]


def store_files(repo: Path) -> list[str]:
    return [str(p) for p in sorted((repo / ".squad" / "memory").rglob("*.md"))]


GROUPS = ("recall", "status", "check", "promote", "hook")


def measure(repo: Path, runs: int, only: set[str], single_worker: bool = False) -> dict[str, tuple]:
    """command -> (cpu, wall, floor cpu, peak RSS MB)."""
    files = store_files(repo)
    out: dict[str, tuple] = {}
    # find batches the names (50k paths overflow one argument list)
    cat = median_of(runs, ["sh", "-c", "find .squad/memory -name '*.md' -exec cat {} + > /dev/null"], repo)[0]
    grep = median_of(runs, ["grep", "-ril", "token cache", ".squad/memory"], repo)[0]
    floor_py = median_of(runs, [PY, "-c", "pass"], repo)[0]
    out["python -c pass"] = (floor_py, 0.0, floor_py, 0.0)
    if "recall" in only:
        if single_worker:
            cpu, wall, rss = timed(tg(*QUERY), repo, env={"TIERGIT_INDEX_WORKERS": "1"})
            out["recall cold, 1 worker"] = (cpu, wall, grep, rss)
            for p in (repo / ".git" / "tiergit").glob("recall-*.sqlite*"):
                p.unlink()
        cpu, wall, rss = timed(tg(*QUERY), repo)
        out["recall cold build"] = (cpu, wall, grep, rss)
        cpu, wall, rss = median_of(runs, tg(*QUERY), repo)
        out["recall warm"] = (cpu, wall, grep, rss)
        # the full CLI on the same warm index (recall_fast answers the line above)
        cpu, wall, rss = median_of(runs, tg(*QUERY), repo, env={"TIERGIT_RECALL_FAST": "0"})
        out["recall warm, full CLI"] = (cpu, wall, grep, rss)
    if "status" in only:
        # Cold: dates undated items from one history walk, runs the promotion plan, fills the caches.
        cpu, wall, rss = timed(tg("status"), repo)
        out["status cold"] = (cpu, wall, cat, rss)
        cpu, wall, rss = median_of(runs, tg("status"), repo)
        out["status warm"] = (cpu, wall, cat, rss)
    if "check" in only:
        timed(tg("check"), repo)
        cpu, wall, rss = median_of(runs, tg("check"), repo)
        out["check warm"] = (cpu, wall, cat, rss)
    if "promote" in only:
        timed(tg("promote"), repo)
        cpu, wall, rss = median_of(runs, tg("promote"), repo)
        out["promote plan warm"] = (cpu, wall, cat, rss)
    if "hook" in only:
        subprocess.run(tg("install"), cwd=repo, capture_output=True, check=True)
        cpu, wall, rss = median_of(runs, tg("hook", "pre-commit"), repo)
        out["hook, nothing staged"] = (cpu, wall, floor_py, rss)
        cold = [f for f in files if "/cold/" in f][-5:]
        for f in cold:
            with open(f, "a") as fh:
                fh.write("\n### Bench session (2026-05-01)\n\n- [fact] the bench appended this line\n")
        subprocess.run(["git", "add", *cold], cwd=repo, check=True)
        cpu, wall, rss = median_of(runs, tg("hook", "pre-commit"), repo)
        out["hook, 5 files staged"] = (cpu, wall, floor_py, rss)
        subprocess.run(["git", "reset", "-q", "--hard"], cwd=repo, check=True)
    return out


def exponent(n1: int, t1: float, n2: int, t2: float) -> float:
    return math.log(max(t2, 1e-3) / max(t1, 1e-3)) / math.log(n2 / n1)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    ap.add_argument("--depth", type=int, default=300)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--max-exponent", type=float, default=1.3)
    ap.add_argument("--recall-only", action="store_true", help="only the recall rows (same as --only recall)")
    ap.add_argument("--only", nargs="+", choices=GROUPS, help="only these groups of rows (a shorter run)")
    ap.add_argument("--single-worker", action="store_true",
                    help="also build the recall index in one process first (TIERGIT_INDEX_WORKERS=1)")
    ap.add_argument("--keep", type=Path, help="build the stores in this folder and keep them (a store "
                    "already there is measured as it is: only one whose run stopped early is cold)")
    args = ap.parse_args()
    only = {"recall"} if args.recall_only else set(args.only or GROUPS)
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
            results[n] = measure(repo, args.runs, only, args.single_worker)
            for name, (cpu, wall, floor, rss) in results[n].items():
                print(f"  {name:<24} cpu {cpu:7.3f} s  wall {wall:7.3f} s   floor {floor:6.3f} s"
                      + (f"   peak RSS {rss:6.1f} MB" if rss else ""), flush=True)
    sizes = sorted(set(args.sizes))
    failed = []
    pairs = list(zip(sizes, sizes[1:])) + ([(sizes[0], sizes[-1])] if len(sizes) > 2 else [])
    for small, large in pairs:
        print(f"scaling check, {small} -> {large} files (t ~ n^k on CPU time above the interpreter floor):")
        for name in [n for n in results[small] if n != "python -c pass" and n in results[large]]:
            base = results[small]["python -c pass"][2]
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
