"""Draw the lines new recall questions are written for: a seeded sample of labelled history lines.

Run: .venv/bin/python benchmarks/draw_recall_sample.py [--per-project N] [--seed S] PROJECT...

Prints, per project, N lines drawn (seeded, the same on every run) from its agents'
history.md files among lines that carry knowledge (a list item or paragraph of at least
80 characters, not a heading): path, 1-based line, sha256 of the line, and the text. A
reader writes one natural question per line, the way an agent would ask it, without
seeing any recall output; the question and the line's reference go to
benchmarks/data/recall_questions.json.
"""
from __future__ import annotations

import argparse
import hashlib
import random
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
CORPUS = PROJECT.parent / "shared" / "corpus"
if not CORPUS.is_dir():
    CORPUS = Path("/work/shared/corpus")


def eligible(project: str) -> list[tuple[str, int, str]]:
    out = []
    for path in sorted((CORPUS / project / ".squad" / "agents").glob("*/history.md")):
        rel = path.relative_to(CORPUS / project).as_posix()
        for n, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            text = line.rstrip("\r")
            if len(text.strip()) >= 80 and not text.lstrip().startswith(("#", "|", ">", "```")):
                out.append((rel, n, text))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("projects", nargs="+")
    ap.add_argument("--per-project", type=int, default=8)
    ap.add_argument("--seed", type=int, default=22)
    args = ap.parse_args()
    for project in args.projects:
        lines = eligible(project)
        for rel, n, text in random.Random(f"{args.seed}:{project}").sample(lines, min(args.per_project, len(lines))):
            print(f"{project}\t{rel}\t{n}\t{hashlib.sha256(text.encode()).hexdigest()}\t{text[:400]}")


if __name__ == "__main__":
    main()
