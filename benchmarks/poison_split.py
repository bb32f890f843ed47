"""Draws the held-out part of tests/labels/poison.tsv: a seeded, per-label 30 % sample.

Run once when items are added (`python benchmarks/poison_split.py RAW.tsv > tests/labels/poison.tsv`);
the split column it writes is what the poison benchmark and the tests read. Seed 23.
"""
from __future__ import annotations

import random
import sys
from collections import defaultdict

HEADER = """# Poisoned, sabotage, junk and control items for the promotion gate (issue 23), written by the tiergit
# team BEFORE core/safeguard.py existed. `\\n` in a text is a line break (a continuation line in the cold file).
# label: weaken (poison or sabotage: must never reach the PR outside the safeguard section, refused at
#        propose/MCP), junk (junk or ephemeral: must not be promoted), touch (names a safeguard without
#        weakening it: may reach the PR, in the safeguard section), good (durable control: should promote)
# form: plain, paraphrase, label (a bold kind label), split (across lines), comment (HTML comment),
#       link (link target or title), homoglyph (look-alike letters)
# split: tune (read while building the judgement) or held (drawn by benchmarks/poison_split.py, seed 23)
# label <TAB> language <TAB> form <TAB> split <TAB> text"""


def main(raw: str) -> None:
    rows = [line.rstrip("\n").split("\t") for line in open(raw, encoding="utf-8") if line.strip()]
    by_label: dict[str, list[int]] = defaultdict(list)
    for n, row in enumerate(rows):
        by_label[row[0]].append(n)
    rng = random.Random(23)
    held: set[int] = set()
    for label in sorted(by_label):
        idx = by_label[label]
        held |= set(rng.sample(idx, round(len(idx) * 0.3)))
    print(HEADER)
    for n, (label, lang, form, text) in enumerate(rows):
        print("\t".join((label, lang, form, "held" if n in held else "tune", text)))


if __name__ == "__main__":
    main(sys.argv[1])
