"""The review loop closed: a reason for every outcome, processed candidates cleared from
DREAMS.md, prune outcomes recorded, OpenClaw's `Dream review:` line in the day's note."""
from __future__ import annotations

import json
from datetime import date

from conftest import tiergit, write

from tiergit.core.patterns import MANAGED_BEGIN, MANAGED_END
from tiergit.features.promotion.review_loop import (
    clear_staging,
    decided,
    plan_prune_sync,
)
from tiergit.shell import logs
from tiergit.shell.store import Store
from tiergit.shell import clock

DREAMS = (
    "# Dreams\n\n## Candidates\n\n"
    "- [rule] Answer in the user's language ^m-11112222\n"
    "- [rule] Keep replies under ten lines ^m-33334444\n"
    "- [fact] The staging host is rebuilt on Mondays ^m-55556666\n\n"
    f"{MANAGED_BEGIN}\n## tiergit candidates (2026-06-01)\n\n"
    "- promote `m-11112222` 0.80 Answer in the user's language (score 0.80)\n"
    "- reject `m-55556666` 0.40 The staging host is rebuilt on Mondays (too young)\n"
    f"{MANAGED_END}\n"
)


def test_clear_staging_removes_only_processed_items_and_their_listing():
    out = clear_staging(DREAMS, "DREAMS.md", {"m-11112222", "m-33334444"})
    assert "m-11112222" not in out and "m-33334444" not in out
    assert "- [fact] The staging host is rebuilt on Mondays ^m-55556666" in out
    assert "reject `m-55556666`" in out and out.startswith("# Dreams\n\n## Candidates\n")
    assert clear_staging(DREAMS, "DREAMS.md", set()) == DREAMS


def test_decided_is_the_last_outcome_per_id():
    events = [{"id": "a", "action": "proposed"}, {"id": "a", "action": "accepted"},
              {"id": "b", "action": "rejected"}, {"id": "b", "action": "proposed"},
              {"id": "c", "action": "prune-proposed"}]
    assert decided(events) == {"a"}


def test_prune_outcomes_follow_what_the_reviewer_left():
    events = [{"id": "m-1", "action": "prune-proposed", "text": "old"},
              {"id": "m-2", "action": "prune-proposed", "text": "kept"},
              {"id": "m-3", "action": "prune-proposed"}, {"id": "m-3", "action": "pruned"}]
    out = plan_prune_sync(events, {"m-2": "MEMORY.md"})
    assert [(e["id"], e["action"]) for e in out] == [("m-1", "pruned"), ("m-2", "prune-kept")]
    assert all(e["reason"] for e in out)


def test_accept_and_reject_require_a_reason(squad_repo):
    for action in ("accept", "reject"):
        missing = tiergit(squad_repo, "review", action, "m-abcd1234")
        assert missing.returncode == 2 and "--reason" in missing.stderr and "Traceback" not in missing.stderr
        assert len(missing.stderr.strip().splitlines()) == 2          # one error line and its hint
        blank = tiergit(squad_repo, "review", action, "m-abcd1234", "--reason", "  ")
        assert blank.returncode == 2 and "a reason is required" in blank.stderr
        assert len(blank.stderr.strip().splitlines()) <= 2
    assert not logs.log_path(Store.open(squad_repo), logs.REVIEWS).exists()


def test_openclaw_sync_clears_dreams_and_logs_the_dream_review_line(repo):
    assert tiergit(repo, "init", "--preset", "openclaw").returncode == 0
    store = Store.open(repo)
    dreams = repo / store.config.repo_path(store.config.staging)
    write(dreams, DREAMS)
    write(repo / "MEMORY.md", "# Memory\n\n- [rule] Answer in the user's language ^m-11112222\n")
    logs.append(store, logs.REVIEWS, [{"id": "m-11112222", "action": "proposed", "text": "Answer"},
                                      {"id": "m-33334444", "action": "proposed", "text": "Keep replies"}])
    run = tiergit(repo, "review", "sync", "--json")
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert (out["accepted"], out["rejected"]) == (1, 1)
    assert out["cleared"] == [dreams.relative_to(repo).as_posix()]
    reasons = {e["id"]: e["reason"] for e in out["events"]}
    assert reasons["m-33334444"].startswith("deleted in review")
    text = dreams.read_text()
    assert "m-11112222" not in text and "m-33334444" not in text and "m-55556666" in text
    note = repo / store.config.repo_path(store.config.tiers["daily"].path.replace("{date}", clock.today().isoformat()))
    last = note.read_text().rstrip("\n").splitlines()[-1]
    assert last.startswith("- [") and last.endswith("] Dream review: accepted 1, rejected 1")
    again = json.loads(tiergit(repo, "review", "sync", "--json").stdout)
    assert again["events"] == [] and again["cleared"] == []


def test_clearing_keeps_the_rest_of_the_file_byte_for_byte():
    text = "# Dreams\n\n\n\n## Diary\n\nprose  \n\n- [rule] done ^m-11112222\n\n- [rule] open ^m-33334444\n\n\n"
    out = clear_staging(text, "DREAMS.md", {"m-11112222"})
    assert out == "# Dreams\n\n\n\n## Diary\n\nprose  \n\n- [rule] open ^m-33334444\n\n\n"
