"""`tiergit import squad|openclaw` on small layouts: preview, apply, budgets, staging format, retire-legacy."""
from __future__ import annotations

import json
from datetime import date, timedelta
from pathlib import Path

from conftest import git, tiergit, write

from tiergit.core import parse
from tiergit.features.importing import staged
from tiergit.shell.store import Store
from tiergit.shell import clock

# Shaped like the corpus histories (bradygaster/squad, MIT): a title, Core Context, dated ### entries.
ENTRY = """### {title} ({day})

**Context:** {body}

**Key lesson:** {lesson}

"""


def _history(entries: int, body_words: int = 60) -> str:
    text = "# Worf\n\n## Core Context\n\nSecurity reviews for every PR touching auth.\n\n## Learnings\n\n"
    for i in range(entries):
        day = date(2026, 1, 1) + timedelta(days=i)
        text += ENTRY.format(title=f"Review {i}", day=day.isoformat(), body=" ".join(["audit"] * body_words) + f" {i}.",
                             lesson=f"Check the token scopes of change {i} before merging.")
    return text


def _squad(repo: Path, entries: int = 40) -> None:
    write(repo / ".squad" / "agents" / "worf" / "history.md", _history(entries))
    write(repo / ".squad" / "agents" / "data" / "history.md", "# Data\n\n## Learnings\n\n- Positronic net is fine.\n")
    write(repo / ".squad" / "decisions.md", "# Decisions\n\n### Use MSAL\n**By:** Worf\n**What:** MSAL everywhere.\n"
                                            "**Why:** One token cache.\n")


def test_preview_writes_nothing(squad_repo):
    _squad(squad_repo)
    before = git(squad_repo, "status", "--porcelain").stdout
    proc = tiergit(squad_repo, "import", "squad")
    assert proc.returncode == 0, proc.stderr
    assert "create  .squad/memory/cold/worf.md" in proc.stdout and "--apply" in proc.stdout
    assert git(squad_repo, "status", "--porcelain").stdout == before


def test_apply_splits_history_into_cold_and_archive_within_budget(squad_repo):
    _squad(squad_repo)
    proc = tiergit(squad_repo, "import", "squad", "--apply", "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    worf = next(a for a in data["agents"] if a["agent"] == "worf")
    assert 0 < worf["kept_entries"] < 40 and worf["archived_units"] == 40 - worf["kept_entries"]
    root = squad_repo / ".squad" / "memory"
    cold = (root / "cold" / "worf.md").read_text()
    assert "## Core Context" in cold and "Security reviews" in cold  # pinned sections stay
    assert "Review 39 (" in cold and "Review 0 (" not in cold        # newest kept, oldest archived
    archive = (root / "archive" / "2026-01" / "cold" / "worf.md").read_text()   # the one layout
    assert "Review 0 (2026-01-01)" in archive
    # nothing lost: every legacy item is in cold or the archive, exactly once
    legacy = parse.parse(_history(40), "h").items
    placed = parse.parse(cold, "c").items + [i for p in (root / "archive").rglob("worf.md")
                                             for i in parse.parse(p.read_text(), str(p)).items]
    assert sorted(i.id for i in legacy) == sorted(i.id for i in placed)
    assert (root / "hot" / "worf.md").is_file() and (root / "hot" / "data.md").is_file()
    assert tiergit(squad_repo, "check", "--all").returncode == 0
    git(squad_repo, "add", "-A")
    assert git(squad_repo, "commit", "-q", "-m", "import", check=False).returncode == 0  # the hook accepts it


def test_staging_file_keeps_ids_kinds_and_sources(squad_repo):
    _squad(squad_repo, entries=3)
    assert tiergit(squad_repo, "import", "squad", "--apply").returncode == 0
    store = Store.open(squad_repo)
    path = store.root / "staging" / "imported.md"
    items = staged.read(path.read_text(), "s")
    lessons = parse.parse(_history(3), "h").items
    want = {i.id for i in lessons if i.kind == "rule"}
    assert want and want <= {s.id for s in items}
    rule = next(s for s in items if s.kind == "rule")
    assert rule.source == ".squad/agents/worf/history.md" and rule.entry.startswith("Review ")
    decision = next(s for s in items if s.kind == "decision")
    assert decision.source == ".squad/decisions.md" and "MSAL everywhere" in decision.text
    # a re-run with a new item appends it and keeps the old ones once
    (store.root / "cold" / "worf.md").unlink()
    write(squad_repo / ".squad" / "agents" / "worf" / "history.md", _history(4))
    assert tiergit(squad_repo, "import", "squad", "--apply").returncode == 0
    again = staged.read(path.read_text(), "s")
    assert len(again) == len(items) + 1 and len({s.id for s in again}) == len(again)


def test_retire_legacy_removes_histories_and_keeps_decisions_for_squad(squad_repo):
    _squad(squad_repo)
    proc = tiergit(squad_repo, "import", "squad", "--apply", "--retire-legacy")
    assert proc.returncode == 0, proc.stderr
    assert not (squad_repo / ".squad" / "agents" / "worf" / "history.md").exists()
    assert "MSAL everywhere" in (squad_repo / ".squad" / "decisions.md").read_text()   # Squad's: `squad doctor` needs it
    assert ".squad/decisions.md: kept" in proc.stdout
    hits = json.loads(tiergit(squad_repo, "recall", "token scopes change 0", "--json").stdout)["hits"]
    assert any(h["tier"] == "archive" for h in hits)


def test_import_squad_without_squad_layout_is_a_clear_error(squad_repo):
    proc = tiergit(squad_repo, "import", "squad")
    assert proc.returncode == 2 and "no Squad layout" in proc.stderr
    proc = tiergit(squad_repo, "import", "nope")
    assert proc.returncode == 2


def test_import_openclaw(repo):
    assert tiergit(repo, "init", "--preset", "openclaw").returncode == 0
    today = clock.today()
    recent, old = today - timedelta(days=2), today - timedelta(days=60)
    write(repo / "MEMORY.md", "# Memory\n\n- [rule] Never push to main.\n")
    write(repo / ".tiergit" / "warm" / "MEMORY.md", "# Warm\n\n- [preference] Short answers.\n")
    write(repo / "memory" / f"{recent}.md", f"# {recent}\n\n- [decision] Ship v2 on Friday.\n- chatter\n")
    write(repo / "memory" / f"{recent}-1432.md", f"# {recent} 14:32\n\n- [fact] The NAS is on 10.0.0.5.\n")
    write(repo / "memory" / f"{old}.md", f"# {old}\n\n- [fact] The staging DB is read-only.\n")
    proc = tiergit(repo, "import", "openclaw")
    assert proc.returncode == 0 and not (repo / ".tiergit" / "candidates.md").exists()
    proc = tiergit(repo, "import", "openclaw", "--apply")
    assert proc.returncode == 0, proc.stderr
    # Daily notes stay where OpenClaw reads and writes them; `archive` moves them at their TTL.
    for note in (f"{recent}.md", f"{recent}-1432.md", f"{old}.md"):
        assert (repo / "memory" / note).is_file()
    assert not (repo / "memory" / "daily").exists()
    assert (repo / ".tiergit" / "hot" / "MEMORY.md").is_file()
    staged_text = (repo / ".tiergit" / "candidates.md").read_text()
    for item in ("[decision] Ship v2 on Friday.", "[fact] The staging DB is read-only.", "[fact] The NAS is on 10.0.0.5."):
        assert item in staged_text
    assert "chatter" not in staged_text
    assert "cold: MEMORY.md kept in place (healthy" in proc.stdout
    hits = json.loads(tiergit(repo, "recall", "staging DB read-only", "--json").stdout)["hits"]
    assert hits[0]["path"] == f"memory/{old}.md"
    assert tiergit(repo, "import", "openclaw", "--apply", "--retire-legacy").returncode == 0
    assert (repo / "memory" / f"{recent}.md").is_file()    # OpenClaw's daily tier is not legacy


def test_import_squad_maps_any_squad_agent_name_to_a_slug(squad_repo):
    _squad(squad_repo, entries=2)
    write(squad_repo / ".squad" / "agents" / "Rai" / "history.md",
          "# Rai\n\n## Learnings\n\n- [rule] Flag any PII in prompts.\n")
    proc = tiergit(squad_repo, "import", "squad", "--apply")
    assert proc.returncode == 0, proc.stderr
    assert "Rai: agent files use the slug 'rai'" in proc.stdout
    root = squad_repo / ".squad" / "memory"
    assert "Flag any PII in prompts." in (root / "cold" / "rai.md").read_text()
    assert (root / "hot" / "rai.md").is_file()
    assert (squad_repo / ".squad" / "agents" / "Rai" / "history.md").is_file()


def test_bad_legacy_file_exits_2_and_writes_nothing(squad_repo):
    _squad(squad_repo)
    (squad_repo / ".squad" / "agents" / "worf" / "history.md").write_bytes(b"# Worf\n\n- caf\xe9\n")
    write(squad_repo / ".squad" / "agents" / "¿¿" / "history.md", "# x\n")
    before = git(squad_repo, "status", "--porcelain", "-uall").stdout
    proc = tiergit(squad_repo, "import", "squad", "--apply")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert ".squad/agents/worf/history.md:3" in proc.stderr and "UTF-8" in proc.stderr
    assert git(squad_repo, "status", "--porcelain", "-uall").stdout == before
    (squad_repo / ".squad" / "agents" / "worf" / "history.md").write_text(_history(2))
    proc = tiergit(squad_repo, "import", "squad")
    assert proc.returncode == 0 and "skipped .squad/agents/¿¿/history.md" in proc.stdout


def test_reimport_picks_up_what_scribe_appended_without_duplicates(squad_repo):
    _squad(squad_repo, entries=3)
    assert tiergit(squad_repo, "import", "squad", "--apply").returncode == 0
    hist = squad_repo / ".squad" / "agents" / "worf" / "history.md"
    hist.write_text(hist.read_text() + "### Review 99 (2026-11-20)\n\n**Key lesson:** Rotate the signing key yearly.\n")
    again = tiergit(squad_repo, "import", "squad", "--apply")
    assert again.returncode == 0, again.stderr
    cold = (squad_repo / ".squad" / "memory" / "cold" / "worf.md").read_text()
    assert cold.count("Rotate the signing key yearly.") == 1 and "### Review 99 (2026-11-20)" in cold
    assert cold.count("Check the token scopes of change 0 ") == 1          # nothing imported twice
    third = tiergit(squad_repo, "import", "squad", "--json")
    assert json.loads(third.stdout)["changes"] == []


def test_retire_legacy_after_an_earlier_import_checks_every_item_first(squad_repo):
    _squad(squad_repo, entries=3)
    assert tiergit(squad_repo, "import", "squad", "--apply").returncode == 0
    hist = squad_repo / ".squad" / "agents" / "worf" / "history.md"
    hist.write_text(hist.read_text() + "- Scribe appended this after the import, a new line.\n")
    proc = tiergit(squad_repo, "import", "squad", "--apply", "--retire-legacy")
    assert proc.returncode == 0, proc.stderr
    assert not hist.exists()
    cold = (squad_repo / ".squad" / "memory" / "cold" / "worf.md").read_text()
    assert "Scribe appended this after the import" in cold
