"""decisions.md is memory: after `import squad`, are its lines recallable by a few of their words?

For every corpus Squad project with a `.squad/decisions.md`: copy `.squad/` (not replay/) into a
fresh git repo, `tiergit init --preset squad`, `import squad --apply`, commit. Sample 50
lines of decisions.md (seeded by the project's name; a line with at least 5 words that is
not a heading, a table rule or a fence), take 3-4 consecutive words of it (seeded) as the
query, and ask `recall` for the top 5: found when a hit's text holds the whole line's words
in order (whitespace and markdown emphasis ignored). Printed per project: found with
decisions.md as the in-place `decisions` tier (this change), and the baseline measured in
the same run - the hits that do not come from that tier (what reached recall before: the
durable items `import` staged). Target (issue 21 item 5): 50 of 50 on every project.

Usage: python benchmarks/bench_decisions_recall.py [--sample 50] [--only NAME]
"""
from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
CORPUS = Path(os.environ.get("TIERGIT_CORPUS", ROOT.parent / "shared" / "corpus"))

from tiergit.features.recall import recall  # noqa: E402
from tiergit.shell.store import Store  # noqa: E402

SKIP = re.compile(r"^\s*(#|\|?\s*:?-{3,}|```|~~~|<!--|---\s*$)")


def words(text: str) -> list[str]:
    return re.findall(r"[\w./@:+#-]+", text.replace("*", " ").replace("`", " ").lower())


def sample(text: str, seed: str, n: int) -> list[tuple[int, str, str]]:
    """(1-based line, line, query) for up to n seeded lines."""
    lines = text.splitlines()
    pool = [(i + 1, ln) for i, ln in enumerate(lines) if not SKIP.match(ln) and len(words(ln)) >= 5]
    rng = random.Random(seed)
    rng.shuffle(pool)
    out = []
    for no, ln in pool[:n]:
        w = words(ln)
        k = rng.choice((3, 4))
        start = rng.randrange(0, len(w) - k + 1)
        out.append((no, ln, " ".join(w[start:start + k])))
    return out


def holds(hit_text: str, line: str) -> bool:
    return " ".join(words(line)) in " ".join(words(hit_text))


def bench(project: Path, n: int, work: Path) -> tuple[int, int, int]:
    repo = work / project.name
    repo.mkdir()
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=repo, check=True)
    shutil.copytree(project / ".squad", repo / ".squad", ignore=shutil.ignore_patterns("replay"))
    for args in (["init", "--preset", "squad", "--no-install"], ["import", "squad", "--apply"]):
        subprocess.run([sys.executable, "-m", "tiergit", *args], cwd=repo, capture_output=True)
    store = Store.open(repo)
    text = (repo / ".squad/decisions.md").read_bytes().decode("utf-8", "replace")
    picked = sample(text, project.name, n)
    found = base = 0
    for _, line, query in picked:
        hits, _ = recall(store, query, limit=5, log=False)
        found += any(holds(h.raw or h.text, line) for h in hits)
        base += any(holds(h.raw or h.text, line) for h in hits if h.tier != "decisions")
    return len(picked), found, base


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sample", type=int, default=50)
    ap.add_argument("--only", default="")
    a = ap.parse_args()
    projects = sorted(p for p in CORPUS.iterdir() if (p / ".squad" / "decisions.md").is_file()
                      and a.only in p.name)
    print(f"{'project':<34} {'sampled':>7} {'in place (top 5)':>16} {'baseline: staged only':>21}")
    short = 0
    with tempfile.TemporaryDirectory(prefix="tiergit-decisions-") as tmp:
        for project in projects:
            n, found, base = bench(project, a.sample, Path(tmp))
            short += n - found
            print(f"{project.name:<34} {n:>7} {found:>13}/{n:<2} {base:>18}/{n:<2}", flush=True)
    print("OK: every sampled line found" if not short else f"{short} sampled line(s) not in the top 5")
    return 1 if short else 0


if __name__ == "__main__":
    sys.exit(main())
