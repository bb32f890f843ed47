"""OpenClaw 2026.9's state database as tiergit reads it (tiergit/shell/openclaw_state.py): the short-term
recall rows of this workspace only, read only, and a database it cannot read is a note, never an error.
The rows have the shape the real CLI writes (tests/e2e/test_frameworks.py checks it against OpenClaw)."""
from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from conftest import tiergit, write

from tiergit.shell import openclaw_state

CANDIDATE = "- [likely_durable] Pin image digests in compose files [memory/2026-04-01.md:3]\n"


def _db(state: Path, rows: list[tuple[str, str, dict]]) -> Path:
    path = state / openclaw_state.DB
    path.parent.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE plugin_state_entries (plugin_id TEXT, namespace TEXT, entry_key TEXT, "
               "value_json TEXT, created_at INTEGER, expires_at INTEGER)")
    for n, (workspace, namespace, value) in enumerate(rows):
        db.execute("INSERT INTO plugin_state_entries VALUES ('memory-core', ?, ?, ?, 0, NULL)",
                   (namespace, f"k{n}", json.dumps({"version": 1, "workspaceDir": workspace, "key": value["key"],
                                                    "value": value})))
    db.commit()
    db.close()
    return path


def _value(path: str, start: int, end: int, count: int, queries: list[str]) -> dict:
    return {"key": f"memory:{path}:{start}:{end}", "path": path, "startLine": start, "endLine": end,
            "recallCount": count, "totalScore": 0.7 * count, "queryHashes": queries, "recallDays": ["2026-11-30"]}


def test_state_dir_follows_openclaw() -> None:
    assert openclaw_state.state_dir({"OPENCLAW_STATE_DIR": "/srv/claw"}) == Path("/srv/claw")
    assert openclaw_state.state_dir({"OPENCLAW_STATE_DIR": "~/x", "OPENCLAW_HOME": "/h"}) == Path("/h/x")
    assert openclaw_state.state_dir({"OPENCLAW_HOME": "/h"}) == Path("/h/.openclaw")


def test_only_this_workspaces_recalls_count(repo: Path, tmp_path: Path) -> None:
    assert tiergit(repo, "init", "--preset", "openclaw").returncode == 0
    write(repo / "DREAMS.md", "# Dreams\n\n" + CANDIDATE)
    state = tmp_path / "state"
    _db(state, [(str(repo), "short-term-recall", _value("memory/2026-04-01.md", 1, 5, 4, ["a1", "b2", "c3"])),
                (str(tmp_path / "other"), "short-term-recall", _value("memory/2026-04-01.md", 1, 5, 9, ["z"])),
                (str(repo), "short-term-meta", {"key": "recall"})])
    out = json.loads(tiergit(repo, "promote", "--json", env={"OPENCLAW_STATE_DIR": str(state)}).stdout)
    row = next(c for c in out["candidates"] if c["source"].startswith("DREAMS.md:"))
    assert row["recalls"] == 4 and row["signals"]["diversity"] == 0.6      # 3 distinct queries of the 5 it counts


def test_a_database_it_cannot_read_is_a_note(repo: Path, tmp_path: Path) -> None:
    assert tiergit(repo, "init", "--preset", "openclaw").returncode == 0
    write(repo / "DREAMS.md", "# Dreams\n\n" + CANDIDATE)
    broken = tmp_path / "state" / openclaw_state.DB
    broken.parent.mkdir(parents=True)
    broken.write_bytes(b"not a database" * 100)
    proc = tiergit(repo, "promote", env={"OPENCLAW_STATE_DIR": str(tmp_path / "state")})
    assert proc.returncode == 0 and "openclaw.sqlite: not read" in proc.stdout + proc.stderr
    assert openclaw_state.recall_values(repo, {"OPENCLAW_STATE_DIR": str(tmp_path / "none")}) == ([], None)


def test_session_end_copies_grown_entries_for_the_nightly_promotion(repo: Path, tmp_path: Path) -> None:
    """`session end` snapshots OpenClaw's entries into the committed log; a promotion without OpenClaw's
    database (the nightly runner) counts them from there; an unchanged entry is not copied again."""
    assert tiergit(repo, "init", "--preset", "openclaw").returncode == 0
    write(repo / "DREAMS.md", "# Dreams\n\n" + CANDIDATE)
    state = tmp_path / "state"
    _db(state, [(str(repo), "short-term-recall", _value("memory/2026-04-01.md", 1, 5, 4, ["a1", "b2", "c3"]))])
    env = {"OPENCLAW_STATE_DIR": str(state)}
    assert tiergit(repo, "session", "start", "--task", "compose files", env=env).returncode == 0
    ended = tiergit(repo, "session", "end", env=env)
    assert ended.returncode == 0 and "1 OpenClaw recall entry copied to .tiergit/logs/openclaw-recalls.jsonl" \
        in ended.stdout, ended.stdout + ended.stderr
    log = repo / ".tiergit/logs/openclaw-recalls.jsonl"
    assert len(log.read_text().splitlines()) == 1
    tiergit(repo, "session", "start", "--task", "again", env=env)
    again = json.loads(tiergit(repo, "session", "end", "--json", env=env).stdout)
    assert again["openclaw_recalls_copied"] == 0 and len(log.read_text().splitlines()) == 1
    nightly = json.loads(tiergit(repo, "promote", "--json", env={"OPENCLAW_STATE_DIR": str(tmp_path / "none")}).stdout)
    row = next(c for c in nightly["candidates"] if c["source"].startswith("DREAMS.md:"))
    assert row["recalls"] == 4


def test_snapshot_events_copy_only_what_grew() -> None:
    from tiergit.core import recallstore

    v1 = _value("memory/a.md", 1, 5, 2, ["q1"])
    first = recallstore.snapshot_events([v1], {})
    assert [e["recallCount"] for e in first] == [2] and "snippet" not in first[0]
    known = recallstore.from_snapshot(first)
    assert recallstore.snapshot_events([v1], known) == []                         # unchanged
    grown = recallstore.snapshot_events([_value("memory/a.md", 1, 5, 3, ["q1", "q2"])], known)
    assert [e["recallCount"] for e in grown] == [3]
    assert recallstore.snapshot_events([_value("memory/a.md", 1, 5, 1, ["q9"])], known) == []   # a reset store
    newest = recallstore.from_snapshot(first + grown)
    assert newest["memory/a.md"][0].count == 3


def test_an_item_import_staged_from_a_daily_note_gets_the_notes_recalls(repo: Path, tmp_path: Path) -> None:
    """`import openclaw` stages a daily note's durable items in .tiergit/candidates.md; OpenClaw's
    memory_search recalls the note's lines, so those recalls are the staged item's (found by its id in
    the note its `##` heading names). A recall of other lines of the note is not."""
    assert tiergit(repo, "init", "--preset", "openclaw").returncode == 0
    write(repo / "memory/2026-04-01.md", "# 2026-04-01\n\n## Deploys\n\n- Some chatter about the weather.\n\n"
                                          "- [rule] Always pin image digests in compose files.\n")
    assert tiergit(repo, "import", "openclaw", "--apply").returncode == 0
    assert "Always pin image digests" in (repo / ".tiergit/candidates.md").read_text()

    def staged_recalls(state: Path) -> int:
        out = json.loads(tiergit(repo, "promote", "--json", env={"OPENCLAW_STATE_DIR": str(state)}).stdout)
        # the staged item (a recalled daily line is a candidate of its own too: features/promotion/candidates.py)
        return next(c for c in out["candidates"] if "pin image digests" in c["text"]
                    and c["source"].startswith(".tiergit/candidates.md"))["recalls"]

    other, rule = tmp_path / "weather", tmp_path / "rule"
    _db(other, [(str(repo), "short-term-recall", _value("memory/2026-04-01.md", 3, 5, 2, ["a1"]))])
    assert staged_recalls(other) == 0                             # the weather line, not the rule
    _db(rule, [(str(repo), "short-term-recall", _value("memory/2026-04-01.md", 6, 7, 3, ["a1", "b2"]))])
    assert staged_recalls(rule) == 3
    # the note changed since the import (the rule's text, so its id, is gone): the recall is not the item's
    write(repo / "memory/2026-04-01.md", "# 2026-04-01\n\n## Deploys\n\n- Some chatter about the weather.\n\n"
                                          "- [rule] Always pin image digests in every compose file.\n")
    assert staged_recalls(rule) == 0
