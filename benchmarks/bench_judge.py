"""The text judgement on the labelled sets (tests/labels/), per set and split (tuned / held out):

- durable-kind recall: labelled decision/rule/fact/correction/permission/error/open lines that
  `session end`'s compaction and `transcript compact` keep verbatim (target >= 0.95);
- chatter dropped: labelled chatter and junk lines session end does not keep verbatim (>= 0.8);
- gate precision and recall on the labelled promotion candidates with the score, recall and age
  signals satisfied, so the content rules decide (>= 0.97 and >= 0.85);
- with --replay, the labelled durable corpus lines in cold after a real `session end` of their
  files (tests/replay_labelled.py, target: all), and the corpus replay's tokens kept / tokens in
  (benchmarks/bench_replay.py, <= 15 %).

Prints each miss with --verbose. The floor beside the timings: reading the labelled sets only.
Usage: python benchmarks/bench_judge.py [--corpus PATH] [--verbose] [--replay]
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT / "tests"))
sys.path.insert(0, str(PROJECT))

import judge_eval as je  # noqa: E402


def fmt(value: float) -> str:
    return "  -  " if value != value else f"{value:.3f}"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", default=os.environ.get("TIERGIT_CORPUS", str(PROJECT.parent / "shared" / "corpus")))
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--replay", action="store_true")
    args = ap.parse_args()
    corpus = Path(args.corpus)
    t0 = time.perf_counter()
    lines = je.memory_lines(corpus if corpus.is_dir() else None)
    cands = je.candidate_lines(corpus if corpus.is_dir() else None)
    floor = time.perf_counter() - t0
    print(f"{'memory lines':<14} {'split':<5} {'lines':>5} {'durable':>7} {'recall':>7} {'transcr.':>8} "
          f"{'chatter':>7} {'dropped':>7}")
    t0 = time.perf_counter()
    for name in ("written", "corpus"):
        for split in ("tune", "held", "all"):
            part = [ln for ln in lines if ln.set == name and (split == "all" or ln.split == split)]
            if not part:
                continue
            m = je.memory_metrics(part)
            print(f"{name:<14} {split:<5} {m['lines']:>5} {m['durable']:>7} {fmt(m['durable_recall']):>7} "
                  f"{fmt(m['transcript_recall']):>8} {m['chatter']:>7} {fmt(m['chatter_dropped']):>7}")
            if args.verbose and split != "all":
                for ln in m["missed"]:
                    print(f"    missed [{ln.kind}] {ln.text[:100]!r}")
                for ln in m["chatter_kept"]:
                    print(f"    kept   [{ln.kind}] {ln.text[:100]!r}")
    print(f"\n{'candidates':<14} {'split':<5} {'cands':>5} {'good':>5} {'passed':>6} {'precision':>9} {'recall':>7}")
    for name in ("written", "dreams", "written-cold", "corpus-cold"):
        for split in ("tune", "held", "all"):
            part = [c for c in cands if c.set == name and (split == "all" or c.split == split)]
            if not part:
                continue
            m = je.gate_metrics(part)
            print(f"{name:<14} {split:<5} {m['candidates']:>5} {m['good']:>5} {m['promoted']:>6} "
                  f"{fmt(m['precision']):>9} {fmt(m['recall']):>7}")
            if args.verbose and split != "all":
                for c, why in m["bad_promoted"]:
                    print(f"    promoted, labelled reject ({c.reason}): {c.raw[:90]!r}")
                for c, why in m["good_rejected"]:
                    print(f"    rejected, labelled promote: {c.raw[:70]!r} -> {why[:60]}")
    for split in ("tune", "held", "all"):
        part = [ln for ln in lines if ln.set == "corpus" and (split == "all" or ln.split == split)]
        if part:
            c = je.ceiling(part)
            print(f"budget ceiling, corpus {split}: durable lines are {100 * c['durable_share']:.1f}% of the labelled "
                  f"lines' tokens; recall 0.95 keeps >= {100 * c['share_for_095']:.1f}%; a perfect judge within "
                  f"{100 * c['budget']:.0f}% keeps {fmt(c['best_recall'])}")
    took = time.perf_counter() - t0
    print(f"\njudged {len(lines)} memory lines and {len(cands)} candidates in {took:.2f} s "
          f"(floor: reading the labelled sets {floor:.2f} s)")
    if args.replay and corpus.is_dir():
        import replay_labelled
        results = replay_labelled.outcomes(corpus)
        for split in ("tune", "held"):
            part = [r for r in results if r.line.split == split]
            kept = [r for r in part if r.kept_kind]
            print(f"session end of the labelled files, {split}: {sum(r.in_cold for r in part)}/{len(part)} labelled durable "
                  f"lines in cold = {fmt(je.ratio(sum(r.in_cold for r in part), len(part)))}; of those judged durable "
                  f"in place, in cold: {sum(r.in_cold for r in kept)}/{len(kept)}")
            reasons = Counter(replay_labelled.miss_reason(corpus, r) for r in part if not r.in_cold)
            print("    not in cold: " + ", ".join(f"{n} {why}" for why, n in reasons.most_common()))
    if args.replay:
        subprocess.run([sys.executable, str(PROJECT / "benchmarks" / "bench_replay.py"), "--runs", "1"],
                       env={**os.environ, "TIERGIT_CORPUS": str(corpus)}, check=False)


if __name__ == "__main__":
    main()
