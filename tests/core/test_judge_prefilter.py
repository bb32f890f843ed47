"""judge's word prefilters (_MUST_HOLD) never turn away a text their pattern matches: a phrase for
every branch of each prefiltered pattern passes its prefilter, hand-written items get the same
verdicts with and without the prefilters, and no corpus item a pattern matches is turned away."""
from __future__ import annotations

import pytest
from conftest import corpus_files

from tiergit.errors import InputError
from tiergit.core import durable_shape, judge, kinds, parse, rawtext

# One or more phrases per branch of each pattern, lowercased as plain_kind hands them over.
BRANCHES = {
    judge.CORRECTION: ["no, use tabs", "no — use tabs", "nope it fails", "wrong: it is 4", "actually, 4", "correction it is 4",
                       "not quite right", "that's wrong here", "that was incorrect", "this is wrong; we use x",
                       "it is incorrect, use y", "the owner corrected me", "bob corrected us", "i was wrong about it",
                       "so that's not how it works"],
    judge.PERMISSION: ["you may push", "you can push", "you are allowed to push", "you have permission to push",
                       "go ahead and push", "feel free to push", "it is approved to ship", "they are allowed to push",
                       "is permitted to push", "not allowed to push", "never allowed to push", "it's ok to push",
                       "its okay to push", "is fine to push", "permission to push", "it may not push",
                       "must ask before pushing"],
    judge.ERROR: ["the root cause was x", "root-cause: x", "fixed by a retry", "the fix was a retry", "the fix is x",
                  "fix:retry", "fixed:retry", "caused by a race", "the bug was x", "the bug is x",
                  "it broke because of x", "fails because x", "fail when x", "failed because x",
                  "the problem was x", "the problem is x", "a workaround", "regression from x", "regression in x",
                  "regression caused by x", "fixed it", "fixes this", "solved the bug", "resolved the issue",
                  "fixed the problem", "it came from x", "it stems from x", "it was due to x", "fails with x",
                  "failed at the gate", "fail on the ci", "crash came from x", "errors comes from x",
                  "exceptions came from x", "timeout comes from x"],
    judge.OPEN: ["todo write it", "to-do write it", "next steps: a", "next step: a", "next session: a", "follow-up: a",
                 "follow up: a", "open question: a", "plan for next session — : a", "we still need to add it",
                 "it is blocked on review", "blocked by ci", "waiting on bob to merge", "waiting for ci to pass",
                 "not yet merged", "needs to be tested", "need to be decided", "it still needs to land"],
    judge.DECISION: ["we decided to go", "we chose x", "we agreed on it", "we settled on x", "we went with x",
                     "we are going with x", "we will use x", "we standardized on x", "we standardised on x",
                     "decided on x", "the decision is to use x", "decision was to use x", "going forward use x",
                     "from now on use x", "chose x over y", "final decision :"],
    judge.RULE: ["never push", "always push", "must push", "must not push", "mustn't push", "should push",
                 "should not push", "shouldn't push", "don't push", "do not push", "avoid pushing", "i prefer tabs",
                 "we prefer tabs", "prefers tabs", "prefer tabs", "make sure to push", "ensure it runs",
                 "only ever push", "rule of thumb is", "a key is required", "keys are required",
                 "the owner wants tabs", "users prefer tabs", "the team likes it", "clients expects it",
                 "the captain asked for it", "the user asked us to"],
    judge.FACT: ["it defaults to 4", "default to 4", "it is stored in x", "they are stored in x", "it lives in x",
                 "live at x", "it runs on x", "run on x", "it is limited to 4", "it expires after 1h", "expire after",
                 "it is case-sensitive", "is case sensitive", "is idempotent", "is deprecated", "is read-only",
                 "is immutable", "only works on x", "doesn't support x", "does not support x", "takes 4 seconds",
                 "take about 4 min", "takes around 3 hours", "the limit is 4", "the maximum is 4", "requires the key"],
}


@pytest.mark.parametrize("pattern", list(BRANCHES), ids=lambda p: p.pattern[:20])
def test_every_branch_passes_its_prefilter(pattern) -> None:
    for phrase in BRANCHES[pattern]:
        assert pattern.search(phrase), phrase          # the phrase is a match of the pattern
        assert judge._may_match(pattern, phrase), phrase


def test_the_prefilter_turns_away_texts_without_the_words() -> None:
    assert not judge._may_match(judge.DECISION, "the build uses a cache")
    assert judge._may_match(judge.MARKUP, "anything")      # a pattern without a prefilter always runs


def _verdicts(texts: list[str]) -> list:
    return [(judge.plain_kind(t), judge.junk(t), kinds.classify(t)) for t in texts]


def _without_prefilters(texts: list[str]) -> list:
    saved = judge._wakes   # what plain_kind reads: every pattern's bit set runs every pattern
    judge._wakes = lambda low: judge.ALL_WAKE
    try:
        return _verdicts(texts)
    finally:
        judge._wakes = saved


def test_hand_written_items_get_the_same_kind_with_and_without_the_prefilter() -> None:
    texts = [f"- {p[0].upper()}{p[1:]} and more words here." for ps in BRANCHES.values() for p in ps]
    texts += ["plain context about the build cache", "**Decision:** keep it", "No, that's wrong: always use tabs"]
    assert _verdicts(texts) == _without_prefilters(texts)


def _candidates(text: str) -> list[str]:
    """What plain_kind searches in an item: its first sentence, lowercased, and RULE's clauses."""
    low = judge._SENTENCE_END.split(judge.body_of(text), maxsplit=1)[0][:200].lower()
    return [low, *(" ".join(c.split()[:6]) for c in judge.CLAUSE.split(low))]


@pytest.mark.corpus
def test_no_corpus_item_matched_by_a_pattern_is_turned_away_by_its_prefilter() -> None:
    turned_away, matched = [], 0
    for path in corpus_files("**/*.md"):
        try:
            doc = parse.parse(rawtext.decode(path.read_bytes(), str(path), 2_000_000), str(path))
        except InputError:
            continue
        for item in doc.items:
            for text in _candidates(item.text):
                for pattern in judge._MUST_HOLD:
                    if pattern.search(text):
                        matched += 1
                        if not judge._may_match(pattern, text):
                            turned_away.append((str(path), item.line, pattern.pattern[:20]))
    assert matched > 1000
    assert turned_away == []


# durable_shape's prefilters: a phrase per branch, in the line's own case (FAILURE and CONSTRAINT
# search it so); the prefilter reads the lowercased line.
SHAPE_BRANCHES = {
    durable_shape.FAILURE: ["it crashes on load", "it crashed", "a crash", "an exception", "an error", "a bug here",
                            "a mismatch", "a timeout", "it timed out", "a regression", "it broke", "it is broken",
                            "parsed incorrectly", "a key was missing", "keys were missing", "file not found",
                            "access denied", "connection refused", "it leaks", "it leaked memory", "a leak",
                            "a deadlock", "a race condition", "an oom", "HTTP 404 back", "got 503 service down",
                            "got 404 not here", "502 bad gateway", "500 internal", "got 504 gateway", "程序崩溃",
                            "接口报错", "出现错误", "构建失败", "服务停止", "debug"],
    durable_shape.CONSTRAINT: ["tests are non-negotiable", "it is mandatory", "required for release", "required by ci",
                               "required on main", "required before merge", "required when tagging", "it is forbidden",
                               "it is prohibited", "pushes not allowed", "only if green", "only when green",
                               "only after review", "only before noon", "only via ci", "only through ci",
                               "unless asked", "use uv instead", "it won't work", "it does not work", "do not work",
                               "breaks on windows", "break when empty", "breaks if unset", "ONLY main", "NEVER push",
                               "MUST pass"],
    durable_shape.CAUSE: ["slow because of io", "slow due to io", "cached so that reads are fast", "which means less io",
                          "it prevents loss", "prevent loss", "otherwise it fails", "the reason is io",
                          "rationale: speed", "x -> causes y", "x → breaks y", "x -> fails"],
}


@pytest.mark.parametrize("pattern", list(SHAPE_BRANCHES), ids=lambda p: p.pattern[:20])
def test_every_shape_branch_passes_its_prefilter(pattern) -> None:
    for phrase in SHAPE_BRANCHES[pattern]:
        assert pattern.search(phrase), phrase
        assert durable_shape._WAKE.may_match(pattern, phrase.lower()), phrase
