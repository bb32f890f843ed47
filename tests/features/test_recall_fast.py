"""recall_fast: a warm `tiergit recall` answered without click or the config prints exactly what
the full CLI prints, logs the same events, and hands over whenever anything is not as indexed."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import tiergit, write
from test_recall import _store

from tiergit.features import recall_fast

FULL = {"TIERGIT_RECALL_FAST": "0"}
ASKS = [
    ["token cache expiry", "--no-log"],
    ["token", "cache", "--json", "--no-log"],
    ["token cache expiry", "--full", "--no-log"],
    ["deploy", "--agent", "riker", "-n", "1", "--no-log"],
    ["msal", "--tier", "wiki", "--no-log"],
    ["zebra quokka", "--no-log"],
]


def _age(repo: Path) -> None:
    """Date every file and folder 10 s back: folders changed within 2 s of a walk are not
    trusted (listing's racy rule), so a fresh test store would never be answered fast."""
    past = time.time() - 10
    for dirpath, dirnames, filenames in os.walk(repo):
        dirnames[:] = [d for d in dirnames if d != ".git"]
        for name in filenames:
            os.utime(os.path.join(dirpath, name), (past, past))
        os.utime(dirpath, (past, past))


@pytest.fixture
def warm(squad_repo: Path) -> Path:
    _store(squad_repo)
    _age(squad_repo)
    assert tiergit(squad_repo, "recall", "token", "--no-log", env=FULL).returncode == 0   # walks, indexes
    return squad_repo


def _fast(repo: Path, args: list[str], capsys) -> tuple[int | None, str]:
    capsys.readouterr()
    code = recall_fast.main(args, cwd=str(repo))
    return code, capsys.readouterr().out


@pytest.mark.parametrize("args", ASKS)
def test_fast_answer_is_the_full_clis_answer(warm: Path, args: list[str], capsys) -> None:
    code, fast = _fast(warm, args, capsys)
    assert code == 0
    full = tiergit(warm, "recall", *args, env=FULL)
    assert full.returncode == 0, full.stderr
    assert fast == full.stdout
    assert tiergit(warm, "recall", *args).stdout == full.stdout   # `python -m tiergit` takes the fast path


def test_both_paths_log_the_same_events(warm: Path, capsys) -> None:
    log = warm / ".squad" / "memory" / "logs" / "recalls.jsonl"
    assert _fast(warm, ["token cache", "--agent", "picard"], capsys)[0] == 0
    fast = [json.loads(line) for line in log.read_text().splitlines()]
    log.unlink()
    assert tiergit(warm, "recall", "token cache", "--agent", "picard", env=FULL).returncode == 0
    full = [json.loads(line) for line in log.read_text().splitlines()]
    assert fast and [dict(e, ts=None) for e in fast] == [dict(e, ts=None) for e in full]


def test_an_edited_file_hands_over_to_the_full_path(warm: Path, capsys) -> None:
    cold = warm / ".squad" / "memory" / "cold" / "riker.md"
    with open(cold, "a") as fh:
        fh.write("- The zebra quokka rotation runs nightly.\n")
    assert _fast(warm, ["zebra quokka", "--no-log"], capsys)[0] is None
    got = tiergit(warm, "recall", "zebra quokka", "--no-log")
    assert "riker.md" in got.stdout   # the full path re-indexed the edit
    _age(warm)
    tiergit(warm, "recall", "zebra", "--no-log", env=FULL)   # a walk that trusts the aged folders
    code, out = _fast(warm, ["zebra quokka", "--no-log"], capsys)
    assert code == 0 and "riker.md" in out


def test_a_new_file_or_config_change_hands_over(warm: Path, capsys) -> None:
    write(warm / ".squad" / "memory" / "wiki" / "new.md", "# New\n\n- [fact] quokka\n")
    assert _fast(warm, ["quokka", "--no-log"], capsys)[0] is None
    _age(warm)
    tiergit(warm, "recall", "quokka", "--no-log", env=FULL)
    assert _fast(warm, ["quokka", "--no-log"], capsys)[0] == 0
    with open(warm / ".tiergit.yml", "a") as fh:
        fh.write("\n# a comment changes the config's key\n")
    assert _fast(warm, ["quokka", "--no-log"], capsys)[0] is None


def _stamps_match_files(repo: Path) -> list[tuple[str, int, int]]:
    """The file stamps unpacked, checked against the files table they were written from: the live rows'
    stats, and every row's rowid range by tier."""
    import sqlite3
    from array import array
    db = sqlite3.connect(next((repo / ".git" / "tiergit").glob("recall-*.sqlite")))
    folders, names, blob, ranges = db.execute("SELECT folders, names, stamps, ranges FROM file_stamps").fetchone()
    stamps = array("q")
    stamps.frombytes(blob)
    it = iter(names.split("\0"))
    paths = [f"{folder}/{next(it)}" if folder else next(it) for folder, count in json.loads(folders) for _ in range(count)]
    packed = sorted(zip(paths, stamps[0::2], stamps[1::2]))
    assert packed == sorted(db.execute("SELECT path, mtime_ns, size FROM files WHERE mtime_ns >= 0"))
    spans = sorted((tier, first, end) for tier, pairs in json.loads(ranges).items() for first, end in pairs)
    assert spans == sorted(db.execute("SELECT tier, first_rowid, first_rowid + items FROM files WHERE items > 0"))
    db.close()
    return packed


def test_the_file_stamps_follow_every_change_to_the_files_table(warm: Path, capsys) -> None:
    before = _stamps_match_files(warm)
    cold = warm / ".squad" / "memory" / "cold" / "riker.md"
    with open(cold, "a") as fh:   # an edit in place: the folder's mtime does not move
        fh.write("- The zebra quokka rotation runs nightly.\n")
    tiergit(warm, "recall", "zebra", "--no-log", env=FULL)
    edited = _stamps_match_files(warm)
    assert edited != before
    os.utime(cold, (time.time() - 5, time.time() - 5))   # touched, same bytes: only the stat row moves
    tiergit(warm, "recall", "zebra", "--no-log", env=FULL)
    assert _stamps_match_files(warm) != edited
    (warm / ".squad" / "memory" / "wiki" / "gone.md").write_text("# Gone\n\n- [fact] quokka\n")
    tiergit(warm, "recall", "zebra", "--no-log", env=FULL)
    assert any(p.endswith("gone.md") for p, _, _ in _stamps_match_files(warm))
    (warm / ".squad" / "memory" / "wiki" / "gone.md").unlink()
    tiergit(warm, "recall", "zebra", "--no-log", env=FULL)
    assert not any(p.endswith("gone.md") for p, _, _ in _stamps_match_files(warm))


def test_an_index_written_before_the_file_stamps_hands_over_once_and_gains_them(warm: Path, capsys) -> None:
    import sqlite3
    index = next((warm / ".git" / "tiergit").glob("recall-*.sqlite"))
    with sqlite3.connect(index) as db:   # as an index written before the pack: no table, no triggers
        for trigger in ("file_stamps_on_insert", "file_stamps_on_update", "file_stamps_on_delete"):
            db.execute(f"DROP TRIGGER {trigger}")
        db.execute("DROP TABLE file_stamps")
    assert _fast(warm, ["token", "--no-log"], capsys)[0] is None
    tiergit(warm, "recall", "token", "--no-log", env=FULL)   # nothing changed: the pack is written anyway
    _stamps_match_files(warm)
    assert _fast(warm, ["token", "--no-log"], capsys)[0] == 0


def test_a_write_by_a_tiergit_that_knows_no_stamps_drops_them_and_the_next_refresh_writes_them(warm: Path, capsys) -> None:
    # Another tiergit sharing the index (an older one, a hook environment's) re-indexes an edit without the pack:
    # the pack must not stay as it was, or the fast path would compare the disk with stale stamps forever.
    import sqlite3
    cold = warm / ".squad" / "memory" / "cold" / "riker.md"
    with open(cold, "a") as fh:
        fh.write("- The zebra quokka rotation runs nightly.\n")
    st = cold.stat()
    index = next((warm / ".git" / "tiergit").glob("recall-*.sqlite"))
    with sqlite3.connect(index) as db:
        db.execute("UPDATE files SET mtime_ns=?, size=? WHERE path LIKE '%/riker.md'", (st.st_mtime_ns, st.st_size))
        assert db.execute("SELECT count(*) FROM file_stamps").fetchone()[0] == 0
    assert _fast(warm, ["zebra", "--no-log"], capsys)[0] is None
    tiergit(warm, "recall", "zebra", "--no-log", env=FULL)
    assert any(p.endswith("riker.md") and size == st.st_size for p, _, size in _stamps_match_files(warm))
    assert _fast(warm, ["zebra", "--no-log"], capsys)[0] == 0


@pytest.mark.parametrize("args", [
    ["token", "--tier", "nope"], ["token", "--agent", "../x"], ["token", "--help"], ["--no-log"],
    ["token", "--bogus"], ["token", "-n", "0"], ["token", "--agent=picard"], ["...", "--no-log"],
])
def test_anything_unusual_is_left_to_the_cli(warm: Path, args: list[str], capsys) -> None:
    assert _fast(warm, args, capsys)[0] is None


def test_no_index_or_disabled_hands_over(squad_repo: Path, warm: Path, capsys, monkeypatch) -> None:
    monkeypatch.setenv("TIERGIT_RECALL_FAST", "0")
    assert _fast(warm, ["token"], capsys)[0] is None
    monkeypatch.delenv("TIERGIT_RECALL_FAST")
    for path in (warm / ".git" / "tiergit").glob("recall-*.sqlite"):
        path.unlink()
    assert _fast(warm, ["token"], capsys)[0] is None


@pytest.mark.e2e
def test_the_fast_path_imports_no_cli_framework_yaml_or_parser(warm: Path) -> None:
    code = ("import sys, io, contextlib\nfrom tiergit.features import recall_fast\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            "    rc = recall_fast.main(['token', '--no-log'])\n"
            "print(rc, sorted(m for m in ('click', 'yaml', 'markdown_it', 'tiergit.shell.config', 'tiergit.core.parse', "
            "'tiergit.core.configschema', 'tiergit.features.recall_index', 'typing', '_hashlib') "
            "if m in sys.modules))\n")
    proc = subprocess.run([sys.executable, "-c", code], cwd=warm, capture_output=True, text=True)
    assert proc.stdout.strip() == "0 []", proc.stderr


def test_the_copied_constants_equal_their_originals() -> None:
    from tiergit.core.configschema import SLUG
    from tiergit.features.recall_index import INDEX_NAME

    assert recall_fast.SLUG.pattern == SLUG.pattern and recall_fast.INDEX_NAME == INDEX_NAME
    assert recall_fast._sha1(b"tiergit") == __import__("hashlib").sha1(b"tiergit").hexdigest()


@pytest.mark.parametrize("tiers", [["cold"], ["wiki"], ["hot"], ["cold", "wiki", "archive", "staging"],
                                   ["hot", "cold", "wiki", "archive", "staging"], ["archive"]])
@pytest.mark.parametrize("in_sql", [True, False])
def test_the_rowid_ranges_select_what_the_tier_filter_selects(warm: Path, tiers: list[str], in_sql: bool,
                                                             monkeypatch) -> None:
    """recall_fast drops `tier IN (...)` for rowid ranges of the other tiers' files: same hits,
    whether the ranges are tested in SQL (a few) or by the Python function (many)."""
    import sqlite3

    from tiergit.core import rowranges
    from tiergit.features import recall

    if not in_sql:
        monkeypatch.setattr(recall, "MAX_SQL_RANGES", 0)

    tiergit(warm, "recall", "token", "--tier", "archive", "--no-log", env=FULL)   # the history rows too
    _stamps_match_files(warm)   # written again by the history refresh, its ranges with the rest
    db = sqlite3.connect(warm / ".git" / "tiergit" / recall_fast.INDEX_NAME)
    try:
        skip = sorted((first, first + n) for tier, n, first in
                      db.execute("SELECT tier, items, first_rowid FROM files") if n and tier not in tiers)
        assert skip or len(tiers) == 5
        # the fixture's tiers each sit in their own folders: a build numbers them in path order, one run each
        assert len(rowranges.merged(skip)) <= len({t for (t,) in db.execute("SELECT DISTINCT tier FROM files")} - set(tiers))
        found = 0
        for words in ("token cache expiry", "deploy", "the", "msal auth", "decision"):
            want = recall.search(db, words, tiers, None, 50)
            found += len(want)
            got = recall.search(db, words, tiers, None, 50, skip=skip)
            assert [h.as_dict() for h in got] == [h.as_dict() for h in want], words
            assert all(h.tier in tiers for h in got)
        # the fixture has no archived file: there the ranges must leave no hit at all, as the filter does
        assert found or tiers == ["archive"]
        tiers_seen = {t for (t,) in db.execute("SELECT DISTINCT tier FROM files WHERE items > 0")}
        assert len(tiers_seen) >= 3
    finally:
        db.close()
