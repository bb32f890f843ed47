"""`audit`: dead context in durable and warm tiers, proposed for the archive with a reason.

Also the week's recurring themes (tags and terms across entries) for the PR body.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from datetime import date, timedelta

from rapidfuzz import fuzz

from tiergit.core import parse, rawtext
from tiergit.core.candidate import TAG_RE, content_words
from tiergit.core.cuts import Cut, cut_lines
from tiergit.errors import TiergitError
from tiergit.features.plan import Plan
from tiergit.features.promotion import audit_stale
from tiergit.features.retention import add_to_archive, flush_archive

DONE_RE = re.compile(r"^\s*[-*+]\s+\[[xX]\]\s")
RESOLVED_NOTE_RE = re.compile(r"(?i)\b(?:resolved|closed|fixed in|no longer (?:needed|an issue|applies|happens)|"
                         r"obsolete|deprecated|superseded)\b")
STALE_DAYS = 180
SUBJECT_RATIO = 90


@dataclass(frozen=True)
class AuditFinding:
    path: str
    line: int
    end: int
    day: date
    reason: str
    text: str
    heading: str | None = None

    def as_dict(self) -> dict:
        return {"path": self.path, "line": self.line, "reason": self.reason, "text": self.text[:200]}


def _subject(heading: str) -> str:
    return " ".join(content_words(parse.DATE_RE.sub("", heading)))


def findings_in(doc: parse.MemoryDoc, rel: str, today: date, stale_days: int) -> list[AuditFinding]:
    """Pure: the dead context of one parsed file."""
    out: list[AuditFinding] = []
    entries = doc.entries
    superseded: set[int] = set()
    for i, sec in enumerate(entries):
        subj = _subject(sec.heading or "")
        if len(subj.split()) < 2:
            continue
        for newer in entries:
            if newer is sec or newer.date is None or sec.date is None or newer.date <= sec.date:
                continue
            if fuzz.token_sort_ratio(subj, _subject(newer.heading or "")) >= SUBJECT_RATIO:
                out.append(AuditFinding(rel, sec.line, sec.end_line, sec.date,
                                   f"superseded by the newer entry \"{newer.heading}\" (line {newer.line})",
                                   sec.heading or "", None))
                superseded.add(id(sec))
                break
    for sec in doc.sections:
        if id(sec) in superseded:
            continue
        for item in sec.items:
            day = item.date or sec.date or today
            text = item.clean
            reason = None
            if DONE_RE.match(item.text):
                reason = "completed task (- [x])"
            elif item.kind == "log":
                reason = "raw log / transcript line in a durable tier"
            elif RESOLVED_NOTE_RE.search(text) and item.kind not in ("decision", "correction"):
                reason = f"resolved issue (\"{RESOLVED_NOTE_RE.search(text)[0]}\")"  # type: ignore[index]
            elif item.date and item.kind in ("fact", "context") and (today - item.date).days > stale_days:
                reason = f"stale dated fact ({item.date.isoformat()}, {(today - item.date).days} days old)"
            if reason:
                out.append(AuditFinding(rel, item.line, item.end_line, day, reason, text, sec.heading))
    return sorted(out, key=lambda f: (f.path, f.line))


def _with_repo(found: list[AuditFinding], doc: parse.MemoryDoc, rel: str, today: date,
               against_repo: dict[int, str]) -> list[AuditFinding]:
    """`found` plus the items the repository made stale or a newer item superseded."""
    if not against_repo:
        return found
    def covered(line: int) -> bool:     # already inside a finding (an item, or a whole superseded entry)
        return any(f.line <= line <= f.end for f in found)

    extra = [AuditFinding(rel, item.line, item.end_line, item.date or sec.date or today, against_repo[item.line],
                          item.clean, sec.heading)
             for sec in doc.sections for item in sec.items if item.line in against_repo and not covered(item.line)]
    return sorted(found + extra, key=lambda f: (f.path, f.line))


def audited_tiers(store) -> list[str]:
    """Durable tiers (reviewed, or `durable: true` like openclaw warm)."""
    return [n for n, t in store.config.tiers.items() if t.durable or t.reviewed]


def _over_budget(store, rel: str, text: str, doc: parse.MemoryDoc, found: list[AuditFinding],
                 today: date, recalls: dict[str, int]) -> list[AuditFinding]:
    """A reviewed tier over budget: `found` plus the oldest items that bring it under warn
    (`prune.fit_cuts`); dead findings inside a chosen entry go with that entry."""
    from tiergit.features.promotion import prune
    from tiergit.shell import git

    tier = store.config.tier_for(rel)[0]
    if not (tier.reviewed and tier.budget):
        return found
    extra = prune.fit_cuts(doc, text, tier, store.config.tokenizer, [(f.line, f.end) for f in found],
                           lambda: git.blame_dates(store.repo, rel), today, recalls)
    covered = {n for s, e, *_ in extra for n in range(s, e + 1)}
    kept = [f for f in found if f.line not in covered]
    lines = [ln.rstrip("\r\n") for ln in rawtext.split_lines(text)]
    return sorted(kept + [AuditFinding(rel, s, e, day, reason, lines[s - 1].strip(), heading)
                          for s, e, day, reason, heading in extra], key=lambda f: f.line)


def recall_counts(store) -> dict[str, int]:
    """Item id -> times recalled (`logs/recalls.jsonl`): a never-recalled item is the deadest."""
    from collections import Counter

    from tiergit.shell import logs

    return dict(Counter(ev["id"] for ev in logs.read(store, logs.RECALLS) if isinstance(ev.get("id"), str)))


def plan_audit(store, today: date) -> tuple[list[AuditFinding], Plan, list[dict]]:
    """Findings, the plan moving them to the archive, and the `prune-proposed` review events
    for cuts from reviewed tiers (logged on --apply, settled by `review sync`)."""
    from tiergit.features.promotion.prune import prune_events

    cfg = store.config
    stale_days = cfg.gate.stale_days
    tiers = set(audited_tiers(store))
    findings: list[AuditFinding] = []
    events: list[dict] = []
    recalls: dict[str, int] | None = None   # read once, only if a durable file is audited
    plan = Plan("tiergit audit")
    pending: dict[str, str] = {}
    repo_found = audit_stale.collect(store, sorted(tiers))
    for rel in store.memory_files():
        if cfg.tier_for(rel)[0].name not in tiers:  # type: ignore[index]
            continue
        try:
            text = rawtext.decode(store.read_bytes(rel), rel, cfg.limits["max_file_bytes"])
            doc = parse.parse(text, rel, cfg.labels)
        except TiergitError as exc:
            plan.notes.append(f"skipped {rel}: {exc.message}")
            continue
        if recalls is None:
            recalls = recall_counts(store)
        against_repo, rewrites = repo_found.for_file(rel)
        found = _over_budget(store, rel, text, doc, _with_repo(findings_in(doc, rel, today, stale_days), doc, rel,
                                                                today, against_repo), today, recalls)
        if not found and not rewrites:
            continue
        if rewrites:
            findings += [AuditFinding(rel, line, line, today, why, new) for line, (new, why) in sorted(rewrites.items())]
            original, text = text, audit_stale.rewritten(text, rewrites)
            if not found:
                plan.add(rel, text, original, reason=f"{len(rewrites)} renamed path(s) rewritten")
                continue
        findings += found
        if cfg.tier_for(rel)[0].reviewed:  # type: ignore[index]
            events += prune_events(doc, rel, [(f.line, f.end) for f in found])
        cuts = [Cut(f.line, f.end, f.day, f.reason, f.heading) for f in found]
        add_to_archive(plan, store, pending, rel, text, cuts)
        plan.add(rel, cut_lines(text, [(c.start, c.end) for c in cuts]), original if rewrites else text,
                 reason=f"{len(found)} item(s) to the archive (dead, stale, superseded, or oldest of a file "
                        "over budget)")
    flush_archive(plan, store, pending)
    return findings, plan, events


def themes(store, today: date, days: int = 7, top: int = 8) -> list[tuple[str, int]]:
    """Tags and terms that recur across entries (and daily notes) of the last `days` days."""
    since = today - timedelta(days=days)
    tag_count: Counter[str] = Counter()
    term_count: Counter[str] = Counter()
    for rel in store.memory_files():
        try:
            text = rawtext.decode(store.read_bytes(rel), rel, store.config.limits["max_file_bytes"])
            doc = parse.parse(text, rel, store.config.labels, with_items=False)
        except TiergitError:
            continue
        file_day = parse.heading_date(rel.rsplit("/", 1)[-1])
        for sec in doc.sections:
            day = sec.date or file_day
            if day is None or day < since or day > today:
                continue
            tag_count.update({f"#{t.lower()}" for t in TAG_RE.findall(sec.text)})
            term_count.update({w for w in content_words(sec.text) if len(w) >= 5 and not w.isdigit()})
    ranked = [(k, n) for k, n in tag_count.items() if n >= 2] + [(k, n) for k, n in term_count.items() if n >= 2]
    ranked.sort(key=lambda kv: (-kv[1], not kv[0].startswith("#"), kv[0]))
    return ranked[:top]


def run(store, do_apply: bool) -> tuple[list[AuditFinding], Plan, list[dict], list[str], date]:
    """`audit` as of tiergit's clock: planned and applied under one lock (two audits at once would
    archive the same cut twice); on --apply the cut's review events are logged. Returns the
    findings, the plan, the events, the paths written and the day used."""
    from tiergit.features.plan import locked
    from tiergit.shell import clock, logs

    today = clock.today()
    with locked(store.repo, do_apply):
        findings, plan, events = plan_audit(store, today)
        written = plan.apply(store.repo) if do_apply else []
        if do_apply:
            logs.append(store, logs.REVIEWS, events)
    return findings, plan, events, written, today
