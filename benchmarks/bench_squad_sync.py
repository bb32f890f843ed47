"""What the Squad sync adds to `session start`, on every Squad project of the corpus.

`session start --agent A` with the squad preset first plans `import squad` for A
(squad_sync.plan_sync): one parse of every history and of decisions.md. Printed per
project: the sync's planning time (median of 5, warm), beside a floor measured in
the same run, parsing only A's own history, what a sync restricted to one agent
could cost at best.
Run: python benchmarks/bench_squad_sync.py [CORPUS_DIR]
"""
from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tiergit.core import parse
from tiergit.features.importing import squad_sync
from tiergit.shell.store import Store

CORPUS = Path(sys.argv[1] if len(sys.argv) > 1 else os.environ.get(
    "TIERGIT_CORPUS", Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"))
RUNS = 5


def imported(project: Path, tmp: Path) -> Path:
    repo = tmp / project.name
    repo.mkdir()
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=repo, check=True)
    shutil.copytree(project / ".squad", repo / ".squad")
    for args in (["init", "--preset", "squad", "--no-install"], ["import", "squad", "--apply"]):
        subprocess.run([sys.executable, "-m", "tiergit", *args], cwd=repo, capture_output=True)
    return repo


def timed(fn) -> float:
    samples = []
    for _ in range(RUNS):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def main() -> None:
    projects = sorted(p for p in CORPUS.iterdir() if (p / ".squad" / "agents").is_dir())
    print(f"{'project':<36} {'agents':>6} {'history KB':>10} {'sync ms':>8} {'floor ms':>9}")
    with tempfile.TemporaryDirectory() as tmp:
        for project in projects:
            repo = imported(project, Path(tmp))
            store = Store.open(repo)
            histories = sorted((repo / ".squad" / "agents").glob("*/history.md"))
            if not histories:
                continue
            biggest = max(histories, key=lambda p: p.stat().st_size)
            agent = biggest.parent.name.lower()
            text = biggest.read_text(encoding="utf-8", errors="replace")
            sync = timed(lambda: squad_sync.plan_sync(store, agent))
            floor = timed(lambda: parse.parse(text, "h.md"))
            kb = sum(p.stat().st_size for p in histories) / 1024
            print(f"{project.name:<36} {len(histories):>6} {kb:>10.0f} {1000 * sync:>8.0f} {1000 * floor:>9.0f}")
    print("sync = plan the import for the agent with the largest history; floor = parse that history alone")


if __name__ == "__main__":
    main()
