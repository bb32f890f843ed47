"""`import squad` keeps every pinned (undated) section in cold, even when cold cannot fit:
the import then reports cold over budget and names the fix that works (a larger budget),
instead of archiving the pinned text. A hand-written fixture, then every corpus Squad project."""
from __future__ import annotations

import json
import re
import shutil
from datetime import date, timedelta
from pathlib import Path

import pytest
from conftest import CORPUS, HAVE_CORPUS, git, tiergit, write

from tiergit.core import parse, rawtext

ARCHIVE = ".squad/memory/archive"


def _pinned(text: str, rel: str) -> list[parse.Section]:
    """What DESIGN calls pinned: undated sections (a dated log section's items come and go one by one)."""
    doc = parse.parse(text, rel)
    return [s for s in doc.sections if s.level > 0 and s.date is None and not s.is_log_section]


def _history() -> str:
    core = "".join(f"- Rule {i}: every change to the billing adapter {i} runs the contract suite first, "
                   f"because the sandbox drifts from production after each quarterly release ({i}).\n"
                   for i in range(90))
    log = "".join(f"- {date(2026, 1, 1) + timedelta(days=i)}: shipped review {i} of the token scopes.\n"
                  for i in range(12))
    return ("# Worf\n\n## Core Context\n\n" + core + "\n## Working Notes\n\n- The staging cluster is shared "
            "with the data team; ask before draining it.\n\n## Learnings\n\n" + log
            + "- Undated: pair on every auth change.\n\n"
            + "".join(f"## Session {i} ({date(2026, 2, 1) + timedelta(days=i)})\n\n- Fixed flaky test {i}.\n\n"
                      for i in range(6)))


def _archived_text(repo: Path) -> str:
    return "".join(p.read_text() for p in sorted((repo / ARCHIVE).rglob("*.md")))


def test_pinned_sections_stay_in_cold_when_cold_cannot_fit(squad_repo):
    rel = ".squad/agents/worf/history.md"
    write(squad_repo / rel, _history())
    proc = tiergit(squad_repo, "import", "squad", "--apply", "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    worf = next(a for a in data["agents"] if a["agent"] == "worf")
    assert worf["over_budget"] is True
    cold = (squad_repo / ".squad/memory/cold/worf.md").read_text()
    archived = _archived_text(squad_repo)
    pinned = _pinned(_history(), rel)
    assert {s.heading for s in pinned} >= {"Worf", "Core Context", "Working Notes"}
    for sec in pinned:
        assert sec.text.strip() in cold, f"pinned section {sec.heading!r} left cold"
    assert "Undated: pair on every auth change." in cold          # an undated item of a log section stays
    assert "Rule 0:" not in archived and "staging cluster" not in archived
    # what can leave does: every dated entry and dated log item, filed by its own month
    assert "Session 0 (2026-02-01)" in archived and "shipped review 0 " in archived
    assert "Session 5" not in cold and "shipped review 11 " not in cold
    # the note names the fix that works (check --fix cannot archive pinned text)
    note = next(n for n in data["notes"] if n.startswith("worf: cold is over budget"))
    assert "pinned" in note and "tiers.cold.budget." in note


@pytest.mark.e2e  # the hook fires under a real git commit
def test_following_the_over_budget_hint_lets_the_commit_through(squad_repo):
    write(squad_repo / ".squad/agents/worf/history.md", _history())
    proc = tiergit(squad_repo, "import", "squad", "--apply")
    assert proc.returncode == 0, proc.stderr
    assert "OVER BUDGET" in proc.stdout
    check = tiergit(squad_repo, "check", "--all")
    assert check.returncode == 1 and "BUD001" in check.stdout + check.stderr
    # `check --fix` cannot archive pinned text: it changes nothing and names the same fix
    cold = (squad_repo / ".squad/memory/cold/worf.md").read_text()
    fix = tiergit(squad_repo, "check", "--fix")
    assert fix.returncode == 1 and "Traceback" not in fix.stderr
    assert "cold/worf.md: cold is over budget" in fix.stderr and "tiers.cold.budget." in fix.stderr
    assert (squad_repo / ".squad/memory/cold/worf.md").read_text() == cold
    # apply the values the note names, as a user would
    wanted = dict(re.findall(r"tiers\.cold\.budget\.(\w+): (\d+)", proc.stdout))
    cfg = squad_repo / ".tiergit.yml"
    budget = ", ".join(f"{m}: {v}" for m, v in sorted(wanted.items()))
    cfg.write_text(cfg.read_text() + f"tiers:\n  cold: {{budget: {{{budget}}}}}\n")
    check = tiergit(squad_repo, "check", "--all")
    assert check.returncode == 0, check.stdout + check.stderr
    git(squad_repo, "add", "-A")
    assert git(squad_repo, "commit", "-q", "-m", "import", check=False).returncode == 0


SQUAD_PROJECTS = sorted({p.relative_to(CORPUS).parts[0] for p in CORPUS.glob("*/.squad/agents/*/history.md")}) \
    if HAVE_CORPUS else []


@pytest.mark.corpus
@pytest.mark.parametrize("project", SQUAD_PROJECTS or ["(no corpus)"])
def test_every_pinned_section_of_every_history_is_in_cold(project, tmp_path):
    if not HAVE_CORPUS:
        pytest.skip("no corpus")
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    shutil.copytree(CORPUS / project / ".squad", repo / ".squad")
    assert tiergit(repo, "init", "--preset", "squad").returncode == 0
    cfg = repo / ".tiergit.yml"   # what TG003's hint says for a project whose decisions.md is 856 KB
    cfg.write_text(cfg.read_text() + "limits: {max_file_bytes: 4000000}\n")
    git(repo, "add", "-A")
    git(repo, "-c", "core.hooksPath=/dev/null", "commit", "-q", "-m", "legacy squad")
    proc = tiergit(repo, "import", "squad", "--apply", "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    slugs = {a["source"]: a for a in data["agents"]}
    checked = 0
    for hist in sorted(repo.glob(".squad/agents/*/history.md")):
        rel = hist.relative_to(repo).as_posix()
        if rel not in slugs:
            continue
        cold = (repo / ".squad/memory/cold" / f"{slugs[rel]['agent']}.md").read_text(encoding="utf-8")
        for sec in _pinned(hist.read_text(encoding="utf-8"), rel):
            assert sec.text.strip() in cold, f"{rel}: pinned {sec.heading!r} is not in cold"
            checked += 1
        if slugs[rel]["over_budget"]:
            assert any(n.startswith(f"{slugs[rel]['agent']}: cold is over budget") and "tiers.cold.budget." in n
                       for n in data["notes"])
    assert checked > 0


def test_a_lone_carriage_return_in_decisions_md_parses(squad_repo):
    # markdown-it ends a line at a lone \r (a real decisions.md has one): parsing and importing it must not crash
    text = "# Decisions\n\n### Use MSAL\n\n- Is \\\rrunSubagent\\ the tool?\r\n---\n\n# Next\n\n**What:** MSAL everywhere.\n"
    doc = parse.parse(text, "decisions.md")
    assert [s.heading for s in doc.sections if s.level] == ["Decisions", "Next"]
    assert doc.render() == text
    lines = rawtext.split_lines(text)   # items point at their own text, wherever lines are split
    assert [lines[i.line - 1].strip()[:4] for i in doc.items] == ["- Is", "**Wh"]
    write(squad_repo / ".squad/decisions.md", text)
    write(squad_repo / ".squad/agents/data/history.md", "# Data\n\n## Learnings\n\n- Positronic net is fine.\n")
    proc = tiergit(squad_repo, "import", "squad", "--apply")
    assert proc.returncode == 0, proc.stderr
