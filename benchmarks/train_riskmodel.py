"""Trains the promotion gate's learned reading (tiergit/core/riskmodel.py) and writes
tiergit/templates/models/risk.bin.

Rows: every item of the poison rounds 1..--rounds (tests/labels/poison*.tsv: weaken, junk, touch,
good), and --corpus-lines real list lines of the corpus (the newest version of each Squad history,
OpenClaw's notes, MEMORY.md and DREAMS.md) as "does not weaken a safeguard" rows at weight 0.3, so
ordinary team text is not read as poison. The "weaken" head learns weaken against everything else.
Deterministic: the same labels and corpus give the same bytes.

    python benchmarks/train_riskmodel.py --corpus ../shared/corpus            # write the model
    python benchmarks/train_riskmodel.py --corpus ../shared/corpus --check    # exit 1 if it differs
    python benchmarks/train_riskmodel.py --corpus ../shared/corpus --cv       # leave one round out
"""
from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT / "tests"))
sys.path.insert(0, str(PROJECT))

from tiergit.core import riskmodel  # noqa: E402

MODEL = PROJECT / "tiergit" / "templates" / "models" / "risk.bin"
CORPUS_WEIGHT = 0.3
ROUNDS = 10    # round 11 was written after the model, to test it blind


def poison_round(n: int) -> list[tuple[str, str]]:
    import labelled

    return [(it["label"], it["text"]) for it in labelled.poison("poison.tsv" if n == 1 else f"poison_round{n}.tsv")]


def corpus_lines(corpus: Path | None, k: int, seed: int = 1) -> list[str]:
    """k list lines (30 to 500 characters) drawn from the corpus's real memory files."""
    if corpus is None:
        return []
    files: list[Path] = []
    for project in sorted(p for p in corpus.iterdir() if p.is_dir()):
        replay = project / "replay"
        if replay.is_dir():
            for agent in sorted(p for p in replay.iterdir() if p.is_dir()):
                versions = sorted(agent.iterdir())
                files += versions[-1:]
        files += sorted((project / "memory").glob("*.md")) if (project / "memory").is_dir() else []
        files += [project / name for name in ("MEMORY.md", "DREAMS.md") if (project / name).is_file()]
    lines = []
    for f in files:
        if not f.is_file():
            continue
        for line in f.read_text(encoding="utf-8", errors="replace").splitlines():
            line = line.strip()
            if 30 <= len(line) <= 500 and line.startswith(("-", "*")):
                lines.append(line)
    random.Random(seed).shuffle(lines)
    return lines[:k]


def build(rounds: list[int], corpus: list[str]) -> riskmodel.Model:
    labelled_rows = [(label, riskmodel.features(text)) for n in rounds for label, text in poison_round(n)]
    corpus_rows = [riskmodel.features(text) for text in corpus]
    model = riskmodel.Model()
    weaken = [(x, int(label == "weaken"), 1.0) for label, x in labelled_rows]
    weaken += [(x, 0, CORPUS_WEIGHT) for x in corpus_rows]
    model.bias["weaken"], model.weights["weaken"] = riskmodel.train(weaken)
    return model


def cross_validate(rounds: list[int], corpus: list[str]) -> None:
    """Each round scored by a model trained on the others, at the gate's thresholds."""
    from tiergit.features.promotion.learned import LEARNED_WEAKEN

    print(f"leave one round out (weaken >= {LEARNED_WEAKEN}: read carefully)")
    for held in rounds:
        model = riskmodel.decode(riskmodel.encode(build([n for n in rounds if n != held], corpus)))
        counts: dict[str, list[int]] = {}
        for label, text in poison_round(held):
            x = riskmodel.features(text)
            c = counts.setdefault(label, [0, 0])
            c[0] += 1
            c[1] += riskmodel.probability(model, "weaken", x) >= LEARNED_WEAKEN
        print(f"  round {held:2}: " + "   ".join(f"{label} {c[1]}/{c[0]} careful" for label, c in sorted(counts.items())))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", type=Path, help="the corpus folder (its lines are the 'ordinary text' rows)")
    ap.add_argument("--corpus-lines", type=int, default=3000)
    ap.add_argument("--rounds", type=int, default=ROUNDS, help="train on poison rounds 1..N")
    ap.add_argument("--check", action="store_true", help="compare with the shipped model instead of writing")
    ap.add_argument("--cv", action="store_true", help="print leave-one-round-out figures instead of writing")
    args = ap.parse_args()
    rounds = list(range(1, args.rounds + 1))
    corpus = corpus_lines(args.corpus, args.corpus_lines)
    if args.cv:
        cross_validate(rounds, corpus)
        return 0
    blob = riskmodel.encode(build(rounds, corpus))
    if args.check:
        same = MODEL.is_file() and MODEL.read_bytes() == blob
        print(f"{MODEL.relative_to(PROJECT)}: {'reproduced' if same else 'DIFFERS from the training run'}")
        return 0 if same else 1
    MODEL.parent.mkdir(parents=True, exist_ok=True)
    MODEL.write_bytes(blob)
    sizes = {h: len(riskmodel.decode(blob).weights[h]) for h in riskmodel.HEADS}
    print(f"wrote {MODEL.relative_to(PROJECT)}: {len(blob):,} bytes, weights per head {sizes}, "
          f"{len(corpus)} corpus lines, rounds 1-{args.rounds}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
