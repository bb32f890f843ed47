"""Every command once through a real process, as agents, hooks and CI start it: `python -m
tiergit` (the hook shims' and CI's entry, with its fast paths) and the installed `tiergit`
script (`tiergit.__main__:main`, the door). The rest of the suite runs commands in-process (conftest.run_cli);
these runs keep the real entry points, exit codes and stream handling covered."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import tiergit_process
from test_cli_contract import COMMANDS, argv, team, workspace  # noqa: F401 - team is a fixture

pytestmark = pytest.mark.e2e

SCRIPT = Path(sys.executable).with_name("tiergit")


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_each_command_runs_as_a_process(name, team, tmp_path):  # noqa: F811 - the fixture
    repo, subst = workspace(team, tmp_path)
    proc = tiergit_process(repo, *argv(COMMANDS[name], subst), "--json", env={"TIERGIT_TODAY": "2026-06-01"})
    assert proc.returncode in (0, 1), f"exit {proc.returncode}: {proc.stderr}"
    assert "Traceback" not in proc.stderr
    json.loads(proc.stdout)


def test_bad_input_is_exit_2_and_one_clear_line_from_a_process(tmp_path):
    proc = tiergit_process(tmp_path, "--repo", str(tmp_path / "missing"), "status")
    assert proc.returncode == 2, proc.stderr
    assert not proc.stdout and "missing" in proc.stderr and "Traceback" not in proc.stderr
    assert 1 <= len(proc.stderr.strip().splitlines()) <= 2, proc.stderr


def test_the_installed_script_is_the_cli(team, tmp_path):  # noqa: F811 - the fixture
    repo, _ = workspace(team, tmp_path)
    assert SCRIPT.is_file(), f"no `tiergit` script beside {sys.executable}: pip install -e ."
    version = subprocess.run([str(SCRIPT), "--version"], capture_output=True, text=True)
    assert version.returncode == 0 and version.stdout.startswith("tiergit"), version.stderr
    status = subprocess.run([str(SCRIPT), "status", "--json"], cwd=repo, capture_output=True, text=True)
    assert status.returncode == 0, status.stderr
    assert json.loads(status.stdout)
    refused = subprocess.run([str(SCRIPT), "context", "--agent", "../x"], cwd=repo, capture_output=True, text=True)
    assert refused.returncode == 2 and "Traceback" not in refused.stderr, refused.stderr
