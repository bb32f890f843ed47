"""Squad's wiki size is "variable": a wiki topic over its warn level warns and still commits;
a team that sets a max gets it enforced, through the real pre-commit hook."""
from __future__ import annotations

import pytest
from conftest import commit, git, write

TOPIC = "# Auth\n\n" + "".join(f"- [rule] rule number {i} about the auth gateway and its tokens\n" for i in range(400))


@pytest.mark.e2e  # the hook fires under a real git commit
def test_a_large_wiki_topic_warns_and_commits(squad_repo):
    write(squad_repo / ".squad/memory/wiki/auth.md", TOPIC)      # about 23 KB, 6,000 tokens
    run = commit(squad_repo, "a large wiki topic")
    assert run.returncode == 0, run.stderr
    assert "BUD002 [warning] wiki tier near budget" in run.stderr and "warn-only: never blocks" in run.stderr


def test_a_team_max_on_the_wiki_blocks(squad_repo):
    cfg = squad_repo / ".tiergit.yml"
    cfg.write_text(cfg.read_text() + "tiers:\n  wiki: {budget: {bytes: {warn: 16384, max: 20000}}}\n")
    commit(squad_repo, "cap the wiki")
    write(squad_repo / ".squad/memory/wiki/auth.md", TOPIC)
    git(squad_repo, "add", "-A")
    run = git(squad_repo, "commit", "-q", "-m", "a large wiki topic", check=False)
    assert run.returncode != 0 and "BUD001 [critical] wiki tier over budget" in run.stderr
