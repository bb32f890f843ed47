"""A large build leaves kinds unjudged; the first reader that shows an item judges its file, as the
build would have: recall, the fast path and the spawn's knowledge answer exactly as after a build
that judged every kind, and the kinds stay in the index for the next reader."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import tiergit, write
from test_recall import _store
from test_recall_fast import FULL, _age, _fast

from tiergit.features import recall_index, recall_kinds
from tiergit.shell.store import Store

ASKS = [["token cache expiry", "--json", "--no-log"], ["deploy", "--agent", "riker", "--no-log"],
        ["msal", "--tier", "wiki", "--json", "--no-log"]]


def _kinds(repo: Path) -> dict[tuple[str, int], str]:
    db = recall_index.connect(recall_index.index_path(repo))
    try:
        return {(p, int(line)): k for p, line, k in db.execute("SELECT path, line, kind FROM items")}
    finally:
        db.close()


def _rebuild(repo: Path, lazy: bool, monkeypatch) -> None:
    shutil.rmtree(repo / ".git" / "tiergit", ignore_errors=True)
    monkeypatch.setattr(recall_index, "LAZY_KINDS_MIN", 1 if lazy else 10_000)
    db = recall_index.connect(recall_index.index_path(repo))
    try:
        recall_index.refresh(Store.open(repo), db)
    finally:
        db.close()


@pytest.fixture
def store(squad_repo: Path) -> Path:
    _store(squad_repo)
    write(squad_repo / ".squad" / "memory" / "cold" / "data.md",
          "# data\n\n## Decisions\n\n- No, we use Bicep, not ARM.\n\n### Key patterns\n\n- Retry with backoff\n")
    return squad_repo


def test_a_large_build_stores_kinds_unjudged_and_a_small_one_judges_them(store: Path, monkeypatch) -> None:
    _rebuild(store, lazy=False, monkeypatch=monkeypatch)
    eager = _kinds(store)
    assert recall_index.UNJUDGED not in eager.values() and {"error", "rule"} <= set(eager.values())
    _rebuild(store, lazy=True, monkeypatch=monkeypatch)
    lazy = _kinds(store)
    assert lazy.keys() == eager.keys() and set(lazy.values()) == {recall_index.UNJUDGED}


@pytest.mark.parametrize("args", ASKS)
def test_recall_after_a_large_build_shows_the_kinds_a_judged_build_shows(store: Path, args, monkeypatch) -> None:
    _rebuild(store, lazy=False, monkeypatch=monkeypatch)
    eager = tiergit(store, "recall", *args, env=FULL)
    eager_kinds = _kinds(store)
    _rebuild(store, lazy=True, monkeypatch=monkeypatch)
    lazy = tiergit(store, "recall", *args, env=FULL)
    assert lazy.returncode == eager.returncode == 0, lazy.stderr
    assert lazy.stdout == eager.stdout
    kept = _kinds(store)
    judged = {path for (path, _l), k in kept.items() if k != recall_index.UNJUDGED}
    assert judged, "the shown files' kinds were written to the index"
    assert all(kept[key] == eager_kinds[key] for key in kept if key[0] in judged)
    assert any(k == recall_index.UNJUDGED for k in kept.values()), "files no hit came from stay unjudged"


def test_the_fast_path_judges_unjudged_hits_and_answers_as_after_a_judged_build(store: Path, monkeypatch, capsys) -> None:
    _age(store)
    args = ["token cache expiry", "--no-log"]
    _rebuild(store, lazy=False, monkeypatch=monkeypatch)
    expected = tiergit(store, "recall", *args, env=FULL).stdout
    judged_build = _kinds(store)
    _rebuild(store, lazy=True, monkeypatch=monkeypatch)
    assert tiergit(store, "recall", "zebra quokka", "--no-log", env=FULL).returncode == 0   # the fast row, no hit
    assert set(_kinds(store).values()) == {recall_index.UNJUDGED}
    assert _fast(store, args, capsys) == (0, expected)
    kept = _kinds(store)
    assert any(k == judged_build[key] != recall_index.UNJUDGED for key, k in kept.items()), "written to the index"
    assert _fast(store, args, capsys) == (0, expected)


def test_a_fast_row_without_the_label_vocabulary_hands_unjudged_hits_over(store: Path, monkeypatch, capsys) -> None:
    _age(store)
    _rebuild(store, lazy=True, monkeypatch=monkeypatch)
    assert tiergit(store, "recall", "zebra quokka", "--no-log", env=FULL).returncode == 0
    db = recall_index.connect(recall_index.index_path(store))
    row = json.loads(db.execute("SELECT value FROM fastpath").fetchone()[0])
    db.execute("UPDATE fastpath SET value = ?", (json.dumps({k: v for k, v in row.items() if k != "labels"}),))
    db.close()
    assert _fast(store, ["token cache expiry", "--no-log"], capsys)[0] is None   # an index an older tiergit wrote
    assert _fast(store, ["zebra quokka", "--no-log"], capsys)[0] == 0            # nothing to judge: answered


def test_the_spawns_knowledge_is_the_same_after_a_large_build(store: Path, monkeypatch) -> None:
    args = ["context", "--agent", "picard", "--task", "token cache expiry and the deploy"]
    _rebuild(store, lazy=False, monkeypatch=monkeypatch)
    eager = tiergit(store, *args)
    _rebuild(store, lazy=True, monkeypatch=monkeypatch)
    lazy = tiergit(store, *args)
    assert lazy.returncode == eager.returncode == 0, lazy.stderr
    assert lazy.stdout == eager.stdout and "token cache" in lazy.stdout


def test_a_file_changed_since_it_was_indexed_is_not_judged_from_its_new_text(store: Path, monkeypatch) -> None:
    _rebuild(store, lazy=True, monkeypatch=monkeypatch)
    path = ".squad/memory/cold/picard.md"
    (store / path).write_text((store / path).read_text() + "\n- [rule] A line the index has not read\n")
    db = recall_index.connect(recall_index.index_path(store))
    try:
        assert recall_kinds.fill(db, [path, ".squad/memory/cold/riker.md"], *recall_kinds.reading(Store.open(store))) != {}
    finally:
        db.close()
    kept = _kinds(store)
    assert {k for (p, _l), k in kept.items() if p == path} == {recall_index.UNJUDGED}
    assert recall_index.UNJUDGED not in {k for (p, _l), k in kept.items() if p == ".squad/memory/cold/riker.md"}
