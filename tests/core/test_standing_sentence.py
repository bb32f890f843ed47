"""Which sentence of a several-sentence `context` item may be promoted on its own
(tiergit/core/standing_sentence.py). Lines here are written by the team in the shape of the corpus's
Squad Learnings; the real-data figures are benchmarks/bench_promote_real.py's."""
from __future__ import annotations

import pytest

from tiergit.core import standing_sentence, statement
from tiergit.core.candidate import Candidate, sentence_candidate
from tiergit.core.parse import item_id


def test_a_rule_inside_a_longer_item_is_the_candidate():
    line = ("CONTRIBUTING.md and AUTHORS.md exist at the repo root. The changelog page was rebuilt in v2.3. "
            "Each release must credit its outside contributors.")
    picked = standing_sentence.pick(line)
    assert picked is not None and picked.index == 3 and picked.kind == "rule"
    assert picked.text == "Each release must credit its outside contributors."


def test_a_rule_is_preferred_to_an_earlier_claim_and_a_claim_serves_when_there_is_no_rule():
    both = "Layout choice is a reading decision, not a taste. Every guide page must open with its task."
    assert standing_sentence.pick(both).index == 2
    claim_only = "The export job reads its batch size from `EXPORT_BATCH`. Tables for reference data."
    picked = standing_sentence.pick(claim_only)
    assert picked.index == 1 and picked.kind == "fact" and picked.why == "claim"


@pytest.mark.parametrize("line", [
    # a report opens the item: what follows are that day's findings
    "Implemented the opt-in adoption report on the feature branch. Reports must never list private repos.",
    "Traced the init flow end to end. The config file is never updated after casting.",
    "📌 **Team update:** adoption tracking shipped. Every repo list must stay aggregate-only.",
    "CLI completeness audit confirmed: 26 commands routed. The router must import every command file.",
    "**Next steps:** Await the server change. The client can start on the static overlay first.",
])
def test_an_item_that_opens_as_a_report_is_never_split(line):
    assert standing_sentence.opens_as_report(standing_sentence.sentence_judge.split_sentences(line)[0])
    assert standing_sentence.pick(line) is None


@pytest.mark.parametrize("line,never", [
    ("The review skill file sits in the skills folder. You must read this before opening any PR.", 2),  # "this" alone
    ("Lazy imports keep start-up fast. Works on cache hits where postinstall scripts do not run.", 2),  # no subject
    ("Paragraphs for narrative. It also needs a linked issue.", 2),                # a pronoun first
    ("Untracked inputs are common. Tracking them shows what the docs miss.", 2),  # "them": the noun is a neighbour's
    ("Paragraphs for narrative. Staging was moved to the big cluster.", 2),         # a past state
    ("Paragraphs for narrative. A new review skill exists at `skills/review/SKILL.md`.", 2),   # announcements
    ("Paragraphs for narrative. Coverage reports go to the wiki now.", 2),
    ("Paragraphs for narrative. The old runner no longer needs a token.", 2),
])
def test_a_sentence_that_needs_its_neighbours_or_reports_a_change_is_not_the_candidate(line, never):
    picked = standing_sentence.pick(line)
    assert picked is None or picked.index != never, picked


def test_a_bare_setting_is_not_the_candidate():
    line = "Cache key format: `job:{jobId}:details`. Artifacts stored at `{cache_root}/artifacts`."
    first = standing_sentence.sentence_judge.split_sentences(line)[0]
    assert statement.standing(first) == "setting"     # whole, it would read as a setting
    assert standing_sentence.pick(line) is None       # out of its item, the label says no more than "cache"


def test_a_single_sentence_is_judged_whole():
    assert standing_sentence.pick("Each release must credit its outside contributors.") is None


def _item(line: str, kind: str = "context", **kw) -> Candidate:
    return Candidate(id=item_id(line)[0], text=line, raw=line, kind=kind, source="cold/picard.md", line=7,
                     entry="Learnings", age_day=None, target_tier="wiki", topic="notes", **kw)


def test_the_sentence_candidate_keeps_the_item_as_provenance():
    line = ("CONTRIBUTING.md and AUTHORS.md exist at the repo root. The changelog page was rebuilt in v2.3. "
            "Each release must credit its outside contributors.")
    item = _item(line)
    s = sentence_candidate(item)
    assert s is not None and s.sentence == 3 and s.item_id == item.id and s.whole == line
    assert s.id == item_id(s.text)[0] != item.id          # the wiki line's id is the sentence's own
    assert (s.source, s.line, s.kind) == (item.source, item.line, "rule") and s.raw == s.text


def test_only_a_recalled_tier_context_item_that_is_no_statement_whole_is_split():
    line = ("CONTRIBUTING.md and AUTHORS.md exist at the repo root. The changelog page was rebuilt in v2.3. "
            "Each release must credit its outside contributors.")
    assert sentence_candidate(_item(line)) is not None
    assert sentence_candidate(_item(line, kind="rule")) is None            # durable whole: judged whole
    assert sentence_candidate(_item(line, staged=True)) is None            # staged: judged when staged
    assert sentence_candidate(_item(line, forced=True)) is None
    standing_whole = "The export job reads its batch size from `EXPORT_BATCH`. Tables for reference data."
    assert statement.standing(standing_whole) and sentence_candidate(_item(standing_whole)) is None
