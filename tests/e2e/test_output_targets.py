"""`report --html` and `promote --pr-body`: a symlink, FIFO or device as the target is refused
(exit 2, a clear message, nothing written, no hang); `-` means stdout."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import git

from tiergit.core.prbody import MARKER

pytestmark = pytest.mark.e2e

TIMEOUT = 30   # a FIFO opened for writing would block forever: the run must end well before


def run(repo: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tiergit", *args], cwd=repo, capture_output=True, text=True,
                          timeout=TIMEOUT)


def _target(kind: str, tmp_path: Path) -> tuple[Path, Path | None]:
    """(target path, the file a link points at) for each odd kind of target."""
    if kind == "symlink":
        victim = tmp_path / "bashrc"
        victim.write_text("# rc\n")
        link = tmp_path / "out.html"
        link.symlink_to(victim)
        return link, victim
    if kind == "dangling symlink":
        link = tmp_path / "out.html"
        link.symlink_to(tmp_path / "nowhere.html")
        return link, tmp_path / "nowhere.html"
    if kind == "fifo":
        fifo = tmp_path / "out.html"
        os.mkfifo(fifo)
        return fifo, None
    return Path("/dev/null"), None


KINDS = ["symlink", "dangling symlink", "fifo", "device"]
WORDS = {"symlink": "symlink", "dangling symlink": "symlink", "fifo": "FIFO", "device": "device"}


def _refused(proc: subprocess.CompletedProcess, kind: str, target: Path, victim: Path | None) -> None:
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr and WORDS[kind] in proc.stderr and str(target) in proc.stderr
    assert len(proc.stderr.strip().splitlines()) <= 2
    if kind == "symlink":
        assert target.is_symlink() and victim.read_text() == "# rc\n"
    elif kind == "dangling symlink":
        assert target.is_symlink() and not victim.exists()
    elif kind == "fifo":
        assert target.is_fifo()
    else:
        assert target.is_char_device()


@pytest.mark.parametrize("kind", KINDS)
def test_report_html_refuses_an_odd_target(squad_repo, tmp_path, kind):
    target, victim = _target(kind, tmp_path)
    _refused(run(squad_repo, "report", "--html", str(target)), kind, target, victim)


@pytest.mark.parametrize("kind", KINDS)
def test_promote_pr_body_refuses_an_odd_target_and_applies_nothing(squad_repo, tmp_path, kind):
    target, victim = _target(kind, tmp_path)
    before = git(squad_repo, "status", "--porcelain", "--untracked-files=all").stdout
    _refused(run(squad_repo, "promote", "--apply", "--pr-body", str(target)), kind, target, victim)
    assert git(squad_repo, "status", "--porcelain", "--untracked-files=all").stdout == before


def test_report_html_dash_is_stdout(squad_repo):
    proc = run(squad_repo, "report", "--html", "-")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.lstrip().lower().startswith("<!doctype html") and proc.stdout.rstrip().endswith("</html>")
    assert not (squad_repo / "-").exists()


def test_report_html_to_a_file_still_works(squad_repo, tmp_path):
    proc = run(squad_repo, "report", "--html", str(tmp_path / "r.html"))
    assert proc.returncode == 0, proc.stderr
    assert "wrote" in proc.stdout and (tmp_path / "r.html").read_text().rstrip().endswith("</html>")


def test_promote_pr_body_dash_is_stdout_alone(squad_repo):
    proc = run(squad_repo, "promote", "--pr-body", "-")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith(MARKER) and "How to reject an item" in proc.stdout
    assert "preview" in proc.stderr or "candidate" in proc.stderr.lower()   # the summary, out of the body's way
    assert not (squad_repo / "-").exists()


@pytest.mark.parametrize("args", [["report", "--html", "-", "--json"], ["promote", "--pr-body", "-", "--json"],
                                  ["promote", "--pr-body", "-", "--open-pr"]])
def test_dash_with_another_stdout_user_is_refused(squad_repo, args):
    proc = run(squad_repo, *args)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert "-" in proc.stderr and len(proc.stderr.strip().splitlines()) <= 2


@pytest.mark.parametrize("kind", ["symlink", "fifo"])
def test_audit_pr_body_refuses_an_odd_target_before_the_cut(squad_repo, tmp_path, kind):
    target, victim = _target(kind, tmp_path)
    before = git(squad_repo, "status", "--porcelain", "--untracked-files=all").stdout
    _refused(run(squad_repo, "audit", "--apply", "--pr-body", str(target)), kind, target, victim)
    assert git(squad_repo, "status", "--porcelain", "--untracked-files=all").stdout == before
