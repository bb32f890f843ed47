"""One door: the installed `tiergit` script is the dispatcher `python -m tiergit` runs, with every
fast path, and one boundary formats every TiergitError the same way on every path."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import tomllib
from importlib.metadata import entry_points
from pathlib import Path

import pytest
from conftest import commit, git, tiergit, write

pytestmark = pytest.mark.e2e
ROOT = Path(__file__).resolve().parents[2]


def _script() -> str:
    found = shutil.which("tiergit", path=str(Path(sys.executable).parent))
    if found is None:
        pytest.skip("no installed `tiergit` script beside this interpreter (pip install -e .)")
    return found


def _imports(cmd: list[str], cwd: Path) -> tuple[subprocess.CompletedProcess, set[str]]:
    """Run `cmd` with -X importtime (PYTHONPROFILEIMPORTTIME) and list the modules it imported."""
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPROFILEIMPORTTIME": "1"})
    mods = {line.rsplit("|", 1)[1].strip() for line in proc.stderr.splitlines() if line.startswith("import time:")}
    return proc, mods


def test_the_console_script_enters_at_the_dispatcher() -> None:
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]["tiergit"]
    assert declared == "tiergit.__main__:main"
    (installed,) = entry_points(group="console_scripts", name="tiergit")
    assert installed.value == declared, "the venv's script is stale: pip install -e . again"


def test_the_script_takes_the_recall_fast_path(squad_repo: Path) -> None:
    write(squad_repo / ".squad" / "memory" / "cold" / "picard.md",
          "# picard\n\n### Cache work (2026-05-01)\n\n- [fact] the token cache expires after one hour\n")
    commit(squad_repo, "memory")
    past = time.time() - 10   # folders changed within 2 s of a walk are not trusted (racy rule)
    for dirpath, dirnames, filenames in os.walk(squad_repo):
        dirnames[:] = [d for d in dirnames if d != ".git"]
        for name in [*filenames, "."]:
            os.utime(os.path.join(dirpath, name), (past, past))
    assert tiergit(squad_repo, "recall", "token", "cache", "--no-log").returncode == 0   # builds the index
    proc, mods = _imports([_script(), "recall", "token", "cache", "--no-log"], squad_repo)
    assert proc.returncode == 0, proc.stderr
    assert "expires after one hour" in proc.stdout
    assert "tiergit.features.recall_fast" in mods
    assert not {"click", "yaml", "markdown_it", "tiergit.cli"} & mods


def test_the_script_takes_the_hook_fast_path(squad_repo: Path) -> None:
    write(squad_repo / "src" / "app.py", "print('hi')\n")
    git(squad_repo, "add", "-A")
    proc, mods = _imports([_script(), "hook", "pre-commit"], squad_repo)
    assert proc.returncode == 0, proc.stderr
    assert "tiergit.features.hookrun" in mods
    assert not {"click", "yaml", "tiergit.cli"} & mods


def test_help_imports_only_the_command_table(tmp_path: Path) -> None:
    proc, mods = _imports([_script(), "--help"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "recall" in proc.stdout and "Commands:" in proc.stdout
    assert "tiergit.cli" in mods
    heavy = sorted(m for m in mods if m.startswith(("tiergit.commands.", "tiergit.features.", "tiergit.shell.",
                                                    "tiergit.core.")) or m in ("yaml", "markdown_it"))
    assert heavy == [], f"--help imported {heavy}"


def test_one_format_for_errors_on_every_path(squad_repo: Path, tmp_path: Path) -> None:
    """A bad config through the hook fast path and through click; a FIFO through the driver."""
    (squad_repo / ".tiergit.yml").write_text("version: 1\npreset: nope\n")
    write(squad_repo / ".squad" / "memory" / "cold" / "picard.md", "# picard\n\n- [fact] x\n")
    git(squad_repo, "add", "-A")
    script = _script()
    hook = subprocess.run([script, "hook", "pre-commit"], cwd=squad_repo, capture_output=True, text=True)
    status = subprocess.run([script, "status"], cwd=squad_repo, capture_output=True, text=True)
    for proc in (hook, status):
        assert proc.returncode == 2, proc.stderr
        assert proc.stderr.startswith("tiergit: error: .tiergit.yml:2: "), proc.stderr
        assert "Traceback" not in proc.stderr
    assert hook.stderr.splitlines()[0] == status.stderr.splitlines()[0]
    fifo = tmp_path / "theirs"
    os.mkfifo(fifo)
    files = [write(tmp_path / n, "# a\n") for n in ("base", "ours")]
    driver = subprocess.run([script, "merge-driver", *map(str, files), str(fifo), "x.md"],
                            cwd=squad_repo, capture_output=True, text=True, timeout=60)
    assert driver.returncode == 2
    assert driver.stderr.startswith(f"tiergit: error: {fifo}: is a FIFO"), driver.stderr
    assert "\n  hint: " in driver.stderr and "Traceback" not in driver.stderr
