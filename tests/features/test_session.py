"""`tiergit session start|end`: hot from template, compaction into cold, safety (real CLI, real git)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import git, tiergit, write
from session_helpers import squad_store  # noqa: F401

from tiergit.core import hotfile, parse
from tiergit.features import session
from tiergit.shell import config

HOT = ".squad/memory/hot/picard.md"
COLD = ".squad/memory/cold/picard.md"

NOTES = {
    "## Active decisions\n": "## Active decisions\n- Cache tokens per blob id, not per path: renames keep their counts.\n",
    "## Last actions\n": ("## Last actions\n- Ran the hook benchmark: 0.12 s median on 200 files.\n"
                         "- Traced the stale count to the cache key using the path.\n"
                         "- Read tokens.py and budget.py end to end.\n"),
    "## Blockers\n": "## Blockers\n- Waiting on the CI runner image with git 2.45.\n- [ ] Add a test for renamed files\n",
}
EXTRA = """
## Notes
- [correction] Never call the network from a hook, not even for tiktoken.
- **Root cause:** the cache key was the path, so a rename kept the old count.
- [permission] Allowed to force-push the feature branch.
- [rule] Key caches by content hash.
- [log] ran pytest 40 times

```
$ pytest -q
.......... 10 passed in 0.41s
```

User: can you also check the merge driver?
Assistant: yes, after this.
"""
VERBATIM = [
    "- [decision] Cache tokens per blob id, not per path: renames keep their counts.",
    "- [blocker] Waiting on the CI runner image with git 2.45.",
    "- [ ] Add a test for renamed files",
    "- [correction] Never call the network from a hook, not even for tiktoken.",
    "- **Root cause:** the cache key was the path, so a rename kept the old count.",
    "- [permission] Allowed to force-push the feature branch.",
    "- [rule] Key caches by content hash.",
]


def start(repo: Path, *args: str):
    return tiergit(repo, "session", "start", "--agent", "picard", *args)


def begin(repo: Path, task: str) -> None:
    """Set-up step: start a session in-process (the CLI path has its own tests)."""
    session.start(config.load(repo), "picard", task)


def fill_hot(repo: Path, extra: str = EXTRA) -> str:
    path = repo / HOT
    text = path.read_text()
    for old, new in NOTES.items():
        assert old in text
        text = text.replace(old, new)
    text += extra
    path.write_text(text)
    return text


def test_start_writes_hot_from_template_with_session_frontmatter(squad_repo: Path) -> None:
    proc = start(squad_repo, "--task", "Fix token cache expiry")
    assert proc.returncode == 0, proc.stderr
    assert "session start picard" in proc.stdout and HOT in proc.stdout
    text = (squad_repo / HOT).read_text()
    doc = parse.parse(text, HOT)
    assert doc.metadata["tiergit"]["agent"] == "picard"
    assert doc.metadata["tiergit"]["task"] == "Fix token cache expiry"
    assert doc.metadata["tiergit"]["session"].startswith("s-")
    assert "started" in doc.metadata["tiergit"]
    headings = [s.heading for s in doc.sections if s.heading]
    for section in ("Current task", "Active decisions", "Last actions", "Blockers", "Talking to"):
        assert section in headings
    assert "Fix token cache expiry" in text
    # The hook accepts what session start writes.
    git(squad_repo, "add", HOT)
    git(squad_repo, "commit", "-q", "-m", "start session")


def test_start_over_unfinished_session_is_an_error_unless_force(squad_store: Path) -> None:
    assert start(squad_store, "--task", "First").returncode == 0
    before = fill_hot(squad_store)
    proc = start(squad_store, "--task", "Second")
    assert proc.returncode == 2
    assert "unfinished session" in proc.stderr and HOT in proc.stderr and "--force" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert (squad_store / HOT).read_text() == before
    assert not (squad_store / COLD).exists()
    # --force ends the unfinished session into cold first: nothing is lost.
    proc = start(squad_store, "--task", "Second", "--force")
    assert proc.returncode == 0, proc.stderr
    cold = (squad_store / COLD).read_text()
    assert "· First" in cold
    for line in VERBATIM:
        assert line in cold
    hot = (squad_store / HOT).read_text()
    assert "Second" in hot and "- [ ] Add a test for renamed files" in hot


def test_start_again_over_an_untouched_session_is_fine(squad_store: Path) -> None:
    assert start(squad_store, "--task", "First").returncode == 0
    assert start(squad_store, "--task", "Second").returncode == 0
    assert "Second" in (squad_store / HOT).read_text()


def test_end_keeps_never_compress_items_verbatim_condenses_and_drops_logs(squad_repo: Path) -> None:
    begin(squad_repo, "Fix token cache expiry")
    fill_hot(squad_repo)
    proc = tiergit(squad_repo, "session", "end", "--agent", "picard")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "kept       9 item(s) verbatim" in out       # the 7 below and the two specific last actions
    assert "condensed  1 item(s) into 1 line(s)" in out
    assert "dropped    3 item(s)" in out
    assert "tokens" in out and "% )" not in out and "kept (" in out
    cold = (squad_repo / COLD).read_text()
    doc = parse.parse(cold, COLD)
    assert len(doc.entries) == 1
    entry = doc.entries[0]
    assert entry.heading.endswith("· Fix token cache expiry")
    for line in VERBATIM:
        assert line in entry.text
    # Kinds given by a hot section survive as explicit prefixes.
    kinds = {i.clean: i.kind for i in entry.items}
    assert kinds["Cache tokens per blob id, not per path: renames keep their counts."] == "decision"
    assert kinds["Waiting on the CI runner image with git 2.45."] == "open"
    # Last actions: the ones with specifics verbatim, the bare activity report condensed.
    assert "- Ran the hook benchmark: 0.12 s median on 200 files." in entry.text
    assert "- Read tokens.py and budget.py end to end." in entry.text
    assert "- Last actions: Traced the stale count" in entry.text
    for dropped in ("pytest -q", "10 passed", "User:", "Assistant:", "ran pytest 40 times"):
        assert dropped not in cold
    # hot is reset: template again, open items carried, no session id (the next start or end
    # names it, so two branches' resets are the same file), within budget.
    hot = parse.parse((squad_repo / HOT).read_text(), HOT)
    assert "started" not in hot.metadata["tiergit"] and "session" not in hot.metadata["tiergit"]
    texts = [i.text.strip() for i in hot.items]
    assert texts == ["- [blocker] Waiting on the CI runner image with git 2.45.", "- [ ] Add a test for renamed files"]
    git(squad_repo, "add", "-A")
    git(squad_repo, "commit", "-q", "-m", "session end")   # the pre-commit hook accepts both files


def test_end_json_and_no_duplicates_in_cold(squad_store: Path) -> None:
    begin(squad_store, "One")
    fill_hot(squad_store)
    first = json.loads(tiergit(squad_store, "session", "end", "--agent", "picard", "--json").stdout)
    assert first["entry_written"] and first["kept"] == 9 and 0 < first["ratio"] < 1
    assert first["tokens_kept"] < first["tokens_in"]
    # Same notes again in the next session: every item is already in cold.
    begin(squad_store, "Two")
    (squad_store / HOT).write_text((squad_store / HOT).read_text() + EXTRA)
    second = json.loads(tiergit(squad_store, "session", "end", "--agent", "picard", "--json").stdout)
    assert second["kept"] == 0 and second["duplicates"] >= 5
    cold = (squad_store / COLD).read_text()
    assert cold.count("[correction] Never call the network") == 1
    assert cold.count("[blocker] Waiting on the CI runner") == 1


def test_start_carries_open_items_from_last_cold_entry_when_hot_is_gone(squad_store: Path) -> None:
    begin(squad_store, "One")
    fill_hot(squad_store)
    assert tiergit(squad_store, "session", "end", "--agent", "picard").returncode == 0
    (squad_store / HOT).unlink()
    proc = start(squad_store, "--task", "Two")
    assert proc.returncode == 0 and "carried    2 open item(s)" in proc.stdout
    hot = (squad_store / HOT).read_text()
    assert "- [blocker] Waiting on the CI runner image with git 2.45." in hot
    assert "- [ ] Add a test for renamed files" in hot


def test_bad_hot_input_is_a_clear_error_and_nothing_changes(squad_store: Path) -> None:
    assert tiergit(squad_store, "session", "end", "--agent", "picard").returncode == 2   # no hot file
    write(squad_store / COLD, "# Cold\n\n### 2026-01-01 · old\n- [rule] keep me\n")
    cold_before = (squad_store / COLD).read_text()
    for text, needle in (("", "empty"), ("   \n\n", "empty"),
                         ("---\ntiergit: [unclosed\n---\n# Hot\n- [decision] x\n", "invalid frontmatter"),
                         ("---\ntiergit: {agent: picard\n# Hot\n", "frontmatter"),
                         ("---\ntiergit: 5\n---\n# Hot\n- [decision] y\n", "must be a mapping")):
        (squad_store / HOT).write_text(text)
        proc = tiergit(squad_store, "session", "end", "--agent", "picard")
        assert proc.returncode == 2, (text, proc.stdout)
        assert needle in proc.stderr and HOT in proc.stderr
        assert "Traceback" not in proc.stderr
        assert (squad_store / HOT).read_text() == text
        assert (squad_store / COLD).read_text() == cold_before
    proc = tiergit(squad_store, "session", "end", "--agent", "picard", "--notes", "missing.md")
    assert proc.returncode == 2 and "missing.md: cannot read notes file" in proc.stderr
    proc = start(squad_store, "--agent", "../etc")
    assert proc.returncode == 2 and "invalid agent name" in proc.stderr


def test_crash_between_cold_write_and_hot_reset_does_not_duplicate(squad_store: Path) -> None:
    begin(squad_store, "Crashy")
    fill_hot(squad_store)
    hot_before = (squad_store / HOT).read_text()
    cfg = config.load(squad_store)
    planned = session.plan_end(cfg, "picard")
    assert [c.path for c in planned.plan.changes] == [COLD, HOT]   # cold is written first
    # What a crash after the first write leaves behind: the entry in cold, hot untouched.
    cold_change = planned.plan.changes[0]
    (squad_store / COLD).parent.mkdir(parents=True, exist_ok=True)
    (squad_store / COLD).write_text(cold_change.new)
    assert (squad_store / HOT).read_text() == hot_before
    proc = tiergit(squad_store, "session", "end", "--agent", "picard")
    assert proc.returncode == 0, proc.stderr
    assert "already in" in proc.stdout
    cold = (squad_store / COLD).read_text()
    assert cold == cold_change.new
    assert len(parse.parse(cold, COLD).entries) == 1
    assert "Crashy" not in (squad_store / HOT).read_text()


@pytest.mark.e2e
def test_two_concurrent_session_ends_serialize_and_write_two_entries(squad_store: Path, tmp_path: Path) -> None:
    import subprocess
    import sys

    begin(squad_store, "Parallel")
    notes = []
    for n in range(2):
        notes.append(write(tmp_path / f"notes{n}.md",
                           f"## Scribe notes {n}\n- [decision] Decision number {n} from the scribe.\n"
                           + "".join(f"- context line {k} of run {n} about the parser.\n" for k in range(30))))
    procs = [subprocess.Popen([sys.executable, "-m", "tiergit", "session", "end", "--agent", "picard",
                               "--notes", str(path), "--json"], cwd=squad_store,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for path in notes]
    results = [p.communicate(timeout=60) for p in procs]
    assert all(p.returncode == 0 for p in procs), [r[1] for r in results]
    reports = [json.loads(out) for out, _ in results]
    assert all(r["entry_written"] for r in reports)
    assert reports[0]["session"] != reports[1]["session"]
    cold = (squad_store / COLD).read_text()
    doc = parse.parse(cold, COLD)
    assert len(doc.entries) == 2
    assert cold.count("- [decision] Decision number 0 from the scribe.") == 1
    assert cold.count("- [decision] Decision number 1 from the scribe.") == 1
    assert sorted(hotfile.MARKER_RE.findall(cold)) == sorted(r["session"] for r in reports)
    assert not list((squad_store / HOT).parent.glob(".*.tmp"))


def test_store_template_overrides_the_packaged_one(squad_store: Path) -> None:
    write(squad_store / ".squad/memory/templates/hot.md",
          "# {agent} — working memory\n\n## Current task\n{task}\n\n## Blockers\n{open_items}\n")
    assert start(squad_store, "--task", "Custom").returncode == 0
    text = (squad_store / HOT).read_text()
    assert "# picard — working memory" in text and "Talking to" not in text


def test_openclaw_hot_without_agent_placeholder_compacts_into_warm(repo: Path) -> None:
    assert tiergit(repo, "init", "--preset", "openclaw").returncode == 0
    proc = tiergit(repo, "session", "start", "--task", "Tidy the daily notes")
    assert proc.returncode == 0, proc.stderr
    hot = repo / ".tiergit/hot/MEMORY.md"
    hot.write_text(hot.read_text() + "\n## Notes\n- [decision] Daily notes stay raw.\n")
    proc = tiergit(repo, "session", "end", "--json")
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["cold"] == ".tiergit/warm/MEMORY.md"
    assert "- [decision] Daily notes stay raw." in (repo / ".tiergit/warm/MEMORY.md").read_text()
    assert not (repo / "MEMORY.md").exists()   # the reviewed tier is never written by a session


def test_template_only_session_writes_no_entry(squad_store: Path) -> None:
    assert start(squad_store, "--task", "Nothing happened").returncode == 0
    proc = tiergit(squad_store, "session", "end", "--agent", "picard")
    assert proc.returncode == 0, proc.stderr
    assert "nothing new to keep" in proc.stdout
    assert not (squad_store / COLD).exists()


def test_entry_marker_is_short_and_an_old_style_marker_still_makes_a_rerun_idempotent(squad_store: Path) -> None:
    begin(squad_store, "Old marker")
    fill_hot(squad_store)
    cfg = config.load(squad_store)
    planned = session.plan_end(cfg, "picard")
    entry = planned.report["entry"]
    sid = planned.report["session"]
    assert entry.splitlines()[1] == f"<!-- {sid} -->" and hotfile.SESSION_ID_RE.match(sid)
    # A cold file written before the marker was shortened: `<!-- tiergit:session s-<hex> -->`.
    hot = (squad_store / HOT).read_text().replace(f"session: {sid}", "session: s-d3b0a583")
    (squad_store / HOT).write_text(hot)
    old_entry = entry.replace(f"<!-- {sid} -->", "<!-- tiergit:session s-d3b0a583 -->")
    write(squad_store / COLD, "# Cold memory · picard\n\n" + old_entry)
    assert hotfile.MARKER_RE.findall((squad_store / COLD).read_text()) == ["s-d3b0a583"]
    proc = tiergit(squad_store, "session", "end", "--agent", "picard")
    assert proc.returncode == 0, proc.stderr
    assert "already in" in proc.stdout
    assert (squad_store / COLD).read_text() == "# Cold memory · picard\n\n" + old_entry


def test_a_new_session_id_is_never_one_cold_already_holds(squad_store: Path, monkeypatch) -> None:
    # The id's digits are random; force the first draw to collide with an entry in cold.
    write(squad_store / COLD, "# Cold memory · picard\n\n### 2026-01-01 · old\n<!-- s-000000007 -->\n\n- [rule] keep me\n")
    draws = iter([7, 7, 8])
    monkeypatch.setattr(session.secrets, "randbelow", lambda n: next(draws))
    result = session.start(config.load(squad_store), "picard", "Fresh")
    assert result.report["session"] == "s-000000008"


def test_a_session_without_start_has_a_content_id_so_a_rerun_after_a_crash_writes_once(squad_store: Path) -> None:
    begin(squad_store, "First")
    fill_hot(squad_store)
    assert tiergit(squad_store, "session", "end", "--agent", "picard").returncode == 0
    # The agent writes into the reset hot file without `session start`, and end crashes after cold.
    (squad_store / HOT).write_text((squad_store / HOT).read_text() + "\n- [decision] Keep the reset file id-free.\n")
    planned = session.plan_end(config.load(squad_store), "picard")
    assert planned.report["session"] == session.plan_end(config.load(squad_store), "picard").report["session"]
    (squad_store / COLD).write_text(planned.plan.changes[0].new)
    proc = tiergit(squad_store, "session", "end", "--agent", "picard")
    assert proc.returncode == 0 and "already in" in proc.stdout, proc.stdout
    assert (squad_store / COLD).read_text().count("Keep the reset file id-free.") == 1
