"""Progress bars (issue 16, item 7): `import` over many files and plain `history` over many
versions draw a bar on stderr when it is a terminal (a real pseudo-terminal here), and stay
silent on a pipe, in CI, in a hook's environment and under --json."""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from conftest import git, write
from delivery_fixtures import squad_repo, squad_template  # noqa: F401

pty = pytest.importorskip("pty")   # POSIX only (Windows has no pseudo-terminals)

QUIET_KEYS = ("CI", "GIT_INDEX_FILE", "GIT_EXEC_PATH", "GIT_DIR", "TIERGIT_PROGRESS")
BASE_ENV = {k: v for k, v in os.environ.items() if k not in QUIET_KEYS}
NO_HOOKS = {"TIERGIT": "0"}


def run(repo: Path, args: list[str], tty: bool, env: dict | None = None) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of `python -m tiergit ARGS`, stderr on a pty or a pipe."""
    full_env = {**BASE_ENV, "COLUMNS": "100", **(env or {})}
    with tempfile.TemporaryFile() as out:
        if not tty:
            proc = subprocess.run([sys.executable, "-m", "tiergit", *args], cwd=repo, stdout=out,
                                  stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, env=full_env, timeout=300)
            out.seek(0)
            return proc.returncode, out.read().decode(), proc.stderr.decode()
        master, slave = pty.openpty()
        proc = subprocess.Popen([sys.executable, "-m", "tiergit", *args], cwd=repo, stdout=out, stderr=slave,
                                stdin=subprocess.DEVNULL, env=full_env)
        os.close(slave)
        chunks = []
        while True:
            try:
                data = os.read(master, 65536)
            except OSError:   # EIO: the child closed the terminal
                break
            if not data:
                break
            chunks.append(data)
        os.close(master)
        code = proc.wait(timeout=300)
        out.seek(0)
        return code, out.read().decode(), b"".join(chunks).decode("utf-8", "replace")


def test_history_draws_a_bar_on_a_terminal_only(squad_repo):
    for n in range(210):   # 210 distinct versions: over progress.MIN_ITEMS
        write(squad_repo / f".squad/memory/cold/agent{n:03d}.md", f"# agent {n}\n\n### Work (2026-05-01)\n\n- item {n}\n")
    git(squad_repo, "add", "-A")
    git(squad_repo, "commit", "-q", "-m", "many cold files", env=NO_HOOKS)
    code, out, err = run(squad_repo, ["history"], tty=True)
    assert code == 0, err
    assert "history: measuring versions" in err and "100%" in err
    assert "history: measuring" not in out   # the table on stdout stays clean
    for args, env, tty in ((["history"], {}, False), (["history"], {"CI": "true"}, True),
                           (["history", "--json"], {}, True), (["history"], {"GIT_INDEX_FILE": ".git/index"}, True),
                           (["history"], {"TIERGIT_PROGRESS": "0"}, True)):
        code, out, err = run(squad_repo, args, tty=tty, env=env)
        assert code == 0, err
        assert "history: measuring" not in err, (args, env, tty)
        assert out == run(squad_repo, ["history"] if "--json" not in args else args, tty=False)[1]


def test_import_draws_a_bar_over_many_agents_on_a_terminal_only(squad_repo):
    for n in range(12):
        write(squad_repo / f".squad/agents/agent{n:02d}/history.md",
              f"# Agent {n}\n\n## Learnings\n\n### Work (2026-05-0{1 + n % 9})\n\n**Pattern:** always rebase agent {n}\n")
    git(squad_repo, "add", "-A")
    git(squad_repo, "commit", "-q", "-m", "histories", env=NO_HOOKS)
    code, out, err = run(squad_repo, ["import", "squad"], tty=True)
    assert code == 0, err
    assert "import: agents" in err and "100%" in err
    for env, tty in (({}, False), ({"CI": "1"}, True)):
        code, quiet_out, err = run(squad_repo, ["import", "squad"], tty=tty, env=env)
        assert code == 0 and "import: agents" not in err, (env, tty, err)
        assert quiet_out == out


def test_first_status_shows_its_parse_and_token_count_on_a_terminal_only(squad_repo):
    """The parse and the token count of a first `status` draw a bar (here from their first step:
    TIERGIT_PROGRESS_AFTER=0; by default after one second), silent on a pipe, in CI, under --json."""
    for n in range(30):
        write(squad_repo / f".squad/memory/cold/agent{n:03d}.md",
              f"# agent {n}\n\n### Work (2026-05-01)\n\n- **Pattern:** item {n}\n- [fact] fact {n}\n")
    git(squad_repo, "add", "-A")
    git(squad_repo, "commit", "-q", "-m", "cold files", env=NO_HOOKS)
    now = {"TIERGIT_PROGRESS_AFTER": "0"}
    code, out, err = run(squad_repo, ["status"], tty=True, env=now)
    assert code in (0, 1), err
    assert "reading memory files" in err and "status: counting tokens" in err and "100%" in err
    assert "reading memory files" not in out
    for args, env, tty in ((["status"], now, False), (["status"], {**now, "CI": "1"}, True),
                           (["status", "--json"], now, True)):
        (squad_repo / ".git" / "tiergit" / "promotion-health.json").unlink(missing_ok=True)
        code, _, err = run(squad_repo, args, tty=tty, env=env)
        assert code in (0, 1) and "reading memory files" not in err and "counting tokens" not in err, (args, env)
    code, _, err = run(squad_repo, ["status"], tty=True)   # default delay: a small store is done first
    assert "counting tokens" not in err and "reading memory files" not in err


def test_a_small_job_draws_its_bar_once_it_has_run_a_second(monkeypatch, capsys):
    from tiergit.shell import progress

    monkeypatch.setattr(progress, "enabled", lambda: True)
    monkeypatch.setattr(progress, "AFTER_SECONDS", 0.2)
    monkeypatch.delenv("TIERGIT_PROGRESS_AFTER", raising=False)
    assert list(progress.iterate(list(range(5)), "quick job")) == list(range(5))
    assert "quick job" not in capsys.readouterr().err
    import time

    for _ in progress.iterate(list(range(5)), "slow job"):
        time.sleep(0.1)   # 0.5 s in all: the bar opens at the third step
    assert "slow job" in capsys.readouterr().err
