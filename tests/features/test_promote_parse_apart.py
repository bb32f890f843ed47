"""A first promotion plan parses in a forked child that fills the parse cache, then reads every
document back as a warm run does (shell/forked.py: its parse no longer shares the plan's heap;
first `promote` at 10k real-sized files 192 -> 131 MB peak RSS, the output identical)."""
from __future__ import annotations

import os
import shutil
import threading
from pathlib import Path

import pytest
from conftest import write

from tiergit.core import parse
from tiergit.features.promotion import candidates
from tiergit.shell import forked, statedir
from tiergit.shell.parse_cache import ParseCache
from tiergit.shell.store import Store

COLD = Path(".squad") / "memory" / "cold"
FILES = 24

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="the child is forked (POSIX)")


def _store(repo: Path) -> Store:
    for i in range(FILES):
        write(repo / COLD / f"agent{i:02d}.md",
              f"# agent{i:02d}\n\n### 2026-0{i % 9 + 1}-1{i % 10} · session {i}\n\n"
              f"- [rule] Never deploy on Friday {i}\n- **Root cause:** the cache key missed the tenant {i}\n")
    return Store.open(repo)


def _gathered(store: Store) -> list[tuple]:
    corpus = candidates.gather(store, set(), blame=False)
    return sorted((c.id, c.source, c.line, c.kind, c.text) for c in corpus.candidates)


def _counting_parses(monkeypatch) -> list[str]:
    """The paths this process parses (a forked child counts in its own copy)."""
    parsed: list[str] = []
    real = parse.parse

    def counting(text, path="<text>", *args, **kwargs):
        parsed.append(path)
        return real(text, path, *args, **kwargs)

    monkeypatch.setattr(parse, "parse", counting)
    return parsed


def _forget(store: Store) -> None:
    shutil.rmtree(statedir.state_dir(store.repo), ignore_errors=True)


def test_a_first_run_parses_in_a_child_and_reads_back_the_same_candidates(squad_repo: Path, monkeypatch) -> None:
    store = _store(squad_repo)
    monkeypatch.setattr(candidates, "APART_MIN", 10**9)   # the run before: everything parsed in this process
    parsed = _counting_parses(monkeypatch)
    in_process = _gathered(store)
    assert len(parsed) >= FILES and len(in_process) >= FILES

    _forget(store)
    parsed.clear()
    monkeypatch.setattr(candidates, "APART_MIN", 10)
    apart = _gathered(store)
    assert apart == in_process
    assert parsed == [], "the plan's own process parsed files a child had parsed"
    assert len(ParseCache.for_store(store).stored) >= FILES   # the child's work, in the cache

    parsed.clear()
    forks: list[int] = []
    monkeypatch.setattr(candidates, "run_forked", lambda *works: forks.append(len(works)) or True)
    assert _gathered(store) == in_process   # warm: nothing to parse, so no child either
    assert forks == [] and parsed == []


def test_where_the_child_cannot_run_or_fails_the_run_parses_itself(squad_repo: Path, monkeypatch) -> None:
    store = _store(squad_repo)
    monkeypatch.setattr(candidates, "APART_MIN", 10**9)
    expected = _gathered(store)
    monkeypatch.setattr(candidates, "APART_MIN", 10)
    parsed = _counting_parses(monkeypatch)
    for fails in (lambda *works: False, lambda *works: forked.run_forked(lambda: 1 / 0)):
        _forget(store)
        parsed.clear()
        monkeypatch.setattr(candidates, "run_forked", fails)
        assert _gathered(store) == expected
        assert len(parsed) >= FILES


def test_without_a_cache_to_fill_no_child_is_started(squad_repo: Path, monkeypatch) -> None:
    store = _store(squad_repo)
    monkeypatch.setattr(candidates, "APART_MIN", 10)
    forks: list[int] = []
    monkeypatch.setattr(candidates, "run_forked", lambda *works: forks.append(len(works)) or True)
    monkeypatch.setattr(os, "cpu_count", lambda: 1)
    nowhere = ParseCache(None, store.config.labels)   # what for_store gives when there is no state dir
    sources = candidates._sources(store)
    assert candidates._parse_apart(store, nowhere, sources) is nowhere and forks == []
    empty = ParseCache.for_store(store)
    assert candidates._parse_apart(store, empty, sources) is not empty and forks == [1]   # reopened after the child


def test_run_forked_runs_the_work_in_a_child_and_reports_how_it_ended(tmp_path: Path, monkeypatch) -> None:
    seen: list[str] = []
    done = tmp_path / "done"
    assert forked.run_forked(lambda: (seen.append("child"), done.write_text("yes")))
    assert done.read_text() == "yes" and seen == []   # it ran, in another process's memory
    assert forked.run_forked(lambda: 1 / 0) is False
    assert forked.run_forked(lambda: os._exit(3)) is False
    gate = threading.Event()
    other = threading.Thread(target=gate.wait)
    other.start()
    try:
        assert forked.run_forked(lambda: done.write_text("again")) is False   # another thread runs
    finally:
        gate.set()
        other.join()
    monkeypatch.delattr(os, "fork")
    assert forked.run_forked(lambda: done.write_text("again")) is False
    assert done.read_text() == "yes"   # no fork: nothing ran


def test_the_parse_is_shared_among_one_child_a_core_and_a_failed_share_is_parsed_here(squad_repo: Path,
                                                                                       monkeypatch) -> None:
    """Two cores: two children parse every other file each (the nightly runner's wall time halves); when
    one of them fails, the plan parses its share itself and reads the other's back."""
    store = _store(squad_repo)
    monkeypatch.setattr(candidates, "APART_MIN", 10**9)
    expected = _gathered(store)
    monkeypatch.setattr(candidates, "APART_MIN", 10)
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    started: list[int] = []
    real_run = forked.run_forked
    monkeypatch.setattr(candidates, "run_forked", lambda *works: started.append(len(works)) or real_run(*works))
    parsed = _counting_parses(monkeypatch)
    _forget(store)
    assert _gathered(store) == expected and started == [2] and parsed == []

    real_files = candidates._parsed_files

    def second_share_fails(store, cache, sources, label="reading memory files", show=True):
        if not show:   # the second child's share (only the first child draws the bar)
            raise OSError("this child fails")
        return real_files(store, cache, sources, label, show)

    monkeypatch.setattr(candidates, "_parsed_files", second_share_fails)
    _forget(store)
    assert _gathered(store) == expected
    assert 0 < len(parsed) < FILES   # the failed child's share, parsed by the plan


def test_run_forked_runs_each_work_in_its_own_child_and_fails_when_one_does(tmp_path: Path) -> None:
    marks = [tmp_path / f"child{n}" for n in range(3)]

    def mark(n: int):
        return lambda: marks[n].write_text(str(os.getpid()))

    assert forked.run_forked(*(mark(n) for n in range(3)))
    pids = {int(m.read_text()) for m in marks}
    assert len(pids) == 3 and os.getpid() not in pids
    for m in marks:
        m.unlink()
    assert forked.run_forked(mark(0), lambda: 1 / 0, mark(2)) is False
    assert marks[0].is_file() and marks[2].is_file()   # the others still ran to the end
    assert forked.run_forked() is False
