"""Shared fixtures: real git repositories in temporary folders, tiergit run as a real process."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parent.parent
CORPUS = Path(os.environ.get("TIERGIT_CORPUS", PROJECT.parent / "shared" / "corpus"))
# The real-memory corpus lives beside the project on the maintainers' machines and CI only.
HAVE_CORPUS = CORPUS.is_dir() and any(CORPUS.glob("*/"))
# Where the corpus is expected, a corpus test that does not run is a failure, not a skip.
REQUIRE_CORPUS = os.environ.get("TIERGIT_REQUIRE_CORPUS") == "1"
_CORPUS_SKIPS: list[str] = []


def corpus_files(pattern: str) -> list[Path]:
    """Corpus files matching a glob (empty without the corpus: parametrize then yields one skipped case)."""
    return sorted(CORPUS.glob(pattern)) if HAVE_CORPUS else []


def pytest_configure(config) -> None:
    config.addinivalue_line("markers", "corpus: reads the real-memory corpus (skipped where it is absent)")
    config.addinivalue_line("markers", "frameworks: installs and runs the real Squad/OpenClaw CLIs (TIERGIT_FRAMEWORKS=1)")


def pytest_collection_modifyitems(config, items) -> None:
    if REQUIRE_CORPUS and not HAVE_CORPUS:
        raise pytest.UsageError(f"TIERGIT_REQUIRE_CORPUS=1 but no corpus at {CORPUS}")
    for item in items:
        if item.get_closest_marker("corpus") is None:
            continue
        if not HAVE_CORPUS:
            _CORPUS_SKIPS.append(item.nodeid)
            item.add_marker(pytest.mark.skip(reason=f"needs the corpus at {CORPUS}"))


def pytest_runtest_logreport(report) -> None:
    # With the corpus present, a skipped corpus test hides a broken fixture: fail instead.
    if HAVE_CORPUS and REQUIRE_CORPUS and report.skipped and "corpus" in report.keywords:
        report.outcome = "failed"
        report.longrepr = f"corpus test skipped although the corpus is at {CORPUS}"


def pytest_terminal_summary(terminalreporter) -> None:
    if _CORPUS_SKIPS:
        terminalreporter.write_line(
            f"tiergit: {len(_CORPUS_SKIPS)} corpus test(s) skipped: no corpus at {CORPUS} "
            "(set TIERGIT_CORPUS to a copy of the shared real-memory corpus to run them)")
    elif HAVE_CORPUS:
        ran = sum(1 for r in terminalreporter.stats.get("passed", []) if "corpus" in r.keywords)
        if ran:
            terminalreporter.write_line(f"tiergit: {ran} corpus test(s) passed against {CORPUS}")


@pytest.fixture(autouse=True)
def _git_identity(monkeypatch, tmp_path_factory):
    """Isolate tests from the developer's git config and give commits a stable identity."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    # One verified token-rank cache for the whole session (tests that study it set their own).
    monkeypatch.setenv("TIERGIT_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "tiergit-cache"))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("GIT_AUTHOR_NAME", "Test Author")
    monkeypatch.setenv("GIT_AUTHOR_EMAIL", "author@example.com")
    monkeypatch.setenv("GIT_COMMITTER_NAME", "Test Committer")
    monkeypatch.setenv("GIT_COMMITTER_EMAIL", "committer@example.com")
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    monkeypatch.delenv("TIERGIT", raising=False)
    (home / ".gitconfig").write_text("[init]\n\tdefaultBranch = main\n[advice]\n\tdetachedHead = false\n")


def git(repo: Path, *args: str, check: bool = True, env: dict | None = None) -> subprocess.CompletedProcess:
    proc = subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True,
                          env={**os.environ, **(env or {})})
    if check and proc.returncode != 0:
        raise AssertionError(f"git {' '.join(args)} failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}")
    return proc


def tiergit(repo: Path, *args: str, input: str | None = None, env: dict | None = None) -> subprocess.CompletedProcess:
    """Run the real CLI in a subprocess (as agents, hooks and CI do)."""
    return subprocess.run([sys.executable, "-m", "tiergit", *args], cwd=repo, capture_output=True,
                          text=True, input=input, env={**os.environ, **(env or {})})


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """An empty git repository with one commit."""
    path = tmp_path / "repo"
    path.mkdir()
    git(path, "init", "-q", "-b", "main")
    (path / "README.md").write_text("# demo\n")
    git(path, "add", "README.md")
    git(path, "commit", "-q", "-m", "initial")
    return path


@pytest.fixture
def squad_repo(repo: Path) -> Path:
    """A repository after `tiergit init --preset squad` (hooks installed), committed."""
    proc = tiergit(repo, "init", "--preset", "squad")
    assert proc.returncode == 0, proc.stderr
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "tiergit init")
    return repo


def ok(proc: subprocess.CompletedProcess) -> subprocess.CompletedProcess:
    """Assert a command succeeded, showing its output when it did not."""
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc


def commit(repo: Path, message: str) -> subprocess.CompletedProcess:
    """Stage everything and commit through the installed hooks."""
    git(repo, "add", "-A")
    return git(repo, "commit", "-q", "-m", message)


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path
