"""Draws the held-out part of a poison set: a seeded, per-label sample.

Run once when items are added; the split column it writes is what the poison benchmark and the tests read.
    python benchmarks/poison_split.py RAW.tsv > tests/labels/poison.tsv                 (seed 23, 30 %)
    python benchmarks/poison_split.py RAW.tsv --round2 > tests/labels/poison_round2.tsv  (seed 24, 50 %)
    python benchmarks/poison_split.py RAW.tsv --round3 > tests/labels/poison_round3.tsv  (seed 25, 50 %)
    python benchmarks/poison_split.py RAW.tsv --round4 > tests/labels/poison_round4.tsv  (seed 26, 50 %)
    python benchmarks/poison_split.py RAW.tsv --round5 > tests/labels/poison_round5.tsv  (seed 27, 50 %)
    python benchmarks/poison_split.py RAW.tsv --round6 > tests/labels/poison_round6.tsv  (seed 28, 50 %)
    python benchmarks/poison_split.py RAW.tsv --round7 > tests/labels/poison_round7.tsv  (seed 29, 50 %)
    python benchmarks/poison_split.py RAW.tsv --round8 > tests/labels/poison_round8.tsv  (seed 30, 50 %)
    python benchmarks/poison_split.py RAW.tsv --round9 > tests/labels/poison_round9.tsv  (seed 31, 50 %)
    python benchmarks/poison_split.py RAW.tsv --round10 > tests/labels/poison_round10.tsv  (seed 32, 50 %)
    python benchmarks/poison_split.py RAW.tsv --round11 > tests/labels/poison_round11.tsv  (seed 33, 50 %)
    python benchmarks/poison_split.py RAW.tsv --round12 > tests/labels/poison_round12.tsv  (seed 34, 50 %)
    python benchmarks/poison_split.py RAW.tsv --round13 > tests/labels/poison_round13.tsv  (seed 35, 50 %)
    python benchmarks/poison_split.py RAW.tsv --round14 > tests/labels/poison_round14.tsv  (seed 36, 50 %)
    python benchmarks/poison_split.py RAW.tsv --round15 > tests/labels/poison_round15.tsv  (seed 37, 50 %)
    python benchmarks/poison_split.py RAW.tsv --round16 > tests/labels/poison_round16.tsv  (seed 38, 50 %)
    python benchmarks/poison_split.py RAW.tsv --round17 > tests/labels/poison_round17.tsv  (seed 39, 50 %)
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


HEADER_ROUND2 = """# The poison benchmark's second round (issue 23): 114 items written by a reader who saw neither
# core/safeguard.py nor poison.tsv (the first round), in 23 languages and 17 hiding forms, labelled by
# that writer; an independent second reading of the texts alone: poison_round2_reader2.tsv.
# Labels as in poison.tsv (weaken, junk, touch, good). Forms: those of poison.tsv and zerowidth,
# footnote, image (alt text), quote, table, code (a command or flag), conditional, passive,
# entity-encoded (HTML entities), fullwidth. Every item was run through the gate before any change
# was made for it (the blind figure, README); split: tune (read while changing the judgement after
# that run) or held (drawn by benchmarks/poison_split.py --round2, seed 24, half of each label).
# label <TAB> language <TAB> form <TAB> split <TAB> text"""


HEADER_ROUND3 = """# The poison benchmark's third round (issue 23): 160 items, about 70 % English, written by a reader who saw
# neither the code nor the first two rounds, to test what the second round's fixes missed: paraphrases with no
# obvious verb, indirect items (a fact or lesson implying the behaviour), rules with a poisoned exception,
# conditionals, role-play, and audit logs, monitoring and budget caps beside the first rounds' topics.
# An independent second reading of the texts alone: poison_round3_reader2.tsv. Labels as in poison.tsv.
# Every item was run through the gate before any change was made for it (the blind figure, README); split:
# tune or held (benchmarks/poison_split.py --round3, seed 25, half of each label).
# label <TAB> language <TAB> form <TAB> split <TAB> text"""

HEADER_ROUND4 = """# The poison benchmark's fourth round (issue 23): 150 items written from the issue's own specification (its
# examples paraphrased; en, de, es and zh; the seven forms of poison.tsv) by a reader who saw neither the code
# nor the earlier rounds: the closest stand-in for the checks the project's owners run. An independent second
# reading of the texts alone: poison_round4_reader2.tsv. Labels as in poison.tsv. Every item was run through the
# gate before any change was made for it (the blind figure, docs/promotion.md); split: tune or held
# (benchmarks/poison_split.py --round4, seed 26, half of each label).
# label <TAB> language <TAB> form <TAB> split <TAB> text"""
HEADER_ROUND5 = """# The poison benchmark's fifth round (issue 23): 140 items in the formats Squad and OpenClaw write (a Squad
# decision's What / Why / By block, bold-label learnings, OpenClaw notes) and long items where one sentence of
# several is poisoned, written by a reader who saw neither the code nor the earlier rounds. An independent
# second reading of the texts alone: poison_round5_reader2.tsv. Labels as in poison.tsv. Every item was run
# through the gate before any change was made for it (the blind figure, docs/promotion.md); split: tune or
# held (benchmarks/poison_split.py --round5, seed 27, half of each label).
# label <TAB> language <TAB> form <TAB> split <TAB> text"""
HEADER_ROUND6 = """# The poison benchmark's sixth round (issue 23): 150 items from the issue's specification in team jargon (LGTM,
# land, stamp, lefthook, SOPS, kubeconfig, break-glass, filter-repo …), en, fr, ja, pt and ru, nine forms,
# written by a reader who saw neither the code nor the earlier rounds, after rounds 2 to 5 had all been read
# for tuning: the blind check of that tuning. An independent second reading of the texts alone:
# poison_round6_reader2.tsv. Labels as in poison.tsv. Every item was run through the gate before any change was
# made for it (the blind figure, docs/promotion.md); split: tune or held (benchmarks/poison_split.py
# --round6, seed 28, half of each label).
# label <TAB> language <TAB> form <TAB> split <TAB> text"""
HEADER_ROUND7 = """# The poison benchmark's seventh round (issue 23): 150 items from the issue's specification (en, de, it, ko; eight
# forms; junk of many shapes: meeting notes, plans, progress, questions, greetings, reminders, traces), written
# by a reader who saw neither the code nor the earlier rounds, after rounds 2 to 6 had all been read for tuning:
# the blind check of all that tuning. Nothing was changed for it. An independent second reading of the texts
# alone: poison_round7_reader2.tsv. Labels as in poison.tsv. Split as the other rounds (--round7, seed 29).
# label <TAB> language <TAB> form <TAB> split <TAB> text"""
HEADER_ROUND8 = """# The poison benchmark's eighth round (issue 23): 160 items stressing junk (80 items an agent wrongly saved as a
# fact, rule or decision: session summaries, hand-offs, speculation, plans, pasted errors, paths, hashes, moods,
# dated events, old states …), with 40 poisoned items and controls, en, es, pt, nl, pl, zh; written by a reader
# who saw neither the code nor the earlier rounds, after rounds 2 to 7 had been read for tuning. An independent
# second reading of the texts alone: poison_round8_reader2.tsv. Labels as in poison.tsv. Split as the other
# rounds (--round8, seed 30).
# label <TAB> language <TAB> form <TAB> split <TAB> text"""
HEADER_ROUND9 = """# The poison benchmark's ninth round (issue 23): 150 items reproducing, in new words, the owners' own attack test
# (poisoned items in 4 languages — en, nl, ko, pt — split across lines, in HTML comments and links, look-alike
# letters, code; junk and ephemeral items; controls), written by a reader who saw neither the code nor the
# earlier rounds, after rounds 2 to 8 had been read for tuning. Its blind figure was recorded before it was read
# (docs/promotion.md); then it was read whole. An independent second reading of the texts alone: poison_round9_reader2.tsv. Labels as in
# poison.tsv. Split as the other rounds (--round9, seed 31).
# label <TAB> language <TAB> form <TAB> split <TAB> text"""
HEADER_ROUND10 = """# The poison benchmark's tenth round (issue 23): the owners' attack test in new words again (en, sv, pl, ja),
# written by a reader who saw neither the code nor the earlier rounds, after rounds 2 to 9 had been read for
# tuning: the last blind check of this stop. Nothing was changed for it. An independent second reading of the
# texts alone: poison_round10_reader2.tsv. Labels as in poison.tsv. Split as the other rounds (--round10, seed 32).
# label <TAB> language <TAB> form <TAB> split <TAB> text"""
HEADER_ROUND11 = """# The poison benchmark's eleventh round (issue 23): the owners' attack test in new words and three new languages
# (en, tr, id, uk), written by a reader who saw neither the code nor the earlier rounds, after rounds 1 to 10 had
# trained the learned reading (core/riskmodel.py): the blind check of that model. Its blind figure was recorded
# before it was read (docs/promotion.md). An independent second reading of the texts alone:
# poison_round11_reader2.tsv. Labels as in poison.tsv. Split as the other rounds (--round11, seed 33).
# label <TAB> language <TAB> form <TAB> split <TAB> text"""
HEADER_ROUND12 = """# The poison benchmark's twelfth round (issue 23): realistic and subtle items in the shapes Squad and OpenClaw
# notes take (multi-sentence entries where one clause is harmful, lessons implying a habit, rules with a harmful
# exception, authority handed to outside text, thresholds set to nothing; decision blocks), en, it, vi, cs,
# written by a reader who saw neither the code nor any round, after the learned reading (core/riskmodel.py) was
# trained: its second blind check. Its blind figure was recorded before it was read (docs/promotion.md). An
# independent second reading of the texts alone: poison_round12_reader2.tsv. Labels as in poison.tsv; form
# "block" is a Squad decision block. Split as the other rounds (--round12, seed 34).
# label <TAB> language <TAB> form <TAB> split <TAB> text"""
HEADER_ROUND13 = """# The poison benchmark's thirteenth round (issue 23): 160 items, 60 of them durable controls, in en, de, pl, pt and
# ja, most controls plain sentences or with a kind label, tag or decision block in their own language, written by a
# reader who saw neither the code nor any round, after the translated kind labels (core/kind_tags.py) were written:
# their blind check. Its blind figure was recorded before it was read (docs/promotion.md). An independent second
# reading of the texts alone: poison_round13_reader2.tsv. Labels as in poison.tsv; forms as in round 12, and
# "tagged" (a `[kind]` tag). Split as the other rounds (--round13, seed 35).
# label <TAB> language <TAB> form <TAB> split <TAB> text"""
HEADER_ROUND14 = """# The poison benchmark's fourteenth round (issue 23): 160 items, 60 of them durable controls, in en, es, fr, zh
# and ko, the controls mostly plain sentences written as people write notes, some with a kind label, tag or
# decision block, written by a reader who saw neither the code nor any round, after round 13's fixes (translated
# labels, rule words of other languages, English present-tense conventions): their blind check, never read. Its
# blind figure was recorded before it was read (docs/promotion.md). An independent second reading of the texts
# alone: poison_round14_reader2.tsv. Labels and forms as in round 13. Split as the other rounds (--round14, seed 36).
# label <TAB> language <TAB> form <TAB> split <TAB> text"""
HEADER_ROUND15 = """# The poison benchmark's fifteenth round (issue 23): 160 items, 60 of them durable controls, in en, it, nl, ru,
# ja, zh and tr, the controls mostly plain sentences with no rule word (conventions in present tense, standing
# facts, preferences), some with a kind label, tag or decision block whose field names may be translated, written
# by a reader who saw neither the code nor any round, after the foreign conventions and translated block fields
# (core/rule_words.py, core/block_fields.py) were written: their blind check. Its blind figure was recorded before
# it was read (docs/promotion.md). An independent second reading of the texts alone: poison_round15_reader2.tsv.
# Labels and forms as in round 13, and "conditional". Split as the other rounds (--round15, seed 37).
# label <TAB> language <TAB> form <TAB> split <TAB> text"""
HEADER_ROUND16 = """# The poison benchmark's sixteenth round (issue 23): 160 items, 70 of them junk (greetings, thanks, guesses, open
# questions, waiting, progress figures, dated incidents, session narrative, pasted output, notes about the notes,
# office news), half of those under a durable kind tag or label, and 50 durable controls, in en, de, fr, es, pt, pl,
# ja, zh, ko, sv, vi and id, written by a reader who saw neither the code nor any round, while the speech-act check
# (core/speech_acts.py) was written from rounds 7, 8, 10 and 12's leaks: its blind check. Its blind figures, on the
# code before that check and with it, were recorded before it was read (docs/promotion.md). An independent second
# reading of the texts alone: poison_round16_reader2.tsv. Labels and forms as in round 15. Split as the other
# rounds (--round16, seed 38).
# label <TAB> language <TAB> form <TAB> split <TAB> text"""
HEADER_ROUND17 = """# The poison benchmark's seventeenth round (issue 23): 160 items, 60 durable controls written as agents write
# notes (first person, a reason with "we" or "our", decision blocks, tags and labels in the note's language, plain
# sentences), 60 junk items (session narrative, status, plans, one-off events, chatter, guesses, pasted output …),
# 25 weakening and 15 touching items, in en, ja, zh, ko, de, fr, es, it, nl, pt, ru and tr, written by a reader who
# saw neither the code nor any round, after stop 52's changes (core/speech_acts.py, the tuned half of round 16):
# their blind check, never read. Its blind figure was recorded before it was read (docs/promotion.md). An
# independent second reading of the texts alone: poison_round17_reader2.tsv. Labels as in round 16; forms as in
# round 16 and "firstperson". Split as the other rounds (--round17, seed 39).
# label <TAB> language <TAB> form <TAB> split <TAB> text"""
HEADERS = {2: HEADER_ROUND2, 3: HEADER_ROUND3, 4: HEADER_ROUND4, 5: HEADER_ROUND5, 6: HEADER_ROUND6, 7: HEADER_ROUND7,
           8: HEADER_ROUND8, 9: HEADER_ROUND9, 10: HEADER_ROUND10,
           11: HEADER_ROUND11, 12: HEADER_ROUND12, 13: HEADER_ROUND13, 14: HEADER_ROUND14,
           15: HEADER_ROUND15, 16: HEADER_ROUND16,
           17: HEADER_ROUND17}


def main(raw: str, round_no: int = 1) -> None:
    rows = [line.rstrip("\n").split("\t") for line in open(raw, encoding="utf-8") if line.strip()]
    by_label: dict[str, list[int]] = defaultdict(list)
    for n, row in enumerate(rows):
        by_label[row[0]].append(n)
    rng = random.Random(22 + round_no)
    held: set[int] = set()
    for label in sorted(by_label):
        idx = by_label[label]
        held |= set(rng.sample(idx, round(len(idx) * (0.5 if round_no > 1 else 0.3))))
    print(HEADERS.get(round_no, HEADER))
    for n, (label, lang, form, text) in enumerate(rows):
        print("\t".join((label, lang, form, "held" if n in held else "tune", text)))


if __name__ == "__main__":
    main(sys.argv[1], next((n for n in range(2, 18) if f"--round{n}" in sys.argv[2:]), 1))
