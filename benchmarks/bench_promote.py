"""Benchmark: `promote` planning on 10,000 items and 100,000 recall events.

Builds a squad store in a temporary git repo (50 agents x 200 cold items in dated
entries, a 300-item wiki, a 100k-event recall log; item text drawn from the real Squad
corpus's word frequencies; seeded, so every run builds the same data), then times `promote.build` (read, score, gate, plan: everything but the
writes) and the rendered preview. Target: median < 3 s. Prints a hash of the output
of each run: identical hashes show the output is deterministic.

    python benchmarks/bench_promote.py [--runs 5] [--items 10000] [--events 100000]
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tiergit.commands.promote import render  # noqa: E402
from tiergit.core import parse, safeguard
from tiergit.features.promotion import promote
from tiergit.shell import logs  # noqa: E402
from tiergit.shell.store import Store  # noqa: E402

WORDS = ("token cache gateway broker tenant deploy schema migration retry timeout queue worker pod "
         "secret vault lockfile build pipeline review release rollback index shard replica latency "
         "budget memory session agent wiki promote archive audit hook merge branch commit").split()
KINDS = ("[rule]", "[decision]", "[fact]", "[correction]", "", "[todo]")


CORPUS = Path(os.environ.get("TIERGIT_CORPUS", Path(__file__).resolve().parents[2] / "shared" / "corpus"))


def vocabulary() -> tuple[list[str], list[int]]:
    """Words with their real frequencies in the Squad corpus (Zipf-like, as real memory is),
    or the small built-in list when the corpus is not there."""
    counts: dict[str, int] = {}
    for path in sorted(CORPUS.glob("*/.squad/**/*.md")):
        for w in re.findall(r"[A-Za-z][A-Za-z0-9-]{1,}", path.read_text(encoding="utf-8", errors="replace")):
            counts[w.lower()] = counts.get(w.lower(), 0) + 1
    if len(counts) < 1000:
        return list(WORDS), [1] * len(WORDS)
    words = sorted(counts)
    cum, total = [], 0
    for w in words:
        total += counts[w]
        cum.append(total)
    return words, cum


VOCAB: tuple[list[str], list[int]] = ([], [])


def sentence(rng: random.Random) -> str:
    words, cum = VOCAB
    return " ".join(rng.choices(words, cum_weights=cum, k=rng.randint(7, 14))).capitalize()


def build_store(root: Path, items: int, events: int, today: date) -> Store:
    rng = random.Random(42)
    VOCAB[0][:], VOCAB[1][:] = vocabulary()
    subprocess.run(["git", "init", "-q", "-b", "main", str(root)], check=True)
    (root / ".tiergit.yml").write_text("version: 1\npreset: squad\n")
    mem = root / ".squad/memory"
    agents = 50
    per_agent = items // agents
    ids: list[str] = []
    for a in range(agents):
        lines = [f"# agent{a}: cold memory\n\n## Core Context\n\n- agent{a} works on the platform.\n"]
        for e in range(per_agent // 10):
            day = today - timedelta(days=rng.randint(1, 120))
            lines.append(f"\n### Session {e} ({day.isoformat()})\n\n")
            for _ in range(10):
                text = f"- {rng.choice(KINDS)} {sentence(rng)} #{rng.choice(WORDS)}".replace("-  ", "- ")
                ids.append(parse.item_id(text)[0])
                lines.append(text + "\n")
        path = mem / "cold" / f"agent{a}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(lines))
    wiki = mem / "wiki" / "platform.md"
    wiki.parent.mkdir(parents=True, exist_ok=True)
    wiki.write_text("# Platform\n\n" + "".join(f"- [rule] {sentence(rng)}\n" for _ in range(300)))
    store = Store.open(root)
    hot = ids[: len(ids) // 5]           # recalls cluster on a fifth of the items, as in real logs
    batch = []
    for n in range(events):
        day = today - timedelta(days=rng.randint(0, 40))
        batch.append({"ts": f"{day.isoformat()}T{rng.randint(0, 23):02d}:00:00Z", "query": f"q{rng.randint(0, 400)}",
                      "agent": f"agent{rng.randint(0, agents - 1)}", "id": rng.choice(hot), "path": "x",
                      "entry": "x", "score": round(rng.uniform(0.4, 1.0), 3), "rank": rng.randint(1, 10)})
    logs.append(store, logs.RECALLS, batch)
    return store


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--items", type=int, default=10_000)
    ap.add_argument("--events", type=int, default=100_000)
    args = ap.parse_args()
    today = date(2026, 6, 1)
    os.environ["TIERGIT_TODAY"] = today.isoformat()
    with tempfile.TemporaryDirectory() as tmp:
        store = build_store(Path(tmp) / "repo", args.items, args.events, today)
        times, cpu, hashes = [], [], []
        promo = None
        for _ in range(args.runs):
            store = Store.open(store.repo)
            safeguard.judge.cache_clear()   # each run pays the safeguard judgement, as a new process would
            t0, c0 = time.perf_counter(), time.process_time()
            promo = promote.build(store, today=today)
            out = render(promo, show_all=True) + json.dumps(promo.as_dict(), sort_keys=True)
            times.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
            hashes.append(hashlib.sha256(out.encode()).hexdigest()[:16])
        assert promo is not None
        print(f"promote plan: {args.items} items, {args.events} recall events, {args.runs} runs")
        print(f"  candidates {len(promo.rows)}, to promote {len(promo.accepted)}, rejected {len(promo.rejected)}")
        print(f"  wall (s): {', '.join(f'{t:.3f}' for t in times)}   (run 1 parses every file; "
              "later runs reuse the parse cache in .git/tiergit/)")
        print(f"  cpu  (s): {', '.join(f'{t:.3f}' for t in cpu)}")
        print(f"  median wall {statistics.median(times):.3f} s, cpu {statistics.median(cpu):.3f} s (target < 3 s); "
              f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cpus")
        print(f"  output hashes: {', '.join(hashes)}")
        print(f"  identical across runs: {len(set(hashes)) == 1}")


if __name__ == "__main__":
    main()
