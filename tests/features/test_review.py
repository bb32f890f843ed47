"""Review outcomes by hand, closed (unmerged) promotion PRs, changed text, the day's log."""
from __future__ import annotations

import json
from datetime import date, timedelta

from conftest import git, tiergit, write

from tiergit.core.parse import item_id
from tiergit.shell import logs
from tiergit.shell.store import Store
from tiergit.shell import clock

OLD = (clock.today() - timedelta(days=50)).isoformat()
RULE = "- [rule] Keep retries idempotent across gateway pods ^m-abcd1234"


def _setup(repo, line: str = RULE) -> str:
    write(repo / ".squad/memory/cold/picard.md", f"# P\n\n### Work ({OLD})\n\n{line}\n")
    iid = item_id(line)[0]
    logs.append(Store.open(repo), logs.RECALLS, [
        {"ts": f"{(clock.today() - timedelta(days=i)).isoformat()}T00:00:00Z", "query": f"q{i}", "id": iid,
         "score": 0.95, "agent": "p", "path": "x", "entry": "x", "rank": 1} for i in range(1, 12, 2)])
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "memory")
    return iid


def _promote_json(repo) -> dict:
    run = tiergit(repo, "promote", "--json")
    assert run.returncode == 0, run.stderr
    return {c["id"]: c for c in json.loads(run.stdout)["candidates"]}


def test_reject_by_hand_until_the_text_changes(squad_repo):
    iid = _setup(squad_repo)
    assert _promote_json(squad_repo)[iid]["verdict"] == "promote"
    assert tiergit(squad_repo, "promote", "--apply").returncode == 0
    pending = _promote_json(squad_repo)[iid]
    assert pending["failed"] == "review" and "awaiting review" in pending["reason"]
    # Undo the wiki write (as a closed PR would) and reject by hand.
    git(squad_repo, "checkout", "-q", "--", ".")
    git(squad_repo, "clean", "-qfd")
    logs.append(Store.open(squad_repo), logs.REVIEWS, [{"id": iid, "action": "proposed", "text": "Keep retries idempotent across gateway pods"}])
    run = tiergit(squad_repo, "review", "reject", iid, "--reason", "one-off workaround")
    assert run.returncode == 0 and f"rejected {iid}" in run.stdout
    row = _promote_json(squad_repo)[iid]
    assert row["failed"] == "review" and "not proposed again unless the text changes" in row["reason"]
    # Same id, new text: it is a new candidate.
    cold = squad_repo / ".squad/memory/cold/picard.md"
    cold.write_text(cold.read_text().replace("across gateway pods", "across gateway and worker pods"))
    assert _promote_json(squad_repo)[iid]["verdict"] == "promote"
    accepted = tiergit(squad_repo, "review", "accept", iid, "--reason", "confirmed", "--json")
    assert json.loads(accepted.stdout)["action"] == "accepted"


def test_review_of_an_unknown_id_is_a_clear_error(squad_repo):
    run = tiergit(squad_repo, "review", "reject", "m-00000000", "--reason", "x")
    assert run.returncode == 2
    assert "reviews.jsonl: no proposal or candidate with id m-00000000" in run.stderr and "Traceback" not in run.stderr


def test_a_closed_promotion_pr_rejects_nothing(squad_repo):
    iid = _setup(squad_repo)
    git(squad_repo, "checkout", "-q", "-b", "tiergit/promote")
    assert tiergit(squad_repo, "promote", "--apply").returncode == 0
    git(squad_repo, "add", "-A")
    git(squad_repo, "commit", "-q", "-m", "promote")
    git(squad_repo, "checkout", "-q", "main")            # the PR is closed, never merged
    synced = json.loads(tiergit(squad_repo, "review", "sync", "--json").stdout)
    assert synced["events"] == []
    assert _promote_json(squad_repo)[iid]["verdict"] == "promote"


def test_openclaw_review_line_goes_to_the_daily_note(repo):
    assert tiergit(repo, "init", "--preset", "openclaw").returncode == 0
    write(repo / "MEMORY.md", "# Memory\n\n- [rule] Be brief ^m-11112222\n")
    store = Store.open(repo)
    logs.append(store, logs.REVIEWS, [{"id": "m-11112222", "action": "proposed", "text": "Be brief"},
                                      {"id": "m-33334444", "action": "proposed", "text": "Gone"}])
    run = tiergit(repo, "review", "sync")
    assert run.returncode == 0, run.stderr
    assert "Dream review: accepted 1, rejected 1" in run.stdout
    note = (repo / f"memory/{clock.today().isoformat()}.md").read_text()
    assert note.startswith(f"# {clock.today().isoformat()}\n")
    last = note.rstrip("\n").splitlines()[-1]
    assert last.startswith("- [") and last.endswith("] Dream review: accepted 1, rejected 1")
    assert len(last.split("]")[0]) == len("- [HH:MM")


def test_a_candidate_can_be_rejected_before_it_is_ever_proposed(squad_repo):
    iid = _setup(squad_repo)
    run = tiergit(squad_repo, "review", "reject", iid, "--reason", "team-specific", "--json")
    assert run.returncode == 0, run.stderr
    ev = json.loads(run.stdout)
    assert ev["text"] == "Keep retries idempotent across gateway pods" and ev["source"].endswith("picard.md:5")
    assert _promote_json(squad_repo)[iid]["failed"] == "review"


def test_a_sync_that_dies_before_its_note_leaves_the_note_line_to_the_rerun(repo, monkeypatch):
    """The kill harness found it under load: outcomes were logged on their own first, so a sync killed
    before the day's note was written left a rerun with no new outcome, and the note line was lost.
    Outcomes, cleared candidates and the note are one journaled unit now: dying before it is written
    leaves everything to the rerun."""
    import pytest

    from tiergit.features.promotion import review

    assert tiergit(repo, "init", "--preset", "openclaw").returncode == 0
    write(repo / "MEMORY.md", "# Memory\n\n- [rule] Be brief ^m-11112222\n")
    store = Store.open(repo)
    logs.append(store, logs.REVIEWS, [{"id": "m-11112222", "action": "proposed", "text": "Be brief"}])

    def dies(*_args, **_kw):
        raise KeyboardInterrupt("killed while planning the day's note")

    monkeypatch.setattr(review, "plan_daily", dies)
    with pytest.raises(KeyboardInterrupt):
        review.sync(Store.open(repo))
    monkeypatch.undo()
    new, _cleared = review.sync(Store.open(repo))
    assert [e["action"] for e in new] == ["accepted"]
    note = (repo / f"memory/{clock.today().isoformat()}.md").read_text()
    assert note.rstrip("\n").endswith("] Dream review: accepted 1, rejected 0")
    assert sum(e["action"] == "accepted" for e in logs.read(Store.open(repo), logs.REVIEWS)) == 1
