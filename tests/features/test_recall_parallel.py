"""A large cold build parses in worker processes; the index it writes is the one a single
process writes, row for row (rowids, kinds, dates), and an unreadable file is skipped the same."""
from __future__ import annotations

import multiprocessing
from pathlib import Path

import pytest

from conftest import write

from tiergit.features import recall_index
from tiergit.shell.store import Store

COLD = Path(".squad") / "memory" / "cold"


def _index(repo: Path, name: str) -> tuple[list[tuple], recall_index.RefreshStats]:
    db = recall_index.connect(repo / ".git" / name)
    stats = recall_index.refresh(Store.open(repo), db)
    rows = db.execute("SELECT rowid, text, entry, path, item_id, date, kind, line, tier, agent, clean "
                      "FROM items ORDER BY rowid").fetchall()
    return rows, stats


@pytest.mark.parametrize("lazy", [False, True], ids=["kinds judged", "kinds left for the reader"])
def test_parallel_and_single_process_builds_write_the_same_index(squad_repo: Path, monkeypatch, lazy: bool) -> None:
    monkeypatch.setattr(recall_index, "LAZY_KINDS_MIN", 2 if lazy else 10_000)
    for i in range(40):
        write(squad_repo / COLD / f"agent{i:02d}.md",
              f"# agent{i:02d}\n\n### 2026-0{i % 9 + 1}-1{i % 10} · session {i}\n\n"
              f"- [rule] Never deploy on Friday {i}\n- **Root cause:** the cache key missed the tenant {i}\n"
              f"- We decided to pin actions by SHA {i}\n")
    (squad_repo / COLD / "broken.md").write_bytes(b"# x\n\n- \xff\xfe not utf-8\n")
    monkeypatch.setenv("TIERGIT_INDEX_WORKERS", "1")
    single, single_stats = _index(squad_repo, "single.sqlite")
    monkeypatch.delenv("TIERGIT_INDEX_WORKERS")
    monkeypatch.setattr(recall_index, "PARALLEL_MIN", 2)
    monkeypatch.setattr(recall_index.os, "cpu_count", lambda: 2)
    pools: list[str] = []
    real = multiprocessing.get_context
    monkeypatch.setattr(multiprocessing, "get_context", lambda method: pools.append(method) or real(method))
    parallel, parallel_stats = _index(squad_repo, "parallel.sqlite")
    assert pools == ["fork"], "the build ran in worker processes"
    assert len(single) >= 120 and parallel == single
    assert parallel_stats.skipped == single_stats.skipped == [".squad/memory/cold/broken.md"]
    assert parallel_stats.reindexed == single_stats.reindexed
    kinds = {r[6] for r in parallel}
    assert kinds == {recall_index.UNJUDGED} if lazy else kinds >= {"rule", "error", "decision"}
