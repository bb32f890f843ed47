"""Squad's spawn through tiergit, the pure part: tiergit's insertion goes in once, at Squad's
anchors, and comes out leaving the original bytes (CRLF, no final newline, a hand edit)."""
from __future__ import annotations

import pytest

from tiergit.core import squadwire

COORD, SPAWN, SCRIBE = squadwire.TARGETS

AGENT_MD = ("# Squad\n\n### How to Spawn an Agent\n\nEvery domain task ...\n\n"
            "**Full Spawn Template** (inline charter/history/decisions as needed):\n\n```\nprompt: |\n```\n")
SPAWN_MD = ("  ## State Protocol\n\n  Read `agents/{name}/history.md` with `squad_state_read` when state tools "
            "are available; otherwise fall back to `.squad/agents/{name}/history.md`.\n"
            "  Read `decisions.md` with `squad_state_read`.\n")
SCRIBE_MD = "# Scribe\n\n## How I Work\n\n- merge the inbox\n\n## The Memory Architecture\n\n- tree\n"


@pytest.mark.parametrize("target, text", [(COORD, AGENT_MD), (SPAWN, SPAWN_MD), (SCRIBE, SCRIBE_MD),
                                          (SPAWN, SPAWN_MD.replace("\n", "\r\n")),
                                          (SCRIBE, SCRIBE_MD.rstrip("\n"))])
def test_wire_then_unwire_gives_the_original_bytes(target, text):
    wired = squadwire.wire(text, target)
    assert wired is not None and wired != text and squadwire.wired(wired, target)
    assert squadwire.wire(wired, target) == wired                 # once only
    assert squadwire.unwire(wired, target) == text
    assert squadwire.unwire(text, target) == text                 # nothing to take out


def test_the_insertions_sit_where_squad_builds_the_prompt():
    coord = squadwire.wire(AGENT_MD, COORD)
    assert coord.index("tiergit context --agent {name} --include-cold") < coord.index("**Full Spawn Template**")
    lines = squadwire.wire(SPAWN_MD, SPAWN).splitlines()
    assert lines[3].startswith("  MEMORY (tiergit):")             # right after the history line, same indent
    scribe = squadwire.wire(SCRIBE_MD, SCRIBE)
    assert scribe.index("tiergit session end --agent <name>") < scribe.index("## The Memory Architecture")


def test_no_anchor_is_no_wiring_and_a_hand_edited_block_still_comes_out():
    assert squadwire.wire("# Something else\n", COORD) is None
    edited = squadwire.wire(AGENT_MD, COORD).replace("Per-agent memory", "Per-agent memory (our team)")
    assert squadwire.unwire(edited, COORD) == AGENT_MD
