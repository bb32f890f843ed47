"""End to end with the squad preset, the way a team uses it: sessions on two branches, a real
`git merge` through the merge driver, recall, a promotion PR branch reviewed and merged,
`review sync`, retention, and the history and report views of the resulting repository.
Every step is a real `git commit` through the installed hooks and the CLI as a subprocess."""
from __future__ import annotations

import json
import re
from datetime import date, timedelta

import pytest
from conftest import commit, git, ok, tiergit_process
from tiergit.shell import clock

pytestmark = pytest.mark.e2e

HOT = ".squad/memory/hot/picard.md"
COLD = ".squad/memory/cold/picard.md"
WIKI = ".squad/memory/wiki"
RECALLS = ".squad/memory/logs/recalls.jsonl"
REVIEWS = ".squad/memory/logs/reviews.jsonl"


def add_notes(repo, section, lines):
    """What an agent does during a session: write items under a hot section."""
    path = repo / HOT
    text = path.read_text()
    head = f"## {section}\n"
    at = text.index(head) + len(head)
    at = text.index("\n", at) + 1 if text[at:].startswith("<!--") else at
    path.write_text(text[:at] + "".join(f"{line}\n" for line in lines) + text[at:])


def session(repo, task, section, lines):
    ok(tiergit_process(repo, "session", "start", "--agent", "picard", "--task", task))
    add_notes(repo, section, lines)
    return ok(tiergit_process(repo, "session", "end", "--agent", "picard", "--json"))


def test_squad_team_flow(squad_repo, tmp_path):
    repo = squad_repo
    assert "tiergit-hook" in (repo / ".git/hooks/pre-commit").read_text()

    # Session 1 on main: the agent writes hot notes; the hook checks the staged hot file.
    ok(tiergit_process(repo, "session", "start", "--agent", "picard", "--task", "Fix token cache expiry"))
    add_notes(repo, "Active decisions", ["- [decision] Pin MSAL to 2.x until the broker supports the new cache format #auth"])
    add_notes(repo, "Last actions", [
        "- [correction] Owner: token lifetime is 60 minutes, not 90 #auth",
        "- [rule] Refresh tokens in the gateway, never in the browser client #auth",
        "- [fact] The auth tenant holds 1,200 service principals #auth",
        "- Bisected the broker release to 2.3.1",
        "```", "$ pytest tests/auth -q", "3 failed, 41 passed in 2.31s", "```"])
    # The hook is live: a credential in hot is refused, naming the line; nothing is committed.
    hot_text = (repo / HOT).read_text()
    # (a real-looking key: AWS's documented AKIAIOSFODNN7EXAMPLE is allowed, as gitleaks allows it)
    (repo / HOT).write_text(hot_text + "- token AKIA" + "Q7XW2MZK4RPL9TBV" + "\n")
    git(repo, "add", "-A")
    refused = git(repo, "commit", "-q", "-m", "leak", check=False)
    assert refused.returncode != 0 and HOT in refused.stderr + refused.stdout
    (repo / HOT).write_text(hot_text)
    commit(repo, "picard: hot notes")
    assert git(repo, "show", "--stat", "HEAD").stdout.count(HOT) == 1

    # Spawning: the prompt carries hot only.
    prompt = ok(tiergit_process(repo, "context", "--agent", "picard")).stdout
    assert "Pin MSAL to 2.x" in prompt and HOT in prompt and COLD not in prompt

    end = json.loads(ok(tiergit_process(repo, "session", "end", "--agent", "picard", "--json")).stdout)
    assert end["entry_written"] and end["dropped"] >= 1
    cold = (repo / COLD).read_text()
    for kept in ("[decision] Pin MSAL", "[correction] Owner: token lifetime", "[rule] Refresh tokens in the gateway",
                 "[fact] The auth tenant"):
        assert kept in cold
    assert "41 passed" not in cold and "Pin MSAL" not in (repo / HOT).read_text()
    commit(repo, "picard: session end")

    # The next spawn: hot, and the first session's items (in cold) as the newest knowledge, not cold whole;
    # the task matched none of them, and the prompt says so.
    ok(tiergit_process(repo, "session", "start", "--agent", "picard", "--task", "Schema deploy"))
    prompt = ok(tiergit_process(repo, "context", "--agent", "picard")).stdout
    assert "Schema deploy" in prompt and "### Cold" not in prompt
    assert "Pin MSAL" in prompt.split("### Relevant knowledge")[1] and "matched little" in prompt
    assert "Pin MSAL" in ok(tiergit_process(repo, "context", "--agent", "picard", "--include-cold")).stdout
    commit(repo, "picard: session start")

    # A second branch runs a session for the same agent while main runs one too.
    git(repo, "switch", "-q", "-c", "gateway")
    ok(tiergit_process(repo, "session", "start", "--agent", "picard", "--task", "Gateway refresh retries"))
    add_notes(repo, "Last actions", [
        "- [decision] Retry the gateway token refresh three times with jitter before failing #gateway",
        "- [rule] Log the refresh error class, never the token itself #gateway"])
    ok(tiergit_process(repo, "session", "end", "--agent", "picard"))
    ok(tiergit_process(repo, "recall", "gateway refresh retry jitter", "--agent", "picard"))
    commit(repo, "picard: gateway session")
    git(repo, "switch", "-q", "main")
    add_notes(repo, "Last actions", [
        "- [rule] Run the migration dry-run before every schema deploy #deploy",
        "- [fact] The orders table has 40 million rows, so migrations run online #deploy"])
    ok(tiergit_process(repo, "session", "end", "--agent", "picard"))
    ok(tiergit_process(repo, "recall", "schema deploy migration", "--agent", "picard"))
    commit(repo, "picard: schema session")

    merge = git(repo, "merge", "--no-edit", "gateway", check=False)
    assert merge.returncode == 0, merge.stdout + merge.stderr
    assert "CONFLICT" not in merge.stdout and not git(repo, "diff", "--name-only", "--diff-filter=U").stdout
    cold = (repo / COLD).read_text()
    titles = re.findall(r"^### \d{4}-\d\d-\d\d · (.+)$", cold, re.M)
    assert titles == ["Fix token cache expiry", "Schema deploy", "Gateway refresh retries"]
    assert "<<<<<<<" not in cold and "<<<<<<<" not in (repo / HOT).read_text()
    # Both branches' recall events survive (merge=union).
    queries = {json.loads(line)["query"] for line in (repo / RECALLS).read_text().splitlines()}
    assert {"gateway refresh retry jitter", "schema deploy migration"} <= queries

    # Recall after the merge finds items from both sides and logs the hits.
    before = len((repo / RECALLS).read_text().splitlines())
    hits = json.loads(ok(tiergit_process(repo, "recall", "gateway token refresh", "--json")).stdout)["hits"]
    texts = " ".join(h["text"] for h in hits)
    assert "Retry the gateway token refresh" in texts and "Refresh tokens in the gateway" in texts
    assert len((repo / RECALLS).read_text().splitlines()) == before + len(hits)

    # Time travel: the entries are weeks old (as if written then), and recalled on several queries.
    today = clock.today()
    ages = iter([60, 45, 41])
    cold = re.sub(r"^### \d{4}-\d\d-\d\d · ",
                  lambda m: f"### {today - timedelta(days=next(ages))} · ", cold, flags=re.M)
    (repo / COLD).write_text(cold)
    for query in ("refresh tokens browser client", "where do tokens get refreshed", "gateway refresh jitter retries",
                  "refresh error class logging", "log refresh errors without tokens", "migration dry-run",
                  "schema deploy checklist", "retry gateway refresh"):
        ok(tiergit_process(repo, "recall", query, "-n", "3", "--agent", "picard"))
    commit(repo, "picard: cold dated, recalls")

    # The nightly promotion on its branch: wiki writes, a PR body, a commit the hook accepts.
    git(repo, "switch", "-q", "-c", "tiergit/promote")
    body = tmp_path / "body.md"
    out = ok(tiergit_process(repo, "promote", "--apply", "--pr-body", str(body))).stdout
    assert "PROMOTE" in out
    promoted = {p.name: p.read_text() for p in (repo / WIKI).glob("*.md")}
    assert set(promoted) >= {"auth.md", "deploy.md", "gateway.md"}
    assert "Refresh tokens in the gateway, never in the browser client #auth" in promoted["auth.md"]
    assert "Run the migration dry-run before every schema deploy #deploy" in promoted["deploy.md"]
    assert "Log the refresh error class, never the token itself #gateway" in promoted["gateway.md"]
    table = body.read_text()
    assert "| item | kind | score | recalls | source | reason |" in table and "<details>" in table
    assert "Run the migration dry-run" in table
    commit(repo, "tiergit: promote")
    changed = git(repo, "show", "--name-only", "--format=", "HEAD").stdout.split()
    assert COLD not in changed and f"{WIKI}/auth.md" in changed   # promotion copies; cold is untouched
    # The reviewer rejects one item by deleting its line in the PR, then merges.
    gateway = (repo / WIKI / "gateway.md").read_text()
    rejected_line = next(line for line in gateway.splitlines() if "Log the refresh error class" in line)
    rejected_id = rejected_line.rsplit("^", 1)[1]
    (repo / WIKI / "gateway.md").write_text(gateway.replace(rejected_line + "\n", ""))
    commit(repo, "review: drop the logging rule")
    git(repo, "switch", "-q", "main")
    merge = git(repo, "merge", "--no-ff", "--no-edit", "tiergit/promote")
    assert "tiergit: the merge changed" in merge.stdout + merge.stderr   # the post-merge hook reported

    sync = ok(tiergit_process(repo, "review", "sync", "--json"))
    assert "rejected" in sync.stdout
    events = [json.loads(line) for line in (repo / REVIEWS).read_text().splitlines()]
    assert {e["action"] for e in events if e["id"] == rejected_id} == {"proposed", "rejected"}
    assert any(e["action"] == "accepted" and "migration dry-run" in e["text"] for e in events)
    commit(repo, "tiergit: review sync")
    status = ok(tiergit_process(repo, "status")).stdout
    assert f"last on {today.isoformat()}" in status
    for path in (HOT, COLD, f"{WIKI}/auth.md", f"{WIKI}/deploy.md"):
        assert path in status
    assert "all within budget" in ok(tiergit_process(repo, "check")).stdout
    # The rejected item is never proposed again.
    again = json.loads(ok(tiergit_process(repo, "promote", "--json")).stdout)
    verdicts = {c["id"]: c for c in again["candidates"]}
    assert verdicts[rejected_id]["verdict"] == "reject" and "rejected" in verdicts[rejected_id]["reason"]

    # Two branches reword the same wiki item: a real conflict, kept inside its entry; committing
    # the markers is refused by the hook, a resolution goes through.
    auth = repo / WIKI / "auth.md"
    for branch, word in (("edit-a", "never"), ("edit-b", "not")):
        git(repo, "switch", "-q", "-c", branch, "main")
        auth.write_text(auth.read_text().replace("never in the browser", f"{word} ever in the browser"))
        commit(repo, f"wiki: {branch}")
    git(repo, "switch", "-q", "main")
    git(repo, "merge", "-q", "edit-a")
    conflict = git(repo, "merge", "edit-b", check=False)
    assert conflict.returncode == 1 and "CONFLICT" in conflict.stdout
    text = auth.read_text()
    assert text.count("<<<<<<<") == 1 and "never ever in the browser" in text and "not ever in the browser" in text
    git(repo, "add", "-A")
    refused = git(repo, "commit", "-q", "--no-edit", check=False)
    assert refused.returncode != 0 and "MRG001" in refused.stdout + refused.stderr
    resolved = re.sub(r"<<<<<<< ours\n(.*?)=======\n.*?>>>>>>> theirs\n", r"\1", text, flags=re.S)
    auth.write_text(resolved)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-edit")
    assert "<<<<<<<" not in git(repo, "show", "HEAD:" + f"{WIKI}/auth.md").stdout

    # Retention: the expired entries go to the archive; nothing is lost. (Cold keeps each
    # agent's newest `keep_last` sessions whatever their age; this team sets it to 0.)
    cfg = repo / ".tiergit.yml"
    cfg.write_text(cfg.read_text() + "tiers:\n  cold:\n    keep_last: 0\n")
    out = ok(tiergit_process(repo, "archive", "--apply")).stdout
    assert "expired entries archived" in out
    cold = (repo / COLD).read_text()
    assert "Pin MSAL" not in cold and "Gateway refresh retries" not in cold
    archived = "".join(p.read_text() for p in (repo / ".squad/memory/archive").rglob("*.md"))
    for text in ("Pin MSAL to 2.x", "Owner: token lifetime is 60 minutes", "Log the refresh error class"):
        assert text in archived
    commit(repo, "tiergit: archive")
    assert git(repo, "status", "--porcelain").stdout == ""
    hits = json.loads(ok(tiergit_process(repo, "recall", "MSAL broker cache", "--json", "--no-log")).stdout)["hits"]
    assert hits and hits[0]["path"].startswith(".squad/memory/archive/")

    # History and report read the resulting repository and show every tier.
    history = ok(tiergit_process(repo, "history")).stdout
    for word in ("hot bytes", "cold bytes", "wiki bytes", HOT, COLD, f"{WIKI}/auth.md", "tiergit: archive"):
        assert word in history
    report = tmp_path / "report.html"
    ok(tiergit_process(repo, "report", "--html", str(report)))
    html = report.read_text()
    for path in (HOT, COLD, f"{WIKI}/auth.md", f"{WIKI}/deploy.md", f"{WIKI}/gateway.md"):
        assert path in html
