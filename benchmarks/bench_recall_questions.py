"""Recall on natural questions: top-1 / top-3 over a hand-written question set, before and after.

Run: .venv/bin/python benchmarks/bench_recall_questions.py [--show]

The set (benchmarks/data/recall_questions.json) holds questions written for
tiergit; each answer is a corpus line by reference (project, path, line, sha256
of the line text), read from the corpus at run time and checked against its
hash. Each project is imported into a fresh store (`tiergit import squad
--apply`: cold, archive and staging). A question is answered at k when one of
the first k hits holds the answer line (letters and digits compared, markup
ignored). "before" is the engine as it was (every query word OR-ed, exact
tokens, bm25 x coverage); "after" is tiergit.features.recall.search (stop words out,
stems, identifier parts, the last word as a prefix). Rows per project, overall, then per set
(the file's "about" says how each set was written; --questions reads another file).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import math
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT))
CORPUS = Path(__import__("os").environ.get("TIERGIT_CORPUS", PROJECT.parent / "shared" / "corpus"))
if not CORPUS.is_dir():
    CORPUS = Path("/work/shared/corpus")

from tiergit.features import recall, recall_index  # noqa: E402
from tiergit.shell.store import Store  # noqa: E402

QUESTIONS = PROJECT / "benchmarks" / "data" / "recall_questions.json"


def letters(text: str) -> str:
    return re.sub(r"\W+", "", text.lower())


def answer_key(q: dict) -> str:
    a = q["answer"]
    line = (CORPUS / q["project"] / a["path"]).read_text(encoding="utf-8").splitlines()[a["line"] - 1].rstrip("\r")
    if hashlib.sha256(line.encode()).hexdigest() != a["sha256"]:
        raise SystemExit(f"{q['project']}/{a['path']}:{a['line']}: the corpus line changed (hash differs)")
    return letters(re.sub(r"^\s*[-*]\s+", "", line))[:80]


def legacy_search(db, query: str, tiers: list[str], limit: int) -> list[str]:
    """The engine before this change, kept here to measure against: raw texts, best first."""
    words = list(dict.fromkeys(w.lower() for w in re.findall(r"\w+", query) if w.strip("_")))
    match = " OR ".join('"' + w.replace('"', '""') + '"' for w in words)
    rows = db.execute(f"SELECT item_id, text, clean, entry, bm25(items, 1.0, 0.5) FROM items WHERE items MATCH ? "
                      f"AND tier IN ({','.join('?' * len(tiers))}) ORDER BY 5 LIMIT ?",
                      [match, *tiers, max(limit * 4, limit + 20)]).fetchall()
    n = db.execute("SELECT count(*) FROM items").fetchone()[0] or 1
    df = dict(db.execute(f"SELECT term, doc FROM vocab WHERE term IN ({','.join('?' * len(words))})", words))
    idf = {w: math.log((n - df.get(w, 0) + 0.5) / (df.get(w, 0) + 0.5) + 1.0) for w in words}
    total = sum(idf.values()) or 1.0
    best: dict[str, tuple[float, str]] = {}
    for item_id, text, clean, entry, r in rows:
        if item_id not in best:
            present = {w.lower() for w in re.findall(r"\w+", clean + " " + (entry or ""))}
            score = sum(v for w, v in idf.items() if w in present) / total
            best[item_id] = (-r * (0.5 + score), text)
    return [t for _k, t in sorted(best.values(), key=lambda kt: -kt[0])[:limit]]


def store_for(project: str, base: Path) -> Store:
    repo = base / project
    shutil.copytree(CORPUS / project / ".squad", repo / ".squad")
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    subprocess.run([sys.executable, "-m", "tiergit", "--repo", str(repo), "init", "--preset", "squad", "--no-install"],
                   check=True, stdout=subprocess.DEVNULL)
    cfg = repo / ".tiergit.yml"     # what the hint says for a project with an 856 KB decisions.md
    cfg.write_text(cfg.read_text() + "limits: {max_file_bytes: 4194304}\n")
    subprocess.run([sys.executable, "-m", "tiergit", "--repo", str(repo), "import", "squad", "--apply"], check=True,
                   stdout=subprocess.DEVNULL)
    return Store.open(repo)


def rank_of(key: str, texts: list[str]) -> int | None:
    return next((n for n, t in enumerate(texts, 1) if key in letters(t)), None)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--show", action="store_true", help="print each question with its ranks")
    ap.add_argument("--questions", type=Path, default=QUESTIONS, help="another question file of the same form")
    args = ap.parse_args()
    data = json.loads(args.questions.read_text())["questions"]
    rows, sets = {}, {}
    with tempfile.TemporaryDirectory() as tmp:
        for project in dict.fromkeys(q["project"] for q in data):
            store = store_for(project, Path(tmp))
            db = recall_index.connect(recall_index.index_path(store.repo))
            recall_index.refresh(store, db)
            tiers = recall.default_tiers(store.config)
            for q in (q for q in data if q["project"] == project):
                key = answer_key(q)
                before = rank_of(key, legacy_search(db, q["question"], tiers, 3))
                after = rank_of(key, [h.raw or h.text for h in recall.search(db, q["question"], tiers, limit=3)])
                rows.setdefault(project, []).append((before, after))
                sets.setdefault(q.get("set") or "written", []).append((before, after))
                if args.show:
                    print(f"  {str(before or '-'):>2} -> {str(after or '-'):>2}  {q['question']}")
            db.close()
    print(f"{'project':<28} {'n':>3}  {'top-1 before':>12} {'top-1 after':>11}  {'top-3 before':>12} {'top-3 after':>11}")
    everything = []
    for project, rs in rows.items():
        everything += rs
        print(line(project, rs))
    print(line("overall", everything))
    for name, rs in sets.items():   # per set: 'drawn-2026-12-04' is held out (no change made after it was written)
        print(line(f"set {name}", rs))


def line(name: str, rs: list) -> str:
    def share(i: int, k: int) -> str:
        return f"{sum(1 for r in rs if r[i] is not None and r[i] <= k) / len(rs):.2f}"
    return f"{name:<28} {len(rs):>3}  {share(0, 1):>12} {share(1, 1):>11}  {share(0, 3):>12} {share(1, 3):>11}"


if __name__ == "__main__":
    main()
