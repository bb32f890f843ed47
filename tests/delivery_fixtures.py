"""A squad repository built once per session and copied per test (a copy is ~100x faster
than `tiergit init` + a hooked commit, which the delivery tests would otherwise repeat)."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import git, tiergit

IDENTITY = {"GIT_AUTHOR_NAME": "Test Author", "GIT_AUTHOR_EMAIL": "author@example.com",
            "GIT_COMMITTER_NAME": "Test Committer", "GIT_COMMITTER_EMAIL": "committer@example.com",
            "GIT_CONFIG_NOSYSTEM": "1"}


@pytest.fixture(scope="session")
def squad_template(tmp_path_factory) -> Path:
    """`tiergit init --preset squad` (hooks and merge driver installed), committed."""
    path = tmp_path_factory.mktemp("template") / "repo"
    path.mkdir()
    git(path, "init", "-q", "-b", "main", env=IDENTITY)
    git(path, "config", "advice.detachedHead", "false")
    (path / "README.md").write_text("# demo\n")
    done = tiergit(path, "init", "--preset", "squad", env=IDENTITY)
    assert done.returncode == 0, done.stderr
    git(path, "add", "-A")
    git(path, "commit", "-q", "-m", "tiergit init", env=IDENTITY)
    return path


@pytest.fixture
def squad_repo(squad_template: Path, tmp_path: Path) -> Path:
    """A private copy of the session's squad repository (same layout as conftest's squad_repo)."""
    path = tmp_path / "repo"
    shutil.copytree(squad_template, path, symlinks=True)
    return path
