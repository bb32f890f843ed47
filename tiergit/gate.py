"""The graduation gate: outright rejections, then kind, age, recalls and score.

Every check is a pure function of the candidate and plain context; a verdict is the
first failing check (or acceptance) with a one-line reason.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from typing import Any, Callable

from rapidfuzz import fuzz, process

from tiergit import parse, secrets
from tiergit.candidates import Candidate, content_words
from tiergit.scoring import Score

DEFAULT_GATE = {"min_score": 0.70, "min_recalls": 2, "min_age_days": 30, "duplicate_ratio": 88}

TRANSCRIPT_RE = re.compile(r"(?:^|[\s>*(\-])(User|Assistant|Human|Candidate)\s*\**:\s")
DREAM_META_RE = re.compile(r"(?i)confidence:\s*0(?:\.0+)?\b|status:\s*staged\b|evidence:\s*memory/\.dreams/")
SCORE_META_RE = re.compile(r"(?i)\[\s*(?:score|confidence|recalls?|rank)\s*[=:]\s*[\d.]+[^\]]*\]")
SHELL_RE = re.compile(
    r"^(?:`|\$\s|(?:sudo|git|npm|npx|pnpm|yarn|pip3?|python3?|uv|docker|kubectl|curl|wget|rm|cd|ls|cat|"
    r"make|cargo|go|node|bash|sh|az|gh|chmod|mv|cp|tiergit|openclaw|pwsh)\s)")
INSTRUCTION_RE = re.compile(
    r"(?i)\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+)?(?:of\s+)?(?:the\s+|your\s+)?"
    r"(?:previous|prior|above|earlier|system)\s+(?:instructions?|prompts?|rules|messages|context)"
    r"|\byou are now\b|\bnew system prompt\b|\breveal (?:your|the) (?:system )?prompt\b"
    r"|\bdo not (?:tell|inform) the user\b")
CRON_RE = re.compile(
    r"(?i)\b(?:cron|scheduled (?:job|task)|heartbeat)\b.{0,100}\b(?:deliver\w*|sent|succeeded|failed|"
    r"completed|ran|posted|status)\b|\bdelivery (?:report|status|receipt)\b")
TIME_RE = re.compile(r"(?<![\d.])(?:\d{4}-\d{2}-\d{2}[T ])?(?:[01]?\d|2[0-3]):[0-5]\d(?::[0-5]\d)?(?:Z|\s?UTC|[+-]\d{2}:?\d{2})?(?!\d)")
ONE_OFF_RE = re.compile(r"(?i)\b(?:today|yesterday|tonight|this morning|this afternoon|this evening|"
                        r"just now|right now|earlier today|this session)\b")
RESOLVED_RE = re.compile(r"(?i)\b(?:issue|bug|ticket|incident|outage|problem|pr|#\d+)\b[^.;]{0,80}?\b"
                         r"(?:is |was |now |has been |got )?(?:resolved|closed|fixed|merged)\b")


@dataclass
class Check:
    name: str
    passed: bool
    detail: str


@dataclass
class Verdict:
    accepted: bool
    reason: str
    failed: str | None = None           # name of the first failing check
    checks: list[Check] = field(default_factory=list)


@dataclass
class ReviewState:
    """What the review log says: per id, the last outcome."""
    rejected: dict[str, tuple[str, str]] = field(default_factory=dict)   # id -> (normalized text, day)
    pending: dict[str, str] = field(default_factory=dict)                # id -> day proposed
    accepted: dict[str, str] = field(default_factory=dict)


@dataclass
class Context:
    settings: dict[str, Any]
    today: date
    review: ReviewState
    wiki_ids: dict[str, str]
    wiki_keys: list[str]                    # normalized wiki texts (for fuzzy matching)
    wiki_labels: list[str]                  # "path:line" for each
    accepted_keys: list[str] = field(default_factory=list)
    accepted_labels: list[str] = field(default_factory=list)


def settings_of(gate: dict[str, Any]) -> dict[str, Any]:
    out = dict(DEFAULT_GATE)
    out.update({k: v for k, v in (gate or {}).items() if k in DEFAULT_GATE})
    return out


def _short(text: str, n: int = 50) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


def raw_output(raw: str) -> str | None:
    m = TRANSCRIPT_RE.search(raw)
    if m:
        return f"raw transcript / dreaming output (`{m[1].capitalize()}:`), not distilled knowledge"
    m = DREAM_META_RE.search(raw)
    if m:
        return f"dreaming output (`{m[0].strip()}`), not reviewed knowledge"
    return None


def credential(raw: str) -> str | None:
    hits = secrets.scan(raw)
    return f"looks like a credential ({hits[0].kind}); secrets never enter memory" if hits else None


def instructs_model(raw: str) -> str | None:
    m = INSTRUCTION_RE.search(raw)
    return f"instructs the model (\"{m[0]}\"): possible prompt injection" if m else None


def command_with_metadata(text: str, raw: str) -> str | None:
    meta = SCORE_META_RE.search(raw)
    if meta is None:
        return None
    body = parse.KIND_PREFIX_RE.sub("", text)
    if SHELL_RE.match(body):
        return f"shell command with {_short(meta[0], 24)} metadata, not knowledge"
    return f"recall/dreaming metadata ({_short(meta[0], 24)}) in the text, not knowledge"


def ephemeral(text: str) -> str | None:
    if CRON_RE.search(text):
        return "ephemeral: a cron / delivery report, not durable knowledge"
    m = RESOLVED_RE.search(text)
    if m:
        return f"ephemeral: a resolved issue (\"{_short(m[0], 40)}\")"
    m = TIME_RE.search(text)
    if m:
        return f"ephemeral: a one-off timestamp ({m[0].strip()})"
    m = ONE_OFF_RE.search(text)
    if m:
        return f"ephemeral: a one-off event (\"{m[0]}\")"
    return None


def _dup(key: str, keys: list[str], labels: list[str], ratio: float) -> str | None:
    if not keys or not key:
        return None
    best = process.extractOne(key, keys, scorer=fuzz.token_set_ratio, score_cutoff=ratio)
    if best is None:
        return None
    other = best[0]
    # token_set_ratio is 100 for any subset; a short text must match closely as a whole.
    if min(len(key.split()), len(other.split())) < 4 and fuzz.ratio(key, other) < ratio:
        return None
    return f"{labels[best[2]]} ({best[1]:.0f}% similar)"


def evaluate(c: Candidate, sc: Score, recalls: int, ctx: Context, explain: bool = False) -> Verdict:
    """Run the checks in order; stop at the first failure unless `explain` asks for all."""
    s = ctx.settings
    key = " ".join(content_words(c.text))
    steps: list[tuple[str, Callable[[], str | None], str]] = [
        ("review", lambda: _review(c, key, ctx), "not rejected or pending in review"),
        ("in-wiki", lambda: (f"already in {ctx.wiki_ids[c.id]}" if c.id in ctx.wiki_ids else None),
         "not in the wiki yet"),
        ("raw-output", lambda: raw_output(c.raw), "no transcript or dreaming markers"),
        ("credential", lambda: credential(c.raw), "no credentials"),
        ("instruction", lambda: instructs_model(c.raw), "does not instruct the model"),
        ("command", lambda: command_with_metadata(c.text, c.raw), "no command or score metadata"),
        ("ephemeral", lambda: ephemeral(c.text), "not ephemeral"),
        ("duplicate", lambda: _duplicate(key, ctx, float(s["duplicate_ratio"])), "no near-duplicate in the wiki"),
        ("kind", lambda: (None if c.kind in parse.DURABLE_KINDS
                          else f"kind `{c.kind}` is not durable (decision, rule, fact, correction)"),
         f"kind `{c.kind}` is durable"),
    ]
    if not c.forced:
        age = (ctx.today - c.age_day).days if c.age_day else None
        steps += [
            ("age", lambda: (f"too young: {age if age is not None else 'unknown'} day(s) old < {s['min_age_days']}"
                             if age is None or age < s["min_age_days"] else None),
             f"{age} days old >= {s['min_age_days']}"),
            ("recalls", lambda: (f"recalled {recalls} time(s) < {s['min_recalls']}"
                                 if recalls < s["min_recalls"] else None),
             f"recalled {recalls} times >= {s['min_recalls']}"),
            ("score", lambda: (f"score {sc.total:.2f} < {s['min_score']:.2f} (weakest: {sc.weakest()} "
                               f"{sc.signals[sc.weakest()]:.2f})" if sc.total < s["min_score"] else None),
             f"score {sc.total:.2f} >= {s['min_score']:.2f}"),
        ]
    checks: list[Check] = []
    failed: Check | None = None
    for name, run, ok_detail in steps:
        problem = run()
        check = Check(name, problem is None, problem or ok_detail)
        checks.append(check)
        if problem and failed is None:
            failed = check
            if not explain:
                break
    if failed is not None:
        return Verdict(False, failed.detail, failed.name, checks)
    if c.forced:
        reason = "proposed by an agent (`propose`): skips the score gate, still reviewed here"
    else:
        reason = f"score {sc.total:.2f}, {recalls} recalls, {(ctx.today - c.age_day).days} days old"  # type: ignore[operator]
    return Verdict(True, reason, None, checks)


def _review(c: Candidate, key: str, ctx: Context) -> str | None:
    rej = ctx.review.rejected.get(c.id)
    if rej is not None and rej[0] == key:
        return f"rejected in review on {rej[1]}; not proposed again unless the text changes"
    if c.id in ctx.review.pending:
        return f"already proposed on {ctx.review.pending[c.id]}, awaiting review"
    return None


def _duplicate(key: str, ctx: Context, ratio: float) -> str | None:
    hit = _dup(key, ctx.wiki_keys, ctx.wiki_labels, ratio)
    if hit:
        return f"near-duplicate of {hit}"
    hit = _dup(key, ctx.accepted_keys, ctx.accepted_labels, ratio)
    return f"near-duplicate of {hit}, accepted above in this run" if hit else None
