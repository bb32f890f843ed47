"""How much of the labelled noise a "keep anything specific" rule can ever remove (issue 21's rule 1
beside its target of >= 85 % of noise tokens removed).

For every labelled sentence sample (tests/labels/sentences_corpus*.tsv, resolved labels: worth keeping
when any reader says so), per part: the noise sentences and their tokens (cl100k_base), and the share of
those tokens in sentences that carry specifics in the sense of rule 1 (SPECIFIC below: a digit, a code
span, a path or file name, a camelCase / CamelCase / snake_case name, a URL or an `#N` reference); the
same for the worth-keeping sentences. A judgement that keeps every specific sentence removes at most
1 - that share of the noise tokens.

    python benchmarks/bench_noise_specifics.py [--corpus PATH]
"""
from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(PROJECT / "tests"), str(PROJECT)]

SPECIFIC = re.compile(r"\d|`[^`]+`|\b\w+/\w+|\b\w+\.(?:md|py|ts|js|json|yml|yaml|cs|ps1|sh|toml)\b"
                      r"|\b[a-z]+[A-Z]\w*|\b[A-Z][a-z]+[A-Z]\w*|\b\w+_\w+|https?://|#\d+")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", default=os.environ.get("TIERGIT_CORPUS", str(PROJECT.parent / "shared" / "corpus")))
    corpus = Path(ap.parse_args().corpus)
    os.environ["TIERGIT_SENTENCE_LABELS"] = "resolved"
    import sentence_eval as se

    from tiergit.shell.tokens import count_text

    print(f"{'part':<9} {'side':<6} {'sentences':>9} {'specific':>8} {'tokens':>7} {'in specific':>11} {'share':>6}")
    totals: dict[str, list[int]] = {}
    for sample in se.SAMPLES:
        parts: dict[tuple[str, bool], list[int]] = {}
        for s in se.sentences(corpus, sample=sample):
            tokens = count_text(s.verbatim, se.ENCODING).tokens
            specific = bool(SPECIFIC.search(s.verbatim))
            part = s.split if sample == "first" else sample
            for row in (parts.setdefault((part, s.keep), [0, 0, 0, 0]), totals.setdefault(("all", s.keep), [0, 0, 0, 0])):
                row[0] += 1
                row[1] += specific
                row[2] += tokens
                row[3] += tokens if specific else 0
        for (part, keep), row in sorted(parts.items()):
            _line(part, keep, row)
    for (part, keep), row in sorted(totals.items()):
        _line(part, keep, row)


def _line(part: str, keep: bool, row: list[int]) -> None:
    n, specific, tokens, in_specific = row
    print(f"{part:<9} {'keep' if keep else 'noise':<6} {n:>9} {specific:>8} {tokens:>7} {in_specific:>11} "
          f"{in_specific / tokens if tokens else float('nan'):>6.2f}")


if __name__ == "__main__":
    main()
