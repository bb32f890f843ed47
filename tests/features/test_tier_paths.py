"""Every tier path is checked the same way (issue 25, item 2): a tier folder that is a symlink
(out of the tree or inside it), an absolute path, or a path that resolves outside the work tree
is a config error for `check`, the hook and every mutating command: exit 2, the path and the
key named, nothing written (the work tree, the git dir's tiergit state and the outside folder
are byte for byte as before)."""
from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

import pytest
from conftest import commit, git, tiergit, write

COLD = ".squad/memory/cold"
ENTRY = "# Cold\n\n### Deploy (2026-05-01)\n\n- [decision] we ship on Fridays\n"

# Every command that reads the config, the mutating ones with the flag that makes them write.
COMMANDS = [
    ("check",), ("check", "--all"), ("check", "--fix"), ("status",),
    ("session", "start", "--agent", "picard"), ("session", "end", "--agent", "picard"),
    ("archive", "--apply"), ("promote", "--apply"), ("audit", "--apply"),
    ("propose", "--topic", "deploys", "--apply", "we ship on Fridays"),
    ("import", "squad", "--apply"), ("review", "sync"),
    ("restore", f"{COLD}/picard.md", "--apply"), ("recall", "fridays"),
    ("context", "--agent", "picard"),
]


def _snapshot(*folders: Path) -> dict[str, str]:
    """sha256 of every file (and the target of every link) under the folders, .git included."""
    out = {}
    for folder in folders:
        for dirpath, dirnames, filenames in os.walk(folder):
            for name in filenames + [d for d in dirnames if os.path.islink(os.path.join(dirpath, d))]:
                full = os.path.join(dirpath, name)
                if os.path.islink(full):
                    out[full] = "link:" + os.readlink(full)
                else:
                    out[full] = hashlib.sha256(Path(full).read_bytes()).hexdigest()
    return out


def _cold_linked_out(squad_repo: Path, tmp_path: Path) -> tuple[Path, str, str]:
    outside = tmp_path / "outside"
    write(outside / "picard.md", ENTRY)
    shutil.rmtree(squad_repo / COLD)
    (squad_repo / COLD).symlink_to(outside)
    return outside, "cold/{agent}.md", "tiers.cold.path"


def _cold_linked_inside(squad_repo: Path, tmp_path: Path) -> tuple[Path, str, str]:
    real = squad_repo / "notes" / "cold"
    write(real / "picard.md", ENTRY)
    shutil.rmtree(squad_repo / COLD)
    (squad_repo / COLD).symlink_to("../../notes/cold")
    return real, "cold/{agent}.md", "tiers.cold.path"


def _cold_absolute(squad_repo: Path, tmp_path: Path) -> tuple[Path, str, str]:
    outside = tmp_path / "abs"
    write(outside / "picard.md", ENTRY)
    value = f"{outside}/{{agent}}.md"
    write(squad_repo / ".tiergit.yml", f"version: 1\npreset: squad\ntiers:\n  cold: {{path: '{value}'}}\n")
    return outside, value, "tiers.cold.path"


def _cold_own_absolute(squad_repo: Path, tmp_path: Path) -> tuple[Path, str, str]:
    """The repository's own absolute path: still absolute (a moved clone would check nothing)."""
    value = f"{squad_repo}/{COLD}/{{agent}}.md"
    write(squad_repo / ".tiergit.yml", f"version: 1\npreset: squad\ntiers:\n  cold: {{path: '{value}'}}\n")
    return tmp_path / "none", value, "tiers.cold.path"


def _cold_home(squad_repo: Path, tmp_path: Path) -> tuple[Path, str, str]:
    value = "~/memory/{agent}.md"
    write(squad_repo / ".tiergit.yml", f"version: 1\npreset: squad\ntiers:\n  cold: {{path: '{value}'}}\n")
    return tmp_path / "none", value, "tiers.cold.path"


def _archive_linked_out(squad_repo: Path, tmp_path: Path) -> tuple[Path, str, str]:
    outside = tmp_path / "arch"
    outside.mkdir()
    (squad_repo / ".squad/memory/archive").symlink_to(outside)
    return outside, "archive/", "archive"


def _logs_linked_out(squad_repo: Path, tmp_path: Path) -> tuple[Path, str, str]:
    outside = tmp_path / "logs"
    write(outside / "recalls.jsonl", "")
    shutil.rmtree(squad_repo / ".squad/memory/logs", ignore_errors=True)
    (squad_repo / ".squad/memory/logs").symlink_to(outside)
    return outside, "logs/", "logs"


CASES = {"cold linked out": _cold_linked_out, "cold linked inside": _cold_linked_inside,
         "cold absolute": _cold_absolute, "cold own absolute path": _cold_own_absolute,
         "cold in home": _cold_home, "archive linked out": _archive_linked_out,
         "logs linked out": _logs_linked_out}


def _prepared(squad_repo: Path, tmp_path: Path, case: str) -> tuple[Path, str, str]:
    write(squad_repo / ".squad/memory/hot/picard.md", "# Hot\n\n## Current task\n\n- [decision] ship on Fridays\n")
    write(squad_repo / COLD / "picard.md", ENTRY)
    commit(squad_repo, "memory")
    return CASES[case](squad_repo, tmp_path)


@pytest.mark.parametrize("case", sorted(CASES))
def test_every_command_refuses_a_bad_tier_path_and_writes_nothing(squad_repo, tmp_path, case):
    other, value, key = _prepared(squad_repo, tmp_path, case)
    before = _snapshot(squad_repo, other)
    for args in COMMANDS:
        proc = tiergit(squad_repo, *args)
        said = proc.stderr
        assert proc.returncode == 2, (args, proc.returncode, proc.stdout, said)
        assert said.startswith("tiergit: error: .tiergit.yml"), (args, said)
        assert f"{key}: path {value!r}" in said, (args, said)
        assert "Traceback" not in said and len(said.strip().splitlines()) <= 2, (args, said)
        assert _snapshot(squad_repo, other) == before, args


@pytest.mark.e2e
@pytest.mark.parametrize("case", ["cold linked out", "cold absolute", "cold linked inside"])
def test_the_hook_refuses_the_commit_naming_the_path(squad_repo, tmp_path, case):
    other, value, key = _prepared(squad_repo, tmp_path, case)
    write(squad_repo / ".squad/memory/hot/picard.md", "# Hot\n\n## Current task\n\n- a new note\n")
    git(squad_repo, "add", "-A")
    head = git(squad_repo, "rev-parse", "HEAD").stdout
    refused = git(squad_repo, "commit", "-m", "through the link", check=False)
    assert refused.returncode != 0
    assert f"{key}: path {value!r}" in refused.stderr, refused.stderr
    assert "Traceback" not in refused.stderr
    assert git(squad_repo, "rev-parse", "HEAD").stdout == head


def test_the_tier_that_fell_out_is_named_not_counted_as_checked(squad_repo, tmp_path):
    """The issue's report: "5 memory file(s) checked, all within budget" with cold linked away."""
    _prepared(squad_repo, tmp_path, "cold linked out")
    proc = tiergit(squad_repo, "check")
    assert proc.returncode == 2 and "checked" not in proc.stdout + proc.stderr
    assert "(.squad/memory/cold is a symlink to" in proc.stderr


def test_a_repo_rooted_path_still_works(squad_repo):
    """A leading `/` is the repository root (the openclaw preset's `/MEMORY.md`), not absolute."""
    write(squad_repo / ".tiergit.yml", "version: 1\npreset: squad\ntiers:\n  cold: {path: '/notes/{agent}.md'}\n")
    write(squad_repo / "notes/picard.md", ENTRY + "- [fact] " + "x " * 4000 + "\n")
    proc = tiergit(squad_repo, "check")
    assert proc.returncode == 1, proc.stderr   # the file is found, and it is over budget
    assert "notes/picard.md" in proc.stdout + proc.stderr
