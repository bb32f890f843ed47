"""The CLI contract, for every command `tiergit --help` lists: `--help` has an Example,
`--json` prints valid JSON, and bad input (no config, a broken config, a bad --agent, a
missing / directory / binary / non-UTF-8 / empty file, --repo that does not exist, no git
repo) is a short error naming what is wrong, exit 2, no traceback, nothing written.

A new command that is not in COMMANDS below fails `test_every_listed_command_is_covered`,
so it has to join the contract."""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import PROJECT, git, run_cli, tiergit


def run(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    """The installed `tiergit` command's entry (`tiergit.__main__:main`, the door), in this process: ~300 runs
    stay fast. Same arguments, output and exit code as the `tiergit` command."""
    return run_cli(args, cwd, console=True)


# Every leaf command, with arguments that make it run on the example team (juno, marlow, osei).
# {tx}, {base}, {ours}, {theirs} are files the fixture writes; {id} is a real candidate id.
COMMANDS: dict[str, list[str]] = {
    "archive": ["archive"],
    "audit": ["audit"],
    "check": ["check"],
    "context": ["context", "--agent", "juno"],
    "history": ["history"],
    "hook pre-commit": ["hook", "pre-commit"],
    "hook post-merge": ["hook", "post-merge"],
    "import": ["import", "squad"],
    "init": ["init", "--dry-run"],
    "install": ["install", "--dry-run"],
    "instructions": ["instructions", "--agent", "juno"],
    "measure": ["measure"],
    "mcp": ["mcp", "--check"],
    "merge-driver": ["merge-driver", "{base}", "{ours}", "{theirs}", ".squad/memory/cold/juno.md"],
    "promote": ["promote"],
    "propose": ["propose", "--topic", "ingestion", "Every feed is parsed with a schema."],
    "recall": ["recall", "timeline"],
    "report": ["report", "--html", "{html}"],
    "restore": ["restore", ".squad/memory/cold/juno.md"],
    "review sync": ["review", "sync", "--dry-run"],
    "review accept": ["review", "accept", "{id}", "--reason", "confirmed"],
    "review reject": ["review", "reject", "{id}", "--reason", "one-off"],
    "session start": ["session", "start", "--agent", "newbie"],
    "session end": ["session", "end", "--agent", "juno"],
    "status": ["status"],
    "transcript compact": ["transcript", "compact", "{tx}"],
    "uninstall": ["uninstall", "--dry-run"],
}
# Commands that never read .tiergit.yml, by design.
NO_CONFIG = {"init", "install", "uninstall", "merge-driver", "transcript compact"}
# Commands that work on plain files, not on a repository.
NO_REPO = {"merge-driver", "transcript compact"}
# A hook in a repository that has not adopted tiergit must not block git: exit 0, silent.
HOOKS = {"hook pre-commit", "hook post-merge"}
AGENT_COMMANDS = ["context", "history", "instructions", "recall", "propose", "session start", "session end"]

BAD_FILES = {
    "missing": None,
    "directory": "dir",
    "binary": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00",
    "invalid-utf8": b"# Notes\n\n- caf\xe9 au lait\n",
    "empty": b"",
}
# Commands that read a file given on the command line: (name, argv with {file} in its place).
# An empty file is valid input for some of them (an empty transcript or merge side is not an error).
FILE_ARGS = {
    "check": (["check", "{file}"], set()),  # the file is put inside the store, see below
    "transcript compact": (["transcript", "compact", "{file}"], set()),
    "merge-driver": (["merge-driver", "{file}", "{ours}", "{theirs}", "x.md"], {"empty"}),
    "context --template": (["context", "--agent", "juno", "--template", "{file}"], set()),
    "session end --notes": (["session", "end", "--agent", "juno", "--notes", "{file}"], {"empty"}),
}


@pytest.fixture(scope="module")
def team(tmp_path_factory) -> dict:
    """The example team in a git repo after `tiergit init`, committed, plus input files."""
    base = tmp_path_factory.mktemp("team")
    repo = base / "repo"
    shutil.copytree(PROJECT / "examples" / "team", repo)
    # A Squad layout to import: one hand-written agent history (tests/fixtures/squad).
    squad = PROJECT / "tests" / "fixtures" / "squad" / ".squad"
    (repo / ".squad/agents/vox").mkdir(parents=True)
    shutil.copy(squad / "agents/vox/history.md", repo / ".squad/agents/vox/history.md")
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "team")
    assert tiergit(repo, "init", "--preset", "squad").returncode == 0
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "tiergit init")
    files = base / "files"
    files.mkdir()
    (files / "session.jsonl").write_text('{"role": "user", "content": "why is the feed late?"}\n'
                                         '{"role": "assistant", "content": "[decision] poll every 5 min"}\n')
    cold = (repo / ".squad/memory/cold/juno.md").read_text()
    (files / "base.md").write_text(cold)
    (files / "theirs.md").write_text(cold + "\n### 2026-06-01: Theirs\n\n- [fact] theirs\n")
    promote = tiergit(repo, "promote", "--all", "--json")
    assert promote.returncode == 0, promote.stderr
    ids = [c["id"] for c in json.loads(promote.stdout)["candidates"]]
    assert ids
    return {"repo": repo, "files": files, "id": ids[0]}


def workspace(team: dict, tmp_path: Path) -> tuple[Path, dict]:
    """A private copy of the team repo and its input files (commands may write there)."""
    repo = tmp_path / "repo"
    shutil.copytree(team["repo"], repo, symlinks=True)
    files = tmp_path / "files"
    shutil.copytree(team["files"], files)
    ours = files / "ours.md"
    shutil.copy(files / "base.md", ours)
    subst = {"tx": str(files / "session.jsonl"), "base": str(files / "base.md"), "ours": str(ours),
             "theirs": str(files / "theirs.md"), "id": team["id"], "html": str(files / "report.html")}
    return repo, subst


def argv(template: list[str], subst: dict) -> list[str]:
    return [a.format(**subst) if "{" in a else a for a in template]


def snapshot(path: Path) -> dict:
    """Every file under `path` (outside .git) with its bytes, and the index when it is a repo."""
    files = {str(p.relative_to(path)): (p.read_bytes() if p.is_file() else None)
             for p in sorted(path.rglob("*")) if ".git" not in p.relative_to(path).parts}
    index = (path / ".git" / "index").read_bytes() if (path / ".git" / "index").exists() else None
    return {"files": files, "index": index}


def assert_refused(proc, *names: str) -> None:
    """Exit 2, a short message that names what is wrong, no traceback, nothing on stdout."""
    err = proc.stderr
    assert proc.returncode == 2, f"exit {proc.returncode}\nstdout: {proc.stdout}\nstderr: {err}"
    assert "Traceback" not in err and "internal error" not in err, err
    lines = [line for line in err.splitlines() if line.strip()]
    assert 1 <= len(lines) <= 3, err
    assert any(name in err for name in names), f"none of {names} named in: {err}"


def test_every_listed_command_is_covered():
    proc = tiergit(PROJECT, "--help")
    listed = set()
    for line in proc.stdout.split("Commands:")[1].splitlines():
        if line.startswith("  ") and line.split():
            listed.add(line.split()[0])
    covered = {name.split()[0] for name in COMMANDS}
    assert listed == covered, f"add to COMMANDS: {listed - covered}; gone: {covered - listed}"


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_help_has_description_and_example(name):
    proc = run(PROJECT, *name.split(), "--help")
    assert proc.returncode == 0, proc.stderr
    text = proc.stdout
    description = text.split("\n\n")[1].strip()
    assert len(description) > 20, text
    assert "Example" in text and "tiergit " + name.split()[0] in text.split("Example")[1], text


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_json_is_valid(name, team, tmp_path):
    repo, subst = workspace(team, tmp_path)
    proc = run(repo, *argv(COMMANDS[name], subst), "--json")
    assert proc.returncode in (0, 1), f"exit {proc.returncode}: {proc.stderr}"
    assert "Traceback" not in proc.stderr
    json.loads(proc.stdout)


@pytest.mark.parametrize("name", sorted(set(COMMANDS) - NO_CONFIG))
def test_without_tiergit_init(name, team, tmp_path):
    repo, subst = workspace(team, tmp_path)
    (repo / ".tiergit.yml").unlink()
    before = snapshot(repo)
    proc = run(repo, *argv(COMMANDS[name], subst))
    if name in HOOKS:
        assert proc.returncode == 0 and not proc.stdout and "Traceback" not in proc.stderr, proc.stderr
    else:
        assert_refused(proc, ".tiergit.yml")
        assert "tiergit init" in proc.stderr
    assert snapshot(repo) == before


@pytest.mark.parametrize("config", [
    "version: 1\ntiers: [oops\n",
    "version: 1\ntiers:\n  hot: {path: \"../../outside/{agent}.md\"}\n",
], ids=["yaml-syntax", "path-outside"])
@pytest.mark.parametrize("name", sorted(set(COMMANDS) - NO_CONFIG - {"hook post-merge"}))
def test_invalid_config(name, config, team, tmp_path):
    repo, subst = workspace(team, tmp_path)
    (repo / ".tiergit.yml").write_text(config)
    if name == "hook pre-commit":  # the hook reads the commit's own (staged) config
        git(repo, "add", ".tiergit.yml")
    before = snapshot(repo)
    proc = run(repo, *argv(COMMANDS[name], subst))
    assert_refused(proc, ".tiergit.yml")
    assert snapshot(repo) == before


def test_config_that_is_a_folder(team, tmp_path):
    repo, _ = workspace(team, tmp_path)
    (repo / ".tiergit.yml").unlink()
    (repo / ".tiergit.yml").mkdir()
    proc = run(repo, "status")
    assert_refused(proc, ".tiergit.yml: is a folder")


def test_post_merge_hook_reports_a_broken_config_but_never_blocks(team, tmp_path):
    repo, _ = workspace(team, tmp_path)
    (repo / ".tiergit.yml").write_text("version: 1\ntiers: [oops\n")
    proc = run(repo, "hook", "post-merge")
    assert proc.returncode == 0 and ".tiergit.yml" in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.parametrize("name", sorted(set(COMMANDS) - NO_REPO))
def test_repo_that_does_not_exist(name, team, tmp_path):
    _, subst = workspace(team, tmp_path)
    missing = tmp_path / "nonexistent"
    proc = run(tmp_path, "--repo", str(missing), *argv(COMMANDS[name], subst))
    assert_refused(proc, f"{missing}: no such folder")
    assert not missing.exists()


@pytest.mark.parametrize("name", sorted(set(COMMANDS) - NO_REPO))
def test_outside_a_git_repository(name, team, tmp_path):
    _, subst = workspace(team, tmp_path)
    outside = tmp_path / "plain"
    outside.mkdir()
    proc = run(outside, *argv(COMMANDS[name], subst))
    assert_refused(proc, "git work tree")
    assert not any(outside.iterdir())


@pytest.mark.parametrize("agent", ["../x", "", "Juno Smith", "a/b"])
@pytest.mark.parametrize("name", AGENT_COMMANDS)
def test_bad_agent_name(name, agent, team, tmp_path):
    repo, subst = workspace(team, tmp_path)
    args = argv(COMMANDS[name], subst)
    if "--agent" in args:
        args[args.index("--agent") + 1] = agent
    else:
        args += ["--agent", agent]
    before = snapshot(repo)
    proc = run(repo, *args)
    assert_refused(proc, "--agent", "agent")
    assert snapshot(repo) == before


@pytest.mark.parametrize("name,kind", [(name, kind) for name, (_, valid) in sorted(FILE_ARGS.items())
                                       for kind in sorted(BAD_FILES) if kind not in valid])
def test_bad_file_argument(name, kind, team, tmp_path):
    template, _ = FILE_ARGS[name]
    repo, subst = workspace(team, tmp_path)
    # check takes files of the repository (a path outside it is refused on its own).
    bad = (repo / ".squad/memory/cold" if name == "check" else tmp_path / "input") / f"bad-{kind}.md"
    bad.parent.mkdir(exist_ok=True)
    if BAD_FILES[kind] == "dir":
        bad.mkdir()
    elif BAD_FILES[kind] is not None:
        bad.write_bytes(BAD_FILES[kind])
    before = snapshot(repo), snapshot(bad.parent)
    proc = run(repo, *argv(template, {**subst, "file": str(bad)}))
    if name == "check" and kind in ("binary", "invalid-utf8", "empty"):
        # A memory file with bad content is a finding (exit 1) naming file and code, not a usage error.
        code = {"binary": "TG001", "invalid-utf8": "TG002", "empty": ""}[kind]
        assert proc.returncode == (1 if code else 0) and code in proc.stdout, proc.stdout + proc.stderr
    elif name == "merge-driver" and kind in ("binary", "invalid-utf8"):
        # git calls the driver: an unmergeable side is a conflict (exit 1) that keeps ours, never a crash.
        assert proc.returncode == 1 and ("TG001" if kind == "binary" else "TG002") in proc.stderr
        assert "Traceback" not in proc.stderr
    else:
        assert_refused(proc, bad.name, str(bad))
    assert (snapshot(repo), snapshot(bad.parent)) == before


@pytest.mark.parametrize("args", [
    ["restore", ".squad/memory/archive/2026-04/cold/nobody.md"],
    ["restore", "../outside.md"],
    ["restore", ".squad/memory"],
    ["restore", ""],
    ["report", "--html", "{dir}"],
    ["report", "--html", "{dir}/missing/report.html"],
    ["promote", "--pr-body", "{dir}"],
    ["transcript", "compact", "{tx}", "-o", "{dir}"],
    ["context", "--agent", "juno", "--include-wiki", "../etc"],
    ["propose", "--topic", "../etc", "some text"],
    ["recall", ""],
])
def test_bad_path_or_value(args, team, tmp_path):
    repo, subst = workspace(team, tmp_path)
    folder = tmp_path / "out"
    folder.mkdir()
    before = snapshot(repo), snapshot(folder)
    proc = run(repo, *argv(args, {**subst, "dir": str(folder)}))
    assert_refused(proc, *[a.format(**subst, dir=str(folder)) for a in args[1:] if a] + ["query", "topic", "''"])
    assert (snapshot(repo), snapshot(folder)) == before


@pytest.mark.parametrize("kind", ["binary", "invalid-utf8"])
@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_corrupt_memory_file_in_the_store(name, kind, team, tmp_path):
    """A broken memory file (hot and cold of juno, and the Squad history being imported) is
    skipped or named in a short error (exit 2, nothing written); never a crash."""
    repo, subst = workspace(team, tmp_path)
    for rel in (".squad/memory/hot/juno.md", ".squad/memory/cold/juno.md", ".squad/agents/vox/history.md"):
        (repo / rel).write_bytes(BAD_FILES[kind])
    before = snapshot(repo)
    proc = run(repo, *argv(COMMANDS[name], subst))
    assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr, proc.stderr
    assert proc.returncode in (0, 1, 2), proc.stderr
    if proc.returncode == 2:
        assert_refused(proc, "juno.md", "history.md")
        assert snapshot(repo) == before


def test_hook_json_through_python_m(team, tmp_path):
    """`python -m tiergit hook …` skips click for speed; --json must still reach the CLI."""
    repo, _ = workspace(team, tmp_path)
    (repo / ".squad/memory/hot/juno.md").write_text("# Hot\n\n- [fact] token=ghp_" + "a1B2" * 9 + "\n")
    git(repo, "add", "-A")
    proc = tiergit(repo, "hook", "pre-commit", "--json")
    data = json.loads(proc.stdout)
    assert proc.returncode == 1 and data["refused"] and data["files"] == 1
    assert {f["path"] for f in data["findings"]} == {".squad/memory/hot/juno.md"}


@pytest.mark.parametrize("name", ["install", "uninstall"])
def test_hook_install_dry_run_says_so_and_writes_nothing(name, team, tmp_path):
    repo, _ = workspace(team, tmp_path)
    hooks = sorted(p.name for p in (repo / ".git/hooks").iterdir())
    config = (repo / ".git/config").read_text()
    proc = run(repo, name, "--dry-run")
    assert proc.returncode == 0 and proc.stdout.rstrip().endswith("(dry run: nothing written)")
    assert sorted(p.name for p in (repo / ".git/hooks").iterdir()) == hooks
    assert (repo / ".git/config").read_text() == config
