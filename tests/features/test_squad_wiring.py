"""`init`/`install` wire Squad's spawn through tiergit, `check` reports a file that lost it,
`check --fix` puts it back, `uninstall` restores Squad's bytes (files shaped like Squad's;
the real CLI is tests/e2e/test_frameworks.py::test_squad_spawns_through_tiergit)."""
from __future__ import annotations

from conftest import commit, ok, tiergit, write

FILES = {".github/agents/squad.agent.md": "# Squad\n\n### How to Spawn an Agent\n\n**Full Spawn Template**\n",
         ".squad/templates/spawn-reference.md": "  Read `agents/{name}/history.md` with squad_state_read.\n",
         ".squad/agents/scribe/charter.md": "# Scribe\n\n## The Memory Architecture\n\n- tree\n"}


def test_wired_reported_refixed_and_restored(repo):
    for rel, text in FILES.items():
        write(repo / rel, text)
    commit(repo, "squad")
    out = ok(tiergit(repo, "init", "--preset", "squad")).stdout
    assert all(f"wired {rel}" in out for rel in FILES)
    assert "SQW001" not in tiergit(repo, "check", "--all").stdout
    (repo / ".github/agents/squad.agent.md").write_text(FILES[".github/agents/squad.agent.md"])  # an upgrade
    report = tiergit(repo, "check", "--all")
    assert report.returncode == 0 and ".github/agents/squad.agent.md:1: SQW001 [warning]" in report.stdout
    fixed = tiergit(repo, "check", "--fix")
    assert fixed.returncode == 1 and ".github/agents/squad.agent.md" in fixed.stdout
    assert "tiergit context --agent {name}" in (repo / ".github/agents/squad.agent.md").read_text()
    ok(tiergit(repo, "uninstall"))
    assert {rel: (repo / rel).read_text() for rel in FILES} == FILES


def test_a_repo_without_the_squad_preset_is_never_wired(repo):
    for rel, text in FILES.items():
        write(repo / rel, text)
    out = ok(tiergit(repo, "init", "--preset", "openclaw")).stdout
    assert "wired" not in out and {rel: (repo / rel).read_text() for rel in FILES} == FILES
