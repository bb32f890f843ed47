"""Nothing lost: retention removes only what git holds, removed archive stays recallable and
restorable, budgets keep flowing, and no write goes through a link or into an odd file."""
from __future__ import annotations

import os
from datetime import date, timedelta

import pytest
from conftest import commit, git, ok, tiergit, write

TODAY = date(2026, 11, 30)
ENV = {"TIERGIT_TODAY": TODAY.isoformat()}


def d(days: int) -> date:
    return TODAY - timedelta(days=days)


def _cold(repo, n: int, size: int = 60, start: int = 400, mark: str = "[rule] ") -> str:
    """n dated entries, oldest first, each with one item (a rule) of `size` characters."""
    text = "# Picard\n\n## Core Context\n\n- Owns the auth service.\n\n"
    for i in range(n):
        text += f"### Session {i} ({d(start - i).isoformat()})\n\n- {mark}Lesson {i}: " + "y" * size + "\n\n"
    write(repo / ".squad/memory/cold/picard.md", text)
    return text


def test_a_second_uncommitted_archive_run_removes_nothing_the_first_created(squad_repo):
    _cold(squad_repo, 6, start=300)        # the newest three stay (keep_last)
    commit(squad_repo, "cold")
    ok(tiergit(squad_repo, "archive", "--apply", env=ENV))
    month = squad_repo / f".squad/memory/archive/{d(300):%Y-%m}/cold/picard.md"
    assert "Lesson 0" in month.read_text()
    later = {"TIERGIT_TODAY": (TODAY + timedelta(days=200)).isoformat()}   # due for the purge, but
    second = ok(tiergit(squad_repo, "archive", "--apply", env=later))       # no commit in between
    assert month.is_file() and "Lesson 0" in month.read_text()
    assert "git does not hold unchanged" in second.stdout


def test_archive_removed_from_the_tree_stays_recallable_and_restorable(squad_repo):
    _cold(squad_repo, 5, start=300, mark="")   # context, not durable: only the archive holds it
    commit(squad_repo, "cold")
    ok(tiergit(squad_repo, "archive", "--apply", env=ENV))
    commit(squad_repo, "archive")
    later = {"TIERGIT_TODAY": (TODAY + timedelta(days=200)).isoformat()}
    out = ok(tiergit(squad_repo, "archive", "--apply", env=later))
    rel = f".squad/memory/archive/{d(300):%Y-%m}/cold/picard.md"
    assert f"delete  {rel}" in out.stdout and not (squad_repo / rel).exists()
    commit(squad_repo, "old archive out of the tree")
    removed_in = git(squad_repo, "rev-parse", "HEAD").stdout.strip()

    hits = ok(tiergit(squad_repo, "recall", "Lesson 0", "--no-log", env=later)).stdout
    assert rel in hits and f"removed from the tree in {removed_in[:12]}" in hits
    # the warm path's packed ranges hold the history rows the full path just wrote (recall_history re-packs)
    import json
    import sqlite3
    with sqlite3.connect(squad_repo / ".git" / "tiergit" / "recall-v5.sqlite") as db:
        ranges = json.loads(db.execute("SELECT ranges FROM file_stamps WHERE id = 1").fetchone()[0])
        history = db.execute("SELECT first_rowid, first_rowid + items FROM files WHERE mtime_ns < 0 AND items > 0").fetchall()
    assert history and all([first, end] in ranges["archive"] for first, end in history)
    ok(tiergit(squad_repo, "restore", rel, "--apply"))
    assert "Lesson 0" in (squad_repo / rel).read_text()


def test_uncommitted_archive_months_never_leave_the_tree(squad_repo):
    later = {"TIERGIT_TODAY": (TODAY + timedelta(days=200)).isoformat()}
    hand = squad_repo / f".squad/memory/archive/{d(400):%Y-%m}/cold/worf.md"
    write(hand, "# Archive\n\n- [rule] A file tiergit never moved.\n")
    _cold(squad_repo, 4, start=300)
    commit(squad_repo, "cold")
    ok(tiergit(squad_repo, "archive", "--apply", env=ENV))
    month = squad_repo / f".squad/memory/archive/{d(300):%Y-%m}/cold/picard.md"
    out = ok(tiergit(squad_repo, "archive", "--apply", env=later))
    assert month.is_file() and "kept 1 old archive file" in out.stdout
    commit(squad_repo, "now git holds it")
    month.write_text(month.read_text() + "- an edit after the commit\n")
    ok(tiergit(squad_repo, "archive", "--apply", env=later))
    assert "an edit after the commit" in month.read_text()     # git holds it, but not unchanged
    commit(squad_repo, "the edit")
    ok(tiergit(squad_repo, "archive", "--apply", env=later))
    assert not month.exists()                                 # tiergit's, committed, due: out
    assert hand.read_text() == "# Archive\n\n- [rule] A file tiergit never moved.\n"   # never tiergit's


def test_session_end_never_leaves_cold_over_its_max(squad_repo):
    _cold(squad_repo, 20, size=2000, start=20)   # ~40 KB against a 12 KB / 3000-token max
    git(squad_repo, "add", "-A")
    git(squad_repo, "commit", "-q", "-m", "big cold (hook skipped)", env={"TIERGIT": "0"})
    ok(tiergit(squad_repo, "session", "start", "--agent", "picard", "--task", "trim test"))
    hot = squad_repo / ".squad/memory/hot/picard.md"
    hot.write_text(hot.read_text() + "\n- [decision] The newest decision stays in cold.\n")
    out = ok(tiergit(squad_repo, "session", "end", "--agent", "picard", env=ENV))
    assert "would be over its budget: archived its" in out.stdout
    cold = (squad_repo / ".squad/memory/cold/picard.md").read_text()
    assert "The newest decision stays in cold." in cold and "## Core Context" in cold
    assert "Lesson 0:" not in cold and "Lesson 19:" in cold
    archived = "".join(p.read_text() for p in (squad_repo / ".squad/memory/archive").rglob("*.md"))
    assert "Lesson 0:" in archived
    assert ok(tiergit(squad_repo, "check")).returncode == 0   # under max: the next commit is not refused


def test_check_fix_trims_to_the_warn_level_and_the_hint_names_it(squad_repo):
    _cold(squad_repo, 20, size=2000, start=20)
    over = tiergit(squad_repo, "check")
    assert over.returncode == 1 and "`tiergit check --fix`" in over.stdout
    assert tiergit(squad_repo, "check", "--fix").returncode == 1
    size = len((squad_repo / ".squad/memory/cold/picard.md").read_bytes())
    assert size <= 12288 * 0.8 + 1, size       # warn level of a bare max is 80 %


def test_writes_refuse_symlinked_store_folders(squad_repo, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    cold_dir = squad_repo / ".squad/memory/cold"
    if cold_dir.exists():
        for p in cold_dir.iterdir():
            p.unlink()
        cold_dir.rmdir()
    ok(tiergit(squad_repo, "session", "start", "--agent", "picard", "--task", "link test"))
    hot = squad_repo / ".squad/memory/hot/picard.md"
    hot.write_text(hot.read_text() + "\n- [decision] Links are never written through.\n")
    before = hot.read_text()
    os.symlink(outside, cold_dir)   # every command refuses the tier now (tests/features/test_tier_paths.py)
    assert tiergit(squad_repo, "session", "start", "--agent", "picard", "--force").returncode == 2
    out = tiergit(squad_repo, "session", "end", "--agent", "picard")
    assert out.returncode == 2 and "symlink" in out.stderr and "Traceback" not in out.stderr
    assert list(outside.iterdir()) == [] and hot.read_text() == before   # nothing touched


def test_recall_log_symlinked_out_of_the_tree_is_refused(squad_repo, tmp_path):
    _cold(squad_repo, 1, start=5)
    target = tmp_path / "bashrc"
    target.write_text("# rc\n")
    logs = squad_repo / ".squad/memory/logs"
    logs.mkdir(parents=True, exist_ok=True)
    (logs / "recalls.jsonl").unlink(missing_ok=True)
    os.symlink(target, logs / "recalls.jsonl")
    out = tiergit(squad_repo, "recall", "Lesson")
    assert out.returncode == 2 and "symlink" in out.stderr
    assert target.read_text() == "# rc\n"


def test_a_fifo_in_place_of_a_write_target_is_refused_without_hanging(squad_repo):
    fifo = squad_repo / ".squad/memory/wiki/rules.md"
    fifo.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(fifo)
    from tiergit.errors import TiergitError
    from tiergit.shell.fsutil import atomic_write

    try:
        atomic_write(fifo, "x", root=squad_repo)
        raise AssertionError("wrote into a FIFO")
    except TiergitError as exc:
        assert "FIFO" in str(exc)


def test_init_and_check_keep_ignored_store_paths_tracked(repo):
    write(repo / ".gitignore", "**/logs/\nbin/\n")
    commit(repo, "a .NET-style ignore file")
    out = ok(tiergit(repo, "init", "--preset", "squad"))
    assert "update  .gitignore" in out.stdout
    text = (repo / ".gitignore").read_text()
    assert text.startswith("**/logs/\nbin/\n") and "!/.squad/memory/logs\n" in text
    write(repo / ".squad/memory/logs/recalls.jsonl", '{"id":"m-1"}\n')
    assert git(repo, "check-ignore", "-q", ".squad/memory/logs/recalls.jsonl", check=False).returncode == 1
    assert ok(tiergit(repo, "check")).returncode == 0

    write(repo / ".gitignore", "**/logs/\n")           # someone drops the negation again
    bad = tiergit(repo, "check")
    assert bad.returncode == 1
    assert ".squad/memory/logs:1: GIT001" in bad.stdout and "**/logs/" in bad.stdout
    assert "recalls.jsonl:1: GIT001" not in bad.stdout   # one finding per ignored folder


@pytest.mark.e2e  # the hook fires under a real git commit
def test_the_hook_refuses_a_symlink_anywhere_in_the_store(squad_repo):
    logs = squad_repo / ".squad/memory/logs"
    logs.mkdir(parents=True, exist_ok=True)
    os.symlink("../../../../home/x/.bashrc", logs / "recalls.jsonl")
    os.symlink("../../README.md", squad_repo / ".squad/memory/notes")
    git(squad_repo, "add", "-A")
    proc = git(squad_repo, "commit", "-q", "-m", "links", check=False)
    assert proc.returncode == 1
    assert ".squad/memory/logs/recalls.jsonl:1: TG004" in proc.stderr
    assert ".squad/memory/notes:1: TG004" in proc.stderr


def test_aged_durable_items_become_wiki_candidates_not_just_archive(squad_repo):
    write(squad_repo / ".squad/memory/cold/picard.md",
          f"# Picard\n\n### Old ({d(60).isoformat()})\n\n- [decision] Tokens are refreshed by the gateway.\n"
          "- Spent the afternoon on logs.\n\n"
          + "".join(f"### Newer {i} ({d(i).isoformat()})\n\n- note {i}\n\n" for i in (1, 2, 3)))
    commit(squad_repo, "cold")
    ok(tiergit(squad_repo, "archive", "--apply", env=ENV))
    staging = (squad_repo / ".squad/memory/staging/imported.md").read_text()
    assert "[decision] Tokens are refreshed by the gateway." in staging
    assert "afternoon on logs" not in staging                       # the rest only archives
    ok(tiergit(squad_repo, "archive", "--apply", env=ENV))
    again = (squad_repo / ".squad/memory/staging/imported.md").read_text()
    assert again == staging
    listed = ok(tiergit(squad_repo, "promote", "--all", env=ENV)).stdout
    assert "Tokens are refreshed by the gateway." in listed


@pytest.mark.e2e
def test_the_hook_path_never_loads_the_lock_library(squad_repo):
    """filelock is imported only on write paths: the pre-commit hook stays lean."""
    import subprocess
    import sys

    write(squad_repo / ".squad/memory/cold/picard.md", "# Picard\n\n- A line.\n")
    git(squad_repo, "add", "-A")
    proc = subprocess.run([sys.executable, "-X", "importtime", "-m", "tiergit", "hook", "pre-commit"],
                          cwd=squad_repo, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-2000:]
    loaded = {line.rsplit("|", 1)[-1].strip() for line in proc.stderr.splitlines() if "|" in line}
    assert "tiergit.features.checkrun" in loaded
    assert not {"filelock", "tiergit.shell.fsutil", "tiergit.shell.journal"} & loaded
