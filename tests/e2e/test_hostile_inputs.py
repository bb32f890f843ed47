"""Hostile input, one row each (issue 11: "nothing lost, ever", items 5, 8, 9): a FIFO,
socket or device where a memory file or the config should be, symlinks, huge lines and
runs of one character, deep YAML, a NUL byte late in a file, names with a newline, and
every wrong-typed or unknown config key. Each row runs the real CLI (or a real `git
commit` through the installed hook) in a copy of a committed squad repository and must
give a clear error (exit 2; exit 1 when a check fails; status reports and exits 0), name
what is wrong, print no traceback, write nothing, and finish within 5 seconds."""
from __future__ import annotations

import hashlib
import os
import shutil
import socket
import stat
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import pytest
from conftest import git

pytestmark = pytest.mark.e2e

HOT, COLD = ".squad/memory/hot/picard.md", ".squad/memory/cold/picard.md"
ENTRY = "# Cold\n\n### 2026-05-01: cache\n\n- [fact] tokens expire after ten minutes\n"
LIMIT_S = 5.0


@dataclass
class Row:
    name: str
    setup: Callable[[Path], None]
    argv: tuple[str, ...]          # tiergit arguments, or ("git", ...) for a commit through the hook
    code: int
    says: str


def clear(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists() or path.is_symlink():
        path.unlink()


def put(rel: str, data: bytes | str, stage: bool = False):
    def setup(repo: Path) -> None:
        path = repo / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data if isinstance(data, bytes) else data.encode())
        if stage:
            git(repo, "add", "--", rel)
    return setup


def fifo(rel: str):
    def setup(repo: Path) -> None:
        clear(repo / rel)
        os.mkfifo(repo / rel)
    return setup


def sock(rel: str):
    def setup(repo: Path) -> None:
        folder = repo / rel
        clear(folder)
        here = os.getcwd()
        os.chdir(folder.parent)   # a relative bind: socket paths are limited to ~100 bytes
        try:
            s = socket.socket(socket.AF_UNIX)
            s.bind(folder.name)
            s.close()
        finally:
            os.chdir(here)
    return setup


def device(rel: str):
    def setup(repo: Path) -> None:
        clear(repo / rel)
        try:   # /dev/zero's numbers: a read that never ends
            os.mknod(repo / rel, stat.S_IFCHR | 0o644, os.makedev(1, 5))
        except PermissionError:   # without CAP_MKNOD: the same device, reached by a link
            (repo / rel).symlink_to("/dev/zero")
    return setup


def link(rel: str, target: str, stage: bool = False):
    def setup(repo: Path) -> None:
        clear(repo / rel)
        (repo / rel).symlink_to(target)
        if stage:
            git(repo, "add", "--", rel)
    return setup


def config(extra: str):
    return put(".tiergit.yml", "version: 1\npreset: squad\n" + extra + "\n")


def both(*steps):
    def setup(repo: Path) -> None:
        for step in steps:
            step(repo)
    return setup


CHECK = ("check", COLD)
COMMIT = ("git", "commit", "-q", "-m", "hostile")
DEEP_FM = "---\nx: " + "[" * 20_000 + "]" * 20_000 + "\n---\n" + ENTRY
DEEP_BLOCK_FM = "---\nx:\n" + "- " * 20_000 + "a\n---\n" + ENTRY
LATE_NUL = ENTRY + "- [fact] " + "padding " * 1_200 + "\n- \0 hidden\n"
CONFIG_ERR = "tiergit: error: .tiergit.yml:3: "

ROWS = [
    # A FIFO, socket, device or folder where a memory file should be: an error, never a hang.
    Row("fifo cold / check", fifo(COLD), CHECK, 1, "TG006 [critical] is a FIFO"),
    Row("fifo cold / check --all", fifo(COLD), ("check", "--all"), 1, "TG006 [critical] is a FIFO"),
    Row("fifo cold / status", fifo(COLD), ("status",), 1, "TG006"),      # CRIT: status exits 1 like check
    Row("fifo cold / recall", fifo(COLD), ("recall", "cache", "--no-log"), 2, "is a FIFO"),
    Row("fifo hot / context", fifo(HOT), ("context", "--agent", "picard"), 2, "is a FIFO"),
    Row("fifo hot / session end", fifo(HOT), ("session", "end", "--agent", "picard"), 2, "not a regular file"),
    Row("fifo hot / session start", fifo(HOT), ("session", "start", "--agent", "picard", "--task", "t"), 2,
        "not a regular file"),
    Row("socket cold / check", sock(COLD), CHECK, 1, "TG006 [critical] is a socket"),
    Row("socket cold / recall", sock(COLD), ("recall", "cache", "--no-log"), 2, "is a socket"),
    Row("device cold / check", device(COLD), CHECK, 1, COLD),
    Row("device hot / status", device(HOT), ("status",), 1, HOT),
    Row("fifo config / status", fifo(".tiergit.yml"), ("status",), 2, ".tiergit.yml:1: TG006 is a FIFO"),
    Row("fifo config, none staged / hook",   # with a staged config the hook reads that blob instead
        both(put(COLD, ENTRY + "- [fact] more\n", stage=True), lambda r: git(r, "rm", "-q", "--cached", ".tiergit.yml"),
             fifo(".tiergit.yml")), COMMIT, 1, ".tiergit.yml:1: TG006 is a FIFO"),
    Row("config linked to a device / status", link(".tiergit.yml", "/dev/zero"), ("status",), 2,
        "TG006 is a character device"),
    Row("folder config / status", lambda r: ((r / ".tiergit.yml").unlink(), (r / ".tiergit.yml").mkdir()),
        ("status",), 2, "is a folder"),
    # Symlinks in each place a memory file or the store can be.
    Row("cold links outside / check", link(COLD, "/etc/hostname"), CHECK, 1, "TG004 [critical] symlink points outside"),
    Row("cold links inside / check", both(put("notes.md", "# n\n"), link(COLD, "../../../notes.md")), CHECK, 1,
        "TG004 [critical] memory file is a symlink"),
    Row("hot links to /dev/zero / check", link(HOT, "/dev/zero"), ("check", HOT), 1, "TG004"),
    Row("staged link outside / hook", link(COLD, "/etc/hostname", stage=True), COMMIT, 1, "TG004"),
    Row("root folder links outside / status", both(link("elsewhere", "/tmp"), config("root: elsewhere/memory")),
        ("status",), 2, "resolves outside the work tree"),
    Row("path argument outside / check", lambda r: None, ("check", "/etc/hostname"), 2, "outside the repository"),
    # Huge lines, long runs of one character, deep nesting, late NUL bytes.
    Row("120 KB punctuation run / check", put(COLD, ENTRY + "-" * 120_000 + "\n"), CHECK, 1, "BUD001"),
    Row("120 KB punctuation run / hook", put(COLD, ENTRY + "=" * 120_000 + "\n", stage=True), COMMIT, 1, "BUD001"),
    Row("200 KB single line / check", put(COLD, ENTRY + "- " + "ab" * 100_000 + "\n"), CHECK, 1, "BUD001"),
    Row("1.1 MB file over the limit / check", put(COLD, ENTRY + "x" * 1_100_000 + "\n"), CHECK, 1, "TG003"),
    Row("100 KB of spaces / check", put(COLD, ENTRY + " " * 100_000 + "x\n"), CHECK, 1, "BUD001"),
    Row("50k emoji run / check", put(COLD, ENTRY + "😀" * 50_000 + "\n"), CHECK, 1, "BUD001"),
    Row("20k-deep blockquote / check", put(COLD, ENTRY + "> " * 20_000 + "deep\n"), CHECK, 1, "BUD001"),
    Row("20k-deep YAML flow / check", put(COLD, DEEP_FM), CHECK, 1, "FM001 [critical] invalid frontmatter: nested"),
    Row("20k-deep YAML block / hook", put(COLD, DEEP_BLOCK_FM, stage=True), COMMIT, 1, "FM001"),
    Row("20k-deep YAML config / status", config("x: " + "[" * 20_000 + "]" * 20_000), ("status",), 2,
        "nested more than"),
    Row("NUL after 8 KB / check", put(COLD, LATE_NUL), CHECK, 1, "TG001 [critical] binary file"),
    Row("NUL after 8 KB / hook", put(COLD, LATE_NUL, stage=True), COMMIT, 1, "TG001"),
    Row("invalid UTF-8 after 8 KB / check", put(COLD, ENTRY.encode() + b"x" * 9_000 + b"\n\xff\n"), CHECK, 1,
        "TG002"),
    # Names with a newline, or that are paths.
    Row("agent name with a newline / session start", lambda r: None,
        ("session", "start", "--agent", "picard\n", "--task", "t"), 2, "invalid agent name"),
    Row("agent name with a newline / context", lambda r: None, ("context", "--agent", "picard\n"), 2,
        "invalid agent name"),
    Row("agent name with a newline / recall", lambda r: None, ("recall", "x", "--agent", "picard\n"), 2,
        "invalid agent name"),
    Row("agent name that is a path / session end", lambda r: None, ("session", "end", "--agent", "../x"), 2,
        "invalid agent name"),
    # Every wrong-typed, out-of-range or unknown config key: file, line and key named.
    Row("gate.min_score: high", config("gate: {min_score: high}"), ("status",), 2, CONFIG_ERR + "gate.min_score"),
    Row("gate.min_score: 7", config("gate: {min_score: 7}"), ("promote",), 2, CONFIG_ERR + "gate.min_score: 7 is out"),
    Row("gate.min_recalls: 1.5", config("gate: {min_recalls: 1.5}"), ("promote",), 2, "gate.min_recalls"),
    Row("gate.min_age_days: -1", config("gate: {min_age_days: -1}"), ("status",), 2, "gate.min_age_days"),
    Row("gate unknown key", config("gate: {min_scor: 0.5}"), ("status",), 2, CONFIG_ERR + "gate.min_scor: unknown"),
    Row("scoring.weights value", config("scoring: {weights: {relevance: lots}}"), ("promote",), 2,
        "scoring.weights.relevance"),
    Row("scoring.weights unknown signal", config("scoring: {weights: {luck: 0.1}}"), ("status",), 2,
        "scoring.weights.luck: unknown key"),
    Row("scoring unknown key", config("scoring: {half_life: 3}"), ("status",), 2, "scoring.half_life: unknown"),
    Row("scoring.recency_half_life_days: 0", config("scoring: {recency_half_life_days: 0}"), ("status",), 2,
        "recency_half_life_days"),
    Row("labels unknown kind", config("labels: {gossip: ['**Rumour:**']}"), ("status",), 2,
        "labels.gossip: unknown key"),
    Row("labels not a list", config("labels: {rule: '**Tip:**'}"), ("status",), 2, "labels"),
    Row("compact.ratio: 5", config("compact: {ratio: 5}"), ("status",), 2, CONFIG_ERR + "compact.ratio: 5 is out"),
    Row("compact.timeout: -1", config("compact: {timeout: -1}"), ("status",), 2, "compact.timeout"),
    Row("compact unknown key", config("compact: {model: gpt}"), ("status",), 2, "compact.model: unknown"),
    Row("tokenizer: nope", config("tokenizer: nope"), ("status",), 2, CONFIG_ERR + "tokenizer: unknown tokenizer"),
    Row("next cycle", config("tiers:\n  hot: {next: cold}\n  cold: {next: hot}"), ("status",), 2, "cycle"),
    Row("next to itself", config("tiers:\n  cold: {next: cold}"), ("status",), 2, "cold -> cold"),
    Row("durable: maybe", config("tiers:\n  hot: {durable: maybe}"), ("status",), 2, "tiers.hot.durable"),
    Row("raw: 3", config("tiers:\n  hot: {raw: 3}"), ("status",), 2, "tiers.hot.raw"),
    Row("ttl_days: 3.5", config("tiers:\n  cold: {ttl_days: 3.5}"), ("status",), 2, "tiers.cold.ttl_days"),
    Row("lifetime: [x]", config("tiers:\n  hot: {lifetime: [x]}"), ("status",), 2, "tiers.hot.lifetime"),
    Row("review: yes", config("tiers:\n  wiki: {review: yes}"), ("status",), 2, "tiers.wiki.review"),
    Row("max_file_bytes: 1e12", config("limits: {max_file_bytes: 1000000000000}"), ("status",), 2,
        "limits.max_file_bytes"),
    Row("version: '1'", put(".tiergit.yml", "version: '1'\npreset: squad\n"), ("status",), 2, "version"),
    Row("staging: 5", config("staging: 5"), ("status",), 2, "staging"),
    Row("legacy: [1]", config("legacy: [1]"), ("status",), 2, "legacy"),
    Row("schedule unknown nested is free-form", config("gate: {min_score: 0.7, stale_days: x}"), ("status",), 2,
        "gate.stale_days"),
]


def snapshot(repo: Path) -> tuple:
    """Every path in the work tree with its type and, for regular files, its content hash;
    plus the index and status. Special files are never opened (a FIFO would block)."""
    entries = []
    for dirpath, dirnames, filenames in os.walk(repo):
        dirnames[:] = sorted(d for d in dirnames if d != ".git")
        for name in sorted(filenames + [d for d in dirnames]):
            path = Path(dirpath, name)
            st = path.lstat()
            digest = hashlib.sha1(path.read_bytes()).hexdigest() if stat.S_ISREG(st.st_mode) else ""
            entries.append((str(path.relative_to(repo)), stat.S_IFMT(st.st_mode), digest))
    return (tuple(entries), git(repo, "ls-files", "-s").stdout, git(repo, "rev-parse", "HEAD").stdout)


@pytest.fixture(scope="module")
def template(tmp_path_factory) -> Path:
    home = tmp_path_factory.mktemp("home")
    (home / ".gitconfig").write_text("[init]\n\tdefaultBranch = main\n")
    env = {**os.environ, "HOME": str(home)}
    repo = tmp_path_factory.mktemp("template") / "repo"
    repo.mkdir()
    for args in (["init", "-q", "-b", "main"], ["config", "user.name", "T"], ["config", "user.email", "t@x"]):
        subprocess.run(["git", *args], cwd=repo, check=True, env=env)
    assert subprocess.run([sys.executable, "-m", "tiergit", "init", "--preset", "squad"], cwd=repo,
                          capture_output=True, env=env).returncode == 0
    (repo / COLD).parent.mkdir(parents=True, exist_ok=True)
    (repo / COLD).write_text(ENTRY)
    subprocess.run(["git", "add", "-A"], cwd=repo, check=True, env=env)
    subprocess.run(["git", "commit", "-q", "-m", "init"], cwd=repo, check=True, env=env)
    return repo


def test_the_table_has_forty_kinds():
    assert len({row.name for row in ROWS}) == len(ROWS) >= 40


@pytest.mark.parametrize("row", ROWS, ids=lambda r: r.name)
def test_hostile_input_is_a_clear_error_and_touches_nothing(template, tmp_path, row):
    repo = tmp_path / "repo"
    shutil.copytree(template, repo, symlinks=True)
    git(repo, "config", "user.name", "T")
    git(repo, "config", "user.email", "t@x")
    row.setup(repo)
    before = snapshot(repo)
    cmd = list(row.argv) if row.argv[0] == "git" else [sys.executable, "-m", "tiergit", *row.argv]
    try:
        proc = subprocess.run(cmd, cwd=repo, capture_output=True, text=True, timeout=LIMIT_S,
                              env={**os.environ, "TIERGIT_TODAY": "2026-06-01"})
    except subprocess.TimeoutExpired:
        pytest.fail(f"{row.name}: still running after {LIMIT_S:.0f} s (a hang)")
    out = proc.stdout + proc.stderr
    assert proc.returncode == row.code, out
    assert row.says in out, out
    assert "Traceback" not in out and "internal error" not in out, out
    if row.code == 2:
        assert 1 <= len(proc.stderr.strip().splitlines()) <= 2, proc.stderr   # one or two lines
    assert snapshot(repo) == before, "something was written"


def test_a_file_of_12000_transcript_lines_reports_20_not_12000(template, tmp_path):
    repo = tmp_path / "repo"
    shutil.copytree(template, repo, symlinks=True)
    wiki = ".squad/memory/wiki/chat.md"
    put(wiki, "# Chat\n\n" + "User: hello there\n" * 12_000)(repo)
    proc = subprocess.run([sys.executable, "-m", "tiergit", "check", wiki], cwd=repo, capture_output=True,
                          text=True, timeout=LIMIT_S * 2)
    assert proc.returncode == 1
    assert proc.stdout.count("TRN001") == 20 and "Traceback" not in proc.stderr
