"""Recall on a 10,000-item store: cold index build, warm median latency, and re-indexing after one edit.

Run: python benchmarks/bench_recall.py [--items 10000] [--runs 25]
Prints the median of several runs; the target is < 0.2 s warm (in-process, index refresh included).
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tiergit.features import recall, recall_index
from tiergit.shell.store import Store

WORDS = ("token cache expiry refresh deploy pipeline docker layer rollback slot msal auth login session "
         "schema query index budget archive merge branch review promote wiki cold hot agent spawn prompt "
         "latency timeout retry queue worker cron webhook secret vault policy tenant subscription quota "
         "report html chart filter severity finding rule pattern lesson decision correction fix cause").split()


def sentence(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(WORDS) if rng.random() < 0.6 else f"w{rng.randrange(5000)}" for _ in range(n))


def build(repo: Path, items: int, rng: random.Random) -> None:
    subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True)
    (repo / ".tiergit.yml").write_text("version: 1\npreset: squad\n")
    root = repo / ".squad" / "memory"
    per_entry, entries_per_file = 5, 20
    files = items // (per_entry * entries_per_file)
    for f in range(files):
        tier, name = ("cold", f"agent{f:03d}") if f % 2 == 0 else ("wiki", f"topic{f:03d}")
        lines = [f"# {name}\n"]
        for e in range(entries_per_file):
            lines.append(f"\n### {sentence(rng, 4)} (2026-0{1 + e % 9}-{10 + e % 18})\n\n")
            for _ in range(per_entry):
                lines.append(f"- [{rng.choice(['rule', 'fact', 'decision', 'error'])}] {sentence(rng, 14)}\n")
        path = root / tier / f"{name}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(lines))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--items", type=int, default=10_000)
    ap.add_argument("--runs", type=int, default=25)
    args = ap.parse_args()
    rng = random.Random(7)
    with tempfile.TemporaryDirectory() as tmp:
        repo = Path(tmp) / "repo"
        build(repo, args.items, rng)
        store = Store.open(repo)
        db = recall_index.connect(recall_index.index_path(repo))
        t0 = time.perf_counter()
        first = recall_index.refresh(store, db)
        build_s = time.perf_counter() - t0
        n_items = db.execute("SELECT count(*) FROM items").fetchone()[0]
        db.close()
        print(f"store: {first.files} files, {n_items} items")
        print(f"first index build: {build_s:.3f} s ({first.reindexed} files parsed)")
        queries = [sentence(rng, 3) for _ in range(args.runs)]
        warm = []
        for q in queries:
            t = time.perf_counter()
            hits, stats = recall.recall(store, q, limit=10, log=False)
            warm.append(time.perf_counter() - t)
            assert stats.reindexed == 0 and hits
        print(f"warm recall, in-process (index check + BM25 + 10 hits): median {statistics.median(warm) * 1000:.1f} ms "
              f"over {len(warm)} queries (target < 200 ms)")
        cli = []
        env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
        for q in queries[:7]:
            t = time.perf_counter()
            subprocess.run([sys.executable, "-m", "tiergit", "recall", q, "--no-log"], cwd=repo, check=True,
                           capture_output=True, env=env)
            cli.append(time.perf_counter() - t)
        print(f"warm recall, CLI process (python start-up included): median {statistics.median(cli) * 1000:.1f} ms")
        changed = sorted((repo / ".squad" / "memory" / "cold").glob("*.md"))[0]
        after = []
        for i in range(5):
            with open(changed, "a") as fh:
                fh.write(f"- [rule] bench change {i} {sentence(rng, 8)}\n")
            t = time.perf_counter()
            hits, stats = recall.recall(store, f"bench change {i}", limit=3, log=False)
            after.append((time.perf_counter() - t, stats.reindexed))
        print(f"first recall after editing one file: median {statistics.median(a for a, _ in after) * 1000:.1f} ms, "
              f"re-indexed {max(r for _, r in after)} of {first.files} files each time")


if __name__ == "__main__":
    main()
