"""The seeded random sample of real corpus SENTENCES behind tests/labels/sentences_corpus.tsv.

How it is drawn (run `python tests/sentence_sample.py --draw` to redraw the same sample):
- files: per corpus project, the memory a session writes or an import reads: Squad
  `agents/*/history*.md` and `.squad/decisions*.md` (not charters, team, logs, inbox), OpenClaw
  `MEMORY.md` and the daily notes `memory/YYYY-MM-DD*.md` (not Dreaming's reports); no replay/.
- units: every sentence of every non-blank line (`split_sentences` below, which is the label
  loader's own splitter, independent of the judgement's), fences and headings included.
- draw: `random.Random(SEED)` picks PER_PROJECT sentences uniformly from each project's
  sentences of 8-1500 characters, projects in sorted order.
- held out: whole projects (HELD), chosen before drawing; no tuning looks at them.
The readers label each sentence in its line (the line is shown beside it), before the
judgement runs on it. References: path, 1-based line, sha256 of the line, sentence index.
"""
from __future__ import annotations

import hashlib
import random
import re
import sys
from pathlib import Path

SEED = 2121
PER_PROJECT = 12
HELD = frozenset({"martinopedal_azure-analyzer", "PureWeen_helix.mcp", "openclaw_Deepdelver_workspace"})
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9`*\"'(\[])")
DAILY = re.compile(r"^\d{4}-\d{2}-\d{2}")


def split_sentences(line: str) -> list[str]:
    """A line's sentences: cut after . ! ? before a capital, digit, quote, code or bold mark."""
    return [s for s in SENTENCE_END.split(line.strip()) if s.strip()]


def memory_files(project: Path) -> list[Path]:
    out = []
    for path in sorted(project.rglob("*.md")):
        rel = path.relative_to(project).as_posix()
        if rel.startswith("replay/"):
            continue
        squad = (re.search(r"(^|/)\.(?:squad|ai-team)/agents/[^/]+/history[^/]*\.md$", rel)
                 or re.search(r"(^|/)\.(?:squad|ai-team)/decisions[^/]*\.md$", rel))
        claw = rel == "MEMORY.md" or (rel.startswith("memory/") and rel.count("/") == 1
                                      and DAILY.match(path.name))
        if squad or claw:
            out.append(path)
    return out


def draw(corpus: Path) -> list[tuple[str, str, int, str, int, str, str]]:
    """(split, path, line, sha, sentence index, sentence, line) of the first sample; the later ones are
    drawn by `_draw` with ROUNDS' seeds (`--draw-<round>`)."""
    rng = random.Random(SEED)
    out = []
    for project in sorted(p for p in corpus.iterdir() if p.is_dir()):
        pool = []
        for path in memory_files(project):
            lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
            for n, line in enumerate(lines, 1):
                for k, sentence in enumerate(split_sentences(line)):
                    if 8 <= len(sentence) <= 1500:
                        pool.append((path, n, line, k, sentence))
        split = "held" if project.name in HELD else "tune"
        for path, n, line, k, sentence in rng.sample(pool, min(PER_PROJECT, len(pool))):
            sha = hashlib.sha256(line.encode("utf-8")).hexdigest()
            out.append((split, path.relative_to(corpus).as_posix(), n, sha, k, sentence, line))
    return out


# The second sample (round 5, tests/labels/sentences_corpus_new.tsv): every project, all of it held out,
# drawn the same way with its own seed, leaving out the sentences of the first sample.
NEW_SEED = 2612
NEW_PER_PROJECT = 3




def _draw(corpus: Path, taken: set[tuple[str, int, int]], split: str, seed: int,
          per_project: int) -> list[tuple[str, str, int, str, int, str, str]]:
    """`per_project` sentences of 8-1,500 characters from each project's memory files (seeded), none in `taken`."""
    rng = random.Random(seed)
    out = []
    for project in sorted(p for p in corpus.iterdir() if p.is_dir()):
        pool = []
        for path in memory_files(project):
            rel = path.relative_to(corpus).as_posix()
            lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
            for n, line in enumerate(lines, 1):
                for k, sentence in enumerate(split_sentences(line)):
                    if 8 <= len(sentence) <= 1500 and (rel, n, k) not in taken:
                        pool.append((rel, n, line, k, sentence))
        for rel, n, line, k, sentence in rng.sample(pool, min(per_project, len(pool))):
            out.append((split, rel, n, hashlib.sha256(line.encode("utf-8")).hexdigest(), k, sentence, line))
    return out


# The third sample (round 6, tests/labels/sentences_corpus_round6.tsv): every project, all of it held out,
# drawn the same way with its own seed, leaving out the sentences of the first two samples.
ROUND6_SEED = 6021
ROUND6_PER_PROJECT = 4




# The fourth sample (round 7, tests/labels/sentences_corpus_round7.tsv): every project, all of it held out,
# drawn the same way with its own seed and twice round 6's size (its noise share was too small a count to
# tell), leaving out the sentences of the first three samples; labelled by two independent readers.
ROUND7_SEED = 7021
ROUND7_PER_PROJECT = 8




# The fifth sample (round 8, tests/labels/sentences_corpus_round8.tsv): every project, all of it held out,
# drawn the same way with its own seed, 10 a project, leaving out the sentences of the four earlier samples;
# the clean test after round 7 was read (round 7's note), labelled by two independent readers before any
# judgement ran on it.
ROUND8_SEED = 8021
ROUND8_PER_PROJECT = 10

# The sixth sample (round 9, tests/labels/sentences_corpus_round9.tsv): every project, all of it held out,
# drawn the same way with its own seed, 10 a project, leaving out the sentences of the five earlier samples;
# drawn before this round's judgement changes (written from the tuned parts only) and labelled by two
# independent readers before any judgement ran on it.
ROUND9_SEED = 9021
ROUND9_PER_PROJECT = 10

# The seventh sample (round 10, tests/labels/sentences_corpus_round10.tsv): every project, all of it held out,
# drawn the same way with its own seed, 10 a project, leaving out the sentences of the six earlier samples;
# drawn when round 9 was read for tuning (stop 34), labelled by two independent readers before any judgement
# ran on it.
ROUND10_SEED = 10021
ROUND10_PER_PROJECT = 10

# --draw-<round>: (draw function's split, its seed, per project, the label files whose sentences it leaves out)
ROUNDS = {
    "new": (NEW_SEED, NEW_PER_PROJECT, ("sentences_corpus.tsv",)),
    "round6": (ROUND6_SEED, ROUND6_PER_PROJECT, ("sentences_corpus.tsv", "sentences_corpus_new.tsv")),
    "round7": (ROUND7_SEED, ROUND7_PER_PROJECT, ("sentences_corpus.tsv", "sentences_corpus_new.tsv",
                                                  "sentences_corpus_round6.tsv")),
    "round8": (ROUND8_SEED, ROUND8_PER_PROJECT, ("sentences_corpus.tsv", "sentences_corpus_new.tsv",
                                                  "sentences_corpus_round6.tsv", "sentences_corpus_round7.tsv")),
    "round9": (ROUND9_SEED, ROUND9_PER_PROJECT, ("sentences_corpus.tsv", "sentences_corpus_new.tsv",
                                                  "sentences_corpus_round6.tsv", "sentences_corpus_round7.tsv",
                                                  "sentences_corpus_round8.tsv")),
    "round10": (ROUND10_SEED, ROUND10_PER_PROJECT, ("sentences_corpus.tsv", "sentences_corpus_new.tsv",
                                                    "sentences_corpus_round6.tsv", "sentences_corpus_round7.tsv",
                                                    "sentences_corpus_round8.tsv", "sentences_corpus_round9.tsv")),
}


if __name__ == "__main__":
    corpus = Path(sys.argv[2] if len(sys.argv) > 2 else "/work/shared/corpus")
    flag = sys.argv[1] if len(sys.argv) > 1 else ""
    if flag.startswith("--draw-") and flag[len("--draw-"):] in ROUNDS:
        import labelled
        name = flag[len("--draw-"):]
        seed, per_project, earlier = ROUNDS[name]
        taken = {(r[2], int(r[3]), int(r[5])) for label_file in earlier for r in labelled.rows(label_file)}
        for number, (split, rel, n, sha, k, sentence, line) in enumerate(
                _draw(corpus, taken, name, seed, per_project), 1):
            print(f"{number}\t{rel}\t{n}\t{sha}\t{k}\n  S: {sentence}\n  L: {line[:600]}\n")
        sys.exit(0)
    for split, rel, n, sha, k, sentence, line in draw(corpus):
        print(f"{split}\t{rel}\t{n}\t{sha}\t{k}\n  S: {sentence}\n  L: {line[:600]}\n")
