"""The pre-commit shim's isolated entry (tiergit/hookentry.py): a commit that stages no memory file
exits after two git processes, importing neither `subprocess`, `re`, `json` nor `pathlib`; every
commit that stages a memory file or the config, or that the prefix cache cannot answer, gets the
full check, through real `git commit` runs of the installed v4 shim."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from fnmatch import translate
from pathlib import Path

import pytest
from conftest import commit, git, write

from tiergit.core.config import path_regex
from tiergit.features import install
from tiergit.features.hookrun import gate_patterns
from tiergit.shell import config as config_mod
from tiergit.shell.hookgate import literal_start

pytestmark = pytest.mark.e2e
COLD = Path(".squad/memory/cold/picard.md")
LEAN = ("subprocess", "re", "json", "pathlib", "yaml", "click", "tiergit.features.hookrun")


def _probe(repo: Path, env: dict | None = None) -> dict:
    """nothing_to_check() in an interpreter started as the shim starts it, and what it imported."""
    args = install.hook_entry_args()
    code = args[-1].replace("from tiergit.hookentry import main; sys.exit(main())",
                            "from tiergit.hookentry import nothing_to_check; v = nothing_to_check(); "
                            f"print(repr(v), sorted(m for m in {LEAN!r} if m in sys.modules))")
    proc = subprocess.run([sys.executable, *args[:-1], code], cwd=repo, capture_output=True, text=True,
                          env=env)
    assert proc.returncode == 0, proc.stderr
    verdict, mods = proc.stdout.split(" ", 1)
    return {"nothing": verdict == "True", "imported": eval(mods)}   # noqa: S307 - our own repr of a list


def test_the_installed_shim_runs_the_isolated_entry(squad_repo: Path) -> None:
    shim = (squad_repo / ".git/hooks/pre-commit").read_text()
    if "hookentry" not in shim:   # the template repo was set up before: install writes the v4 shim
        install.install(squad_repo, python=sys.executable)
        shim = (squad_repo / ".git/hooks/pre-commit").read_text()
    assert "tiergit-hook v4" in shim and " -I -S -c " in shim and "tiergit.hookentry" in shim


def test_a_commit_without_memory_exits_early_and_lean(squad_repo: Path) -> None:
    install.install(squad_repo, python=sys.executable)
    write(squad_repo / COLD, "# picard\n\n### Work\n\n- fact one\n")
    commit(squad_repo, "memory")                 # the full run writes both caches
    cache = squad_repo / ".git/tiergit/gate-prefixes-v1.txt"
    lines = cache.read_text().splitlines()
    assert lines[0] == __import__("hashlib").sha1((squad_repo / ".tiergit.yml").read_bytes()).hexdigest()
    assert any(COLD.as_posix().startswith(p) for p in lines[1:])
    write(squad_repo / "src" / "app.py", "print('hi')\n")
    git(squad_repo, "add", "-A")
    assert _probe(squad_repo) == {"nothing": True, "imported": []}
    assert git(squad_repo, "commit", "-q", "-m", "code").returncode == 0


@pytest.mark.parametrize("change", ["memory", "config staged", "config edited", "no cache"])
def test_anything_the_cache_cannot_answer_goes_to_the_full_check(squad_repo: Path, change: str) -> None:
    install.install(squad_repo, python=sys.executable)
    write(squad_repo / COLD, "# picard\n\n### Work\n\n- fact one\n")
    commit(squad_repo, "memory")
    write(squad_repo / "src" / "app.py", "print('hi')\n")
    if change == "memory":
        write(squad_repo / COLD, "# picard\n\n### Work\n\n- fact one\n- fact two\n")
    elif change.startswith("config"):
        (squad_repo / ".tiergit.yml").write_text((squad_repo / ".tiergit.yml").read_text() + "# edited\n")
    else:
        (squad_repo / ".git/tiergit/gate-prefixes-v1.txt").unlink()
    git(squad_repo, "add", "src/app.py", *([str(COLD)] if change == "memory" else []),
        *([".tiergit.yml"] if change == "config staged" else []))
    assert _probe(squad_repo)["nothing"] is False


def test_a_bad_memory_file_is_refused_through_the_v4_shim(squad_repo: Path) -> None:
    install.install(squad_repo, python=sys.executable)
    write(squad_repo / COLD, "# picard\n\n### Work\n\n- fact one\n")
    commit(squad_repo, "memory")
    write(squad_repo / "notes.txt", "x\n")
    commit(squad_repo, "not memory")             # the early exit
    write(squad_repo / COLD, "# picard\n\n### Work\n\n- leaked ghp_" + "a" * 36 + "\n")
    git(squad_repo, "add", "-A")
    refused = git(squad_repo, "commit", "-m", "leak", check=False)
    assert refused.returncode == 1 and "SEC001" in refused.stderr
    # The switch turns the early exit off; the full check still passes a clean non-memory commit.
    git(squad_repo, "reset", "-q", "--hard")
    write(squad_repo / "notes.txt", "y\n")
    git(squad_repo, "add", "-A")
    off = git(squad_repo, "commit", "-q", "-m", "slow door", env={"TIERGIT_HOOK_FAST": "0"})
    assert off.returncode == 0


def test_the_full_check_reuses_the_entrys_staged_listing(squad_repo: Path, tmp_path: Path) -> None:
    """One `diff-index` a commit: the full run takes the entry's listing (on a large store with a
    folder staged each one walks that folder's tree); the check still sees every staged blob."""
    install.install(squad_repo, python=sys.executable)
    write(squad_repo / COLD, "# picard\n\n### Work\n\n- fact one\n")
    commit(squad_repo, "memory")
    write(squad_repo / COLD, "# picard\n\n### Work\n\n- fact one\n- leaked ghp_" + "a" * 36 + "\n")
    write(squad_repo / "src" / "app.py", "print('hi')\n")
    git(squad_repo, "add", "-A")
    trace = tmp_path / "trace.txt"
    refused = git(squad_repo, "commit", "-m", "leak", check=False, env={"GIT_TRACE": str(trace)})
    assert refused.returncode == 1 and "SEC001" in refused.stderr and str(COLD) in refused.stderr
    runs = [line for line in trace.read_text().splitlines() if "built-in: git" in line and "diff-index" in line]
    assert len(runs) == 1, runs


def test_the_first_commit_is_checked_in_full(tmp_path: Path) -> None:
    repo = tmp_path / "fresh"
    repo.mkdir()
    git(repo, "init", "-q")
    from conftest import tiergit

    assert tiergit(repo, "init", "--preset", "squad").returncode == 0
    install.install(repo, python=sys.executable)
    write(repo / ".squad/memory/hot/picard.md", "# Hot\n\n" + "word " * 3000 + "\n")
    git(repo, "add", "-A")
    assert _probe(repo)["nothing"] is False      # no HEAD: diff-index fails, the full hook decides
    refused = git(repo, "commit", "-m", "first", check=False)
    assert refused.returncode == 1 and "BUD001" in refused.stderr


@pytest.mark.parametrize("preset", ["squad", "openclaw", "custom"])
def test_every_path_a_gate_pattern_matches_starts_with_its_literal_start(tmp_path: Path, preset: str) -> None:
    (tmp_path / ".tiergit.yml").write_text(config_mod.preset_text(preset))
    cfg = config_mod.load(tmp_path)
    patterns = gate_patterns(cfg)
    samples = [f"{t.path.lstrip('/')}" for t in cfg.tiers.values()]
    samples += [s.replace("{agent}", "picard").replace("{date}", "2026-05-01").replace("{topic}", "auth")
                for s in samples]
    samples += [p + "x.md" for p in map(literal_start, patterns)] + ["MEMORY.md", "memory/2026-05-01.md",
                                                                      ".squad/agents/picard/history.md",
                                                                      "src/app.py", "README.md"]
    assert all(literal_start(p) for p in patterns), patterns
    for pattern in patterns:
        regex = re.compile(pattern)
        for path in samples:
            if regex.match(path):
                assert path.startswith(literal_start(pattern)), (pattern, path)


def test_the_entry_reads_the_cache_the_full_hook_writes() -> None:
    from tiergit import hookentry
    from tiergit.shell import hookgate

    assert hookentry.PREFIX_CACHE == hookgate.PREFIX_CACHE_NAME
    assert hookentry.CONFIG_NAME == hookgate.CONFIG_NAME


def test_literal_start_reads_what_tiergit_writes() -> None:
    assert literal_start(path_regex(".squad/memory/cold/{agent}.md").pattern) == ".squad/memory/cold/"
    assert literal_start(path_regex("memory/{date}.md").pattern) == "memory/"
    assert literal_start(translate(".squad/agents/*/history.md")) == ".squad/agents/"
    assert literal_start(re.escape(".squad/memory") + "/") == ".squad/memory/"
    assert literal_start("ab*c") == "a" and literal_start("ab?") == "a" and literal_start("ab+") == "ab"
    assert literal_start("^a|b") == "" and literal_start("(?i:abc)") == ""
    assert json.loads(json.dumps(literal_start("MEMORY\\.md"))) == "MEMORY.md"


def test_dependencies_reached_only_through_a_pth_file_still_get_the_full_check(squad_repo: Path,
                                                                                tmp_path: Path) -> None:
    """The full run puts site-packages on sys.path without site.main() (no .pth files); where a
    dependency is reachable only through a .pth file (here: a venv whose one .pth names the
    folder PyYAML and tiktoken live in), site.main() still runs and the check still refuses."""
    import yaml

    env_dir = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env_dir)], check=True)
    python = env_dir / "bin" / "python"
    site_dir = next(env_dir.glob("lib/python*/site-packages"))
    (site_dir / "deps.pth").write_text(str(Path(yaml.__file__).resolve().parents[1]) + "\n")
    install.install(squad_repo, python=str(python))
    write(squad_repo / COLD, "# picard\n\n### Work\n\n- fact one\n")
    commit(squad_repo, "memory")
    write(squad_repo / COLD, "# picard\n\n### Work\n\n- leaked ghp_" + "a" * 36 + "\n")
    git(squad_repo, "add", "-A")
    # no PYTHONPATH: the entry's fallback, `python -m tiergit`, would not find this tiergit either
    refused = git(squad_repo, "commit", "-m", "leak", check=False, env={"PYTHONPATH": ""})
    assert refused.returncode == 1 and "SEC001" in refused.stderr, refused.stderr
