"""Shared fixtures: real git repositories in temporary folders; tiergit run in this process
(`tiergit`, through click's test runner) or, where a real process matters, as one (`tiergit_process`)."""
from __future__ import annotations

import os
import runpy
import shutil
import subprocess
import sys
import traceback
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parent.parent
TESTS = PROJECT / "tests"
# The tests mirror the package: tests/core (pure modules, in-process), tests/features (commands on
# temporary repos, in-process), tests/e2e (real processes: hooks under git commit, the merge
# driver under git merge, MCP, workflows, builds, the real frameworks). A few test modules share
# helpers across those folders (test_action's seed_candidates, test_cli_contract's workspace):
# every folder is importable from any test, whatever order pytest collects them in.
for _layer in ("core", "features", "e2e"):
    if str(TESTS / _layer) not in sys.path:
        sys.path.insert(0, str(TESTS / _layer))
# One day for the whole run: a suite that crosses midnight (UTC) would otherwise see tiergit's
# today() and a test's own date disagree by one. Tests ask `clock.today()` / `clock.now()`, never
# date.today(); subprocesses inherit the pin. A test that needs another day sets its own.
if not os.environ.get("TIERGIT_TODAY"):
    from datetime import datetime, timezone
    os.environ["TIERGIT_TODAY"] = datetime.now(timezone.utc).date().isoformat()
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
    _home(home)


def _home(home: Path) -> Path:
    """A HOME whose only git configuration is what the tests rely on."""
    home.mkdir(parents=True, exist_ok=True)
    (home / ".gitconfig").write_text("[init]\n\tdefaultBranch = main\n[advice]\n\tdetachedHead = false\n")
    return home


def git(repo: Path, *args: str, check: bool = True, env: dict | None = None) -> subprocess.CompletedProcess:
    proc = subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True,
                          env={**os.environ, **(env or {})})
    if check and proc.returncode != 0:
        raise AssertionError(f"git {' '.join(args)} failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}")
    return proc


# Environment variables whose value tiergit.shell.tokens caches per process: an in-process run
# forgets the loaded encodings when one of them differs from the last run's, as a new process would.
_TOKENIZER_ENV = ("TIERGIT_TOKENIZER", "TIERGIT_CACHE_DIR", "TIKTOKEN_CACHE_DIR", "DATA_GYM_CACHE_DIR", "XDG_CACHE_HOME")
_tokens_env: list[tuple | None] = [None]


def _fresh_tokens() -> None:
    from tiergit.shell import tokens

    seen = tuple(os.environ.get(k) for k in _TOKENIZER_ENV)
    if seen != _tokens_env[0]:
        tokens.reset()
        _tokens_env[0] = seen


def run_cli(args: list[str] | tuple[str, ...], cwd: Path, input: str | None = None,
            env: dict | None = None, console: bool = False) -> subprocess.CompletedProcess:
    """`python -m tiergit ARGS` in this process: the same entry (`tiergit/__main__.py`, with its
    hook, merge-driver and recall fast paths, then `tiergit.cli.run`), run under click's
    CliRunner isolation (stdin, stdout, stderr and os.environ swapped, then restored) from `cwd`.
    console=True runs the installed `tiergit` command's entry instead (the console script
    `[project.scripts]` names, read from the installed metadata: the same door, called as a function).
    Returns what the subprocess helper did: exit code, stdout, stderr."""
    from click.testing import CliRunner

    overrides = {k: v for k, v in (env or {}).items() if os.environ.get(k) != v}
    argv, here, code = sys.argv, Path.cwd(), 0
    runner = CliRunner()
    with runner.isolation(input=input, env=overrides) as (out, err, _):
        sys.argv = ["tiergit", *args]
        os.chdir(cwd)
        _fresh_tokens()
        try:
            if console:
                from importlib.metadata import entry_points

                (script,) = entry_points(group="console_scripts", name="tiergit")
                script.load()(list(args))
            else:
                # as a fresh `python -m tiergit` does: the console path may have imported it
                sys.modules.pop("tiergit.__main__", None)
                runpy.run_module("tiergit", run_name="__main__", alter_sys=False)
        except SystemExit as exc:
            if exc.code is None or isinstance(exc.code, int):
                code = exc.code or 0
            else:  # sys.exit("message"): printed on stderr, exit 1, as Python does
                sys.stderr.write(f"{exc.code}\n")
                code = 1
        except Exception:  # noqa: BLE001 - an uncaught error is a traceback and exit 1, as in a process
            sys.stderr.write(traceback.format_exc())
            code = 1
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            sys.argv = argv
            os.chdir(here)
        stdout, stderr = out.getvalue(), err.getvalue()
    _fresh_tokens()  # the environment is back: so are the encodings it loads
    return subprocess.CompletedProcess(["tiergit", *args], code, _text(stdout), _text(stderr))


def _text(data: bytes) -> str:
    # What subprocess.run(text=True) hands back: UTF-8 with universal newlines.
    return data.decode("utf-8", "replace").replace("\r\n", "\n").replace("\r", "\n")


def tiergit(repo: Path, *args: str, input: str | None = None, env: dict | None = None) -> subprocess.CompletedProcess:
    """Run the CLI in this process (see run_cli): the fast way to test a command's behaviour."""
    return run_cli(args, cwd=repo, input=input, env=env)


def tiergit_process(repo: Path, *args: str, input: str | None = None, env: dict | None = None) -> subprocess.CompletedProcess:
    """Run the real CLI in a subprocess (as agents, hooks and CI do): for tests marked e2e."""
    return subprocess.run([sys.executable, "-m", "tiergit", *args], cwd=repo, capture_output=True,
                          text=True, input=input, env={**os.environ, **(env or {})})


IDENTITY = {"GIT_AUTHOR_NAME": "Test Author", "GIT_AUTHOR_EMAIL": "author@example.com",
            "GIT_COMMITTER_NAME": "Test Committer", "GIT_COMMITTER_EMAIL": "committer@example.com",
            "GIT_CONFIG_NOSYSTEM": "1"}


def _new_repo(path: Path, env: dict | None = None) -> Path:
    path.mkdir()
    git(path, "init", "-q", "-b", "main", env=env)
    (path / "README.md").write_text("# demo\n")
    git(path, "add", "README.md")
    git(path, "commit", "-q", "-m", "initial", env=env)
    return path


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """An empty git repository with one commit (the squad_repo's folder when a test takes both)."""
    path = tmp_path / "repo"
    return path if path.is_dir() else _new_repo(path)


@pytest.fixture(scope="session")
def squad_template(tmp_path_factory) -> Path:
    """A repository after `tiergit init --preset squad` (hooks and merge driver installed),
    committed through the installed pre-commit hook: built once per session."""
    # Session fixtures come before the autouse _git_identity: give git the same isolated home.
    base = tmp_path_factory.mktemp("template")
    env = {**IDENTITY, "HOME": str(_home(base / "home"))}
    path = _new_repo(base / "repo", env=env)
    done = tiergit(path, "init", "--preset", "squad", env=env)
    assert done.returncode == 0, done.stderr
    git(path, "add", "-A", env=env)
    git(path, "commit", "-q", "-m", "tiergit init", env=env)
    return path


@pytest.fixture
def squad_repo(squad_template: Path, tmp_path: Path) -> Path:
    """A private copy of the session's squad repository: copying ~100 small files instead of
    `tiergit init`, three git runs and a commit through the hook's own process. Nothing in a repository names its own folder
    (hooks and the merge driver name the interpreter only), so a copy works as the original."""
    path = tmp_path / "repo"
    if path.is_dir():  # the test also took `repo`: that folder becomes the squad repository
        shutil.rmtree(path)
    shutil.copytree(squad_template, path, symlinks=True)
    return path


def ok(proc: subprocess.CompletedProcess) -> subprocess.CompletedProcess:
    """Assert a command succeeded, showing its output when it did not."""
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc


def commit(repo: Path, message: str) -> subprocess.CompletedProcess:
    """Stage everything and commit through the installed hooks."""
    git(repo, "add", "-A")
    return git(repo, "commit", "-q", "-m", message)


def traced_peak(fn, *args, **kwargs):
    """(fn's result, the most memory Python held during the call, in bytes), by tracemalloc."""
    import tracemalloc

    tracemalloc.start()
    try:
        result = fn(*args, **kwargs)
        return result, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


# -- time per layer: what CI prints for "everything but tests/e2e" -------------------------------
_LAYER_SECONDS: dict[str, list[float]] = {}


def _layer_of(item_path: str, keywords) -> str:
    if "/tests/e2e/" in item_path or "e2e" in keywords:
        return "e2e"
    return "in-process"


def pytest_runtest_logreport(report) -> None:
    # setup + call + teardown of every test, by layer (a serial run: their sum is its wall time)
    layer = _layer_of(str(report.fspath).replace("\\", "/"), report.keywords)
    _LAYER_SECONDS.setdefault(layer, [0, 0.0])
    _LAYER_SECONDS[layer][1] += report.duration
    if report.when == "call" or (report.when == "setup" and report.outcome != "passed"):
        _LAYER_SECONDS[layer][0] += 1


def pytest_terminal_summary(terminalreporter) -> None:
    if not _LAYER_SECONDS:
        return
    parts = [f"{name}: {n} test(s) in {secs:.0f} s" for name, (n, secs) in sorted(_LAYER_SECONDS.items())]
    terminalreporter.write_line("tiergit: time by layer (tests/e2e and e2e-marked vs the rest): " + "; ".join(parts))


def corpus_map(fn, items: list, min_items: int = 20) -> list:
    """`[fn(x) for x in items]` over forked worker processes, one per core (a whole-corpus sweep
    is CPU-bound: on CI's two cores it takes half the time). `fn` must be a module-level
    function; results come back in order. One process where fork is not available."""
    import multiprocessing

    workers = min(os.cpu_count() or 1, 8)
    if workers < 2 or len(items) < min_items or "fork" not in multiprocessing.get_all_start_methods():
        return [fn(x) for x in items]
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        return pool.map(fn, items, chunksize=max(1, len(items) // (workers * 16)))

