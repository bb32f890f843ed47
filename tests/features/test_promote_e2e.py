"""Promotion end to end in a real repository: cold items + recall log -> `promote --apply` on a
branch -> commit -> PR body -> a reviewer deletes one item -> merge -> `review sync` -> the
rejected item is never proposed again."""
from __future__ import annotations

import json
from datetime import date, timedelta

import pytest
from conftest import git, tiergit, write

from tiergit.shell import logs
from tiergit.shell.store import Store
from tiergit.shell import clock

TODAY = clock.today()


def d(days_ago: int) -> str:
    return (TODAY - timedelta(days=days_ago)).isoformat()


COLD = f"""# Picard: cold memory

## Core Context

- Picard owns the auth service and its token cache.

### Fix token cache expiry ({d(60)})

- [decision] Pin MSAL to 2.x until the broker supports the new cache format #auth
- [rule] Refresh tokens in the gateway, never in the browser client #auth
- [fact] The staging tenant rotates its signing keys every day at 02:00 UTC
- Spent most of the afternoon bisecting the broker release.

### Schema deploy ({d(45)})

- [rule] Run the migration dry-run before every schema deploy #deploy
- [rule] Keep each migration reversible with a tested down step #deploy
"""

PROMOTED = [
    "Pin MSAL to 2.x until the broker supports the new cache format #auth",
    "Refresh tokens in the gateway, never in the browser client #auth",
    "Run the migration dry-run before every schema deploy #deploy",
]


def recall_events(store: Store, text: str, n: int = 4) -> list[dict]:
    from tiergit.core.parse import item_id

    iid = item_id(f"- {text}")[0]
    return [{"ts": f"{d(1 + i * 2)}T10:00:00Z", "query": f"query {i} about {text[:12]}", "agent": "picard",
             "id": iid, "path": ".squad/memory/cold/picard.md", "entry": "x", "score": 0.9, "rank": 1}
            for i in range(n)]


def _item_id(text: str, kind: str) -> str:
    from tiergit.core.parse import item_id

    return item_id(f"- [{kind}] {text}")[0]


def test_promote_review_cycle_in_a_real_repo(squad_repo, tmp_path):
    repo = squad_repo
    write(repo / ".squad/memory/cold/picard.md", COLD)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "picard cold memory")
    store = Store.open(repo)
    ids = {}
    events = []
    for text, kind in zip(PROMOTED, ["decision", "rule", "rule"]):
        iid = _item_id(text, kind)
        ids[text] = iid
        events += [dict(ev, id=iid) for ev in recall_events(store, text)]
    # The reversible-migration rule is recalled once only: below min_recalls.
    events += [dict(recall_events(store, "x", 1)[0], id=_item_id(
        "Keep each migration reversible with a tested down step #deploy", "rule"))]
    logs.append(store, logs.RECALLS, events)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "recall log")

    git(repo, "checkout", "-q", "-b", "tiergit/promote")
    body = tmp_path / "body.md"
    run = tiergit(repo, "promote", "--apply", "--pr-body", str(body))
    assert run.returncode == 0, run.stderr
    assert "3 to promote" in run.stdout
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "tiergit: promote 3 items")

    diff = git(repo, "diff", "main", "HEAD", "--", ".squad/memory/wiki").stdout
    added = [ln[1:] for ln in diff.splitlines() if ln.startswith("+") and not ln.startswith("+++")]
    items = [ln for ln in added if ln.startswith("- [")]
    assert len(items) == 3
    for text, iid in ids.items():
        assert sum(text in ln and ln.endswith(f"^{iid}") for ln in items) == 1
    assert not any("reversible" in ln or "signing keys" in ln or "bisecting" in ln for ln in added)
    assert {ln for ln in added if ln and not ln.startswith("- [")} == {"# Auth", "# Deploy"}
    # Provenance: each line says where it came from.
    assert all("tiergit: from .squad/memory/cold/picard.md:" in ln for ln in items)

    text = body.read_text()
    assert "<!-- tiergit:promotion -->" in text
    assert "| item | kind | score | recalls | source | reason |" in text
    assert "<details>" in text and "recalled 1 time(s) < 2" in text
    assert "Delete its line" in text
    for iid in ids.values():
        assert f"`{iid}`" in text.split("<details>")[0]

    # The reviewer deletes the gateway rule before merging.
    auth = repo / ".squad/memory/wiki/auth.md"
    rejected_id = ids[PROMOTED[1]]
    auth.write_text("".join(ln for ln in auth.read_text().splitlines(True) if rejected_id not in ln))
    git(repo, "commit", "-q", "-am", "review: drop the gateway rule")
    git(repo, "checkout", "-q", "main")
    git(repo, "merge", "-q", "--no-ff", "-m", "Merge promotion", "tiergit/promote")

    synced = tiergit(repo, "review", "sync", "--json")
    assert synced.returncode == 0, synced.stderr
    result = json.loads(synced.stdout)
    assert (result["accepted"], result["rejected"]) == (2, 1)
    assert [e["id"] for e in result["events"] if e["action"] == "rejected"] == [rejected_id]
    daily = repo / f".squad/memory/logs/daily/{TODAY.isoformat()}.md"
    assert "Dream review: accepted 2, rejected 1" in daily.read_text()
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "review sync")

    again = json.loads(tiergit(repo, "promote", "--json").stdout)
    assert again["promote"] == 0
    by_id = {c["id"]: c for c in again["candidates"]}
    assert by_id[rejected_id]["failed"] == "review"
    assert "rejected in review" in by_id[rejected_id]["reason"]
    for text in (PROMOTED[0], PROMOTED[2]):
        assert by_id[ids[text]]["failed"] == "in-wiki"

    # A second sync records nothing new.
    assert json.loads(tiergit(repo, "review", "sync", "--json").stdout)["events"] == []


def test_promote_output_is_identical_across_runs_and_preview_writes_nothing(squad_repo):
    repo = squad_repo
    write(repo / ".squad/memory/cold/picard.md", COLD)
    store = Store.open(repo)
    logs.append(store, logs.RECALLS, [dict(ev, id=_item_id(PROMOTED[0], "decision"))
                                      for ev in recall_events(store, PROMOTED[0])])
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "memory")
    first = tiergit(repo, "promote")
    second = tiergit(repo, "promote")
    assert first.returncode == 0, first.stderr
    assert first.stdout == second.stdout
    assert "PROMOTE 0." in first.stdout and "preview only" in first.stdout
    assert git(repo, "status", "--porcelain").stdout == ""


@pytest.mark.corpus
def test_real_squad_history_ages_from_headings_and_git_blame(squad_repo):
    """A real history.md (corpus: martinopedal/azure-analyzer, agent atlas) as cold memory,
    committed 60 days ago: an item of a dated entry ages from its heading, an item of an
    undated section from `git blame`; both are promoted into a subject topic (the words they
    share with the history's other items), not a kind name."""
    from conftest import CORPUS

    from tiergit.core.parse import parse

    source = CORPUS / "martinopedal_azure-analyzer/.squad/agents/atlas/history.md"
    cold = squad_repo / ".squad/memory/cold/atlas.md"
    write(cold, source.read_text())
    past = f"{d(60)}T12:00:00+00:00"
    git(squad_repo, "add", "-A")
    git(squad_repo, "commit", "-q", "-m", "import atlas",
        env={"GIT_AUTHOR_DATE": past, "GIT_COMMITTER_DATE": past, "TIERGIT": "0"})
    store = Store.open(squad_repo)
    doc = parse(cold.read_text(), "atlas.md")
    by_section = {i.id: s for s in doc.sections for i in s.items}
    lesson = next(i for i in doc.items if i.clean.startswith("**Key lesson:**"))
    decision = next(i for i in doc.items if i.clean.startswith("**Decision:** Use PSCustomObject"))
    assert by_section[lesson.id].date is not None and by_section[decision.id].date is None
    logs.append(store, logs.RECALLS, [dict(ev, id=item.id) for item in (lesson, decision)
                                      for ev in recall_events(store, "pester")])
    out = json.loads(tiergit(squad_repo, "promote", "--json").stdout)
    rows = {c["id"]: c for c in out["candidates"]}
    assert rows[lesson.id]["age_day"] == by_section[lesson.id].date.isoformat()
    assert rows[decision.id]["age_day"] == d(60)                      # from git blame
    assert rows[lesson.id]["verdict"] == rows[decision.id]["verdict"] == "promote"
    assert tiergit(squad_repo, "promote", "--apply").returncode == 0
    targets = {rows[i.id]["target"] for i in (lesson, decision)}
    assert not targets & {".squad/memory/wiki/rules.md", ".squad/memory/wiki/decisions.md"}, targets
    rules = (squad_repo / rows[lesson.id]["target"]).read_text()
    assert "- [rule] Any Pester test invoking a script expected to exit non-zero MUST reset" in rules
    decisions = (squad_repo / rows[decision.id]["target"]).read_text()
    assert "- [decision] Use PSCustomObject consistently" in decisions
    assert f"^{decision.id}" in decisions
