"""End to end with the openclaw preset (root `memory/`, one hot file, warm, `MEMORY.md` at the repository
root reviewed, raw daily notes, DREAMS.md staging), and `import openclaw` of a hand-made workspace.
Every step is a real `git commit` / `git merge` through the installed hooks, the CLI as a subprocess."""
from __future__ import annotations

import json
import re
from datetime import date, timedelta

import pytest
from conftest import commit, git, ok, tiergit_process, write
from tiergit.shell import clock

pytestmark = pytest.mark.e2e

HOT = ".tiergit/hot/MEMORY.md"
WARM = ".tiergit/warm/MEMORY.md"
DREAMS = ".tiergit/candidates.md"
TODAY = clock.today()


def d(days_ago: int) -> date:
    return TODAY - timedelta(days=days_ago)


def test_openclaw_flow(repo, tmp_path):
    ok(tiergit_process(repo, "init", "--preset", "openclaw"))
    commit(repo, "tiergit init")
    assert "tiergit-hook" in (repo / ".git/hooks/pre-commit").read_text()

    # A session needs no --agent: one hot file.
    ok(tiergit_process(repo, "session", "start", "--task", "Tidy the daily notes"))
    hot = (repo / HOT).read_text()
    (repo / HOT).write_text(hot.replace("## Blockers\n", "- [preference] The owner wants replies in British English #style\n"
                                        "- [rule] Keep daily notes raw; summarize only into warm #notes\n"
                                        "- Moved three stray notes into daily/\n\n## Blockers\n", 1))
    commit(repo, "hot notes")
    prompt = ok(tiergit_process(repo, "context")).stdout
    assert "Tidy the daily notes" in prompt and "British English" in prompt and HOT in prompt

    end = json.loads(ok(tiergit_process(repo, "session", "end", "--json")).stdout)
    assert end["cold"] == WARM and end["entry_written"]
    warm = (repo / WARM).read_text()
    assert "- [preference] The owner wants replies in British English #style" in warm
    assert "British English" not in (repo / HOT).read_text() and not (repo / "MEMORY.md").exists()
    commit(repo, "session end")

    # Daily notes over several dates (raw: transcript lines are allowed there), and the warm
    # entry made 45 days old (as if the session had run then).
    notes = {2: "- Talked to the owner about the release.\n- User: when does the train leave?\n",
             35: "- [decision] Use uv for every Python project #tooling\n",
             40: "- [rule] Never force-push to main #git\n",
             130: "- Old note about the decommissioned server.\n"}
    for age, body in notes.items():
        write(repo / f"memory/{d(age)}.md", f"# {d(age)}\n\n{body}")
    (repo / WARM).write_text(re.sub(r"^### \d{4}-\d\d-\d\d", f"### {d(45)}", warm, flags=re.M))
    commit(repo, "daily notes")
    assert "all within budget" in ok(tiergit_process(repo, "check")).stdout

    # Retention: notes past 30 days move to archive/YYYY-MM/.
    ok(tiergit_process(repo, "archive", "--apply"))
    for age in (35, 40, 130):
        assert not (repo / f"memory/{d(age)}.md").exists()
        moved = repo / f"memory/archive/{d(age):%Y-%m}/{d(age)}.md"
        assert moved.read_text() == f"# {d(age)}\n\n{notes[age]}"
    assert (repo / f"memory/{d(2)}.md").exists()
    commit(repo, "archive daily notes")
    # However old the note, it was archived today: it stays where OpenClaw indexes it (memory/**)
    # until 90 days after the move (tests/features/test_archive.py follows it to the purge).
    ok(tiergit_process(repo, "archive", "--apply"))
    old = f"memory/archive/{d(130):%Y-%m}/{d(130)}.md"
    assert (repo / old).exists() and (repo / f"memory/archive/{d(40):%Y-%m}/{d(40)}.md").exists()
    assert git(repo, "status", "--porcelain").stdout == ""

    # Recall across warm and the archive, logged for promotion.
    for query in ("British English replies", "reply language owner", "spelling style owner",
                  "daily notes raw", "summarize notes into warm", "raw daily notes"):
        ok(tiergit_process(repo, "recall", query, "-n", "3"))
    hits = json.loads(ok(tiergit_process(repo, "recall", "force-push main", "--json")).stdout)["hits"]
    assert hits[0]["path"].startswith("memory/archive/") and "Never force-push" in hits[0]["text"]
    commit(repo, "recalls")

    # Promotion targets MEMORY.md at the repository root and lists every candidate in DREAMS.md.
    preview = ok(tiergit_process(repo, "promote")).stdout
    assert "-> MEMORY.md" in preview and not (repo / "MEMORY.md").exists()
    git(repo, "switch", "-q", "-c", "tiergit/promote")
    body = tmp_path / "body.md"
    ok(tiergit_process(repo, "promote", "--apply", "--pr-body", str(body)))
    memory = (repo / "MEMORY.md").read_text()
    # OpenClaw's own promotion format: its section, a marker per item, the score note; no tiergit ids.
    assert f"## Promoted From Short-Term Memory ({TODAY.isoformat()})\n\n<!-- openclaw-memory-promotion:memory:{WARM}:" in memory
    assert re.search(r"^- \[rule\] The owner wants replies in British English #style \[score=0\.\d{3} recalls=\d+ "
                     rf"avg=0\.\d{{3}} source={re.escape(WARM)}:\d+-\d+\]$", memory, re.M)
    assert "Keep daily notes raw; summarize only into warm #notes" in memory
    assert "tiergit:" not in memory and "^m-" not in memory
    dreams = (repo / DREAMS).read_text()
    assert "<!-- tiergit:candidates:begin -->" in dreams and "<!-- tiergit:candidates:end -->" in dreams
    assert "promote `m-" in dreams and "British English" in dreams and "reject `m-" in dreams
    assert "MEMORY.md" in body.read_text()
    commit(repo, "tiergit: promote")
    assert {"MEMORY.md", DREAMS} <= set(git(repo, "show", "--name-only", "--format=", "HEAD").stdout.split())
    git(repo, "switch", "-q", "main")
    git(repo, "merge", "--no-ff", "--no-edit", "tiergit/promote")
    sync = ok(tiergit_process(repo, "review", "sync")).stdout
    assert "accepted" in sync and "rejected 0" in sync
    commit(repo, "tiergit: review sync")
    # A second run has nothing to promote: it changes no file (the nightly job opens no empty PR).
    again = json.loads(ok(tiergit_process(repo, "promote", "--apply", "--json")).stdout)
    assert again["promote"] == 0 and git(repo, "status", "--porcelain").stdout == ""
    assert git(repo, "status", "--porcelain").stdout == ""

    # Every reading command works on this layout.
    status = ok(tiergit_process(repo, "status")).stdout
    for path in (HOT, WARM, "MEMORY.md", f"memory/{d(2)}.md"):
        assert path in status
    assert f"last on {TODAY.isoformat()}" in status
    assert "all within budget" in ok(tiergit_process(repo, "check", "--all")).stdout
    measured = json.loads(ok(tiergit_process(repo, "measure", "--json")).stdout)
    row = measured["agents"][0]
    assert row["hot"]["files"] == [HOT, WARM, "MEMORY.md"] and row["hot"]["tokens"] > 0
    assert f"memory/{d(2)}.md" in row["hot_cold"]["files"]
    prompt = ok(tiergit_process(repo, "context")).stdout
    assert HOT in prompt and "MEMORY.md" in prompt and "British English" in prompt
    hits = json.loads(ok(tiergit_process(repo, "recall", "British English", "--json", "--no-log")).stdout)["hits"]
    assert hits and all(h["path"] != DREAMS for h in hits)   # DREAMS.md's listing is not memory
    assert {h["path"] for h in hits} & {WARM, "MEMORY.md"}


def test_import_openclaw_workspace_then_work_in_it(repo):
    # A hand-made OpenClaw workspace, committed before tiergit arrives.
    write(repo / "MEMORY.md", "# MEMORY.md - Long-Term Memory\n\n## Preferences\n\n"
          "- [rule] Never push to main without a review.\n- [preference] Answers short, code first.\n")
    write(repo / HOT, "# HOT MEMORY\n\n## Current task\nMigrate the cron jobs\n\n"
          "## Active decisions\n- [decision] Cron moves to systemd timers.\n")
    write(repo / WARM, "# WARM MEMORY\n\n## Tools\n\n- [fact] The VPS runs Debian 12.\n")
    days = {1: "- [decision] Ship v2 on Friday.\n- chatter about lunch\n",
            3: "- User: can you check the logs?\n- [fact] The backup job runs at 03:00.\n",
            45: "- [rule] Always pin Docker image digests.\n"}
    for age, body in days.items():
        write(repo / f"memory/{d(age)}.md", f"# {d(age)}\n\n{body}")
    commit(repo, "openclaw workspace")
    ok(tiergit_process(repo, "init", "--preset", "openclaw"))
    commit(repo, "tiergit init")

    ok(tiergit_process(repo, "import", "openclaw", "--apply"))
    for age in (1, 3):
        assert (repo / f"memory/{d(age)}.md").read_text() == f"# {d(age)}\n\n{days[age]}"
    assert (repo / f"memory/{d(45)}.md").is_file()      # where OpenClaw reads it; `archive` moves it at 30 days
    dreams = (repo / DREAMS).read_text()
    for staged in ("[decision] Ship v2 on Friday.", "[fact] The backup job runs at 03:00.",
                   "[rule] Always pin Docker image digests."):
        assert staged in dreams
    assert "chatter" not in dreams and "User:" not in dreams
    assert (repo / "MEMORY.md").read_text().startswith("# MEMORY.md - Long-Term Memory")   # kept in place
    commit(repo, "tiergit: import openclaw")

    assert "all within budget" in ok(tiergit_process(repo, "check", "--all")).stdout
    status = ok(tiergit_process(repo, "status")).stdout
    assert HOT in status and WARM in status and "MEMORY.md" in status
    hits = json.loads(ok(tiergit_process(repo, "recall", "docker image digests", "--json")).stdout)["hits"]
    assert hits and "Always pin Docker image digests." in hits[0]["text"]
    prompt = ok(tiergit_process(repo, "context")).stdout
    assert "Migrate the cron jobs" in prompt and "Never push to main without a review." in prompt

    # The imported hot file holds a session: it is ended into warm, hot reset, committed.
    started = tiergit_process(repo, "session", "start", "--task", "Next")
    assert started.returncode == 2 and "unfinished session" in started.stderr
    assert "`tiergit session end`" in started.stderr and "--agent" not in started.stderr   # one hot file
    ok(tiergit_process(repo, "session", "end"))
    warm = (repo / WARM).read_text()
    assert warm.startswith("# WARM MEMORY\n\n## Tools\n\n- [fact] The VPS runs Debian 12.\n")
    assert "- [decision] Cron moves to systemd timers." in warm
    ok(tiergit_process(repo, "session", "start", "--task", "Next"))
    commit(repo, "session")

    # The notes are OpenClaw's own daily tier, not legacy: --retire-legacy leaves them where
    # OpenClaw reads them, and `archive --apply` moves the old one.
    ok(tiergit_process(repo, "import", "openclaw", "--apply", "--retire-legacy"))
    assert len(list((repo / "memory").glob("????-??-??.md"))) == 3
    ok(tiergit_process(repo, "archive", "--apply"))
    assert (repo / f"memory/archive/{d(45):%Y-%m}/{d(45)}.md").is_file() and (repo / f"memory/{d(1)}.md").is_file()
    commit(repo, "archive")
    assert f"R100\tmemory/{d(45)}.md\tmemory/archive/" in git(repo, "show", "--name-status", "--format=", "HEAD").stdout
