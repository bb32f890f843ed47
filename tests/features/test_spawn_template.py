"""Squad's spawn template as designed: success criteria as a checklist, an Escalation section
with the team's names, hot's recent actions trimmed to the configured count."""
from __future__ import annotations

import json

import pytest
from conftest import tiergit, write

from tiergit.core.spawn_template import (
    ESCALATION,
    checklist,
    escalation,
    trim_recent,
)

HOT = """# Hot memory · picard

## Current task
Ship the token refresh fix.

## Last actions
- action 1 (newest)
- action 2
- action 3
- action 4
- action 5
- action 6 (oldest)

## Blockers
- [ ] waiting on the gateway team
"""


def test_checklist_keeps_every_value_in_order():
    assert checklist(["no 401 after 1 h", " tests pass ", ""]) == "- [ ] no 401 after 1 h\n- [ ] tests pass"
    assert checklist("one") == "- [ ] one"
    assert checklist([]) == ""    # an empty section is left out of the prompt


@pytest.mark.parametrize("keep, left", [(3, 3), (5, 1), (6, 0), (7, 0)])
def test_recent_actions_trimmed_to_the_count(keep, left):
    text, dropped = trim_recent(HOT, keep)
    assert dropped == left
    kept = [line for line in text.splitlines() if line.startswith("- action")]
    assert kept == [f"- action {i}" + (" (newest)" if i == 1 else " (oldest)" if i == 6 else "")
                    for i in range(1, min(keep, 6) + 1)]
    assert "waiting on the gateway team" in text and "Ship the token refresh fix." in text


def test_dated_actions_keep_the_newest_by_date():
    hot = "## Last actions\n- 2026-05-01 oldest\n- 2026-05-09 newest\n- 2026-05-03 middle\n"
    text, dropped = trim_recent(hot, 2)
    assert dropped == 1 and "oldest" not in text and "newest" in text and "middle" in text


def test_escalation_names_are_configurable_and_can_be_left_out():
    default = escalation(ESCALATION)
    assert default.count("\n") == 2 and "the coordinator" in default and "the user" in default
    team = escalation({**ESCALATION, "blocked": "Picard", "risk": "", "security": "Worf"})
    assert "ask Picard instead of guessing" in team and "the user" not in team
    assert "- security: escalate to Worf." in team


def test_context_prints_checklist_escalation_and_five_recent_actions(squad_repo):
    cfg = squad_repo / ".tiergit.yml"
    cfg.write_text(cfg.read_text() + "spawn:\n  escalation: {blocked: Picard, decision: Riker}\n")
    write(squad_repo / ".squad/memory/hot/picard.md", HOT)
    run = tiergit(squad_repo, "context", "--agent", "picard", "--success", "no 401 after 1 h",
                  "--success", "tests pass", "--json")
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    prompt = out["prompt"]
    assert "## Success criteria\n\n- [ ] no 401 after 1 h\n- [ ] tests pass\n" in prompt
    assert prompt.rstrip().split("## Escalation\n\n")[1].startswith("- Blocked, or the task is unclear: ask Picard")
    assert "escalate to Riker" in prompt and "the user" in prompt
    assert "action 5" in prompt and "action 6" not in prompt
    assert any("1 older action(s) left out" in n for n in out["notes"])
    assert "action 6" in (squad_repo / ".squad/memory/hot/picard.md").read_text()   # hot untouched


def test_a_bad_spawn_block_is_one_error_naming_the_key(squad_repo):
    cfg = squad_repo / ".tiergit.yml"
    cfg.write_text(cfg.read_text() + "spawn: {recent_actions: 0}\n")
    run = tiergit(squad_repo, "context", "--agent", "picard")
    assert run.returncode == 2 and "spawn.recent_actions" in run.stderr and "Traceback" not in run.stderr
