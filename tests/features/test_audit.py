"""`audit`: dead context in durable tiers is proposed for the archive with a reason; recurring
themes of the week reach the PR body."""
from __future__ import annotations

import json
from datetime import date, timedelta

from conftest import git, tiergit, write
from tiergit.shell import clock

TODAY = clock.today()


def d(days: int) -> str:
    return (TODAY - timedelta(days=days)).isoformat()


WIKI = f"""# Auth

## Rules

- [rule] Refresh tokens in the gateway, never in the browser client
- [x] Migrate the token cache to Redis
- [fact] Issue 77 about the login loop is resolved
- {d(400)} [fact] The tenant has 40 seats
- User: why is login slow?

### Token cache design ({d(90)})

- [decision] Keep the cache in process memory

### Token cache design ({d(10)})

- [decision] Keep the cache in Redis, shared by all gateway pods
"""


def test_audit_finds_dead_context_and_apply_archives_it(squad_repo):
    repo = squad_repo
    wiki = repo / ".squad/memory/wiki/auth.md"
    write(wiki, WIKI)
    git(repo, "add", "-A")
    # Written before tiergit guarded this repo: the hook would refuse the transcript line.
    git(repo, "commit", "-q", "-m", "wiki", env={"TIERGIT": "0"})
    run = tiergit(repo, "audit", "--json")
    assert run.returncode == 0, run.stderr
    found = {f["text"][:20]: f["reason"] for f in json.loads(run.stdout)["findings"]}
    assert found["Migrate the token ca"] == "completed task (- [x])"
    assert found["Issue 77 about the l"].startswith("resolved issue")
    assert found[f"{d(400)} [fact] Th"].startswith(f"stale dated fact ({d(400)}, 400 days old)")
    assert found["User: why is login s"] == "raw log / transcript line in a durable tier"
    assert found["Token cache design ("].startswith("superseded by the newer entry")
    assert len(found) == 5
    assert wiki.read_text() == WIKI                      # preview writes nothing

    assert tiergit(repo, "audit", "--apply").returncode == 0
    kept = wiki.read_text()
    assert "Refresh tokens in the gateway" in kept and "Keep the cache in Redis" in kept
    assert "Migrate the token cache" not in kept and "process memory" not in kept
    archived = "".join(p.read_text() for p in (repo / ".squad/memory/archive").rglob("*.md"))
    for gone in ("Migrate the token cache", "Issue 77", "40 seats", "why is login slow", "process memory"):
        assert gone in archived
    assert "completed task" in archived                  # the reason travels with it


def test_recurring_themes_of_the_week_reach_the_pr_body(squad_repo, tmp_path):
    repo = squad_repo
    write(repo / ".squad/memory/cold/picard.md",
          f"# Picard\n\n### Broker upgrade ({d(2)})\n\n- Broker timeouts again #broker\n\n"
          f"### Gateway ({d(3)})\n\n- More broker timeouts under load #broker\n\n"
          f"### Old ({d(30)})\n\n- #legacy thing #legacy\n")
    body = tmp_path / "body.md"
    assert tiergit(repo, "promote", "--pr-body", str(body)).returncode == 0
    text = body.read_text()
    themes = text.split("### Recurring themes this week", 1)[1]
    assert "- #broker (2 entries)" in themes and "- timeout (2 entries)" in themes
    assert "legacy" not in themes
