"""The caches that keep large stores fast give the same answers as computing from scratch:
the recall index (rowid ranges, summary count, folder-mtime listing), blame by blob id,
and promotion health by state key."""
from __future__ import annotations

import json
import os
import time
from datetime import date
from pathlib import Path

from conftest import commit, git, ok, tiergit, write

from tiergit.features import recall_index
from tiergit.shell import blame_cache, listing
from tiergit.shell.store import Store

ROOT = Path(".squad") / "memory"


def _cold(name: str, lines: list[str]) -> str:
    return f"# {name}\n\n### Work\n\n" + "".join(f"- {t}\n" for t in lines)


def _age_folders(repo: Path) -> None:
    """Move every folder's mtime out of the 'racy' window, as minutes of real use would."""
    old = time.time() - 60
    # from .squad: the listing watches the store root's parent too (a test run alone starts within
    # git's racy window of the session's template, whose folder times the copy keeps)
    for dirpath, dirnames, _ in os.walk(repo / ROOT.parent):
        os.utime(dirpath, (old, old))


def _fts_rows(db, path: str) -> list[str]:
    return sorted(r[0] for r in db.execute("SELECT clean FROM items WHERE path = ?", (path,)))


def test_reindex_replaces_only_the_changed_files_items(squad_repo: Path) -> None:
    for i in range(5):
        write(squad_repo / ROOT / "cold" / f"a{i}.md", _cold(f"a{i}", [f"fact alpha{i} one", f"fact beta{i} two"]))
    store = Store.open(squad_repo)
    db = recall_index.connect(recall_index.index_path(squad_repo))
    recall_index.refresh(store, db)
    assert recall_index.item_count(db) == db.execute("SELECT count(*) FROM items").fetchone()[0] == 10
    write(squad_repo / ROOT / "cold" / "a2.md", _cold("a2", ["fact gamma new", "fact delta", "fact epsilon"]))
    (squad_repo / ROOT / "cold" / "a4.md").unlink()
    stats = recall_index.refresh(store, db)
    assert (stats.reindexed, stats.removed) == (1, 1)
    assert _fts_rows(db, ".squad/memory/cold/a2.md") == ["fact delta", "fact epsilon", "fact gamma new"]
    assert _fts_rows(db, ".squad/memory/cold/a4.md") == []
    assert _fts_rows(db, ".squad/memory/cold/a3.md") == ["fact alpha3 one", "fact beta3 two"]
    # The summary count follows every change and matches a real count over FTS5.
    assert recall_index.item_count(db) == db.execute("SELECT count(*) FROM items").fetchone()[0] == 9
    hits = db.execute("SELECT path FROM items WHERE items MATCH 'alpha1'").fetchall()
    assert hits == [(".squad/memory/cold/a1.md",)]
    db.close()


def test_listing_is_reused_until_a_folder_changes(squad_repo: Path) -> None:
    write(squad_repo / ROOT / "cold" / "picard.md", _cold("picard", ["fact warp core"]))
    _age_folders(squad_repo)
    store = Store.open(squad_repo)
    first = listing.walk(store)
    assert ".squad/memory/cold/picard.md" in first.memory
    assert listing.still_valid(store, listing.Listing.from_json(first.to_json()))
    # A new file changes its folder's mtime: the listing is stale.
    write(squad_repo / ROOT / "cold" / "riker.md", _cold("riker", ["fact beard"]))
    assert not listing.still_valid(store, first)
    # A new folder under a watched parent is seen too.
    _age_folders(squad_repo)
    second = listing.walk(store)
    write(squad_repo / ROOT / "archive" / "2026-01" / "cold" / "picard.md", _cold("picard", ["fact old"]))
    assert not listing.still_valid(store, second)


def test_the_fast_paths_tail_read_of_a_listing_equals_the_whole_read(squad_repo: Path) -> None:
    # a file name holding the very text the tail read looks for: JSON escapes its quote
    write(squad_repo / ROOT / "archive" / "2026-01" / 'x,"dirs":{"a":1}.md', _cold("x", ["fact odd name"]))
    write(squad_repo / ROOT / "cold" / "picard.md", _cold("picard", ["fact warp core"]))
    _age_folders(squad_repo)
    walked = listing.walk(Store.open(squad_repo))
    text = walked.to_json()
    whole, tail = listing.Listing.from_json(text), listing.Listing.folders_from_json(text)
    assert whole is not None and tail is not None and whole.dirs
    assert (tail.dirs, tail.key, tail.walked_ns) == (whole.dirs, whole.key, whole.walked_ns)
    assert tail.memory == tail.archive == [] and any('"dirs"' in p for p in whole.archive)
    assert listing.Listing.folders_from_json('{"memory": []}') is None
    assert listing.Listing.folders_from_json(text[:-5]) is None   # damaged: the full read says None too


def test_recall_sees_new_and_deleted_files_through_the_listing(squad_repo: Path) -> None:
    write(squad_repo / ROOT / "cold" / "picard.md", _cold("picard", ["fact warp core breach drill"]))
    _age_folders(squad_repo)
    out = ok(tiergit(squad_repo, "recall", "warp", "--no-log", "--json"))
    assert [h["path"] for h in json.loads(out.stdout)["hits"]] == [".squad/memory/cold/picard.md"]
    write(squad_repo / ROOT / "cold" / "riker.md", _cold("riker", ["fact warp field theory"]))
    out = ok(tiergit(squad_repo, "recall", "warp", "--no-log", "--json"))
    assert sorted(h["path"] for h in json.loads(out.stdout)["hits"]) == [
        ".squad/memory/cold/picard.md", ".squad/memory/cold/riker.md"]
    (squad_repo / ROOT / "cold" / "picard.md").unlink()
    out = ok(tiergit(squad_repo, "recall", "warp", "--no-log", "--json"))
    assert [h["path"] for h in json.loads(out.stdout)["hits"]] == [".squad/memory/cold/riker.md"]


def test_blame_cache_runs_blame_once_per_blob_and_matches_git(squad_repo: Path) -> None:
    path = squad_repo / ROOT / "cold" / "picard.md"
    write(path, _cold("picard", ["first line"]))
    commit(squad_repo, "one")
    with open(path, "a") as fh:
        fh.write("- second line\n")
    git(squad_repo, "add", "-A")
    git(squad_repo, "commit", "-q", "-m", "two", env={"GIT_AUTHOR_DATE": "2026-03-04T10:00:00Z"})
    rel = ".squad/memory/cold/picard.md"
    cache = blame_cache.BlameCache.for_repo(squad_repo)
    first = cache.dates(rel)
    cache.close()
    assert cache.blamed == 1
    from tiergit.shell import git as tgit
    assert first == tgit.blame_dates(squad_repo, rel) and first[max(first)] == date(2026, 3, 4)
    again = blame_cache.BlameCache.for_repo(squad_repo)
    assert again.dates(rel) == first and again.blamed == 0
    again.close()
    # A new version of the file is blamed again.
    with open(path, "a") as fh:
        fh.write("- third line\n")
    commit(squad_repo, "three")
    third = blame_cache.BlameCache.for_repo(squad_repo)
    assert len(third.dates(rel)) == len(first) + 1 and third.blamed == 1
    third.close()


def test_blame_runs_encode_round_trip() -> None:
    dates = {1: date(2026, 1, 1), 2: date(2026, 1, 1), 3: date(2026, 2, 1), 5: date(2026, 1, 1)}
    assert blame_cache.decode(blame_cache.encode(dates)) == dates
    assert json.loads(blame_cache.encode(dates)) == [[1, 2, 739617], [3, 1, 739648], [5, 1, 739617]]


def test_blame_cache_is_bounded(squad_repo: Path, monkeypatch) -> None:
    monkeypatch.setattr(blame_cache, "MAX_ROWS", 2)
    for i in range(4):
        write(squad_repo / ROOT / "cold" / f"a{i}.md", _cold(f"a{i}", [f"line {i}"]))
    commit(squad_repo, "four files")
    cache = blame_cache.BlameCache.for_repo(squad_repo)
    for i in range(4):
        cache.dates(f".squad/memory/cold/a{i}.md")
    cache.close()
    import sqlite3
    db = sqlite3.connect(cache.path)
    assert db.execute("SELECT count(*) FROM blame").fetchone()[0] == 2
    db.close()


def test_status_promotion_counts_are_cached_and_follow_changes(squad_repo: Path) -> None:
    write(squad_repo / ROOT / "cold" / "picard.md",
          _cold("picard", ["[rule] Always rotate the token cache keys weekly."]))
    commit(squad_repo, "cold")
    first = json.loads(ok(tiergit(squad_repo, "status", "--json")).stdout)["promotion"]
    cache = squad_repo / ".git" / "tiergit" / "promotion-health.json"
    assert json.loads(cache.read_text())["considered"] == first["candidates_considered"]
    again = json.loads(ok(tiergit(squad_repo, "status", "--json")).stdout)["promotion"]
    assert again == first
    # A new durable item changes the file's stat: the counts are computed again.
    with open(squad_repo / ROOT / "cold" / "picard.md", "a") as fh:
        fh.write("- [decision] Use one MSAL client per tenant.\n")
    after = json.loads(ok(tiergit(squad_repo, "status", "--json")).stdout)["promotion"]
    assert after["candidates_considered"] == first["candidates_considered"] + 1


def test_history_walk_dates_lines_like_blame_without_running_blame(squad_repo: Path) -> None:
    path = squad_repo / ROOT / "cold" / "picard.md"
    other = squad_repo / ROOT / "cold" / "riker.md"
    steps = [("2026-01-05", ["one", "two"]), ("2026-02-10", ["one", "two", "three"]),
             ("2026-03-15", ["zero", "one", "two changed", "three"])]
    for day, lines in steps:
        write(path, _cold("picard", lines))
        write(other, _cold("riker", lines[:1]))
        git(squad_repo, "add", "-A")
        git(squad_repo, "commit", "-q", "--no-verify", "-m", day, env={"GIT_AUTHOR_DATE": f"{day}T10:00:00Z"})
    from tiergit.features.history import pathspecs
    from tiergit.shell import git as tgit

    store = Store.open(squad_repo)
    cache = blame_cache.BlameCache.for_repo(squad_repo, pathspecs(store.config))
    for rel in (".squad/memory/cold/picard.md", ".squad/memory/cold/riker.md"):
        assert cache.dates(rel) == tgit.blame_dates(squad_repo, rel)
    assert cache.blamed == 0   # one history walk dated both files
    cache.close()


def test_carry_keeps_dates_of_surviving_lines() -> None:
    from tiergit.core.linedates import carry, forward_dates

    d1, d2, d3 = date(2026, 1, 1), date(2026, 2, 1), date(2026, 3, 1)
    assert carry([b"a", b"b", b"c"], [d1, d1, d2], [b"a", b"x", b"c", b"d"], d3) == [d1, d3, d2, d3]
    assert carry([], [], [b"a"], d1) == [d1]
    assert forward_dates([(d1, b"a\nb\n"), (d2, b"b\n"), (d3, b"b\nc\n")]) == {1: d1, 2: d3}


def test_token_cache_keeps_the_newest_counts_only(tmp_path: Path, monkeypatch) -> None:
    from tiergit.shell import tokens

    monkeypatch.setattr(tokens, "SHARD_ENTRIES", 3)
    cache = tokens.TokenCache(tmp_path / "tokens", "cl100k_base")
    for i in range(5):
        cache.put(f"{i:040d}", i)          # one shard ("00")
    cache.put("ab" + "0" * 38, 7)          # another, within its bound
    cache.save()
    again = tokens.TokenCache(tmp_path / "tokens", "cl100k_base")
    assert [again.get(f"{i:040d}") for i in range(5)] == [None, None, 2, 3, 4]
    assert again.get("ab" + "0" * 38) == 7 and len(again) == 4
    assert sorted(p.name for p in (tmp_path / "tokens").iterdir()) == ["00.json", "ab.json"]


def test_a_first_index_build_reads_each_file_when_its_parse_is_due(squad_repo: Path, monkeypatch) -> None:
    """A first build held every changed file's bytes before the first parse (a 50k store's ~430 MB);
    each is read when its parse is due now, and each file's blob is that of the bytes parsed."""
    import tracemalloc

    from tiergit.shell.tokens import blob_id

    monkeypatch.setenv("TIERGIT_INDEX_WORKERS", "1")
    body = "".join(f"fact the deploy step {n} waits on the cache warmer\n" for n in range(250))
    for i in range(300):
        write(squad_repo / ROOT / "cold" / f"b{i}.md", _cold(f"b{i}", body.splitlines()))
    total = sum(len(p.read_bytes()) for p in (squad_repo / ROOT / "cold").glob("b*.md"))
    store = Store.open(squad_repo)
    db = recall_index.connect(recall_index.index_path(squad_repo))
    tracemalloc.start()
    try:
        recall_index.refresh(store, db)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < total // 2, f"peak {peak} bytes while indexing {total} bytes"
    path = ".squad/memory/cold/b7.md"
    stored = db.execute("SELECT blob FROM files WHERE path = ?", (path,)).fetchone()[0]
    assert stored == blob_id((squad_repo / path).read_bytes())
    assert len(_fts_rows(db, path)) == 250


def test_the_history_walk_dates_every_file_as_blame_does_one_file_at_a_time(squad_repo: Path) -> None:
    """The walk that dates every file from one `git log` read every version of every file at once
    (a 50k store's ~480 MB); it reads one file's versions at a time now, with the same dates."""
    import tracemalloc

    from tiergit.features.history import pathspecs
    from tiergit.shell import git as tgit

    body = "".join(f"- fact the index step {n} runs after the pull\n" for n in range(40))
    for day in (2, 9, 20):
        for i in range(150):
            path = squad_repo / ROOT / "cold" / f"w{i}.md"
            old = path.read_text() if path.exists() else f"# w{i}\n\n### Work\n\n"
            write(path, old + body.replace("fact", f"fact of day {day}"))
        git(squad_repo, "add", "-A")
        git(squad_repo, "commit", "-q", "-m", f"day {day}", env={"GIT_AUTHOR_DATE": f"2026-03-{day:02d}T10:00:00Z"})
    total = sum(len(body) * n * 150 for n in (1, 2, 3))
    store = Store.open(squad_repo)
    cache = blame_cache.BlameCache.for_repo(squad_repo, pathspecs(store.config))
    tracemalloc.start()
    try:
        dated = cache.dates(".squad/memory/cold/w0.md")   # the first ask walks the history for all
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert cache.blamed == 0
    assert peak < total // 2, f"peak {peak} bytes for {total} bytes of versions"
    for rel in (".squad/memory/cold/w0.md", ".squad/memory/cold/w149.md"):
        assert cache.dates(rel) == tgit.blame_dates(squad_repo, rel)
    assert sorted(set(dated.values())) == [date(2026, 3, 2), date(2026, 3, 9), date(2026, 3, 20)]
    cache.close()


def test_a_file_that_fails_to_read_in_a_parallel_build_is_its_error_and_nothing_is_stored(
        squad_repo: Path, monkeypatch) -> None:
    """Files are read as the parse workers' feeder reaches them, so a read error crosses to a worker and
    back: it must arrive as the same error (InputError pickles whole), and the build rolls back."""
    import sys

    import pytest

    from tiergit.errors import InputError

    if sys.platform == "win32":
        pytest.skip("the parse workers are forked: POSIX only")
    for i in range(6):
        write(squad_repo / ROOT / "cold" / f"p{i}.md", _cold(f"p{i}", [f"fact pool{i} one"]))
    monkeypatch.setattr(recall_index, "PARALLEL_MIN", 2)
    monkeypatch.delenv("TIERGIT_INDEX_WORKERS", raising=False)
    monkeypatch.setattr(recall_index.os, "cpu_count", lambda: 2)
    real = Store.read_bytes

    def read(self, rel):
        if rel.endswith("p3.md"):
            raise InputError(rel, 1, "TG006", "is a FIFO (named pipe), not a regular file", "remove it")
        return real(self, rel)

    monkeypatch.setattr(Store, "read_bytes", read)
    store = Store.open(squad_repo)
    db = recall_index.connect(recall_index.index_path(squad_repo))
    import signal

    def hung(*_):
        raise AssertionError("the build hung: an error that does not unpickle stalls the pool")

    signal.signal(signal.SIGALRM, hung)
    signal.alarm(60)
    try:
        with pytest.raises(InputError) as caught:
            recall_index.refresh(store, db)
    finally:
        signal.alarm(0)
    assert (caught.value.code, caught.value.hint) == ("TG006", "remove it")
    assert "p3.md:1: TG006 is a FIFO" in caught.value.message
    assert db.execute("SELECT count(*) FROM files").fetchone()[0] == 0
