"""Hostile input stays cheap: token counting is O(n log n) on long runs of one character,
the merge driver caps the size it merges entry by entry, and a pre-commit hook on a file
holding a 120 KB run of punctuation finishes in about a second.

1. Counting runs of `-` of growing length with tiergit.core.bpe (heap merge), against the old
   rescan loop (quadratic; only up to 8 KB, it would take minutes beyond) and tiktoken's
   Rust encoder (the floor, measured in the same run). Doubling n should about double
   the heap time.
2. `merge_texts` on a file of growing size (two sides append, one edits), and the driver
   on a ~50 MB file, over MAX_MERGE_BYTES (falls back to `git merge-file`).
3. `tiergit check` on a cold file with a 120 KB punctuation run (a new process), against
   `tiergit check` on a small file (the floor: process start and imports).

Usage: python benchmarks/bench_hostile.py [--quick]
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tiergit.core import bpe  # noqa: E402
from tiergit.core.merge import MAX_MERGE_BYTES, merge_texts  # noqa: E402
from tiergit.shell import tokens


def timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def bench_bpe(sizes: list[int]) -> None:
    enc = tokens.encoding("cl100k_base")
    counter = tokens._rank_counter("cl100k_base")
    print("1. token count of a run of '-' (seconds)")
    print(f"   {'bytes':>8} {'heap (now)':>11} {'old loop':>9} {'tiktoken':>9}  equal")
    for n in sizes:
        text = "-" * n
        data = text.encode()
        heap = timed(lambda: bpe.heap_merge_count(data, counter.ranks))
        old = f"{timed(lambda: bpe.merge_count(data, counter.ranks)):9.3f}" if n <= 8192 else "      n/a"
        rust = timed(lambda: enc.encode_ordinary(text))
        same = counter.count(text) == len(enc.encode_ordinary(text))
        print(f"   {n:>8} {heap:11.3f} {old} {rust:9.3f}  {same}")


def bench_merge(quick: bool) -> None:
    print("2. merge_texts on growing files (seconds)")
    for entries in ((200, 1000) if quick else (200, 1000, 4000)):
        base = "# Cold\n\n" + "".join(f"### 2026-05-{i % 28 + 1:02d}: entry {i}\n\n- item {i} about the cache\n\n"
                                      for i in range(entries))
        ours = base + "### 2026-06-01: ours\n\n- o\n"
        theirs = base.replace("- item 3 about", "- item 3 (edited) about")
        print(f"   {len(base):>8} bytes {timed(lambda: merge_texts(base, ours, theirs)):7.3f}")
    print(f"   files over {MAX_MERGE_BYTES} bytes are merged by `git merge-file` (linear)")
    if quick:
        return
    from tiergit.features.driverrun import run_driver

    with tempfile.TemporaryDirectory() as tmp:
        base = "# Cold\n\n" + "".join(f"### 2026-05-{i % 28 + 1:02d}: entry {i}\n\n- item {i} about the cache\n\n"
                                      for i in range(1_000_000))
        paths = [Path(tmp, n) for n in "OAB"]
        paths[0].write_text(base)
        paths[1].write_text(base + "### 2026-06-01: ours\n\n- o\n")
        paths[2].write_text(base.replace("- item 3 about", "- item 3 (edited) about", 1))
        took = timed(lambda: run_driver(paths[0], paths[1], paths[2], "cold.md"))
        print(f"   the driver on a {len(base) / 1e6:.0f} MB file (fallback): {took:.2f} s (was 227 s for 50 MB)")


def bench_check() -> None:
    print("3. `tiergit check` in a new process (seconds)")
    with tempfile.TemporaryDirectory() as tmp:
        repo = Path(tmp)
        env = {**os.environ, "GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@x",
               "GIT_COMMITTER_NAME": "b", "GIT_COMMITTER_EMAIL": "b@x"}
        subprocess.run(["git", "init", "-q"], cwd=repo, check=True, env=env)
        subprocess.run([sys.executable, "-m", "tiergit", "init", "--preset", "squad"], cwd=repo,
                       check=True, capture_output=True, env=env)
        cold = repo / ".squad/memory/cold/picard.md"
        cold.parent.mkdir(parents=True, exist_ok=True)
        for label, body in (("small file (floor)", "- [fact] one\n"), ("120 KB of '-'", "-" * 120_000 + "\n"),
                            ("120 KB of '=!'", "=!" * 60_000 + "\n")):
            cold.write_text("# Cold\n\n### 2026-05-01: x\n\n" + body)
            took = timed(lambda: subprocess.run([sys.executable, "-m", "tiergit", "check", str(cold)], cwd=repo,
                                                capture_output=True, env=env))
            print(f"   {label:<20} {took:7.3f}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="smaller sizes")
    args = parser.parse_args()
    sizes = [2048, 8192, 32768] if args.quick else [2048, 8192, 32768, 131072, 524288]
    bench_bpe(sizes)
    bench_merge(args.quick)
    bench_check()


if __name__ == "__main__":
    main()
