"""`tiergit context`: the spawn prompt (hot only by default), --for situations, wiki picks, --stats, --strict."""
from __future__ import annotations

import json
from pathlib import Path

from conftest import tiergit, write

HOT = "# picard hot\n\n## Current task\n\nShip the token refresh fix.\n\n## Active decisions\n\n- Use MSAL.\n"
COLD = "# picard\n\n### Token cache bug (2026-05-01)\n\n- **Root cause:** expired tokens kept in the cache.\n"
WIKI = {"auth": "# Auth\n\n- [decision] All services use MSAL for token acquisition.\n",
        "deploy": "# Deploy\n\n- [rule] Blue green slots for every release.\n"}


def _store(repo: Path) -> Path:
    root = repo / ".squad" / "memory"
    write(root / "hot" / "picard.md", HOT)
    write(root / "cold" / "picard.md", COLD)
    for topic, text in WIKI.items():
        write(root / "wiki" / f"{topic}.md", text)
    return root


def _json(repo: Path, *args: str) -> dict:
    proc = tiergit(repo, "context", *args, "--json")
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_default_prompt_is_hot_only_with_task_why_success(squad_repo):
    _store(squad_repo)
    proc = tiergit(squad_repo, "context", "--agent", "picard", "--why", "users get logged out",
                   "--success", "no 401 after 1 hour")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    for heading in ("## Task", "## WHY", "## Success criteria", "## Memory Context", "### Hot"):
        assert heading in out
    assert "Ship the token refresh fix." in out.split("## WHY")[0]  # task from the hot file
    assert "users get logged out" in out and "no 401 after 1 hour" in out
    assert "Use MSAL." in out
    assert "### Cold" not in out     # the cold tier is not loaded whole ...
    assert out.count("expired tokens kept in the cache") == 1   # ... its item relevant to the task comes once
    assert "### Wiki" not in out and "Blue green" not in out
    assert "tiergit spawn template" not in out  # the template's own note is not part of the prompt


def test_include_cold_and_wiki(squad_repo):
    _store(squad_repo)
    data = _json(squad_repo, "--agent", "picard", "--include-cold", "--include-wiki", "auth")
    assert "### Cold" in data["prompt"] and "expired tokens kept" in data["prompt"]
    assert "### Wiki" in data["prompt"] and "All services use MSAL" in data["prompt"]
    assert "Blue green" not in data["prompt"]
    assert [f["tier"] for f in data["files"]] == ["hot", "cold", "wiki"]


def test_for_situation_picks_tiers(squad_repo):
    _store(squad_repo)
    new = _json(squad_repo, "--agent", "picard", "--for", "new")["prompt"]
    assert "### Cold" not in new and "### Wiki" not in new
    resume = _json(squad_repo, "--agent", "picard", "--for", "resume")["prompt"]
    assert "### Cold" in resume and "### Wiki" not in resume
    spec = _json(squad_repo, "--agent", "picard", "--for", "spec", "--task", "blue green release slots")
    assert "### Cold" not in spec["prompt"] and spec["wiki_topics"] == ["deploy"]
    assert any("picked deploy" in n for n in spec["notes"])
    incident = _json(squad_repo, "--agent", "picard", "--for", "incident", "--task", "zzz qqq")
    assert "### Cold" in incident["prompt"]
    # no recall match for the task: every topic within the wiki budget
    assert incident["wiki_topics"] == ["auth", "deploy"]


def test_stats_compare_with_every_tier_and_legacy(squad_repo):
    root = _store(squad_repo)
    write(root / "cold" / "picard.md", COLD + "".join(f"- cold note {i} on the cache\n" for i in range(150)))
    write(squad_repo / ".squad" / "agents" / "picard" / "history.md", "# picard\n\n" + "- old line\n" * 400)
    proc = tiergit(squad_repo, "context", "--agent", "picard", "--stats")
    assert proc.returncode == 0, proc.stderr
    assert "## Task" in proc.stdout and "every tier" not in proc.stdout  # stats go to stderr
    assert "prompt total" in proc.stderr and "every tier" in proc.stderr and "legacy files" in proc.stderr
    st = _json(squad_repo, "--agent", "picard")["stats"]
    assert st["total"]["tokens"] < st["every_tier"]["tokens"]
    assert st["every_tier_files"] == 4  # hot, cold and both wiki topics
    assert st["legacy_files"] == [".squad/agents/picard/history.md"]
    assert st["saved_vs_legacy"] > 50
    # no --why / --success: those sections are left out; the closing (recall) holds the wiki's topic index
    assert set(st["sections"]) == {"task", "escalation", "hot", "knowledge", "recall"}


def test_hot_over_budget_is_reported_and_strict_exits_1(squad_repo):
    root = _store(squad_repo)
    write(root / "hot" / "picard.md", HOT + "".join(f"- note {i} about the token cache work\n" for i in range(400)))
    proc = tiergit(squad_repo, "context", "--agent", "picard")
    assert proc.returncode == 0 and "hot over budget" in proc.stderr
    strict = tiergit(squad_repo, "context", "--agent", "picard", "--strict")
    assert strict.returncode == 1 and "hot/picard.md" in strict.stderr
    write(root / "hot" / "picard.md", HOT)
    assert tiergit(squad_repo, "context", "--agent", "picard", "--strict").returncode == 0


def test_store_template_and_template_option(squad_repo):
    root = _store(squad_repo)
    write(root / "templates" / "spawn.md", "AGENT={{agent}}\nTASK={{ task }}\n{{hot}}{{cold}}\n")
    out = tiergit(squad_repo, "context", "--agent", "picard", "--task", "T1").stdout
    assert out.startswith("AGENT=picard\nTASK=T1\n") and "## Memory Context" not in out
    custom = write(squad_repo / "my.md", "ONLY {{task}}\n")
    out = tiergit(squad_repo, "context", "--agent", "picard", "--task", "T2", "--template", str(custom)).stdout
    assert out == "ONLY T2\n"
    bad = write(squad_repo / "bad.md", "{{nope}}\n")
    proc = tiergit(squad_repo, "context", "--agent", "picard", "--template", str(bad))
    assert proc.returncode == 2 and "unknown placeholder {{nope}}" in proc.stderr


def test_bad_input_exits_2(squad_repo):
    _store(squad_repo)
    cases = [(["--agent", "../x"], "invalid agent"), (["--agent", "picard", "--include-wiki", "nope"], "no wiki topic"),
             (["--agent", "picard", "--include-wiki", "../etc"], "invalid topic"),
             (["--agent", "ghost"], "no memory for agent 'ghost'"), (["--agent", "picard", "--for", "party"], "party"),
             (["--agent", "picard", "--template", "missing.md"], "not found")]
    for args, needle in cases:
        proc = tiergit(squad_repo, "context", *args)
        assert proc.returncode == 2, (args, proc.stdout, proc.stderr)
        assert needle in proc.stderr and "Traceback" not in proc.stderr, (args, proc.stderr)


def test_openclaw_context_needs_no_agent_like_session(repo):
    from conftest import tiergit as run

    assert run(repo, "init", "--preset", "openclaw", "--no-install").returncode == 0
    assert run(repo, "session", "start", "--task", "Tidy the daily notes").returncode == 0
    proc = run(repo, "context")
    assert proc.returncode == 0, proc.stderr
    assert "Tidy the daily notes" in proc.stdout and ".tiergit/hot/MEMORY.md" in proc.stdout
