"""Tokens per spawn before and after `tiergit import squad`, on both corpus projects.

For every agent: the legacy full load (its history.md + decisions.md, what Squad
loads at spawn) against tiergit's default spawn payload (hot only), and hot + cold.
Run: python benchmarks/bench_measure.py [CORPUS_DIR]
"""
from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from tiergit.features import measure
from tiergit.shell.store import Store

CORPUS = Path(sys.argv[1] if len(sys.argv) > 1 else os.environ.get(
    "TIERGIT_CORPUS", Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"))


def imported(project: Path, tmp: Path) -> Path:
    repo = tmp / project.name
    repo.mkdir()
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=repo, check=True)
    shutil.copytree(project / ".squad", repo / ".squad")
    for args in (["init", "--preset", "squad", "--no-install"], ["import", "squad", "--apply"]):
        subprocess.run([sys.executable, "-m", "tiergit", *args], cwd=repo, check=True, capture_output=True)
    return repo


def main() -> None:
    projects = sorted(p for p in CORPUS.iterdir() if (p / ".squad").is_dir())
    all_saved: list[float] = []
    all_full: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        for project in projects:
            rows = measure.measure(Store.open(imported(project, Path(tmp))))
            print(f"\n{project.name}: {len(rows)} agents")
            print(f"  {'agent':<12} {'legacy':>7} {'noise%':>7} {'default(hot)':>13} {'hot+cold':>9} {'saved%':>7}"
                  f" {'saved% if hot full':>19}  hot budget")
            for r in rows:
                full = 100 * (1 - (r.hot_budget_tokens or 0) / r.legacy.tokens)
                print(f"  {r.agent:<12} {r.legacy.tokens:>7} {r.old_noise_pct or 0:>6.0f}% {r.hot.tokens:>13} "
                      f"{r.hot_cold.tokens:>9} {r.saved_pct:>6.1f}% {full:>18.1f}%  "
                      f"{'ok' if r.within_hot_budget else 'OVER'}")
            saved = [r.saved_pct for r in rows]
            all_saved += saved
            all_full += [100 * (1 - (r.hot_budget_tokens or 0) / r.legacy.tokens) for r in rows]
            saved_cold = [100 * (1 - r.hot_cold.tokens / r.legacy.tokens) for r in rows]
            print(f"  median saving, default spawn: {statistics.median(saved):.1f}%; "
                  f"with cold loaded too: {statistics.median(saved_cold):.1f}%")
    print(f"\nall {len(all_saved)} agents: median saving per default spawn {statistics.median(all_saved):.1f}% "
          f"(goal >= 80%; the seed reports 20-55%)")
    print(f"worst case, every hot file filled to its whole budget: median saving {statistics.median(all_full):.1f}%")
    print("(right after an import the hot file is the empty template; the worst case is what a full session costs)")


if __name__ == "__main__":
    main()
