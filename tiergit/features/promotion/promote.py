"""`promote`: score every candidate, run the gate, and plan the wiki appends.

`build(store)` reads the tree and the logs once and returns a `Promotion` (rows with
score, breakdown and verdict, plus the Plan of file changes); `apply` is the only
writer. Output is sorted by (verdict, score, id), so it is identical across runs.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date
from pathlib import PurePosixPath
from typing import Any

from tiergit.core import lazylist, textlang, topics
from tiergit.core.candidate import (Candidate, Corpus, mention_count, mention_days, sentence_candidate,
                                    settle_mentions)
from tiergit.core.patterns import MANAGED_BEGIN, MANAGED_END, splice_managed
from tiergit.core.prtext import wiki_text
from tiergit.features.plan import Plan
from tiergit.features import staleness
from tiergit.features.promotion import openclaw_format, recall_store
from tiergit.features.promotion.candidates import gather, target_path
from tiergit.features.promotion.wiki_append import append_to_topic
from tiergit.features.promotion.gate import Context, GateVerdict, ReviewState, evaluate
from tiergit.features.promotion.scoring import Score, concepts, read_events, recall_stats, score, section_events
from tiergit.shell import clock, logs
from tiergit.shell.gcpause import gc_paused
from tiergit.shell.verdict_memo import VerdictMemo

SETTLED = ("review", "in-wiki")        # verdicts about items already handled: hidden unless asked
UNJUDGED = GateVerdict(False, "not judged yet", "unjudged")   # a scored row's verdict until the gate runs


@dataclass(slots=True)
class Row:
    cand: Candidate
    score: Score
    recalls: int
    mentions: int
    verdict: GateVerdict
    target: str
    also: list[str] | None = None    # near-duplicates folded into this row ("also in …"), when there are
    folded: bool = False                             # a near-duplicate of an accepted row: shown there

    @property
    def settled(self) -> bool:
        return self.verdict.failed in SETTLED

    def as_dict(self) -> dict[str, Any]:
        c = self.cand
        return {"id": c.id, "text": c.text, "kind": c.kind, "source": f"{c.source}:{c.line}", "entry": c.entry,
                "age_day": c.age_day.isoformat() if c.age_day else None, "topic": c.topic, "target": self.target,
                "forced": c.forced, "staged": c.staged, "recalls": self.recalls, "mentions": self.mentions,
                "score": round(self.score.total, 4),
                "signals": {k: round(v, 4) for k, v in self.score.signals.items()},
                "verdict": "promote" if self.verdict.accepted else "reject",
                "failed": self.verdict.failed, "reason": self.verdict.reason, "safeguard": self.verdict.safeguard}


@dataclass
class Promotion:
    today: date
    settings: dict[str, Any]
    rows: list[Row]
    plan: Plan
    events: list[dict[str, Any]] = field(default_factory=list)

    @property
    def accepted(self) -> list[Row]:
        return [r for r in self.rows if r.verdict.accepted]

    @property
    def rejected(self) -> list[Row]:
        return [r for r in self.rows if not r.verdict.accepted]

    def as_dict(self, lazy: bool = False) -> dict[str, Any]:   # lazy: for JSON output only (core/lazylist.py)
        rows = lazylist.LazyList(self.rows, Row.as_dict) if lazy else [r.as_dict() for r in self.rows]
        return {"today": self.today.isoformat(), "gate": self.settings.as_dict(), "promote": len(self.accepted),
                "reject": len(self.rejected), "candidates": rows, "plan": self.plan.as_dict()}


def _clean(c: Candidate) -> str:
    """The item's text without metadata, its kind label and any `tiergit:forced` marker."""
    return wiki_text(c.text, c.kind)


def wiki_line(c: Candidate, sc: Score, today: date) -> str:
    """The clean, one-line form an item takes in the wiki: kind, text, provenance, block id."""
    text = _clean(c)
    how = "proposed by an agent" if c.forced else f"Dreaming {c.dreamed}" if c.dreamed else f"score {sc.total:.2f}"
    evidence = f", evidence {' '.join(c.evidence)}" if c.evidence else ""
    part = f" (sentence {c.sentence} of {c.item_id})" if c.sentence else ""
    return (f"- [{c.kind}] {text} <!-- tiergit: from {c.source}:{c.line}{part}, {how}{evidence}, {today.isoformat()} -->"
            f" ^{c.id}")


def _mentions(c: Candidate, corpus: Corpus) -> tuple[int, set[date]]:
    # the log is settled (`_score_all`); an item's own section mentions it once
    by_text = max(0, mention_count(corpus, c.key_hash) - 1) if c.key_hash else 0
    by_id = max(0, mention_count(corpus, c.id) - (1 if c.id in c.raw else 0))
    days = (mention_days(corpus, c.key_hash) if c.key_hash else set()) | mention_days(corpus, c.id)
    return by_text + by_id, days


@gc_paused
def build(store, today: date | None = None, limit: int | None = None, explain: str | None = None) -> Promotion:
    cfg, today = store.config, today or clock.today()
    settings, weights, half_life = cfg.gate, cfg.scoring.weights, cfg.scoring.recency_half_life_days
    events = read_events(store, logs.RECALLS)
    oc_entries, oc_note = recall_store.read(store)   # OpenClaw's own recalls (its memory_search)
    spans = {path: [(e.start, e.end) for e in es] for path, es in oc_entries.items()}   # what memory_search read
    corpus = gather(store, {ev["id"] for ev in events if type(ev.get("id")) is str}, searched=spans)
    # a recalled several-sentence item's standing sentence is a candidate too (core/standing_sentence.py)
    corpus.candidates += [s for s in map(sentence_candidate, corpus.candidates) if s is not None]
    # a recalled list label counts for the list under it (the section the agent read)
    stats = recall_stats(section_events(events, corpus.under))
    recall_store.merge(stats, corpus.candidates, oc_entries,
                       recall_store.origins(store, corpus.candidates) if oc_entries else None)
    # Subjects, not kind names: an untagged item joins a wiki topic it names, or one its peers share.
    topics.assign(corpus.candidates, {PurePosixPath(path).stem for path in corpus.wiki.places})
    reviews = ReviewState.from_events(read_events(store, logs.REVIEWS))
    ctx = Context(settings=settings, today=today, review=reviews, wiki_ids=corpus.wiki_ids,
                  wiki_index=corpus.wiki,
                  language=textlang.store_language(c.text for c in corpus.candidates))
    ctx.stale, ctx.memo = staleness.stale_candidates(store, corpus.candidates), VerdictMemo.for_store(store)
    corpus.under = {}   # read: let go before the plan's peak (its rows, at the end)
    for c in corpus.candidates:
        if c.staged:
            ctx.staged_index.add(c.mention_key, f"{c.id} ({c.source}:{c.line})")
    rows = _score_all(corpus, stats, today, weights, half_life)
    del corpus, stats   # the mention log and candidate list: scored, let go before the verdicts
    _judge(store, rows, ctx, explain, limit)
    promo = Promotion(today=today, settings=settings, rows=rows, plan=Plan("tiergit promote"))
    if oc_note:
        promo.plan.notes.append(oc_note)
    _plan_writes(store, promo)
    return promo


def _judge(store, rows: list[Row], ctx: Context, explain: str | None, limit: int | None) -> None:
    """Each row's verdict and target, in gate order (forced items first, then by score: the within-run
    duplicate check keeps the best one); then the rows in output order."""
    _sort(rows, lambda r: not r.cand.forced, lambda r: -r.score.total, lambda r: r.cand.id)
    # accepted: id -> its row (a count and a lookup, not a pass over the rows for each one)
    targets, accepted = {}, dict[str, Row]()
    promoted = openclaw_format.promoted_in_store(store)
    for row in rows:
        c = row.cand
        verdict = evaluate(c, row.score, row.recalls, ctx, explain=explain is not None and _selects(explain, c))
        if promoted and openclaw_format.already_promoted(promoted, c.text):
            verdict = GateVerdict(False, "already promoted into MEMORY.md (openclaw-memory-promotion marker)",
                              "in-wiki", verdict.checks)
        row.target = target_path(store, c, targets)
        if verdict.accepted and limit is not None and len(accepted) >= limit:
            verdict = GateVerdict(False, f"over --limit {limit} for this run", "limit", verdict.checks)
        row.verdict = verdict
        if verdict.accepted:
            ctx.accepted_index.add(c.mention_key, f"{c.id} ({c.source}:{c.line})")
            accepted[c.id] = row
        _fold_duplicate(row, accepted)
    ctx.memo.save()
    _sort(rows, lambda r: not r.verdict.accepted, lambda r: r.settled, lambda r: -r.score.total, lambda r: r.cand.id)


def _sort(rows: list[Row], *keys) -> None:
    """The order of one tuple key, by a stable pass per key from the last (no tuple a row: 20 MB at 50k)."""
    for key in reversed(keys):
        rows.sort(key=key)


def _score_all(corpus: Corpus, stats, today: date, weights, half_life) -> list[Row]:
    """A row (candidate, score, recalls, mentions; not judged yet) once per item id. The same item in
    two places: the first (by path, line) speaks for it, except that the copy Dreaming vouched for
    (a `[likely_durable]` tag, a confidence) outranks an untagged copy."""
    rows: list[Row] = []
    seen: set[str] = set()
    settle_mentions(corpus, final=True)   # every name asked below is a candidate's
    for c in sorted(corpus.candidates, key=lambda c: not c.dreamed):
        if c.id in seen:
            continue
        seen.add(c.id)
        st = stats.get(c.item_id if c.sentence else c.id)   # a sentence was read with its item
        n_mentions, days = _mentions(c, corpus)
        sc = score(st, n_mentions, days, concepts(c.raw), today, c.age_day, weights, half_life)
        rows.append(Row(c, sc, st.count if st else 0, n_mentions, UNJUDGED, ""))
    return rows


def _fold_duplicate(row: Row, accepted: dict[str, Row]) -> None:
    """A near-duplicate of an item accepted in this run becomes an "also in" note on that item's row
    (the reason names it first: "near-duplicate of <id> (<path>:<line>), accepted above …", gate._duplicate)."""
    if row.verdict.failed != "duplicate" or "accepted above" not in row.verdict.reason:
        return
    kept = accepted.get(row.verdict.reason.partition("near-duplicate of ")[2].partition(" ")[0])
    if kept is not None:
        kept.also = (kept.also or []) + [f"{row.cand.source}:{row.cand.line}"]
        row.folded = True


def _selects(selector: str, c: Candidate) -> bool:
    s = selector.strip().lower()
    return (c.id == s or (s.startswith("m-") and c.id.startswith(s)) or f"{c.source}:{c.line}" == s
            or (len(s) >= 3 and s in c.text.lower()))


def explain_rows(promo: Promotion, selector: str) -> list[Row]:
    return [r for r in promo.rows if _selects(selector, r.cand)]


def _plan_writes(store, promo: Promotion) -> None:
    cfg = store.config
    by_target: dict[str, list[Row]] = defaultdict(list)
    for r in promo.accepted:
        by_target[r.target].append(r)
    for target in sorted(by_target):
        rows = sorted(by_target[target], key=lambda r: (r.cand.topic, -r.score.total, r.cand.id))
        path = store.repo / target
        old = path.read_text(encoding="utf-8") if path.is_file() else None
        tier_path = cfg.tiers[rows[0].cand.target_tier].path
        fixed = "{topic}" not in tier_path
        if openclaw_format.is_openclaw_memory(tier_path):
            new = openclaw_format.append_rows(old, promo.today, rows)
        else:
            new = old
            for topic in sorted({r.cand.topic for r in rows}):
                lines = [wiki_line(r.cand, r.score, promo.today) for r in rows if r.cand.topic == topic]
                new = append_to_topic(new, topic, lines, fixed)
        promo.plan.add(target, new, old, reason=f"promote {len(rows)} item(s) for review")
        for r in rows:
            ev = {"id": r.cand.id, "action": "proposed", "text": r.cand.text,
                  "topic": r.cand.topic, "source": f"{r.cand.source}:{r.cand.line}",
                  "target": target, "reason": r.verdict.reason}
            # Dreaming's provenance, where the target's format has no room for it (OpenClaw's MEMORY.md).
            if r.cand.dreamed:
                ev["dreamed"] = r.cand.dreamed
            if r.cand.evidence:
                ev["evidence"] = list(r.cand.evidence)
            promo.events.append(ev)
    _plan_staging(store, promo)


def _plan_staging(store, promo: Promotion) -> None:
    """Forced (proposed) items leave the staging file once applied; with a configured staging
    file (openclaw DREAMS.md) tiergit also lists this run's candidates there, in a managed block."""
    applied: dict[str, list[Row]] = defaultdict(list)
    for r in promo.accepted:
        if r.cand.forced:
            applied[r.cand.source].append(r)
    # With nothing to promote the run changes no file: a nightly job then opens no empty PR.
    managed = (store.config.repo_path(store.config.staging)
               if store.config.staging and promo.accepted else None)
    for rel in sorted(set(applied) | ({managed} if managed else set())):
        path = store.repo / rel
        old = path.read_text(encoding="utf-8") if path.is_file() else None
        new = old or ""
        for r in applied.get(rel, []):
            new = new.replace(r.cand.raw.rstrip("\n") + "\n", "", 1)
        if rel == managed:
            new = _managed_block(new, promo)
        if new != (old or ""):
            why = "this run's candidates listed" if rel == managed else "applied proposals leave the staging file"
            promo.plan.add(rel, new, old, reason=why)


def _managed_block(text: str, promo: Promotion) -> str:
    lines = [MANAGED_BEGIN, f"## tiergit candidates ({promo.today.isoformat()})", ""]
    for r in promo.rows:
        if r.settled:
            continue
        mark = "promote" if r.verdict.accepted else "reject"
        lines.append(f"- {mark} `{r.cand.id}` {r.score.total:.2f} {r.cand.text[:80]} ({r.verdict.reason})")
    lines.append(MANAGED_END)
    return splice_managed(text, "\n".join(lines) + "\n")


def apply(store, promo: Promotion) -> list[str]:
    """Wiki lines and their review-log events as one journaled unit (a kill never leaves
    items in the wiki that the log does not know were proposed)."""
    from tiergit.shell.fsutil import store_lock

    with store_lock(store.repo):
        if promo.events:
            logs.plan_append(store, promo.plan, logs.REVIEWS, promo.events)
        return promo.plan.apply(store.repo)


__all__ = ["build", "apply", "explain_rows", "wiki_line", "Promotion", "Row"]
