"""The documented pipeline `transcript compact -o notes.md && session end --notes notes.md`
keeps every never-compress item, also one that opens a turn in the newest (full) layer."""
from __future__ import annotations

import json

from conftest import tiergit


def test_decision_opening_a_recent_turn_reaches_cold(squad_repo, tmp_path):
    chat = tmp_path / "session.jsonl"
    chat.write_text("\n".join(json.dumps(turn) for turn in [
        {"role": "user", "content": "why does the cache go stale?"},
        {"role": "assistant", "content": "[decision] Token cache entries expire after 5 minutes."},
        {"role": "assistant", "content": "**Correction:** the gateway refreshes tokens, not the client."},
    ]) + "\n")
    notes = tmp_path / "notes.md"
    assert tiergit(squad_repo, "transcript", "compact", str(chat), "-o", str(notes)).returncode == 0
    assert tiergit(squad_repo, "session", "start", "--agent", "picard", "--task", "cache").returncode == 0
    end = tiergit(squad_repo, "session", "end", "--agent", "picard", "--notes", str(notes))
    assert end.returncode == 0, end.stderr
    cold = (squad_repo / ".squad/memory/cold/picard.md").read_text()
    assert "[decision] Token cache entries expire after 5 minutes." in cold
    assert "**Correction:** the gateway refreshes tokens, not the client." in cold
