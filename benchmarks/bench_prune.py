"""The prune path on a large reviewed MEMORY.md: `audit` planning the cut back under budget.

Run: .venv/bin/python benchmarks/bench_prune.py [--lines 5000] [--runs 5]

Builds a git repository with the openclaw preset and a MEMORY.md of `--lines` lines (a
pinned rules section of undated items, then dated entries, oldest first), committed so
`git blame` dates the undated items. Prints the median in-process time of
`audit.plan_audit` (the whole plan: dead items, the budget cut, the archive writes) beside
a floor measured in the same run: parsing the file once, which any plan must do.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tiergit.core import parse
from tiergit.features.budget import line_count  # noqa: E402
from tiergit.features.promotion import audit  # noqa: E402
from tiergit.core.cuts import cut_lines  # noqa: E402
from tiergit.shell.store import Store  # noqa: E402


def memory_md(lines: int) -> str:
    out = ["# Memory\n", "\n", "## Rules\n", "\n"]
    out += [f"- [rule] Rule {i}: keep the build reproducible across machines and runners\n"
            for i in range(lines // 4)]
    day = date(2026, 1, 1)
    i = 0
    while len(out) < lines:
        out += [f"\n## {(day + timedelta(days=i)).isoformat()} session {i}\n", "\n",
                f"- [fact] Finding {i}: the cache key includes the lockfile hash\n"]
        i += 1
    return "".join(out[:lines])


def git(repo: Path, *args: str) -> None:
    env = {**os.environ, "GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@x", "GIT_COMMITTER_NAME": "b",
           "GIT_COMMITTER_EMAIL": "b@x", "TIERGIT": "0"}
    subprocess.run(["git", *args], cwd=repo, check=True, env=env, capture_output=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--lines", type=int, default=5000)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        repo = Path(tmp)
        git(repo, "init", "-q", "-b", "main")
        (repo / ".tiergit.yml").write_text("version: 1\npreset: openclaw\n")
        text = memory_md(args.lines)
        (repo / "MEMORY.md").write_text(text)
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-m", "memory")
        store = Store.open(repo)
        plans, floors = [], []
        for _ in range(args.runs):
            t0 = time.perf_counter()
            parse.parse(text, "MEMORY.md")
            floors.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            findings, plan, events = audit.plan_audit(store, date(2026, 12, 1))
            plans.append(time.perf_counter() - t0)
        left = line_count(cut_lines(text, [(f.line, f.end) for f in findings]))
    print(f"MEMORY.md: {args.lines} lines -> {left} lines after the proposed cut "
          f"({len(findings)} finding(s), {len(events)} prune event(s))")
    print(f"audit plan (median of {args.runs}): {statistics.median(plans):.3f} s")
    print(f"floor, one parse of the file:      {statistics.median(floors):.3f} s")


if __name__ == "__main__":
    main()
