"""OpenClaw's DREAMS.md: only Dreaming's candidate structures become promotion candidates, dated
from their Dreaming entry; the diary's prose and the cited "What Happened" lines do not."""
from __future__ import annotations

import json

from conftest import commit, ok, tiergit, write
from tiergit.shell import clock

DREAMS = """# Dream Diary

<!-- openclaw:dreaming:diary:start -->
---

*March 17, 2026*

<!-- openclaw:dreaming:backfill-entry day=2026-03-17 source=memory/2026-03-17.md -->

What Happened
1. The owner prefers short answers with links over long explanations. [memory/2026-03-17.md:74]

Candidates
- [likely_durable] The owner prefers short answers with links over long explanations [memory/2026-03-17.md:74]
- [unclear] USER.md - the owner's profile [memory/2026-03-17.md:37]

---

*April 17, 2026 at 3:03 AM GMT+2*

The dream was full of numbers that dissolved when I tried to hold them, like rain on a window.
Someone asked what I could do. The question hung in the air like a door left slightly ajar.

- Candidate: Deploy previews expire after 7 days
  - confidence: 0.82
  - status: staged
<!-- openclaw:dreaming:diary:end -->
"""


def test_only_candidate_structures_dated_by_their_entry(repo):
    ok(tiergit(repo, "init", "--preset", "openclaw"))
    write(repo / "DREAMS.md", DREAMS)
    commit(repo, "dreams")
    rows = json.loads(ok(tiergit(repo, "promote", "--json")).stdout)["candidates"]
    got = {r["text"]: r["age_day"] for r in rows if r["source"].startswith("DREAMS.md:")}
    assert len(got) == 3, got
    assert got["The owner prefers short answers with links over long explanations"] == "2026-03-17"
    assert got["Deploy previews expire after 7 days"] == "2026-04-17"
    assert not any("dream was full of numbers" in t or "What Happened" in t for t in got)


def test_age_comes_from_the_commit_that_introduced_the_line_even_after_uncommitted_edits(squad_repo):
    from datetime import date, timedelta

    from conftest import git

    old = (clock.today() - timedelta(days=60)).isoformat()
    staging = squad_repo / ".squad/memory/staging/imported.md"
    write(staging, "# Staged\n\n- [rule] Name feature flags after the team that owns them\n")
    git(squad_repo, "add", "-A")
    git(squad_repo, "commit", "-q", "-m", "staged", env={"GIT_AUTHOR_DATE": f"{old}T10:00:00+0000", "TIERGIT": "0"})
    # An uncommitted edit above it shifts its line; a new line is not committed at all.
    write(staging, "# Staged\n\n- [rule] Keep each migration reversible with a tested down step\n"
                   "- [rule] Name feature flags after the team that owns them\n")
    rows = {r["text"]: r for r in json.loads(ok(tiergit(squad_repo, "promote", "--json")).stdout)["candidates"]}
    assert rows["Name feature flags after the team that owns them"]["age_day"] == old
    fresh = rows["Keep each migration reversible with a tested down step"]
    assert fresh["age_day"] is None and fresh["failed"] == "age"     # not committed: not "today"
