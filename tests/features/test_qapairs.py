"""core/qapairs.py: what the recall index keeps together. A question paragraph takes its answer; a list of
open questions stays apart; in a dialogue, the answer turn takes the other speaker's question before it."""
from __future__ import annotations

import json

from conftest import tiergit, write

from tiergit.core import qapairs


def _texts(raws: list[str]) -> list[str]:
    return [raw for raw, _clean in qapairs.texts(raws, raws)]


def test_a_question_paragraph_takes_its_answer_and_a_list_of_questions_stays_apart() -> None:
    assert _texts(["Why does .Count throw under strict mode?", "Because the proxy is lazy."]) == \
        ["Why does .Count throw under strict mode?\nBecause the proxy is lazy.", "Because the proxy is lazy."]
    assert _texts(["Why?", "How?"]) == ["Why?", "How?"]   # an answer that asks is no answer
    listed = ["- Do we pin Node?", "- Who owns the cache?"]
    assert _texts(listed) == listed


def test_a_dialogue_turn_takes_the_question_it_answers() -> None:
    turns = ["- Caroline: That's lovely! How long have you been married?", "- Melanie: 5 years already!",
             "- Melanie: We met at a pottery class.", "- Caroline: I went to a support group yesterday."]
    assert _texts(turns) == [turns[0], turns[0] + "\n" + turns[1], turns[2], turns[3]]
    # the same speaker again, or no question before: nothing added
    assert _texts(["- Caroline: Any plans?", "- Caroline: I might paint."]) == ["- Caroline: Any plans?",
                                                                             "- Caroline: I might paint."]
    assert _texts(["- **Jon:** Where is the studio?", "- **Gina:** Downtown."])[1] == \
        "- **Jon:** Where is the studio?\n- **Gina:** Downtown."
    # a list of items that are no speaker turns is no dialogue
    assert _texts(["- Open: who owns the cache?", "- open: the TTL"])[1] == "- open: the TTL"


def test_recall_finds_an_answer_by_the_words_of_its_question(squad_repo) -> None:
    write(squad_repo / ".squad" / "memory" / "cold" / "picard.md",
          "# picard\n\n### Call with the owner (2026-05-01)\n\n"
          "- Picard: How long do refresh tokens live in the broker cache?\n- Owner: Ninety days, then we rotate.\n"
          "- Picard: Thanks.\n\n### Dashboard (2026-05-03)\n\n- Switched the dashboard palette.\n")
    proc = tiergit(squad_repo, "recall", "refresh tokens broker cache", "--json", "--no-log")
    assert proc.returncode == 0, proc.stderr
    hits = json.loads(proc.stdout)["hits"]
    assert {h["line"] for h in hits[:2]} == {5, 6}   # the question and its answer, whose own words match nothing
    answer = next(h for h in hits if h["line"] == 6)
    assert "Ninety days" in answer["raw"] and "refresh tokens" in answer["raw"]

