"""core/speech_acts.py: a line that greets, guesses, waits or reports one session is no knowledge,
whatever label it wears; the look-alikes that are knowledge stay (the corpus's own shapes, paraphrased)."""
from __future__ import annotations

import pytest

from tiergit.core import speech_acts
from tiergit.features.promotion import gate


@pytest.mark.parametrize("text, act", [
    ("[fact] Good morning team! 👋", "a greeting"),
    ("[fact] Bom dia, pessoal! ☀️", "a greeting"),
    ("**Lesson:** 안녕하세요, 좋은 아침입니다!", "a greeting"),
    ("[decision] Thanks everyone for the quick turnaround!", "thanks or an apology"),
    ("[fact] Przepraszam za zamieszanie na kanale.", "thanks or an apology"),
    ("[fact] hmm, weird error but it went away", "an interjection"),
    ("[fact] Might be the cache? Not sure yet.", "a guess or an open question"),
    ("[fact] thinking out loud:\n  maybe the parser?\n  or not", "a guess or an open question"),
    ("Q: do we tag before or after the rename? nobody answered", "a guess or an open question"),
    ("[decision] Kollar på det här senare, kanske.", "a guess or an open question"),
    ("[fact] Warten noch auf Rückmeldung vom Rechtsteam.", "waiting on someone"),
    ("[fact] 디자인팀 피드백 기다리는 중.", "waiting on someone"),
    ("[fact] 마이그레이션 진행률 75%.", "a progress figure or an ETA"),
    ("[fact] ETA per la nuova dashboard: venerdì.", "a progress figure or an ETA"),
    ("[correction] literówka w poprzedniej notatce", "a note about the notes (a typo, a test entry)"),
    ("**Cosa:** Aggiornamenti di tutti, niente di nuovo.", "a report that nothing changed"),
    ("[fact] Session summary: refactored two handlers, read some docs.", "a report of one session"),
    ("[fact] I opened three browser tabs to compare the docs.", "a report of one session"),
    ("[fact] The user said \"thanks!\" at the end.", "a report of one session"),
    ("[decision] Ik geef dit door aan Pieter, hij kent de database.", "a hand-off"),
    ("[fact] FYI the printer on the second floor is fixed.", "news that a state just changed"),
    ("所有项目状态稳定，无阻塞项", "an all-clear status"),
    ("[fact] Everything is green on staging, no blockers.", "an all-clear status"),
    ("[fact] Spent about two hours chasing the reconnect bug in the socket client.", "a report of one session"),
    ("**Lesson:** Back from vacation, catching up on unread threads.", "a report of one session"),
    ("[rule] 목요일 오후 3시에 보고서 보내는 것 잊지 말기.", "a reminder for one day"),
    ("[decision] Возможно, стоит переписать модуль уведомлений.", "a guess or an open question"),
    ("[fact] Incident on 2024-03-12: checkout was down for 11 minutes.", "an incident on one date"),
    ("[fact]     at Object.<anonymous> (/app/src/server.js:42:13)", "a console's output"),
    ("[fact] https://github.com/acme/payments/pull/1287", "a console's output"),
    ("NAME READY STATUS RESTARTS AGE api-7d9f8 1/1 Running 0 3h", "a console's output"),
])
def test_what_a_line_does_instead_of_stating_knowledge(text, act):
    assert speech_acts.no_knowledge(text) == act
    assert gate.junk(text) is not None   # the gate refuses it, at `promote`, `propose` and MCP alike


@pytest.mark.parametrize("text", [
    # shapes the corpus holds as knowledge, each a near miss of one act above
    "Thanks to the shared cache, cold starts take two seconds.",
    "Hi-DPI textures live under assets/hd/ and load on scale >= 2.",
    "**Systems-minded:** I think in connections, workflows and leverage points.",
    "**Rule 2**: 不确定时必须先联网搜索",
    "If unsure, ask the module owner before changing the schema.",
    "The seed order (review, new words, struggling, phrases) is fixed.",
    "**Decision:** No fuzzy matching and no typo tolerance; exact names only.",
    "**Versioning policy:** https://example.org/versioning.html",
    "Output: `.squad/decisions/inbox/<agent>-<slug>.md`, one file per decision.",
    "Empty dataset: no transactions means progress = 0% (not null).",
    "Na de push, synchroniseer de applicatie in ArgoCD (of wacht op de automatische sync).",
    "**Decision:** Stay on 5.4 until the upstream bug is fixed.",
    "The cost of the deferral was higher than estimated: silent failures appeared in production on "
    "2026-05-25, three days later, because the boilerplate masked gaps in exception handling; a weekly "
    "revisit would have caught it before the incident.",
    "No updates to the schema without a migration script.",
    "If all blockers are closed or none exist, spawn the next agent immediately.",
    "If all green: proceed to the release commit.",
    "Don't forget to run the migrations before deploying.",          # a reminder with no day is a rule
    "Spent time is tracked per ticket in Harvest.",
])
def test_knowledge_that_looks_like_an_act_is_left_to_the_other_checks(text):
    assert speech_acts.no_knowledge(text) is None
