"""`tiergit instructions --agent A`: the snippet agents paste into a charter, AGENTS.md or CLAUDE.md."""
from __future__ import annotations

import json
from pathlib import Path

from conftest import tiergit, write
from session_helpers import squad_store  # noqa: F401


def test_instructions_are_filled_in_for_the_agent(squad_store: Path) -> None:
    proc = tiergit(squad_store, "instructions", "--agent", "picard")
    assert proc.returncode == 0, proc.stderr
    text = proc.stdout
    assert "{" not in text.replace("{agent}", "")   # every placeholder filled
    assert ".squad/memory/hot/picard.md" in text and ".squad/memory/cold/picard.md" in text
    assert "tiergit session start --agent picard" in text and "tiergit session end --agent picard" in text
    assert "tiergit context --agent picard" in text and "tiergit recall" in text
    for prefix in ("`[decision]`", "`[correction]`", "`[permission]`", "`[error]`", "`[blocker]`", "`[rule]`"):
        assert prefix in text
    assert "4096 bytes, 1000 tokens" in text


def test_init_copies_templates_into_the_store_and_the_store_copy_wins(squad_store: Path) -> None:
    store_copy = squad_store / ".squad/memory/templates/agent-instructions.md"
    assert store_copy.is_file() and (squad_store / ".squad/memory/templates/hot.md").is_file()
    write(store_copy, "Team rule for {agent}: hot at {hot_path}.\n{kinds}\n")
    proc = tiergit(squad_store, "instructions", "--agent", "riker", "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["hot"] == ".squad/memory/hot/riker.md"
    assert data["text"].startswith("Team rule for riker: hot at .squad/memory/hot/riker.md.")


def test_custom_labels_show_up_in_the_kind_list(squad_store: Path) -> None:
    cfg = squad_store / ".tiergit.yml"
    cfg.write_text(cfg.read_text() + "labels:\n  decision: ['[decided]', '**Decision:**']\n")
    proc = tiergit(squad_store, "instructions", "--agent", "picard")
    assert proc.returncode == 0, proc.stderr
    assert "`[decided]`" in proc.stdout and "`[decision]`" not in proc.stdout


def test_openclaw_needs_no_agent_and_bad_agent_is_refused(repo: Path) -> None:
    assert tiergit(repo, "init", "--preset", "openclaw").returncode == 0
    proc = tiergit(repo, "instructions")
    assert proc.returncode == 0, proc.stderr
    assert ".tiergit/hot/MEMORY.md" in proc.stdout and ".tiergit/warm/MEMORY.md" in proc.stdout
    assert "`tiergit session start --task" in proc.stdout and "--agent" not in proc.stdout
    proc = tiergit(repo, "instructions", "--agent", "a/b")
    assert proc.returncode == 2 and "invalid agent name" in proc.stderr


def test_squad_layout_requires_an_agent(squad_store: Path) -> None:
    proc = tiergit(squad_store, "instructions")
    assert proc.returncode == 2 and "--agent is required" in proc.stderr


def test_instructions_teach_the_whole_loop(squad_store: Path) -> None:
    text = tiergit(squad_store, "instructions", "--agent", "picard").stdout
    for step in ("tiergit session start --agent picard", 'tiergit recall "', "--full",
                 "tiergit propose --topic", "--apply", "tiergit session end --agent picard",
                 "--for debug", "--include-wiki", "--include-cold"):
        assert step in text, step
    # the same loop through the MCP tools and resources
    for tool in ("session_start", "recall", "context", "propose", "session_end", "status",
                 "tiergit://hot/picard", "tiergit://wiki/<topic>"):
        assert tool in text, tool
    assert text.index("session start") < text.index("tiergit recall") < text.index("propose") \
        < text.index("session end --agent")


def test_unknown_agent_is_warned_with_the_known_names(squad_store: Path) -> None:
    write(squad_store / ".squad/memory/hot/picard.md", "# picard hot\n")
    proc = tiergit(squad_store, "instructions", "--agent", "pickard", "--json")
    assert proc.returncode == 0 and json.loads(proc.stdout)["known_agent"] is False
    assert "no memory for agent 'pickard'" in proc.stderr and "picard" in proc.stderr.split("agents are:")[1]
    proc = tiergit(squad_store, "instructions", "--agent", "picard")
    assert proc.returncode == 0 and "warning" not in proc.stderr


def test_instructions_say_when_to_recall(squad_repo):
    from conftest import tiergit as run

    proc = run(squad_repo, "instructions", "--agent", "picard")
    assert proc.returncode == 0, proc.stderr
    text = " ".join(proc.stdout.split())
    for moment in ("before you change a file the memory mentions", "when a test fails", "is unfamiliar"):
        assert moment in text
