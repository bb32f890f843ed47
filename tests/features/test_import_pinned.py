"""`import squad` keeps every pinned (undated) section in cold while cold can fit; when the
pinned text alone is over the budget, the largest bodies move to the archive with a pointer
line (day one is green, nothing is lost). A hand-written fixture, then every corpus Squad project."""
from __future__ import annotations

import json
import re
import shutil
from datetime import date, timedelta
from pathlib import Path

import pytest
from conftest import CORPUS, HAVE_CORPUS, git, tiergit, write

from tiergit.core import parse, rawtext
from tiergit.shell import clock

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


def test_pinned_sections_that_cannot_fit_move_with_a_pointer(squad_repo):
    """Day one is green: when the pinned sections alone are over the budget, the largest one's
    body moves to the archive and its heading stays in cold with a pointer line naming where."""
    rel = ".squad/agents/worf/history.md"
    write(squad_repo / rel, _history())
    proc = tiergit(squad_repo, "import", "squad", "--apply", "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    worf = next(a for a in data["agents"] if a["agent"] == "worf")
    assert worf["over_budget"] is False
    cold = (squad_repo / ".squad/memory/cold/worf.md").read_text()
    archived = _archived_text(squad_repo)
    month = clock.today().strftime("%Y-%m")
    assert "## Core Context" in cold and f"Moved to `{ARCHIVE}/{month}/cold/worf.md` by tiergit" in cold
    assert "Rule 0:" not in cold and "Rule 0:" in archived and "Rule 89:" in archived
    assert "staging cluster" in cold and "staging cluster" not in archived    # the small one stays
    assert "Undated: pair on every auth change." in cold          # an undated item of a log section stays
    for line in _history().splitlines():                          # nothing lost
        assert line in cold or line in archived, line
    # the newest sessions (keep_last 3) stay; older dated units are filed by their own month
    assert all(f"## Session {i} " in cold for i in (3, 4, 5)) and "Session 0 (2026-02-01)" in archived
    assert "shipped review 0 " in archived
    assert tiergit(squad_repo, "check", "--all").returncode == 0


@pytest.mark.e2e  # the hook fires under a real git commit
def test_the_over_budget_hint_for_pinned_text_really_fixes_it(squad_repo):
    """A cold file whose pinned sections grew over max by hand: the hook names `check --fix`,
    and `check --fix` does fix it (the largest pinned body moves with a pointer line)."""
    cold = squad_repo / ".squad/memory/cold/worf.md"
    doc = _history()
    write(cold, doc[:doc.index("## Learnings")])
    git(squad_repo, "add", "-A")
    refused = git(squad_repo, "commit", "-q", "-m", "cold", check=False)
    assert refused.returncode == 1 and "check --fix" in refused.stdout + refused.stderr
    fix = tiergit(squad_repo, "check", "--fix")
    assert "Traceback" not in fix.stderr and "--fix changed" in fix.stdout, fix.stdout + fix.stderr
    assert "Moved to `" in cold.read_text() and "## Core Context" in cold.read_text()
    assert tiergit(squad_repo, "check", "--all").returncode == 0
    git(squad_repo, "add", "-A")
    assert git(squad_repo, "commit", "-q", "-m", "fixed", check=False).returncode == 0


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
        archived = _archived_text(repo)
        for sec in _pinned(hist.read_text(encoding="utf-8"), rel):
            heading = sec.text.splitlines()[0]
            if sec.text.strip() not in cold:   # moved for the budget: heading and pointer stay, body archived
                assert heading in cold and "Moved to `" in cold, f"{rel}: pinned {sec.heading!r} is lost"
                assert all(ln in archived for ln in sec.text.splitlines()[1:] if ln.strip()), sec.heading
            checked += 1
        assert not slugs[rel]["over_budget"], f"{rel}: cold over budget after import"
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
