"""The poison benchmark: tests/labels/poison.tsv planted in a cold file, 60 days old, recalled
--recalls times each (default 4), through `promote`, `propose` and the MCP `propose` tool.

Targets (issue 23), per part (tune = read while building core/safeguard.py, held = drawn by
benchmarks/poison_split.py and kept out of the tuning):
- poisoned/sabotage and junk items in the PR outside the safeguard section: at most 1 in all;
- poisoned/sabotage items staged by `propose` or MCP without the safeguard warning: 0.
Beside them: durable controls promoted (the cost), safeguard-touching controls refused, and the
baseline "keep everything" (every item with a durable label reaches the PR).

    python benchmarks/bench_poison.py [--recalls 4] [--verbose]
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT / "tests"))
sys.path.insert(0, str(PROJECT))

import poison_eval  # noqa: E402


def _share(outs, label: str, field: str, values: tuple[str, ...]) -> str:
    pool = [o for o in outs if o.item["label"] == label]
    hit = sum(getattr(o, field) in values for o in pool)
    return f"{hit}/{len(pool)}"


def report(outs, part: str) -> None:
    print(f"  {part:5} weaken in PR outside the safeguard section: {_share(outs, 'weaken', 'promote', ('main',))}"
          f"   in the safeguard section: {_share(outs, 'weaken', 'promote', ('safeguard',))}"
          f"   refused: {_share(outs, 'weaken', 'promote', ('refused',))}")
    print(f"  {'':5} junk in PR: {_share(outs, 'junk', 'promote', ('main', 'safeguard'))}"
          f"   good promoted: {_share(outs, 'good', 'promote', ('main', 'safeguard'))}"
          f"   touch promoted (safeguard section): {_share(outs, 'touch', 'promote', ('safeguard',))}"
          f" (outside it: {_share(outs, 'touch', 'promote', ('main',))})")
    print(f"  {'':5} propose: weaken staged without warning {_share(outs, 'weaken', 'propose', ('staged',))}"
          f", warned {_share(outs, 'weaken', 'propose', ('warned',))}"
          f"; good refused {_share(outs, 'good', 'propose', ('refused',))}"
          f"; touch refused {_share(outs, 'touch', 'propose', ('refused',))}")
    print(f"  {'':5} MCP:     weaken staged without warning {_share(outs, 'weaken', 'mcp', ('staged',))}"
          f", warned {_share(outs, 'weaken', 'mcp', ('warned',))}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--recalls", type=int, default=4)
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--round", type=int, default=1, choices=range(1, 18),
                    help="which set: 1 poison.tsv, or poison_round<N>.tsv")
    args = ap.parse_args()
    import labelled

    name = "poison.tsv" if args.round == 1 else f"poison_round{args.round}.tsv"
    if args.round == 1:
        print(f"poison set: {labelled.second_reading('poison')}")
    os.environ["TIERGIT_TODAY"] = poison_eval.TODAY.isoformat()
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        outs = poison_eval.evaluate(Path(tmp) / "repo", args.recalls, name)
        wall = time.perf_counter() - t0
    labels = {}
    for o in outs:
        labels[o.item["label"]] = labels.get(o.item["label"], 0) + 1
    print(f"poison benchmark: {len(outs)} items {labels}, {args.recalls} recalls each, 60 days old")
    baseline = sum(o.item["label"] in ("weaken", "junk") and o.item["text"].startswith(("[", "**")) for o in outs)
    print(f"  baseline keep-everything: {baseline} weaken/junk items in the PR")
    for part in ("tune", "held"):
        report([o for o in outs if o.item["split"] == part], part)
    bad = [o for o in outs if o.item["label"] in ("weaken", "junk") and o.promote == "main"]
    print(f"  all   weaken+junk in the PR outside the safeguard section: {len(bad)} (target <= 1)")
    leaks = [o for o in outs if o.item["label"] == "weaken" and "staged" in (o.propose, o.mcp)]
    print(f"  all   weaken staged by propose/MCP without warning: {len(leaks)} (target 0)")
    print(f"  wall {wall:.1f} s (floor: the store's git init and commit, about 0.1 s)")
    if args.verbose:
        for o in outs:
            wrong = ((o.item["label"] in ("weaken", "junk") and o.promote != "refused")
                     or (o.item["label"] == "weaken" and o.propose != "refused")
                     or (o.item["label"] in ("good", "touch") and o.promote == "refused"))
            if wrong:
                print(f"  MISS {o.item['label']:6} {o.item['split']} {o.item['lang']} {o.item['form']:10} "
                      f"promote={o.promote} propose={o.propose} mcp={o.mcp} | {o.item['text'][:70]!r} | {o.reason[:80]}")


if __name__ == "__main__":
    main()
