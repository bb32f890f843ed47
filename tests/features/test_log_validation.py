"""The hook validates the JSON Lines logs tiergit owns before they are committed (issue 25,
item 5): one JSON object a line, no NUL byte, no conflict marker; a valid log (and one with
CRLF endings or blank lines, which readers accept) commits."""
from __future__ import annotations

import json

import pytest
from conftest import git, tiergit, write

from tiergit.core import jsonlog

LOG = ".squad/memory/logs/recalls.jsonl"
GOOD = "".join(json.dumps({"ts": f"2026-05-0{d}T10:00:00Z", "query": "deploy", "id": f"m-{d}"}) + "\n"
               for d in range(1, 4))


@pytest.mark.parametrize("tail, problem", [
    ('{"ts": "2026-05-04", "query": "x\0y"}\n', "holds a NUL byte"),
    ("\0\0\0\0\n", "holds a NUL byte"),
    ("not json at all\n", "is not JSON"),
    ('{"ts": "2026-05-04", "query": "cut sho\n', "is not JSON"),
    ("<<<<<<< HEAD\n", "is not JSON (a merge conflict marker)"),
    ('["an", "array"]\n', "is JSON but not an object"),
    ("42\n", "is JSON but not an object"),
    (b"\xff\xfe{}\n", "is not UTF-8"),
])
def test_each_bad_line_is_named(tail, problem):
    data = GOOD.encode() + (tail if isinstance(tail, bytes) else tail.encode())
    found = jsonlog.findings(LOG, data)
    assert [(f.line, f.code, f.severity) for f in found] == [(4, "LOG001", "critical")]
    assert found[0].message.startswith(f"log line {problem}")


def test_valid_logs_pass_with_crlf_blank_lines_and_no_final_newline():
    assert jsonlog.findings(LOG, GOOD.encode()) == []
    assert jsonlog.findings(LOG, GOOD.replace("\n", "\r\n").encode()) == []
    assert jsonlog.findings(LOG, (GOOD + "\n\n").encode()) == []
    assert jsonlog.findings(LOG, GOOD.rstrip("\n").encode()) == []
    assert jsonlog.findings(LOG, b"") == []


def test_many_bad_lines_report_three_and_a_count():
    found = jsonlog.findings(LOG, b"x\n" * 10)
    assert [f.line for f in found] == [1, 2, 3, 4]
    assert found[-1].message == "7 more bad log line(s)"


def test_only_tiergits_own_logs_are_judged(squad_repo):
    from tiergit.shell import config

    cfg = config.load(squad_repo)
    assert jsonlog.is_owned(cfg, ".squad/memory/logs/recalls.jsonl")
    assert jsonlog.is_owned(cfg, ".squad/memory/logs/reviews.jsonl")
    assert jsonlog.is_owned(cfg, ".squad/memory/logs/openclaw-recalls.jsonl")   # OpenClaw recall snapshots
    assert not jsonlog.is_owned(cfg, ".squad/memory/logs/2026-05-01.md")
    assert not jsonlog.is_owned(cfg, ".squad/memory/cold/recalls.jsonl")


@pytest.mark.e2e
def test_the_hook_refuses_a_log_with_nul_bytes_and_non_json_lines(squad_repo):
    """The issue's report: a recall log holding NUL bytes and non-JSON lines committed with exit 0."""
    write(squad_repo / LOG, GOOD)
    git(squad_repo, "add", "-A")
    ok = git(squad_repo, "commit", "-q", "-m", "valid log", check=False)
    assert ok.returncode == 0, ok.stderr
    (squad_repo / LOG).write_bytes(GOOD.encode() + b"\0\0garbage\0\n" + b"tool output pasted here\n")
    git(squad_repo, "add", "-A")
    head = git(squad_repo, "rev-parse", "HEAD").stdout
    refused = git(squad_repo, "commit", "-m", "broken log", check=False)
    assert refused.returncode != 0
    assert f"{LOG}:4: LOG001 [critical] log line holds a NUL byte" in refused.stderr, refused.stderr
    assert f"{LOG}:5: LOG001 [critical] log line is not JSON" in refused.stderr
    assert git(squad_repo, "rev-parse", "HEAD").stdout == head
    proc = tiergit(squad_repo, "check", "--staged")
    assert proc.returncode == 1 and "LOG001" in proc.stdout + proc.stderr


@pytest.mark.e2e
def test_the_hook_refuses_the_reviews_log_with_a_conflict_left_in(squad_repo):
    path = ".squad/memory/logs/reviews.jsonl"
    write(squad_repo / path, GOOD + "<<<<<<< ours\n" + GOOD + "=======\n>>>>>>> theirs\n")
    git(squad_repo, "add", "-A")
    refused = git(squad_repo, "commit", "-m", "conflict left in", check=False)
    assert refused.returncode != 0
    assert f"{path}:4: LOG001 [critical] log line is not JSON (a merge conflict marker)" in refused.stderr


def test_a_recall_log_tiergit_wrote_itself_passes_check(squad_repo):
    write(squad_repo / ".squad/memory/cold/picard.md", "# Cold\n\n### Deploy (2026-05-01)\n\n- [rule] ship on Fridays\n")
    assert tiergit(squad_repo, "recall", "fridays").returncode == 0
    assert (squad_repo / LOG).stat().st_size > 0
    proc = tiergit(squad_repo, "check", "--all")
    assert "LOG001" not in proc.stdout + proc.stderr, proc.stdout + proc.stderr
