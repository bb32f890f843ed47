"""After `context --task`, the agent's `recall` brings what its prompt lacks: the items the spawn
carried are left out (full CLI, fast path and MCP alike), with a note; `--include-spawned`, another
agent, or no agent see them; a stale, odd or unwritable record changes nothing and hangs nothing."""
from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
from conftest import tiergit, write
from test_recall import _store
from test_recall_fast import FULL, _age

from tiergit.features import mcp, recall_fast
from tiergit.shell import spawncarried
from tiergit.shell.store import Store

TASK = "token cache expiry"


def _ids(proc) -> list[str]:
    assert proc.returncode == 0, proc.stderr
    return [h["id"] for h in json.loads(proc.stdout)["hits"]]


def _record(repo: Path) -> Path:
    return repo / ".git" / "tiergit" / spawncarried.FOLDER / "picard.json"


def _spawn(repo: Path) -> list[str]:
    proc = tiergit(repo, "context", "--agent", "picard", "--task", TASK, "--json")
    assert proc.returncode == 0, proc.stderr
    carried = [k["id"] for k in json.loads(proc.stdout)["knowledge"]["items"]]
    assert carried, "the task matches picard's cold items: the spawn carries some"
    return carried


def _matched(repo: Path, carried: list[str]) -> set[str]:
    """The carried items a recall with no agent returns (the spawn also carries the agent's newest)."""
    got = set(carried) & set(_ids(tiergit(repo, "recall", TASK, "--json", "--no-log", "-n", "60")))
    assert got
    return got


def _more_than_a_spawn_holds(repo: Path) -> None:
    """picard's cold history with more token-cache entries than the knowledge budget holds."""
    root = _store(repo)
    entries = [f"### Token cache finding {n} (2026-04-{n % 28 + 1:02d})\n\n- The token cache expiry check in "
               f"service{n} keeps tokens {n} minutes past expiry when the clock of node{n} drifts; "
               f"the fix for service{n} reads the skew from config key auth.skew{n} and logs it.\n"
               for n in range(40)]
    cold = root / "cold" / "picard.md"
    write(cold, cold.read_text() + "\n" + "\n".join(entries))


@pytest.fixture
def spawned(squad_repo: Path) -> tuple[Path, list[str]]:
    _more_than_a_spawn_holds(squad_repo)
    return squad_repo, _spawn(squad_repo)


def test_the_agents_recall_leaves_out_what_its_spawn_carried(spawned) -> None:
    repo, carried = spawned
    every = _ids(tiergit(repo, "recall", TASK, "--json", "--no-log", "-n", "60"))   # no agent: nothing left out
    matched = set(carried) & set(every)
    assert matched
    assert len(_ids(tiergit(repo, "recall", TASK, "--agent", "picard", "--json", "--no-log"))) == 10   # -n's 10, still
    proc = tiergit(repo, "recall", TASK, "--agent", "picard", "--json", "--no-log", "-n", "60")
    mine = _ids(proc)
    assert len(mine) > 10 and not set(carried) & set(mine)
    assert mine == [i for i in _ids(tiergit(repo, "recall", TASK, "--agent", "picard", "--json", "--no-log",
                                            "--include-spawned", "-n", "50")) if i not in carried][:len(mine)]
    assert f"the {len(carried)} item(s) your last spawn prompt carries are not repeated" in proc.stderr
    assert json.loads(proc.stdout)["query"] == TASK   # stdout stays the JSON it was
    kept = tiergit(repo, "recall", TASK, "--agent", "picard", "--json", "--no-log", "--include-spawned", "-n", "60")
    assert matched <= set(_ids(kept)) and "not repeated" not in kept.stderr
    riker = tiergit(repo, "recall", TASK, "--agent", "riker", "--json", "--no-log")   # another agent: no record
    assert "m-0000bbbb" in _ids(riker) and "not repeated" not in riker.stderr
    assert riker.stdout == tiergit(repo, "recall", TASK, "--agent", "riker", "--json", "--no-log",
                                   "--include-spawned").stdout


def test_the_hits_left_are_ranked_from_one_and_logged_without_the_carried(spawned) -> None:
    repo, carried = spawned
    proc = tiergit(repo, "recall", TASK, "--agent", "picard", "--json")
    hits = json.loads(proc.stdout)["hits"]
    assert [h["rank"] for h in hits] == list(range(1, len(hits) + 1)) and hits[0]["relevance"] == 1.0
    log = repo / ".squad" / "memory" / "logs" / "recalls.jsonl"
    recalled = [e for e in map(json.loads, log.read_text().splitlines()) if e.get("via") != "context"]
    assert recalled and not {e["id"] for e in recalled} & set(carried)


def test_the_fast_path_leaves_out_the_same_and_says_so(spawned, capsys) -> None:
    repo, carried = spawned
    _age(repo)
    assert tiergit(repo, "recall", "token", "--no-log", env=FULL).returncode == 0   # a walk that trusts the folders
    for extra in ([], ["--include-spawned"]):
        args = [TASK, "--agent", "picard", "--no-log", "-n", "60", *extra]
        capsys.readouterr()
        assert recall_fast.main(args, cwd=str(repo)) == 0
        fast = capsys.readouterr()
        full = tiergit(repo, "recall", *args, env=FULL)
        assert (fast.out, fast.err) == (full.stdout, full.stderr)
        assert any(i in fast.out for i in carried) == bool(extra)
        assert ("not repeated" in fast.err) == (not extra)


def test_a_new_spawn_replaces_the_record_and_an_old_record_counts_for_nothing(spawned) -> None:
    repo, carried = spawned
    assert tiergit(repo, "context", "--agent", "picard").returncode == 0   # no task: it carries other picks
    now = json.loads(_record(repo).read_text())
    assert abs(now["at"] - time.time()) < 60
    spawncarried.write(_record(repo).parent.parent, "picard", carried, now=time.time() - spawncarried.MAX_AGE_S - 5)
    proc = tiergit(repo, "recall", TASK, "--agent", "picard", "--json", "--no-log", "-n", "60")
    assert _matched(repo, carried) <= set(_ids(proc)) and "not repeated" not in proc.stderr


@pytest.mark.parametrize("odd", ["fifo", "link", "garbage", "folder"])
def test_an_odd_record_is_no_record_and_nothing_hangs(spawned, tmp_path: Path, odd: str) -> None:
    repo, carried = spawned
    record = _record(repo)
    record.unlink()
    if odd == "fifo":
        os.mkfifo(record)
    elif odd == "link":
        target = tmp_path / "elsewhere.json"
        target.write_text(json.dumps({"at": time.time(), "ids": carried}))
        record.symlink_to(target)
    elif odd == "garbage":
        record.write_bytes(b"\x00\xff not json")
    else:
        record.mkdir()
    proc = tiergit(repo, "recall", TASK, "--agent", "picard", "--json", "--no-log", "-n", "60")
    assert _matched(repo, carried) <= set(_ids(proc)) and "not repeated" not in proc.stderr
    spawn = tiergit(repo, "context", "--agent", "picard", "--task", TASK)   # a record it cannot replace: it spawns
    assert spawn.returncode == 0 and "## Task" in spawn.stdout
    if odd == "link":
        assert json.loads((tmp_path / "elsewhere.json").read_text())["ids"] == carried   # never written through


def test_a_bad_agent_name_reads_no_record_and_is_refused(spawned) -> None:
    repo, _carried = spawned
    assert spawncarried.read(repo / ".git" / "tiergit", "../picard") == frozenset()
    proc = tiergit(repo, "recall", TASK, "--agent", "../x")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr


def test_mcp_context_then_recall_leave_out_the_carried(squad_repo: Path) -> None:
    _more_than_a_spawn_holds(squad_repo)
    store = Store.open(squad_repo)
    served = mcp.context(store, agent="picard", task=TASK)
    carried = {k["id"] for k in served["knowledge"]}
    assert carried
    got = {h["id"] for h in mcp.recall(store, TASK, agent="picard", limit=60)["hits"]}
    assert got and not got & carried
    assert carried & {h["id"] for h in mcp.recall(store, TASK, limit=60)["hits"]}
