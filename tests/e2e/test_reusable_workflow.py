"""The reusable workflow's shell step, run as GitHub runs it (bash -eo pipefail, inputs through
env, a GITHUB_OUTPUT file) in a real repository: it says `changed` only when there is a pull
request to open, never for a promotion of 0 items, and refuses an unknown command."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from conftest import PROJECT
from test_action import seed_candidates

pytestmark = pytest.mark.e2e

REUSABLE = yaml.safe_load((PROJECT / "tiergit/templates/org/tiergit-reusable.yml").read_text())
STEP = next(s for s in REUSABLE["jobs"]["change"]["steps"] if s.get("id") == "run")


def run_step(repo: Path, tmp: Path, command: str) -> tuple[subprocess.CompletedProcess, dict]:
    out = tmp / "github_output"
    out.write_text("")
    script = tmp / "run.sh"
    script.write_text(STEP["run"])
    env = {**os.environ, "COMMAND": command, "GITHUB_OUTPUT": str(out), "RUNNER_TEMP": str(tmp),
           "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    done = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)], cwd=repo,
                          capture_output=True, text=True, env=env, timeout=300)
    return done, dict(line.split("=", 1) for line in out.read_text().splitlines() if "=" in line)


def test_the_step_takes_the_command_from_env_only():
    assert STEP["env"] == {"COMMAND": "${{ inputs.command }}"} and "${{" not in STEP["run"]


def test_nothing_to_promote_archive_or_sync_means_no_pull_request(squad_repo, tmp_path):
    for command in ("promote", "archive", "review-sync"):
        done, outputs = run_step(squad_repo, tmp_path, command)
        assert done.returncode == 0, (command, done.stdout, done.stderr)
        assert "changed" not in outputs, command
        assert Path(outputs["body"]).read_text().strip(), command


def test_promoted_items_mean_a_pull_request_with_the_table(squad_repo, tmp_path):
    ids = seed_candidates(squad_repo)
    done, outputs = run_step(squad_repo, tmp_path, "promote")
    assert done.returncode == 0, done.stderr
    assert outputs["changed"] == "true"
    body = Path(outputs["body"]).read_text()
    assert "| item | kind | score | recalls | source | reason |" in body and all(f"`{i}`" in body for i in ids)


def test_an_unknown_command_is_a_clear_error(squad_repo, tmp_path):
    done, _ = run_step(squad_repo, tmp_path, "promot")
    assert done.returncode == 2 and "::error::unknown command 'promot'" in done.stdout
