"""The pre-commit hook decides "no memory file staged" before importing the config, the
checks or the tokenizer, and still refuses bad memory files after that shortcut exists."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import commit, git, write

pytestmark = pytest.mark.e2e

HEAVY = ("yaml", "tiktoken", "markdown_it", "click", "tiergit.shell.config", "tiergit.features.checks",
         "tiergit.core.parse")
PROBE = ("import sys; from tiergit.features import hookrun; rc = hookrun.run('pre-commit'); "
         "import json; print(json.dumps({'rc': rc, 'heavy': sorted(m for m in %r if m in sys.modules)}))")


def _hook_in_process(repo: Path) -> dict:
    """Run the hook's entry as the shim does and report which heavy modules it loaded."""
    proc = subprocess.run([sys.executable, "-c", PROBE % (HEAVY,)], cwd=repo, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def _cold(repo: Path, text: str) -> Path:
    return write(repo / ".squad" / "memory" / "cold" / "picard.md", "# picard\n\n### Work\n\n" + text)


def test_nothing_staged_imports_nothing_heavy(squad_repo: Path) -> None:
    assert _hook_in_process(squad_repo) == {"rc": 0, "heavy": []}


def test_non_memory_commit_skips_the_config_once_patterns_are_cached(squad_repo: Path) -> None:
    _cold(squad_repo, "- fact one\n")
    commit(squad_repo, "memory")   # the full run caches the tier patterns
    assert (squad_repo / ".git" / "tiergit" / "gate-patterns-v2.json").is_file()
    write(squad_repo / "src" / "app.py", "print('hi')\n")
    git(squad_repo, "add", "-A")
    assert _hook_in_process(squad_repo) == {"rc": 0, "heavy": []}
    # A staged memory file still gets the full check.
    _cold(squad_repo, "- fact two\n")
    git(squad_repo, "add", "-A")
    assert "tiergit.features.checks" in _hook_in_process(squad_repo)["heavy"]


def test_bad_memory_file_is_still_refused_after_the_shortcut(squad_repo: Path) -> None:
    _cold(squad_repo, "- fact one\n")
    commit(squad_repo, "memory")
    write(squad_repo / "notes.txt", "x\n")
    commit(squad_repo, "not memory")
    _cold(squad_repo, "- leaked ghp_" + "a" * 36 + "\n")
    git(squad_repo, "add", "-A")
    refused = git(squad_repo, "commit", "-m", "leak", check=False)
    assert refused.returncode == 1 and "SEC001" in refused.stderr


def test_a_config_change_is_never_short_cut(squad_repo: Path) -> None:
    _cold(squad_repo, "- fact one\n")
    commit(squad_repo, "memory")
    # A new tier path: files under it are memory from this commit on, cache or not.
    cfg = squad_repo / ".tiergit.yml"
    cfg.write_text(cfg.read_text() + "tiers:\n  notes:\n    path: \"notes/{agent}.md\"\n    budget: {bytes: 10}\n")
    write(squad_repo / ".squad" / "memory" / "notes" / "picard.md", "# picard\n\n- far more than ten bytes\n")
    git(squad_repo, "add", "-A")
    refused = git(squad_repo, "commit", "-m", "new tier", check=False)
    assert refused.returncode == 1 and "notes/picard.md" in refused.stderr, refused.stderr


DRIVER_PROBE = ("import sys; from tiergit.features import driverrun; rc = driverrun.main(sys.argv[1:]); "
                "import json; print(json.dumps({'rc': rc, 'heavy': sorted(m for m in %r if m in sys.modules)}))")


def _driver(tmp_path: Path, base: str, ours: str, theirs: str) -> tuple[dict, str]:
    files = []
    for name, text in (("O", base), ("A", ours), ("B", theirs)):
        files.append(write(tmp_path / name, text))
    proc = subprocess.run([sys.executable, "-c", DRIVER_PROBE % (HEAVY,), *map(str, files), "cold.md"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout), (tmp_path / "A").read_text()


BASE = "# picard\n\n### One (2026-01-01)\n\n- x\n"
OURS = BASE + "\n### Two (2026-01-02)\n\n- y\n"
THEIRS = BASE + "\n### Three (2026-01-03)\n\n- z\n"


def test_driver_answers_one_sided_changes_without_the_parser(tmp_path: Path) -> None:
    out, merged = _driver(tmp_path, BASE, BASE, THEIRS)
    assert out == {"rc": 0, "heavy": []} and merged == THEIRS
    out, merged = _driver(tmp_path, BASE, OURS, BASE)
    assert out == {"rc": 0, "heavy": []} and merged == OURS


def test_driver_merges_entries_without_click_or_yaml(tmp_path: Path) -> None:
    out, merged = _driver(tmp_path, BASE, OURS, THEIRS)
    assert out == {"rc": 0, "heavy": []}   # both sides appended entries: mergefast settles it, no parser
    assert "### Two (2026-01-02)" in merged and "### Three (2026-01-03)" in merged
    out, merged = _driver(tmp_path, BASE, BASE + "- y\n", BASE + "- z\n")
    assert out["rc"] == 0 and "click" not in out["heavy"] and "yaml" not in out["heavy"]
    # both grew the same entry: a real entry merge parses (markdown-it only for bodies the line scanner hands on)
    assert "tiergit.core.parse" in out["heavy"]
    assert merged.endswith("- x\n- y\n- z\n")


def test_driver_bad_arguments_go_to_the_cli_message(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "tiergit", "merge-driver", str(tmp_path / "missing"), "a", "b"],
                          capture_output=True, text=True)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr and "does not exist" in proc.stderr


def test_progress_is_silent_off_a_terminal_and_in_hooks(monkeypatch) -> None:
    from tiergit.shell import progress

    class Tty:
        def isatty(self) -> bool:
            return True

        def write(self, text: str) -> None:
            pass

        def flush(self) -> None:
            pass

    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv("GIT_INDEX_FILE", raising=False)
    monkeypatch.delenv("GIT_EXEC_PATH", raising=False)
    monkeypatch.delenv("TIERGIT_PROGRESS", raising=False)
    monkeypatch.setattr(sys, "stderr", Tty())
    assert progress.enabled()
    monkeypatch.setenv("GIT_INDEX_FILE", "/x/index")
    assert not progress.enabled()
    monkeypatch.delenv("GIT_INDEX_FILE")
    monkeypatch.setenv("CI", "true")
    assert not progress.enabled()
    monkeypatch.delenv("CI")
    import click

    @click.command()
    @click.option("--json", "as_json", is_flag=True)
    def cmd(as_json: bool) -> None:
        sys.stderr = Tty()   # the runner captures stderr; the check is about --json here
        print("enabled" if progress.enabled() else "silent")

    from click.testing import CliRunner
    assert CliRunner().invoke(cmd, []).output.strip() == "enabled"
    assert CliRunner().invoke(cmd, ["--json"]).output.strip() == "silent"


def test_progress_iterate_yields_every_item_when_silent() -> None:
    from tiergit.shell import progress

    assert list(progress.iterate(list(range(500)), "x")) == list(range(500))
    assert list(progress.iterate([1, 2], "x", show=False)) == [1, 2]


def test_a_full_check_imports_no_dataclasses_or_typing(squad_repo: Path) -> None:
    """The checks' types are record classes (core/record.py): `dataclasses` brings inspect, ast,
    dis and tokenize (~15 ms) and `typing` ~5 ms to every commit that stages a memory file."""
    _cold(squad_repo, "- fact one\n")
    git(squad_repo, "add", "-A")
    probe = PROBE.replace("%r", repr(("dataclasses", "inspect", "typing", "tiergit.features.checks")))
    proc = subprocess.run([sys.executable, "-c", probe], cwd=squad_repo, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == {"rc": 0, "heavy": ["tiergit.features.checks"]}
