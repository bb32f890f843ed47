"""20 mixed tiergit processes on one repo at once (session end, recall, promote --apply,
archive --apply), repeated: nothing lost, nothing duplicated, no internal error."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest
import killharness as kh

pytestmark = pytest.mark.e2e

AGENTS = [f"a{i}" for i in range(5)]


def _setup(path):
    repo = kh.base_repo(path)
    mem = repo / ".squad" / "memory"
    for agent in AGENTS:
        kh._write(mem / "cold" / f"{agent}.md", kh._entries(agent, 6))
        assert kh.run(repo, "session", "start", "--agent", agent, "--task", f"task of {agent}").returncode == 0
        hot = mem / "hot" / f"{agent}.md"
        hot.write_text(hot.read_text() + f"\n- [decision] Session fact of {agent}: the queue is drained first.\n")
    for i in range(4):
        assert kh.run(repo, "propose", "--apply", "--topic", "ops", "--kind", "rule",
                      f"Concurrent rule {i}: retries back off exponentially, variant {i}").returncode == 0
    kh._commit(repo, "setup")
    return repo


def _count(repo, needle: str, tiers=("hot", "cold", "archive")) -> int:
    """Occurrences in the given tiers (the wiki holds promotion copies, counted apart)."""
    mem = repo / ".squad" / "memory"
    return sum(p.read_text().count(needle) for p in mem.rglob("*.md")
               if p.relative_to(mem).parts[0] in tiers)


def test_twenty_mixed_processes_lose_and_duplicate_nothing(tmp_path):
    for round_ in range(2):
        repo = _setup(tmp_path / f"r{round_}")
        jobs = ([["session", "end", "--agent", a] for a in AGENTS]
                + [["recall", "cache key stable"]] * 8 + [["promote", "--apply"]] * 4 + [["archive", "--apply"]] * 3)
        procs = [subprocess.Popen([sys.executable, "-m", "tiergit", *args], cwd=repo, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True, env={**os.environ, "TIERGIT_TODAY": kh.TODAY})
                 for args in jobs]
        for args, p in zip(jobs, procs):
            out, err = p.communicate(timeout=300)
            assert "internal error" not in out + err and "Traceback" not in err, (args, err)
            assert p.returncode == 0, (args, out, err)
        for agent in AGENTS:
            assert _count(repo, f"Session fact of {agent}") == 1, agent
            for i in range(6):
                assert _count(repo, f"Rule number {i} of {agent}:") == 1, (agent, i)
                assert _count(repo, f"Rule number {i} of {agent}:", ("wiki",)) <= 1, (agent, i)
                assert _count(repo, f"Context line {i} of {agent} ") == 1, (agent, i)
        for i in range(4):
            assert _count(repo, f"Concurrent rule {i}:", ("wiki",)) == 1, i
