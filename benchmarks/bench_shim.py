"""What tiergit's hook shim itself costs, before Python starts: the sh part of every commit.

Writes the pre-commit shim into a temporary hooks folder and times, over many runs,
`sh <shim>` with TIERGIT=0 (the guard, the chained-hook lookup, no Python) against the
floor `sh -c :` (starting sh at all), and the same shim with a chained hook that exits 0
(one more sh). Prints medians in milliseconds.

Usage: python benchmarks/bench_shim.py [--runs 200]
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tiergit.features.install import shim_text  # noqa: E402


def median_ms(argv: list[str], runs: int, env: dict) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(argv, env=env, check=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=200)
    args = ap.parse_args()
    env = {**os.environ, "TIERGIT": "0"}
    env.pop("TIERGIT_HOOK_RUNNING", None)
    with tempfile.TemporaryDirectory() as tmp:
        hooks = Path(tmp)
        shim = hooks / "pre-commit"
        shim.write_text(shim_text("pre-commit"))
        shim.chmod(0o755)
        floor = median_ms(["sh", "-c", ":"], args.runs, env)
        alone = median_ms(["sh", str(shim)], args.runs, env)
        chained = hooks / "pre-commit.tiergit-chained"
        chained.write_text("#!/bin/sh\nexit 0\n")
        chained.chmod(0o755)
        with_chain = median_ms(["sh", str(shim)], args.runs, env)
    print(f"machine: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}")
    print(f"floor: sh -c :                      {floor:6.2f} ms median over {args.runs} runs")
    print(f"tiergit shim, TIERGIT=0             {alone:6.2f} ms ({alone - floor:+.2f} ms over the floor)")
    print(f"tiergit shim + a chained hook       {with_chain:6.2f} ms ({with_chain - floor:+.2f} ms over the floor)")


if __name__ == "__main__":
    main()
