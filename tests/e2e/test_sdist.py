"""The sdist carries what its own test suite needs: unpacked alone, its tests collect."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest
from conftest import PROJECT, git

pytestmark = pytest.mark.e2e


def test_sdist_tests_collect_from_the_unpacked_archive(tmp_path: Path) -> None:
    # Build from a copy of the files git would ship (tracked or not ignored): local junk cannot help.
    src = tmp_path / "src"
    listed = git(PROJECT, "ls-files", "-z", "--cached", "--others", "--exclude-standard").stdout
    for rel in filter(None, listed.split("\0")):
        if (PROJECT / rel).is_file():
            (src / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(PROJECT / rel, src / rel)
    out = tmp_path / "dist"
    build = subprocess.run([sys.executable, "-c", "import sys, setuptools.build_meta as b; "
                            "print(b.build_sdist(sys.argv[1]))", str(out)],
                           cwd=src, capture_output=True, text=True)
    assert build.returncode == 0, build.stderr[-2000:]
    archive = out / build.stdout.strip().splitlines()[-1]
    with tarfile.open(archive) as tar:
        tar.extractall(tmp_path / "unpacked", filter="data")
    root = next((tmp_path / "unpacked").iterdir())
    names = {p.relative_to(root).as_posix() for p in root.rglob("*")}
    for needed in ("tests/conftest.py", "tests/replay.py", "tests/delivery_fixtures.py",
                   "tests/session_helpers.py", "tests/js/package-lock.json",
                   "tests/fixtures/squad/sdk-history.md", "examples/team/.tiergit.yml", "scripts/test"):
        assert needed in names, needed
    assert not any("node_modules" in n or "__pycache__" in n for n in names)
    # Every test module imports (a helper left out of the sdist shows up as a collection error).
    # The unpacked sdist stands alone: no corpus beside it, so CI's "corpus required" does not apply.
    env = {k: v for k, v in os.environ.items() if k not in ("TIERGIT_REQUIRE_CORPUS", "TIERGIT_CORPUS")}
    collect = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                              "tests"], cwd=root, capture_output=True, text=True, env=env)
    assert collect.returncode == 0, collect.stdout[-3000:] + collect.stderr[-2000:]
    assert " error" not in collect.stdout.splitlines()[-1]
