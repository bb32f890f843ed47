"""Retention: expired cold entries and old daily notes move to the archive, old archive leaves
the tree (recoverable with `restore`), and `check --fix` archives the oldest entries to fit."""
from __future__ import annotations

import json
from datetime import date, timedelta

from conftest import git, tiergit, write
from tiergit.shell import clock

TODAY = clock.today()


def d(days: int) -> date:
    return TODAY - timedelta(days=days)


def test_archive_moves_expired_entries_and_old_log_items_only(squad_repo):
    repo = squad_repo
    cold = repo / ".squad/memory/cold/picard.md"
    write(cold, (
        "# Picard\n\n## Core Context\n\n- Owns the auth service.\n\n"
        f"## Learnings\n\n- {d(50).isoformat()}: Broker 3.1 needs the new cache format\n"
        f"- {d(2).isoformat()}: The gateway retries twice\n\n"
        f"### Old incident ({d(40).isoformat()})\n\n**Fix:** rolled back the broker.\n\n"
        f"### Recent work ({d(5).isoformat()})\n\n- [rule] Keep retries idempotent\n\n"
        f"### Release ({d(4).isoformat()})\n\n- Tagged 2.0.\n"))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "cold")
    before = cold.read_text()

    preview = tiergit(repo, "archive")
    assert preview.returncode == 0, preview.stderr
    assert "update  .squad/memory/cold/picard.md" in preview.stdout and "preview only" in preview.stdout
    assert cold.read_text() == before

    applied = tiergit(repo, "archive", "--apply")
    assert applied.returncode == 0, applied.stderr
    kept = cold.read_text()
    assert "## Core Context" in kept and "Owns the auth service." in kept       # pinned: never
    assert "## Learnings" in kept and "The gateway retries twice" in kept      # heading and new item stay
    assert "Recent work" in kept
    assert "Old incident" not in kept and "Broker 3.1" not in kept
    old_month = repo / f".squad/memory/archive/{d(40):%Y-%m}/cold/picard.md"
    log_month = repo / f".squad/memory/archive/{d(50):%Y-%m}/cold/picard.md"
    assert "### Old incident" in old_month.read_text() and "rolled back the broker" in old_month.read_text()
    assert "Broker 3.1 needs the new cache format" in log_month.read_text()
    # Nothing is lost: every line of the old file is in the cold file or the archive.
    archived = old_month.read_text() + log_month.read_text()
    for line in before.splitlines():
        assert line in kept or line in archived
    git(repo, "add", "-A")
    assert git(repo, "commit", "-q", "-m", "archive", check=False).returncode == 0
    assert "nothing to do" in tiergit(repo, "archive").stdout


def test_daily_notes_archive_then_delete_and_restore(repo):
    """A note tiergit moved stays in the archive (where OpenClaw indexes it) for 90 days after
    the move, then leaves the tree; the owner's own file in the same folder is never deleted."""
    assert tiergit(repo, "init", "--preset", "openclaw").returncode == 0
    old_note = f"memory/{d(45).isoformat()}.md"
    new_note = f"memory/{d(3).isoformat()}.md"
    write(repo / old_note, "# note\n\n- deployed v2\n")
    write(repo / new_note, "# note\n\n- wrote tests\n")
    owners = repo / f"memory/archive/{d(200):%Y-%m}/{d(200).isoformat()}.md"
    write(owners, "# very old note\n\n- the first deploy\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "notes")

    run = tiergit(repo, "archive", "--apply", "--json")
    assert run.returncode == 0, run.stderr
    actions = {c["path"]: c["action"] for c in json.loads(run.stdout)["changes"]}
    moved = f"memory/archive/{d(45):%Y-%m}/{d(45).isoformat()}.md"
    assert actions == {old_note: "delete", moved: "create", ".tiergit/logs/archived.jsonl": "create"}
    assert (repo / moved).read_text() == "# note\n\n- deployed v2\n"
    assert (repo / new_note).is_file() and owners.exists()
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "archive")

    def at(days_later: int) -> dict:
        later = {"TIERGIT_TODAY": (TODAY + timedelta(days=days_later)).isoformat()}
        out = tiergit(repo, "archive", "--apply", "--json", env=later)
        assert out.returncode == 0, out.stderr
        return {c["path"]: c["action"] for c in json.loads(out.stdout)["changes"]}

    assert moved not in at(90) and (repo / moved).is_file()        # 90 days after the move: still there
    assert at(91).get(moved) == "delete" and not (repo / moved).exists()
    assert not (repo / moved).parent.exists() or any((repo / moved).parent.iterdir())   # no empty folder
    assert owners.read_text() == "# very old note\n\n- the first deploy\n"          # never tiergit's to delete
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "purge")

    back = tiergit(repo, "restore", moved, "--apply")
    assert back.returncode == 0, back.stderr
    assert (repo / moved).read_text() == "# note\n\n- deployed v2\n"
    missing = tiergit(repo, "restore", "memory/archive/nope.md")
    assert missing.returncode == 2 and "not found in this branch's git history" in missing.stderr


def test_cold_keeps_its_newest_sessions_whatever_their_age(squad_repo):
    """keep_last (default 3): at +400 days every entry is past its ttl, yet the newest three
    stay in cold; `keep_last: 0` in the config lets them all go."""
    repo = squad_repo
    cold = repo / ".squad/memory/cold/picard.md"
    write(cold, "# Picard\n\n## Core Context\n\n- Owns auth.\n\n" + "".join(
        f"### Session {i} ({d(60 - i).isoformat()})\n\n- note {i}\n\n" for i in range(6)))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "cold")
    later = {"TIERGIT_TODAY": (TODAY + timedelta(days=400)).isoformat()}
    assert tiergit(repo, "archive", "--apply", env=later).returncode == 0
    kept = [i for i in range(6) if f"### Session {i} " in cold.read_text()]
    assert kept == [3, 4, 5]
    cfg = repo / ".tiergit.yml"
    cfg.write_text(cfg.read_text() + "tiers:\n  cold:\n    keep_last: 0\n")
    assert tiergit(repo, "archive", "--apply", env=later).returncode == 0
    assert "### Session" not in cold.read_text() and "## Core Context" in cold.read_text()


def test_check_fix_archives_oldest_entries_until_the_cold_tier_fits(squad_repo):
    repo = squad_repo
    entries = "".join(f"### Session {i} ({d(60 - i).isoformat()})\n\n" + f"- note {i}: " + "x" * 900 + "\n\n"
                      for i in range(16))
    cold = repo / ".squad/memory/cold/picard.md"
    write(cold, "# Picard\n\n## Core Context\n\n- Owns auth.\n\n" + entries)
    assert cold.stat().st_size > 12288
    assert tiergit(repo, "check").returncode == 1

    fixed = tiergit(repo, "check", "--fix")
    assert fixed.returncode == 1, fixed.stdout + fixed.stderr
    assert "--fix changed" in fixed.stdout
    text = cold.read_text()
    assert len(text.encode()) <= 12288 and "## Core Context" in text
    assert "Session 15" in text and "Session 0 " not in text
    archived = "".join(p.read_text() for p in (repo / ".squad/memory/archive").rglob("*.md"))
    assert "### Session 0 " in archived
    kept = [i for i in range(16) if f"### Session {i} " in text]
    assert kept == list(range(kept[0], 16))                  # the oldest went first
    again = tiergit(repo, "check", "--fix")
    assert again.returncode == 0, again.stdout + again.stderr


def test_archived_cold_items_stay_promotion_candidates(squad_repo):
    """Cold entries expire at 30 days, the age at which they become promotable: `promote`
    still finds them in the archive (until the archive month leaves the tree)."""
    from tiergit.core.parse import item_id
    from tiergit.shell import logs
    from tiergit.shell.store import Store

    repo = squad_repo
    rule = "- [rule] Keep retries idempotent across gateway pods"
    newer = "".join(f"### Later {i} ({d(i).isoformat()})\n\n- note {i}\n\n" for i in (1, 2, 3))   # keep_last
    write(repo / ".squad/memory/cold/picard.md", f"# Picard\n\n### Work ({d(40).isoformat()})\n\n{rule}\n\n{newer}")
    assert tiergit(repo, "archive", "--apply").returncode == 0
    assert "idempotent" not in (repo / ".squad/memory/cold/picard.md").read_text()
    write(repo / ".squad/memory/archive/2026-01/wiki/auth.md", "# Archive\n\n- [rule] Keep retries idempotent across gateway pods everywhere\n")
    logs.append(Store.open(repo), logs.RECALLS, [
        {"ts": f"{d(i).isoformat()}T00:00:00Z", "query": f"q{i}", "id": item_id(rule)[0], "score": 0.9}
        for i in range(1, 10, 2)])
    out = json.loads(tiergit(repo, "promote", "--json").stdout)
    row = next(c for c in out["candidates"] if c["id"] == item_id(rule)[0])
    assert row["verdict"] == "promote", row["reason"]       # the audited-out wiki line is no duplicate
    assert row["source"] == f".squad/memory/archive/{d(40):%Y-%m}/cold/picard.md:6"
    assert row["target"].startswith(".squad/memory/wiki/")     # a subject topic (core/topics.py)
