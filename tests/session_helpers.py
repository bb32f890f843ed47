"""A lighter store fixture for session tests: `tiergit init --preset squad --no-install`, uncommitted.
Tests that commit through the real hook use conftest's `squad_repo` instead."""
from __future__ import annotations

from pathlib import Path

import pytest
from conftest import tiergit


@pytest.fixture
def squad_store(repo: Path) -> Path:
    proc = tiergit(repo, "init", "--preset", "squad", "--no-install")
    assert proc.returncode == 0, proc.stderr
    return repo
