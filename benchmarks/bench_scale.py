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


def timed(cmd: list[str], cwd: Path, env: dict | None = None, stdin=None) -> tuple[float, float]:
    """(CPU seconds of the child and its children, wall seconds) of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, env={**os.environ, **(env or {})}, stdin=stdin)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode not in (0, 1):
        raise SystemExit(f"bench_scale: {' '.join(cmd)} failed ({proc.returncode}):\n{proc.stderr.decode()[-800:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


def median_of(runs: int, cmd: list[str], cwd: Path, **kw) -> tuple[float, float]:
    got = [timed(cmd, cwd, **kw) for _ in range(runs)]
    return statistics.median(c for c, _ in got), statistics.median(w for _, w in got)


def tg(*args: str) -> list[str]:
    return [PY, "-m", "tiergit", *args]


def store_files(repo: Path) -> list[str]:
    return [str(p) for p in sorted((repo / ".squad" / "memory").rglob("*.md"))]


def measure(repo: Path, runs: int, recall_only: bool = False) -> dict[str, tuple[float, float, float]]:
    """command -> (cpu, wall, floor cpu)."""
    files = store_files(repo)
    out: dict[str, tuple[float, float, float]] = {}
    cat = median_of(runs, ["sh", "-c", 'cat "$@" > /dev/null', "cat", *files], repo)[0]
    grep = median_of(runs, ["grep", "-ril", "token cache", ".squad/memory"], repo)[0]
    floor_py = median_of(runs, [PY, "-c", "pass"], repo)[0]
    cpu, wall = timed(tg(*QUERY), repo)
    out["recall cold build"] = (cpu, wall, grep)
    out["recall warm"] = (*median_of(runs, tg(*QUERY), repo), grep)
    # the full CLI on the same warm index (recall_fast answers the line above)
    out["recall warm, full CLI"] = (*median_of(runs, tg(*QUERY), repo, env={"TIERGIT_RECALL_FAST": "0"}), grep)
    out["python -c pass"] = (floor_py, 0.0, floor_py)
    if recall_only:
        return out
    # Cold: dates undated items from one history walk, runs the promotion plan, fills the caches.
    out["status cold"] = (*timed(tg("status"), repo), cat)
    out["status warm"] = (*median_of(runs, tg("status"), repo), cat)
    timed(tg("check"), repo)
    out["check warm"] = (*median_of(runs, tg("check"), repo), cat)
    timed(tg("promote"), repo)
    out["promote plan warm"] = (*median_of(runs, tg("promote"), repo), cat)
    subprocess.run(tg("install"), cwd=repo, capture_output=True, check=True)
    out["hook, nothing staged"] = (*median_of(runs, tg("hook", "pre-commit"), repo), floor_py)
    cold = [f for f in files if "/cold/" in f][-5:]
    for f in cold:
        with open(f, "a") as fh:
            fh.write("\n### Bench session (2026-05-01)\n\n- [fact] the bench appended this line\n")
    subprocess.run(["git", "add", *cold], cwd=repo, check=True)
    out["hook, 5 files staged"] = (*median_of(runs, tg("hook", "pre-commit"), repo), floor_py)
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
    ap.add_argument("--recall-only", action="store_true", help="only the recall rows (a short run)")
    args = ap.parse_args()
    results: dict[int, dict] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.sizes:
            repo = Path(tmp) / f"store{n}"
            info = realstore.build(repo, n, args.depth)
            print(f"store of {n} files, {info['commits']} commits, {info['bytes'] / 1e6:.1f} MB "
                  f"(built in {info['seconds']:.0f} s)", flush=True)
            results[n] = measure(repo, args.runs, args.recall_only)
            for name, (cpu, wall, floor) in results[n].items():
                print(f"  {name:<24} cpu {cpu:7.3f} s  wall {wall:7.3f} s   floor {floor:6.3f} s", flush=True)
    small, large = min(args.sizes), max(args.sizes)
    failed = []
    if small != large:
        print(f"scaling check, {small} -> {large} files (t ~ n^k on CPU time above the interpreter floor):")
        for name in [n for n in results[small] if n != "python -c pass"]:
            base = results[small]["python -c pass"][2]
            k = exponent(small, results[small][name][0] - base, large, results[large][name][0] - base)
            mark = "ok" if k <= args.max_exponent else "SUPER-LINEAR"
            print(f"  {name:<24} k = {k:5.2f}  {mark}")
            if k > args.max_exponent:
                failed.append(name)
    if failed:
        sys.exit(f"bench_scale: super-linear: {', '.join(failed)}")


if __name__ == "__main__":
    main()
