"""Promotion's candidate collection as a store's recall log grows: it must not cost more per recalled id.

A store in real use logs thousands of recalled item ids (`logs/recalls.jsonl`, the MCP tool,
OpenClaw's recall store); promotion reads them as one set and walks every section of every
memory file once. Before stop 39 each section copied that set (`recalled | the items under a
recalled label`), so collection cost sections x recalled ids: on a 1k real-sized store
0.48 s CPU with none, 1.31 s with 5,000 and 5.33 s with 20,000.

Prints, on a `realstore.py` store (built here, or `--keep DIR` to reuse one), the CPU seconds of
`candidate.collect` with 0 recalled ids (the floor) and with each of `--recalled`, and the ratio.

    python benchmarks/bench_promote_recalled.py [--files 1000] [--recalled 5000 20000] [--keep DIR]
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import realstore  # noqa: E402

from tiergit.core import candidate  # noqa: E402
from tiergit.features.promotion import candidates  # noqa: E402
from tiergit.shell.store import Store  # noqa: E402


def collect_cpu(store: Store, recalled: set[str]) -> float:
    """CPU seconds of candidate.collect alone (the parse comes from the warm cache around it)."""
    spent: list[float] = []
    real = candidate.collect

    def timed(*args, **kwargs):
        start = time.process_time()
        out = real(*args, **kwargs)
        spent.append(time.process_time() - start)
        return out

    candidate.collect = timed
    try:
        candidates.gather(store, recalled, blame=False)
    finally:
        candidate.collect = real
    return spent[0]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--files", type=int, default=1000)
    ap.add_argument("--recalled", type=int, nargs="+", default=[5000, 20000])
    ap.add_argument("--keep", type=Path, help="build the store in this folder and keep it (reused when there)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        repo = (args.keep or Path(tmp)) / f"store{args.files}"
        if not repo.exists():
            realstore.build(repo, args.files, 50)
        store = Store.open(repo)
        collect_cpu(store, set())   # warms the parse cache
        floor = min(collect_cpu(store, set()) for _ in range(3))
        print(f"store of {args.files} files; candidate.collect, CPU s (best of 3)")
        print(f"  {'0 recalled ids (floor)':<28} {floor:7.3f}")
        for n in args.recalled:
            ids = {f"m-{i:08x}" for i in range(n)}   # ids no item has: only the set's size differs
            got = min(collect_cpu(store, ids) for _ in range(3))
            print(f"  {f'{n:,} recalled ids':<28} {got:7.3f}   ({got / max(floor, 1e-3):.2f}x the floor)")


if __name__ == "__main__":
    main()
