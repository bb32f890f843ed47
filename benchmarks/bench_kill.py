"""Kill harness at scale: each mutating command SIGKILLed at random moments, then rerun.

For every command of tests/killharness.py (session end, archive --apply, promote --apply,
import squad --apply --retire-legacy, review sync, check --fix) it runs the command
uninterrupted once (the reference), then --kills times on a fresh copy of the same
repo: start it, SIGKILL it after a random delay within the reference run time, rerun it.
Prints per command: kills that landed while the process ran, runs whose tree differs
from the reference, lines lost, internal errors - and the reference run time beside
the kill delays (the floor: a kill after it finds the command done).

Usage: python benchmarks/bench_kill.py [--kills 200] [--only archive,import]
"""
from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

import killharness as kh  # noqa: E402


def bench(name: str, kills: int, work: Path, seed: int) -> dict:
    template, args = kh.build(name, work / f"{name}-template")
    ref, took = kh.reference(template, args, work / name)
    rng = random.Random(seed)
    landed = differ = errors = 0
    lost: set[str] = set()
    t0 = time.monotonic()
    for _ in range(kills):
        out = kh.kill_once(template, args, ref, rng.uniform(0, took), work)
        landed += out.killed
        differ += not out.same
        lost.update(out.lost)
        errors += bool(out.errors)
    return {"command": " ".join(args), "kills": kills, "landed": landed, "differ": differ,
            "lost_lines": len(lost), "internal_errors": errors, "ref_s": took,
            "per_kill_s": (time.monotonic() - t0) / max(kills, 1)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kills", type=int, default=200)
    ap.add_argument("--only", default="", help="comma-separated scenario names: " + ",".join(kh.COMMANDS))
    ap.add_argument("--seed", type=int, default=11)
    a = ap.parse_args()
    names = [n for n in kh.COMMANDS if not a.only or n in a.only.split(",")]
    print(f"{'command':<44} {'kills':>5} {'landed':>6} {'differ':>6} {'lost':>5} {'errors':>6} "
          f"{'ref run':>8} {'s/kill':>7}")
    bad = 0
    with tempfile.TemporaryDirectory(prefix="tiergit-kill-") as tmp:
        for name in names:
            r = bench(name, a.kills, Path(tmp), a.seed)
            bad += r["differ"] + r["lost_lines"] + r["internal_errors"]
            print(f"{r['command']:<44} {r['kills']:>5} {r['landed']:>6} {r['differ']:>6} {r['lost_lines']:>5} "
                  f"{r['internal_errors']:>6} {r['ref_s']:>7.2f}s {r['per_kill_s']:>6.2f}s", flush=True)
    print("OK: every killed run, rerun, equals the uninterrupted run" if not bad else f"FAIL: {bad} problem(s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
