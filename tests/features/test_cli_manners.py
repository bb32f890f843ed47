"""Small manners of the command line a new user meets first: a mistyped command names the closest
one, an option given where a FILE belongs is refused instead of becoming a file's name, and shell
completion (click's) works through the installed `tiergit` script as the README says."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import tiergit


@pytest.mark.parametrize("typo, suggested", [("stauts", "'status'"), ("recal", "'recall'"), ("promot", "'promote'")])
def test_a_mistyped_command_names_the_closest_one(squad_repo, typo, suggested):
    done = tiergit(squad_repo, typo)
    assert done.returncode == 2 and f"No such command '{typo}'. Did you mean {suggested}" in done.stderr
    assert "Traceback" not in done.stderr


def test_an_unknown_command_with_nothing_close_says_where_the_list_is(squad_repo):
    done = tiergit(squad_repo, "frobnicate")
    assert done.returncode == 2 and "Did you mean" not in done.stderr and "tiergit --help" in done.stderr


@pytest.mark.parametrize("args", [["report", "--html", "--help"], ["report", "--html", "--json"],
                                  ["promote", "--pr-body", "--json"]])
def test_an_option_where_a_file_belongs_writes_no_file_of_that_name(squad_repo, args):
    before = sorted(p.name for p in squad_repo.iterdir())
    done = tiergit(squad_repo, *args)
    assert done.returncode == 2 and f"takes a FILE, and '{args[2]}' is an option" in done.stderr
    assert sorted(p.name for p in squad_repo.iterdir()) == before


@pytest.mark.e2e
def test_shell_completion_through_the_installed_script(squad_repo):
    script = shutil.which("tiergit", path=str(Path(sys.executable).parent))
    assert script, "the tiergit console script is installed beside this interpreter"
    env = {**os.environ, "_TIERGIT_COMPLETE": "bash_complete", "COMP_WORDS": "tiergit sta", "COMP_CWORD": "1"}
    done = subprocess.run([script], cwd=squad_repo, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "plain,status" in done.stdout.split(), done.stdout + done.stderr
    env.update(COMP_WORDS="tiergit session ", COMP_CWORD="2")
    done = subprocess.run([script], cwd=squad_repo, env=env, capture_output=True, text=True, timeout=60)
    assert {"plain,start", "plain,end"} <= set(done.stdout.split())
    source = subprocess.run([script], cwd=squad_repo, env={**os.environ, "_TIERGIT_COMPLETE": "bash_source"},
                            capture_output=True, text=True, timeout=60)
    assert "_tiergit_completion" in source.stdout
