"""Living beside OpenClaw and Squad without their CLIs (test_frameworks.py runs the real ones):
OpenClaw's note names and formats, Squad's agent names, own files and state backends."""
from __future__ import annotations

import json
from datetime import date

import pytest
from conftest import commit, git, ok, tiergit, write

from tiergit.core import parse
from tiergit.features.importing.squad_compat import agent_slug, two_layer_notes
from tiergit.features.promotion import openclaw_format
from tiergit.shell import clock

TOKEN = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"   # split so this file holds no token


@pytest.mark.e2e  # the hook fires under a real git commit
@pytest.mark.parametrize("name", ["2026-05-01-1432.md", "2026-05-01-zebra-migration.md", "2026-05-01.md"])
def test_every_note_openclaw_writes_is_checked_by_the_hook(repo, name):
    ok(tiergit(repo, "init", "--preset", "openclaw"))
    commit(repo, "init")
    write(repo / "memory" / name, f"# session\n\n- pasted {TOKEN}\n")
    git(repo, "add", "-A")
    refused = git(repo, "commit", "-q", "-m", "note", check=False)
    assert refused.returncode == 1 and f"memory/{name}:3: SEC001" in refused.stdout + refused.stderr
    # Dreaming's phase reports and the owner's own folders are not daily notes (not tiers).
    write(repo / "memory" / name, "# session\n\n- fine\n")
    write(repo / "memory/dreaming/light/2026-05-01.md", "# Light Sleep\n")
    commit(repo, "notes")


def test_a_thematic_break_at_the_top_is_not_frontmatter():
    text = "---\n\n## 2026-04-27 07:43 — Session Start\n\n**Victor's asks:**\n1. Recap\n"
    doc = parse.parse(text, "memory/2026-04-27.md")
    assert doc.sections[-1].heading.startswith("2026-04-27 07:43")
    with pytest.raises(Exception, match="FM001"):
        parse.parse("---\nagent: [unclosed\n---\n# x\n", "x.md")


def test_promotions_use_openclaws_section_and_markers():
    lines = openclaw_format.promotion_lines(".tiergit/warm/MEMORY.md", 7, 1, "Use pnpm", "rule", 0.8123, 3, 0.7)
    assert lines == ["<!-- openclaw-memory-promotion:memory:.tiergit/warm/MEMORY.md:7:7 -->",
                     "- [rule] Use pnpm [score=0.812 recalls=3 avg=0.700 source=.tiergit/warm/MEMORY.md:7-7]"]
    day = date(2026, 5, 20)
    once = openclaw_format.append_promotions("# MEMORY.md\n", day, lines)
    assert once == "# MEMORY.md\n\n## Promoted From Short-Term Memory (2026-05-20)\n\n" + "\n".join(lines) + "\n"
    twice = openclaw_format.append_promotions(once, day, lines[:1])   # same day: same section
    assert twice.count("## Promoted From") == 1 and twice.endswith(lines[0] + "\n")
    assert openclaw_format.promoted_keys(twice) == {"memory:.tiergit/warm/MEMORY.md:7:7"}
    # The score note is not part of the item: its id is the text's, as in the source.
    item = parse.parse(once, "MEMORY.md").items[-1]
    assert item.id == parse.item_id("- [rule] Use pnpm")[0]


def test_openclaw_dreams_md_is_read_never_written_and_empty_promote_changes_nothing(repo):
    ok(tiergit(repo, "init", "--preset", "openclaw"))
    # A Dreaming candidate structure (only those are candidates); `[unclear]` never promotes.
    dreams = "# Dreams\n\n- [unclear] Pin every base image by digest. [memory/2026-04-02.md:11]\n"
    write(repo / "DREAMS.md", dreams)
    commit(repo, "dreams")
    out = json.loads(ok(tiergit(repo, "promote", "--apply", "--json")).stdout)
    assert any(c["source"].startswith("DREAMS.md:") for c in out["candidates"])
    assert out["promote"] == 0 and git(repo, "status", "--porcelain").stdout == ""
    assert (repo / "DREAMS.md").read_text() == dreams


def test_init_says_how_openclaw_loads_hot_and_warm(repo):
    out = ok(tiergit(repo, "init", "--preset", "openclaw", "--dry-run")).stdout
    assert "bootstrap-extra-files" in out
    assert """'[".tiergit/hot/MEMORY.md",".tiergit/warm/MEMORY.md"]'""" in out
    assert "bootstrap-extra-files" not in ok(tiergit(repo, "init", "--preset", "squad", "--dry-run")).stdout


def test_squads_own_memory_files_keep_gits_merge_and_are_read_in_place(repo):
    own = {".squad/memory/config.json": "{}\n", ".squad/memory/index.json": "{}\n",
           ".squad/memory/audit.jsonl": "{}\n", ".squad/memory/local/notes.md": "# local\n\n- Squad's own note\n"}
    for rel, text in own.items():
        write(repo / rel, text)
    ok(tiergit(repo, "init", "--preset", "squad"))
    commit(repo, "squad and tiergit")
    for rel in own:
        assert git(repo, "check-attr", "merge", "--", rel).stdout.strip().endswith("unspecified"), rel
    for rel in (".squad/memory/cold/picard.md", ".squad/memory/wiki/auth.md", ".squad/memory/archive/2026-01/cold/x.md"):
        assert git(repo, "check-attr", "merge", "--", rel).stdout.strip().endswith("tiergit"), rel
    status = json.loads(ok(tiergit(repo, "status", "--json")).stdout)   # Squad's governed store: its own tier
    assert {f["path"]: f["tier"] for f in status["files"]}[".squad/memory/local/notes.md"] == "governed"


def test_agent_slugs_and_two_layer_state(tmp_path):
    assert agent_slug("Rai") == "rai" and agent_slug("Dr. Crusher") == "dr.-crusher"
    assert agent_slug("picard") == "picard" and agent_slug("..") is None and agent_slug("¿¿") is None
    assert two_layer_notes(tmp_path) == []
    write(tmp_path / ".squad/config.json", '{"version": 1, "stateBackend": "two-layer"}\n')
    notes = two_layer_notes(tmp_path)
    assert "'two-layer'" in notes[0] and "squad-state" in notes[0] and notes[1].lstrip().startswith("hint:")
    write(tmp_path / ".squad/config.json", '{"version": 1, "stateBackend": "local"}\n')
    assert two_layer_notes(tmp_path) == []


def _squad_team(repo):
    write(repo / ".squad/agents/Rai/history.md", "# Rai\n\n## Learnings\n\n- [rule] Flag PII before it reaches a prompt.\n")
    write(repo / ".squad/decisions.md", "# Decisions\n")
    ok(tiergit(repo, "init", "--preset", "squad"))
    commit(repo, "squad team, tiergit")


def test_session_start_adopts_an_agent_scribe_wrote_and_then_changes_nothing(repo):
    _squad_team(repo)
    out = json.loads(ok(tiergit(repo, "session", "start", "--agent", "rai", "--task", "Review", "--json")).stdout)
    assert any(line.startswith(".squad/memory/cold/rai.md") for line in out["synced"])
    assert "Flag PII" in (repo / ".squad/memory/cold/rai.md").read_text()
    ok(tiergit(repo, "session", "end", "--agent", "rai"))
    commit(repo, "session")
    again = json.loads(ok(tiergit(repo, "session", "start", "--agent", "rai", "--json")).stdout)
    assert again["synced"] == []
    # Another preset (or a repo without Squad) never syncs.
    assert json.loads(ok(tiergit(repo, "session", "start", "--agent", "picard", "--json")).stdout)["synced"] == []


def test_session_start_brings_what_scribe_appended_since_the_import(repo):
    _squad_team(repo)
    ok(tiergit(repo, "import", "squad", "--apply"))
    commit(repo, "import")
    hist = repo / ".squad/agents/Rai/history.md"
    hist.write_text(hist.read_text() + "- [rule] Log every model refusal with its prompt id.\n")   # Scribe
    commit(repo, "scribe")
    out = json.loads(ok(tiergit(repo, "session", "start", "--agent", "rai", "--json")).stdout)
    assert any(line.startswith(".squad/memory/cold/rai.md") for line in out["synced"])
    cold = (repo / ".squad/memory/cold/rai.md").read_text()
    assert cold.count("Flag PII") == 1 and "Log every model refusal" in cold


def test_status_explains_squads_two_layer_state(repo):
    ok(tiergit(repo, "init", "--preset", "squad"))
    assert "squad-state" not in ok(tiergit(repo, "status")).stdout
    write(repo / ".squad/config.json", '{"version": 1, "stateBackend": "two-layer"}\n')
    out = ok(tiergit(repo, "status")).stdout
    assert "Squad state backend is 'two-layer'" in out and "hint:" in out
    assert any("squad-state" in n for n in json.loads(ok(tiergit(repo, "status", "--json")).stdout)["notes"])


def test_a_labelled_item_promoted_into_memory_md_keeps_its_id(repo):
    from datetime import timedelta

    from tiergit.shell import logs
    from tiergit.shell.store import Store

    ok(tiergit(repo, "init", "--preset", "openclaw"))
    item = "- **Pattern:** Pin every base image by digest #docker"
    old = (clock.today() - timedelta(days=45)).isoformat()
    write(repo / ".tiergit/warm/MEMORY.md", f"# Warm\n\n### Build ({old})\n\n{item}\n")
    iid = parse.item_id(item)[0]
    logs.append(Store.open(repo), logs.RECALLS, [
        {"ts": f"{(clock.today() - timedelta(days=1 + 2 * i)).isoformat()}T09:00:00Z", "query": f"q{i}",
         "agent": "main", "id": iid, "path": "x", "entry": "x", "score": 0.95, "rank": 1} for i in range(5)])
    commit(repo, "warm")
    assert json.loads(ok(tiergit(repo, "promote", "--apply", "--json")).stdout)["promote"] == 1
    memory = (repo / "MEMORY.md").read_text()
    assert "- [rule] **Pattern:** Pin every base image by digest #docker [score=" in memory
    assert iid in {i.id for i in parse.parse(memory, "MEMORY.md").items}
    commit(repo, "promote")
    assert "accepted 1" in ok(tiergit(repo, "review", "sync")).stdout


def test_what_openclaw_promoted_is_not_proposed_again(repo):
    from datetime import timedelta

    from tiergit.shell import logs
    from tiergit.shell.store import Store

    ok(tiergit(repo, "init", "--preset", "openclaw"))
    day = (clock.today() - timedelta(days=40)).isoformat()
    note = f"memory/{day}.md"
    write(repo / note, f"# {day}\n\n- [rule] Always pin Docker image digests.\n- [rule] Rotate signing keys yearly.\n")
    # OpenClaw's Deep phase promoted a chunk holding the first item (its marker, its format).
    write(repo / "MEMORY.md", f"# MEMORY.md\n\n## Promoted From Short-Term Memory ({day})\n\n"
          f"<!-- openclaw-memory-promotion:memory:{note}:1:3 -->\n"
          f"- # {day} - [rule] Always pin Docker image digests. [score=0.880 recalls=4 avg=0.700 source={note}:1-3]\n")
    commit(repo, "openclaw promoted one")
    ok(tiergit(repo, "import", "openclaw", "--apply"))     # stages the note's durable items
    ids = [parse.item_id(t)[0] for t in ("- [rule] Always pin Docker image digests.",
                                          "- [rule] Rotate signing keys yearly.")]
    logs.append(Store.open(repo), logs.RECALLS, [
        {"ts": f"{(clock.today() - timedelta(days=1 + 2 * i)).isoformat()}T09:00:00Z", "query": f"q{i}",
         "agent": "main", "id": iid, "path": note, "entry": "x", "score": 0.95, "rank": 1}
        for i in range(5) for iid in ids])
    commit(repo, "staged")
    rows = {c["text"]: c for c in json.loads(ok(tiergit(repo, "promote", "--json")).stdout)["candidates"]}
    pinned = rows["Always pin Docker image digests."]
    assert pinned["verdict"] == "reject" and "openclaw-memory-promotion" in pinned["reason"]
    assert rows["Rotate signing keys yearly."]["verdict"] == "promote"


def test_a_proposal_promoted_into_openclaw_memory_md_is_accepted_by_review_sync(repo):
    ok(tiergit(repo, "init", "--preset", "openclaw"))
    ok(tiergit(repo, "propose", "--topic", "tools", "Use uv for every Python project", "--kind", "decision", "--apply"))
    commit(repo, "proposal")
    ok(tiergit(repo, "promote", "--apply"))
    assert "<!-- openclaw-memory-promotion:memory:.tiergit/candidates.md:" in (repo / "MEMORY.md").read_text()
    commit(repo, "promote")
    # OpenClaw's own log line (issue 17): `review sync` prints and logs `Dream review: accepted N, rejected M`.
    assert "Dream review: accepted 1, rejected 0" in ok(tiergit(repo, "review", "sync")).stdout
