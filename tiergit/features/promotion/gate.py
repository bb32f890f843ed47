"""The graduation gate: outright rejections, then kind, age, recalls and score.

Every check is a pure function of the candidate and plain context; a verdict is the
first failing check (or acceptance) with a one-line reason.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from typing import Any, Callable, Iterable, Mapping

from tiergit.core import dreams, injection, judge, kinds, parse, safeguard, secrets, speech_acts, statement, textlang
from tiergit.core.ephemeral import SHELL_RE, ephemeral, shell_command
from tiergit.core.candidate import Candidate, norm_key
from tiergit.core.config import GateSettings
from tiergit.core.dupindex import DupIndex
from tiergit.core.idpaths import IdPaths
from tiergit.core.patterns import TRANSCRIPT_ANYWHERE_RE
from tiergit.core.prtext import score_pair
from tiergit.core.sha1 import sha1
from tiergit.features.promotion.scoring import Score
from tiergit.features.promotion import learned

DREAM_META_RE = re.compile(r"(?i)confidence:\s*0(?:\.0+)?\b|status:\s*staged\b|evidence:\s*memory/\.dreams/")
SCORE_META_RE = re.compile(r"(?i)\[\s*(?:score|confidence|recalls?|rank)\s*[=:]\s*[\d.]+[^\]]*\]")
@dataclass(slots=True)
class Check:
    name: str
    passed: bool
    detail: str


@dataclass(slots=True)
class GateVerdict:
    accepted: bool
    reason: str
    failed: str | None = None           # name of the first failing check
    checks: list[Check] | tuple[()] = ()   # every check run, when explained (`evaluate`)
    safeguard: str | None = None        # why a reviewer must read it carefully (the PR's ⚠ section)


@dataclass
class ReviewState:
    """What the review log says: per id, the last outcome."""
    rejected: dict[str, tuple[str, str]] = field(default_factory=dict)   # id -> (normalized text, day)
    pending: dict[str, str] = field(default_factory=dict)                # id -> day proposed
    accepted: dict[str, str] = field(default_factory=dict)

    @classmethod
    def from_events(cls, events: Iterable[dict[str, Any]]) -> "ReviewState":
        """The last outcome per id (events are in log order; later wins). Cost: one pass."""
        st = cls()
        for ev in events:
            iid, action = ev.get("id"), ev.get("action")
            if not isinstance(iid, str) or action not in ("proposed", "accepted", "rejected"):
                continue   # other events (prune proposals and outcomes) say nothing about promotion
            day = str(ev.get("ts", ""))[:10]
            st.pending.pop(iid, None)
            st.rejected.pop(iid, None)
            st.accepted.pop(iid, None)
            if action == "proposed":
                st.pending[iid] = day
            elif action == "rejected":
                st.rejected[iid] = (norm_key(str(ev.get("text", ""))), day)
            elif action == "accepted":
                st.accepted[iid] = day
        return st


@dataclass
class Context:
    settings: GateSettings
    today: date
    review: ReviewState
    wiki_ids: Mapping[str, str] | IdPaths   # id -> the wiki file it is in
    wiki_index: DupIndex = field(default_factory=DupIndex)        # items already in reviewed tiers
    staged_index: DupIndex = field(default_factory=DupIndex)      # items waiting in staging files
    language: str | None = None                                   # the store's language (most of its items)
    accepted_index: DupIndex = field(default_factory=DupIndex)    # accepted earlier in this run
    stale: dict[str, str] = field(default_factory=dict)           # id -> why it is stale against the repository
    reasons: dict[str, str] = field(default_factory=dict)         # each distinct reason once (most repeat)
    memo: Any = None    # shell.verdict_memo.VerdictMemo: the text-only checks' verdicts of earlier runs


def _short(text: str, n: int = 50) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


def raw_output(raw: str, min_confidence: float = GateSettings.min_confidence) -> str | None:
    """Dreaming metadata decides a Dreaming candidate (staged and confident may pass; promoted,
    rejected, reflections and zero confidence never); otherwise transcript lines are refused."""
    meta = dreams.read(raw)
    if meta.present:
        why = dreams.verdict(meta, min_confidence, raw)
        return f"dreaming output: {why}" if why else None
    if ":" not in raw:
        return None
    m = TRANSCRIPT_ANYWHERE_RE.search(raw)
    if m:
        return f"raw transcript / dreaming output (`{m[1].capitalize()}:`), not distilled knowledge"
    m = DREAM_META_RE.search(raw)
    if m:
        return f"dreaming output (`{m[0].strip()}`), not reviewed knowledge"
    return None


def weakens_safeguard(raw: str) -> str | None:
    why = safeguard.weakens(raw)
    return f"{why}; refused, a person may write it by hand" if why else None


def careful_by_content(raw: str) -> str | None:
    """Why what an item says sends it to the read-carefully section (the PR's, `propose`'s warning): the
    word lists' finding, else the learned reading's doubt; None when neither speaks."""
    found = safeguard.judge(raw)
    return found.reason if found is not None else learned.careful(raw)


def read_carefully(c: Candidate, language: str | None) -> str | None:
    """Why an accepted item goes to the PR's "⚠ changes a safeguard" section, or None."""
    return careful_by_content(c.whole) or textlang.foreign(c.text, language)


def junk(text: str) -> str | None:
    why = judge.junk(text) or shell_command(text) or speech_acts.no_knowledge(text)
    return f"junk: {why}, not knowledge" if why else None


def credential(raw: str) -> str | None:
    hits = secrets.scan(raw)
    return f"looks like a credential ({hits[0].kind}); secrets never enter memory" if hits else None


def instructs_model(raw: str) -> str | None:
    why = injection.injection(raw)
    return f"instructs the model: {why}; possible prompt injection" if why else None


def command_with_metadata(text: str, raw: str) -> str | None:
    meta = SCORE_META_RE.search(raw) if "[" in raw else None
    if meta is None:
        return None
    body = parse.KIND_PREFIX_RE.sub("", text)
    if SHELL_RE.match(body):
        return f"shell command with {_short(meta[0], 24)} metadata, not knowledge"
    return f"recall/dreaming metadata ({_short(meta[0], 24)}) in the text, not knowledge"


def kind_check(c: Candidate) -> str | None:
    """A durable kind passes; so does a tier item of kind context that reads as a standing statement
    (`statement.standing`): it reached the gate because it was recalled, and the recall, score and
    age checks still follow. Staged items were judged when they were staged (Dreaming, import)."""
    if statement.filed(c.text):
        return "a notice that it was filed elsewhere (merged, logged, moved to …), not the item itself"
    if c.kind in kinds.DURABLE_KINDS or (c.kind == "context" and not c.staged and statement.standing(c.text)):
        return None
    return f"kind `{c.kind}` is not durable (decision, rule, fact, correction)"


def _kind_ok(c: Candidate) -> str:
    if c.sentence:
        return f"sentence {c.sentence} of the `context` item {c.item_id} reads as a {c.kind}: promotable on its own"
    if c.kind in kinds.DURABLE_KINDS:
        return f"kind `{c.kind}` is durable"
    return f"kind `{c.kind}` reads as a standing statement ({statement.standing(c.text)}): promotable as a fact"


def evaluate(c: Candidate, sc: Score, recalls: int, ctx: Context, explain: bool = False) -> GateVerdict:
    """Run the checks in order; stop at the first failure unless `explain` asks for all. Only an
    explained verdict keeps its checks (a plan's 40,000 verdicts at 10k files held ~50 MB of them
    that nothing read), and a rejection's reason is kept once for all the verdicts that give it."""
    checks: list[Check] = []
    failed: Check | None = None
    steps = _steps(c, sc, recalls, ctx)
    if ctx.memo is not None and not explain:
        steps = _remembered(c, steps, ctx)
    for name, run, ok_detail in steps:
        problem = run()
        if not (problem or explain):
            continue
        check = Check(name, problem is None, problem or ok_detail)
        checks.append(check)
        if problem and failed is None:
            failed = check
            if not explain:
                break
    if failed is not None:
        return GateVerdict(False, ctx.reasons.setdefault(failed.detail, failed.detail), failed.name,
                           checks if explain else ())
    careful = read_carefully(c, ctx.language)
    if c.forced:
        reason = "proposed by an agent (`propose`): skips the score gate, still reviewed here"
    elif c.dreamed:
        reason = f"staged by Dreaming ({c.dreamed}), {_age(c, ctx)} old"
    else:
        reason = f"score {sc.total:.2f}, {recalls} recalls, {_age(c, ctx)} old"
    if c.sentence:
        reason += f"; sentence {c.sentence} of {c.item_id} (its recalls)"
    return GateVerdict(True, reason, None, checks if explain else (), careful)


# The checks that read the candidate's text and nothing else (its whole item, text, kind, whether it
# was staged, dreamed or forced, and the gate's min_confidence): their first failure is remembered.
TEXT_STEPS = frozenset({"raw-output", "credential", "instruction", "safeguard", "command", "junk", "ephemeral", "kind"})
Step = tuple[str, Callable[[], "str | None"], str]


def text_key(c: Candidate, min_confidence: float) -> bytes:
    """A digest of everything the TEXT_STEPS read."""
    what = f"{c.whole}\0{c.text}\0{c.kind}\0{bool(c.staged)}\0{bool(c.dreamed)}\0{bool(c.forced)}\0{min_confidence!r}"
    return sha1(what.encode("utf-8", "surrogatepass")).digest()


def _remembered(c: Candidate, steps: list[Step], ctx: Context) -> list[Step]:
    """The steps with the text-only ones answered from the memo. Not yet known: every text check
    is run in order until one fails, and that first failure (or None) is kept. The first failure
    over all steps is then the same as running them in turn: a text check before the remembered
    one passes, and none after it is reached."""
    key = text_key(c, ctx.settings.min_confidence)
    known, first = ctx.memo.lookup(key)
    if not known:
        first = next(((name, problem) for name, run, _ in steps if name in TEXT_STEPS
                      for problem in [run()] if problem), None)
        ctx.memo.put(key, first)
    failing, reason = first or ("", None)
    return [(name, (lambda name=name: reason if name == failing else None) if name in TEXT_STEPS else run, ok)
            for name, run, ok in steps]


def _steps(c: Candidate, sc: Score, recalls: int, ctx: Context) -> list[Step]:
    """The checks that apply to this candidate, in order: (name, check, what passing means)."""
    s = ctx.settings
    steps: list[Step] = [
        ("review", lambda: _review(c, ctx), "not rejected or pending in review"),
        ("in-wiki", lambda: (f"already in {ctx.wiki_ids[c.id]}" if c.id in ctx.wiki_ids else None),
         "not in the wiki yet"),
        # One sentence of an item is checked with the whole item: poison in a neighbouring sentence
        # refuses it too (`Candidate.whole`).
        ("raw-output", lambda: raw_output(c.whole, s.min_confidence), "no transcript or dreaming markers"),
        ("credential", lambda: credential(c.whole), "no credentials"),
        ("instruction", lambda: instructs_model(c.whole), "does not instruct the model"),
        # An item the kind check will refuse anyway is not judged twice (the judgement costs the most).
        ("safeguard", lambda: weakens_safeguard(c.whole) if kind_check(c) is None else None, "weakens no safeguard"),
        ("repository", lambda: (f"stale: {ctx.stale[c.id]}" if c.id in ctx.stale else None),
         "cites nothing the repository lost"),
    ]
    if not c.dreamed:
        steps.append(("command", lambda: command_with_metadata(c.text, c.whole), "no command or score metadata"))
    steps.append(("junk", lambda: junk(c.text), "reads as knowledge"))
    if not c.forced:
        steps.append(("ephemeral", lambda: ephemeral(c.text), "not ephemeral"))
    steps.append(("kind", lambda: kind_check(c), _kind_ok(c)))
    if not c.forced:
        age = (ctx.today - c.age_day).days if c.age_day else None
        steps.append(("age", lambda: (f"too young: {age if age is not None else 'unknown'} day(s) old < {s.min_age_days}"
                                      if s.min_age_days > 0 and (age is None or age < s.min_age_days) else None),
                      f"{age} days old >= {s.min_age_days}"))
    if not c.forced and not c.dreamed:
        # Dreaming's confidence already weighed recalls and relevance: it stands in for both.
        steps += [
            ("recalls", lambda: (f"recalled {recalls} time(s) < {s.min_recalls}"
                                 if recalls < s.min_recalls else None),
             f"recalled {recalls} times >= {s.min_recalls}"),
            ("score", lambda: ("score {} < {}".format(*score_pair(sc.total, s.min_score)) + f" (weakest: {sc.weakest()} "
                               f"{sc.signals[sc.weakest()]:.2f})" if sc.total < s.min_score else None),
             "score {} >= {}".format(*score_pair(sc.total, s.min_score))),
        ]
    # Fuzzy matching is the costly check: it runs last, on what passed everything else.
    # An agent's proposed correction restates a similar wiki line by nature: the reviewer decides.
    if not (c.forced and c.kind == "correction"):
        steps.append(("duplicate", lambda: _duplicate(ctx, s.duplicate_ratio, c),
                      "no near-duplicate in the wiki or staging"))
    return steps


def _age(c: Candidate, ctx: Context) -> str:
    return f"{(ctx.today - c.age_day).days} days" if c.age_day else "age not known (not committed yet)"


def _review(c: Candidate, ctx: Context) -> str | None:
    rej = ctx.review.rejected.get(c.id)
    if rej is not None and rej[0] == c.mention_key:
        return f"rejected in review on {rej[1]}; not proposed again unless the text changes"
    if c.id in ctx.review.pending:
        return f"already proposed on {ctx.review.pending[c.id]}, awaiting review"
    return None


def _duplicate(ctx: Context, ratio: float, c: Candidate) -> str | None:
    key = c.mention_key
    hit = ctx.wiki_index.find(key, ratio)
    if hit:
        return f"near-duplicate of {hit}"
    # A tier item that repeats one already staged for review (imported, proposed, Dreaming's) waits for it.
    hit = None if c.staged else ctx.staged_index.find(key, ratio, skip=c.id)
    if hit:
        return f"near-duplicate of {hit}, staged for review"
    hit = ctx.accepted_index.find(key, ratio)
    return f"near-duplicate of {hit}, accepted above in this run" if hit else None
