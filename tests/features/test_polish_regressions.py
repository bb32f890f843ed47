"""Small user-facing regressions found by walking every command as a first-time user."""
from __future__ import annotations

from conftest import tiergit


def test_context_stats_never_claims_a_negative_saving(squad_repo):
    # A new agent: a small hot file, so the prompt (task + template) outweighs every tier.
    assert tiergit(squad_repo, "session", "start", "--agent", "picard", "--task", "Fix it").returncode == 0
    # (the prompt leaves the hot template's hints out, so a long --why is what makes it outweigh the tiers)
    proc = tiergit(squad_repo, "context", "--agent", "picard", "--stats", "--why", "users keep hitting it " * 40)
    assert proc.returncode == 0, proc.stderr
    every = next(line for line in proc.stderr.splitlines() if line.strip().startswith("every tier"))
    assert "saves -" not in every and "% larger (task and template text)" in every
