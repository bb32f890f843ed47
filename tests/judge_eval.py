"""Scoring the text judgement on the labelled sets (tests/labels/kinds_*.tsv, candidates_*.tsv),
through the same code paths the commands use: `session end`'s compaction, `transcript compact`'s
verbatim blocks, and the promotion gate on a candidate built the way `promote` builds it.
Shared by tests/core/test_judge_labelled.py and benchmarks/bench_judge.py.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path

import labelled

from tiergit.core import candidate, dreams, kinds, parse
from tiergit.core.config import DEFAULT_WEIGHTS, GateSettings
from tiergit.features import compact, transcript
from tiergit.features.promotion import gate, scoring

KEEP = {"decision", "rule", "fact", "correction", "permission", "error", "open"}
PROMOTABLE = {"decision", "rule", "fact", "correction"}
TODAY = date(2026, 6, 1)


@dataclass
class Line:
    set: str        # "corpus" or "written"
    split: str      # "tune" or "held"
    kind: str
    text: str
    ref: str


@dataclass
class Cand:
    set: str
    split: str
    promote: bool
    reason: str
    raw: str
    ref: str
    staged: bool = True


def _item(corpus: Path, rel: str, line: int, sha: str) -> str:
    """The referenced line and the indented sub-items under it (Dreaming's metadata)."""
    first = labelled.corpus_line(corpus, rel, line, sha)
    lines = labelled._LINES[corpus / rel]
    out = [first]
    for nxt in lines[line:]:
        if nxt.startswith(("  ", "\t")) and nxt.strip().startswith("-"):
            out.append(nxt)
        else:
            break
    return "\n".join(out)


def memory_lines(corpus: Path | None) -> list[Line]:
    out = [Line("written", split, kind, text.replace("\\n", "\n"), f"written:{n}")
           for n, (kind, split, text) in enumerate(labelled.rows("kinds_written.tsv"))]
    if corpus is not None and corpus.is_dir():
        out += [Line("corpus", split, kind, labelled.corpus_line(corpus, rel, int(n), sha), f"{rel}:{n}")
                for kind, split, rel, n, sha in labelled.rows("kinds_corpus.tsv")]
    return out


def candidate_lines(corpus: Path | None) -> list[Cand]:
    out = [Cand("written", split, verdict == "promote", reason, labelled.fill(text.replace("\\n", "\n"), n),
                f"written:{n}") for n, (verdict, reason, split, text) in enumerate(labelled.rows("candidates_written.tsv"))]
    if corpus is not None and corpus.is_dir():
        out += [Cand("dreams", split, verdict == "promote", reason, _item(corpus, rel, int(n), sha), f"{rel}:{n}")
                for verdict, reason, split, rel, n, sha in labelled.rows("candidates_corpus.tsv")]
    # Every labelled memory line is also a cold-tier candidate: durable kinds should graduate.
    out += [Cand(f"{line.set}-cold", line.split, line.kind in PROMOTABLE, line.kind, line.text, line.ref, staged=False)
            for line in memory_lines(corpus)]
    return out


def kept_by_session_end(texts: list[str]) -> list[bool]:
    """Which lines `session end`'s compaction keeps verbatim, each line its own block of the notes."""
    body = "".join(f"{t}\n\n" for t in texts)
    doc = parse.parse("# Hot\n\n## Notes\n\n" + body)
    out = compact.compact_doc(doc, set())
    kept = "\n".join(out.kept)
    return [bool(t.strip()) and t.strip() in kept for t in texts]


def kept_by_transcript(text: str) -> bool:
    return bool(transcript._verbatim([text]))


def gate_verdict(c: Cand) -> gate.GateVerdict:
    """The gate's verdict with the score, recall and age signals satisfied, so the content rules decide
    (the issue's "lowered score gate")."""
    raw = c.raw if c.staged or kinds.LIST_MARKER_RE.match(c.raw) else c.raw
    text = candidate.clean(raw)
    kind = kinds.classify(raw)
    dreamed, evidence = "", []
    if c.staged:
        text, kind, dreamed, evidence = dreams.read_dreamed(raw, text, kind, GateSettings().min_confidence)
    cand = candidate.Candidate(
        id=parse.item_id(raw)[0], text=text, raw=raw, kind=kind, source="x.md", line=1, entry=None,
        age_day=TODAY - timedelta(days=60), target_tier="wiki", topic="notes", staged=c.staged,
        key_hash=candidate.hash_of_key(candidate.norm_key(text)), dreamed=dreamed, evidence=evidence)
    sc = scoring.Score(total=1.0, signals={s: 1.0 for s in scoring.SIGNALS}, weights=DEFAULT_WEIGHTS)
    ctx = gate.Context(settings=GateSettings(), today=TODAY, review=gate.ReviewState(), wiki_ids={})
    return gate.evaluate(cand, sc, 5, ctx)


def ratio(a: int, b: int) -> float:
    return a / b if b else float("nan")


def memory_metrics(lines: list[Line]) -> dict:
    kept = kept_by_session_end([ln.text for ln in lines])
    durable = [k for ln, k in zip(lines, kept) if ln.kind in KEEP]
    chatter = [k for ln, k in zip(lines, kept) if ln.kind in ("chatter", "junk")]
    trans = [kept_by_transcript(ln.text) for ln in lines if ln.kind in KEEP]
    return {"lines": len(lines), "durable": len(durable), "durable_recall": ratio(sum(durable), len(durable)),
            "transcript_recall": ratio(sum(trans), len(trans)),
            "chatter": len(chatter), "chatter_dropped": ratio(len(chatter) - sum(chatter), len(chatter)),
            "missed": [ln for ln, k in zip(lines, kept) if ln.kind in KEEP and not k],
            "chatter_kept": [ln for ln, k in zip(lines, kept) if ln.kind in ("chatter", "junk") and k]}


def gate_metrics(cands: list[Cand]) -> dict:
    verdicts = [gate_verdict(c) for c in cands]
    promoted = [c for c, v in zip(cands, verdicts) if v.accepted]
    good = [c for c in cands if c.promote]
    true_pos = sum(1 for c in promoted if c.promote)
    return {"candidates": len(cands), "good": len(good), "promoted": len(promoted),
            "precision": ratio(true_pos, len(promoted)), "recall": ratio(true_pos, len(good)),
            "bad_promoted": [(c, v.reason) for c, v in zip(cands, verdicts) if v.accepted and not c.promote],
            "good_rejected": [(c, v.reason) for c, v in zip(cands, verdicts) if c.promote and not v.accepted]}


def ceiling(lines: list[Line], share: float = 0.15, encoding: str = "cl100k_base") -> dict:
    """What the token budget allows at best: the labelled durable lines' share of the labelled lines'
    tokens, the share a 0.95 recall would keep, and the recall of a perfect judge that keeps the
    shortest durable lines first until `share` of the lines' tokens is spent."""
    from tiergit.shell.tokens import count_text
    costs = [(count_text(ln.text, encoding).tokens, ln.kind in KEEP) for ln in lines]
    total = sum(c for c, _ in costs)
    durable = sorted(c for c, d in costs if d)
    spent = kept = 0
    for cost in durable:
        if spent + cost > share * total:
            break
        spent += cost
        kept += 1
    need = sum(durable[: -(-95 * len(durable) // 100)])   # the cheapest 95 %
    return {"durable_share": ratio(sum(durable), total), "share_for_095": ratio(need, total),
            "best_recall": ratio(kept, len(durable)), "budget": share}
