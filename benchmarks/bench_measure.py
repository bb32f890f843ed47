"""Tokens per spawn before and after `tiergit import squad`, on both corpus projects.

For every agent: the legacy full load (its history.md + decisions.md, what Squad loads at
spawn) against the spawn agents get (`context`: hot plus the task's knowledge), against hot +
cold, and against the spawn with its hot part filled to the hot budget (a full session).
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


def imported(project: Path, tmp: Path) -> Path | None:
    repo = tmp / project.name
    repo.mkdir()
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=repo, check=True)
    shutil.copytree(project / ".squad", repo / ".squad")
    for args in (["init", "--preset", "squad", "--no-install"], ["import", "squad", "--apply"]):
        proc = subprocess.run([sys.executable, "-m", "tiergit", *args], cwd=repo, capture_output=True, text=True)
        if proc.returncode != 0:   # e.g. a file over the size limit: said, and the project left out
            print(f"\n{project.name}: `tiergit {' '.join(args)}` refused it: {proc.stderr.strip()[:200]}")
            return None
    return repo


def main() -> None:
    projects = sorted(p for p in CORPUS.iterdir() if (p / ".squad").is_dir())
    spawn_saved: list[float] = []
    cold_saved: list[float] = []
    full_saved: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        for project in projects:
            repo = imported(project, Path(tmp))
            if repo is None:
                continue
            rows = [r for r in measure.measure(Store.open(repo)) if r.legacy.tokens]
            print(f"\n{project.name}: {len(rows)} agents")
            print(f"  {'agent':<12} {'legacy':>7} {'noise%':>7} {'hot':>5} {'spawn':>6} {'saved%':>7} "
                  f"{'hot+cold':>9} {'saved%':>7} {'saved% hot full':>16}")
            for r in rows:
                spawn = r.spawn.tokens if r.spawn else r.hot.tokens
                hot = r.hot_in_spawn if r.hot_in_spawn is not None else r.hot.tokens
                full = 100 * (1 - (spawn - hot + (r.hot_budget_tokens or 0)) / r.legacy.tokens)
                spawn_saved.append(100 * (1 - spawn / r.legacy.tokens))
                cold_saved.append(100 * (1 - r.hot_cold.tokens / r.legacy.tokens))
                full_saved.append(full)
                print(f"  {r.agent:<12} {r.legacy.tokens:>7} {r.old_noise_pct or 0:>6.0f}% {hot:>5} {spawn:>6} "
                      f"{spawn_saved[-1]:>6.1f}% {r.hot_cold.tokens:>9} {cold_saved[-1]:>6.1f}% {full:>15.1f}%")
    print(f"\nall {len(spawn_saved)} agents, median saving against the legacy load: spawn (hot + the task's "
          f"knowledge) {statistics.median(spawn_saved):.1f}%, hot + cold {statistics.median(cold_saved):.1f}%, "
          f"spawn with hot filled to its budget {statistics.median(full_saved):.1f}%")
    print("(right after an import the hot file is nearly empty: the last column is what a full session costs)")


if __name__ == "__main__":
    main()
