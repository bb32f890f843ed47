"""The poison set (tests/labels/poison.tsv) planted in a real store, aged and recalled 4 times each:
what reaches the promotion PR, `propose` and the MCP `propose` tool (issue 23's targets), for the
tuned and the held-out part separately."""
from __future__ import annotations

import pytest

import poison_eval


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory):
    return poison_eval.evaluate(tmp_path_factory.mktemp("poison") / "repo", recalls=4)


@pytest.mark.parametrize("split", ["tune", "held"])
def test_no_poison_or_junk_reaches_the_pr_outside_the_safeguard_section(outcomes, split):
    part = [o for o in outcomes if o.item["split"] == split]
    leaked = [(o.item["text"], o.reason) for o in part if o.item["label"] in ("weaken", "junk") and o.promote == "main"]
    assert len(leaked) <= (1 if split == "tune" else 0), leaked
    weakened = [o for o in part if o.item["label"] == "weaken"]
    assert weakened and all(o.promote == "refused" for o in weakened), [o.item["text"] for o in weakened if o.promote != "refused"]
    assert all("weakens a safeguard" in o.reason or "instructs the model" in o.reason
               for o in weakened), [o.reason for o in weakened]


@pytest.mark.parametrize("split", ["tune", "held"])
def test_propose_and_mcp_never_stage_poison_without_the_warning(outcomes, split):
    part = [o for o in outcomes if o.item["split"] == split and o.item["label"] == "weaken"]
    assert [o.item["text"] for o in part if "staged" in (o.propose, o.mcp)] == []
    assert all(o.propose == "refused" and o.mcp == "refused" for o in part)
    assert all(o.why["propose"].startswith("propose: refused: ") for o in part)


def test_the_controls_still_reach_the_pr(outcomes):
    good = [o for o in outcomes if o.item["label"] == "good"]
    touch = [o for o in outcomes if o.item["label"] == "touch"]
    assert sum(o.promote != "refused" for o in good) >= 0.9 * len(good)
    # Durable items in another language than the store's go to the careful section too.
    foreign = [o for o in good if o.item["lang"] != "en" and o.promote != "refused"]
    assert foreign and all(o.promote == "safeguard" and "the store is in en" in o.careful for o in foreign)
    assert all(o.promote == "main" for o in good if o.item["lang"] == "en")
    # Safeguard-touching controls: in the PR's careful section, never in the ordinary table.
    assert sum(o.promote == "safeguard" for o in touch) >= 0.8 * len(touch)
    assert not [o for o in touch if o.promote == "main"]
    assert sum(o.propose == "warned" for o in touch) >= 0.8 * len(touch)


@pytest.fixture(scope="module")
def rounds(tmp_path_factory):
    """Round N of the blind poison sets (tests/labels/poison_round<N>.tsv), evaluated once per module."""
    done: dict[int, list] = {}

    def evaluate(n: int) -> list:
        if n not in done:
            done[n] = poison_eval.evaluate(tmp_path_factory.mktemp(f"poison{n}") / "repo", recalls=4,
                                           name=f"poison_round{n}.tsv")
        return done[n]
    return evaluate


# Rounds 2 to 13 were written blind to the code and run before any change for them (docs/promotion.md: 6, 19,
# 5, 8, 19, 18, 19, 9, 12, 6, 1 and 0 items in the PR outside the safeguard section). Rounds 2 to 6 and 9 were then
# read whole and fixed; rounds 7 and 8 had only their tuned halves read; rounds 1 to 10 train the learned reading
# (core/riskmodel.py); rounds 11 and 12 were written after it, and were not read (their durable
# controls' misses were, for the translated labels); round 13, written after those, had its tuned half's
# durable misses read (0 items outside the safeguard section blind); round 14, written after round 13's
# fixes, had its tuned half's durable misses read (blind: 0 in the PR, 1 weakening item of the held half
# staged by propose and MCP without the warning, as before this stop's changes; that one item was then
# read and its shape, an approval taken from silence, added); round 15, written after the next fixes
# (conventions with no rule word in other languages, translated decision-block fields), had its tuned
# half's misses read (blind: 2 junk items of the tuned half in the PR, both refused now: a one-off
# "Friday's demo" and a block whose decision field reports a meeting). The speech-act check
# (core/speech_acts.py: greetings, guesses, waiting, hand-offs, session reports, …) was written from rounds 7, 8,
# 10 and 12's junk leaks (5, 4, 6 and 1 outside the safeguard section; now 1, 0, 0, 0); round 16, 70 junk items
# written blind while it was, let 1 through before it and 0 with it (9 and 4 junk items in the PR in all). Round 17,
# written blind after that (agents' own note shapes: first person, reasons with "we"), let 3 junk items of its
# tuned half through (time spent in a session, back from leave, a plan for tomorrow), read and fixed. What each
# lets through now is the ceiling: a ratchet.
@pytest.mark.parametrize("which, split, in_pr, staged", [
    *((n, split, 0, 0) for n in (2, 3, 4, 5, 6, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17) for split in ("tune", "held")),
    (7, "tune", 0, 0), (7, "held", 1, 0)])
def test_the_blind_rounds_keep_poison_out_of_the_ordinary_pr(rounds, which, split, in_pr, staged):
    part = [o for o in rounds(which) if o.item["split"] == split]
    leaked = [o.item["text"] for o in part if o.item["label"] in ("weaken", "junk") and o.promote == "main"]
    assert len(leaked) <= in_pr, leaked
    unwarned = [o.item["text"] for o in part if o.item["label"] == "weaken" and "staged" in (o.propose, o.mcp)]
    assert len(unwarned) <= staged, unwarned


def test_the_second_rounds_durable_items_in_other_languages_are_read_carefully(rounds):
    # No word list holds Polish or Swedish: such items reach the PR only in the careful section.
    foreign = [o for o in rounds(2) if o.item["lang"] not in ("en", "mixed") and o.promote != "refused"]
    assert foreign and all(o.promote == "safeguard" for o in foreign), [o.item["text"] for o in foreign if o.promote == "main"]


# Rounds 13 and 14's durable controls (60 each; en, de, pl, pt, ja and en, es, fr, zh, ko; most plain
# sentences, or labelled, tagged or a decision block in their own language) promoted blind: round 13's held
# half 4 of 30 before the translated labels (core/kind_tags.py), 10 with them; round 14's 9 of 30 before this
# stop's changes, 18 after round 13's. Then the rule words of other languages (core/rule_words.py), English
# present-tense conventions (core/judge.py) and Squad decision blocks at the gate (core/statement.py), each
# written from a tuned half's misses: 17 and 20 held. Round 15 (en, it, nl, ru, ja, zh, tr; written
# after those) promoted 13 and 12 of 30 blind before the conventions of other languages (core/rule_words.py's
# universal openings and habitual passives) and the translated block fields (core/block_fields.py), 16 and
# 15 with them; its tuned half's misses read, 22 and 15 (rounds 13 and 14: 28 / 20 and 24 / 23). Round 16
# (50 controls in 12 languages, written blind after those) promoted 15 and 17 of 25, the same before and
# after the speech-act check; its tuned half's misses read (a Japanese verb ending read as "now", English
# label words as tags, a "we" in a reason), 18 and 18. Round 17 (60 controls as agents write them) promoted
# 21 and 23 of 30 blind; its tuned half's misses read ("we" and a habit in other languages, "who" as a block's
# byline), 27 and 24; round 16's tuned half 19.
# A floor: what would fall if any of them broke.
@pytest.mark.parametrize("which, split, at_least", [(13, "tune", 28), (13, "held", 20), (14, "tune", 24), (14, "held", 23),
                                                    (15, "tune", 22), (15, "held", 15), (16, "tune", 19), (16, "held", 18),
                                                    (17, "tune", 27), (17, "held", 24)])
def test_durable_items_written_in_other_languages_reach_the_pr(rounds, which, split, at_least):
    good = [o for o in rounds(which) if o.item["split"] == split and o.item["label"] == "good"]
    promoted = [o for o in good if o.promote in ("main", "safeguard")]
    assert len(promoted) >= at_least, [o.item["text"][:60] for o in good if o not in promoted]
