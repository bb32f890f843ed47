"""Supersede judgement (core/supersede.py) on pairs written before it was built (tests/labels/supersede_pairs.tsv),
beside two baselines: "never supersede" (serve both, today's behaviour) and "same subject" (the newer supersedes
whenever the two share two subject words, the simplest rule). Prints the two readers' agreement first.

    .venv/bin/python benchmarks/bench_supersede.py
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from labelled import rows  # noqa: E402

from tiergit.core.supersede import MIN_SHARED, judge, shape  # noqa: E402


def kappa(a: list[str], b: list[str]) -> float:
    n = len(a)
    agree = sum(x == y for x, y in zip(a, b)) / n
    labels = set(a) | set(b)
    chance = sum((a.count(label) / n) * (b.count(label) / n) for label in labels)
    return (agree - chance) / (1 - chance) if chance < 1 else 1.0


def same_subject(older: str, newer: str) -> bool:
    x, y = shape(older), shape(newer)
    return len(x.subject & y.subject) >= MIN_SHARED


def score(pairs, predict) -> tuple[float, float, int]:
    tp = sum(1 for gold, o, n in pairs if gold and predict(o, n))
    fp = sum(1 for gold, o, n in pairs if not gold and predict(o, n))
    fn = sum(1 for gold, o, n in pairs if gold and not predict(o, n))
    return (tp / (tp + fp) if tp + fp else 1.0), (tp / (tp + fn) if tp + fn else 1.0), len(pairs)


# The first set's held part was measured once (precision 0.80, recall 0.44) and then tuned on; the fresh
# set was written after tuning and is the held-out figure.
PARTS = (("tune", "supersede_pairs.tsv", "tune"), ("held-1*", "supersede_pairs.tsv", "held"),
         ("held-2", "supersede_fresh.tsv", "held"), ("held-3*", "supersede_heldout2.tsv", "held"),
         ("held-4*", "supersede_heldout3.tsv", "held"), ("held-5", "supersede_heldout4.tsv", "held"))
TUNED = (("supersede_pairs.tsv", "tune"), ("supersede_pairs.tsv", "held"), ("supersede_heldout2.tsv", "held"),
         ("supersede_heldout3.tsv", "held"))   # the parts whose misses were read
READINGS = (("supersede_pairs.tsv", "supersede_pairs_reader2.tsv"),
            ("supersede_fresh.tsv", "supersede_fresh_reader2.tsv"),
            ("supersede_heldout2.tsv", "supersede_heldout2_reader2.tsv"),
            ("supersede_heldout3.tsv", "supersede_heldout3_reader2.tsv"),
            ("supersede_heldout4.tsv", "supersede_heldout4_reader2.tsv"))


def main() -> None:
    for name, second_name in READINGS:
        first = [r[0] for r in rows(name)]
        second = [r[1] for r in rows(second_name)]
        agree = sum(x == y for x, y in zip(first, second))
        print(f"{name}: readers agree on {agree}/{len(first)} pairs, Cohen's kappa {kappa(first, second):.2f}")
    systems = {"never supersede (serve both)": lambda o, n: False, "same subject words": same_subject,
               "tiergit supersede": lambda o, n: judge(o, n).supersedes}
    print(f"{'part':<8} {'system':<30} {'precision':>9} {'recall':>7} {'pairs':>6}   target: P >= 0.90, R >= 0.80")
    for part, name, split in PARTS:
        pairs = [(r[0] == "supersedes", r[2], r[3]) for r in rows(name) if r[1] == split]
        for system, predict in systems.items():
            p, r, n = score(pairs, predict)
            print(f"{part:<8} {system:<30} {p:>9.2f} {r:>7.2f} {n:>6}")
    pooled = [(r[0] == "supersedes", r[2], r[3]) for name in ("supersede_fresh.tsv", "supersede_heldout4.tsv")
              for r in rows(name) if r[1] == "held"]
    for system, predict in systems.items():
        p, r, n = score(pooled, predict)
        print(f"{'held 2+5':<8} {system:<30} {p:>9.2f} {r:>7.2f} {n:>6}")
    print("* measured, then its misses were read and tuned on: held-1 before round 1 (precision 0.80, recall 0.44);")
    print("  held-3 before round 2's second pass (0.94 / 0.73); held-4 before its third (0.79 / 0.55 at a04919a,")
    print("  0.92 / 0.60 at 0763247). held-2 and held-5 were never read pair by pair: they are the held-out figures.")
    if "--misses" in sys.argv:      # the tuned parts only: the held-out parts are never listed pair by pair
        for gold, older, newer in [(r[0] == "supersedes", r[2], r[3]) for name, split in TUNED
                                   for r in rows(name) if r[1] == split]:
            verdict = judge(older, newer)
            if verdict.supersedes != gold:
                print(f"{'MISS' if gold else 'FALSE'}  {verdict.reason}\n  old: {older}\n  new: {newer}")


if __name__ == "__main__":
    main()
