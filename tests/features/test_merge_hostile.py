"""Merge driver cases that used to lose, duplicate or wedge (issue 11, item 7), each through
a real `git merge` with the driver installed by `tiergit init`: a renamed heading against an
append, repeated headings, delete versus edit, entries named by their session marker, the
hot file's derived `body:` hash, and the size cap's line-merge fallback."""
from __future__ import annotations

from pathlib import Path

from conftest import commit, git, ok, tiergit, write

from tiergit.core import hotfile, mergederived, parse
from tiergit.core.merge import merge_texts
from tiergit.features import driverrun

COLD = ".squad/memory/cold/picard.md"
BASE = ("# Cold memory · picard\n\n"
        "### 2026-05-01: fix cache\n\n- [fact] tokens expire after ten minutes\n- [rule] refresh early\n\n"
        "### 2026-05-02: deploy\n\n- [decision] ship on Tuesdays\n")


def branches(repo: Path, rel: str, base: str, ours: str, theirs: str) -> tuple[str, int]:
    """Commit base on main, ours on main, theirs on a branch; merge it; (merged text, exit)."""
    write(repo / rel, base)
    commit(repo, "base")
    git(repo, "checkout", "-q", "-b", "theirs")
    write(repo / rel, theirs)
    commit(repo, "theirs")
    git(repo, "checkout", "-q", "main")
    write(repo / rel, ours)
    commit(repo, "ours")
    done = git(repo, "merge", "--no-edit", "-q", "theirs", check=False)
    return (repo / rel).read_text(), done.returncode


def test_renamed_heading_and_an_append_merge_into_one_entry(squad_repo):
    ours = BASE.replace("### 2026-05-01: fix cache", "### 2026-05-01: fix token cache expiry")
    theirs = BASE.replace("- [rule] refresh early\n", "- [rule] refresh early\n- [fact] clock skew is 30 s\n")
    merged, code = branches(squad_repo, COLD, BASE, ours, theirs)
    assert code == 0, merged
    assert merged.count("2026-05-01") == 1 and "### 2026-05-01: fix token cache expiry" in merged
    assert merged.count("tokens expire after ten minutes") == 1 and "clock skew is 30 s" in merged


def test_an_entry_inserted_before_its_namesake_does_not_shift_the_match(squad_repo):
    base = "# Cold\n\n### 2026-05-01: sync\n\n- [fact] old a\n- [fact] old b\n"
    ours = "# Cold\n\n### 2026-05-01: sync\n\n- [fact] second session\n\n" + base[len("# Cold\n\n"):]
    theirs = base.replace("- [fact] old b\n", "- [fact] old b\n- [fact] old c\n")
    merged, code = branches(squad_repo, COLD, base, ours, theirs)
    assert code == 0, merged
    assert merged.count("### 2026-05-01: sync") == 2
    for line in ("second session", "old a", "old b", "old c"):
        assert merged.count(line) == 1, line


def test_same_heading_added_on_both_sides_keeps_both_once():
    base = "# Cold\n\n### 2026-05-01: sync\n\n- a\n"
    ours, theirs = base + "\n### 2026-05-01: sync\n\n- ours\n", base + "\n### 2026-05-01: sync\n\n- theirs\n"
    result = merge_texts(base, ours, theirs)
    assert result.conflicts == 0 and result.text.count("### 2026-05-01: sync") == 3
    assert all(result.text.count(f"- {x}\n") == 1 for x in ("a", "ours", "theirs"))


def test_entries_named_by_session_marker_match_whatever_their_heading():
    base = "# Cold\n\n### 2026-05-01 · cache\n<!-- s-123456789 -->\n\n- [fact] one\n"
    ours = base.replace("### 2026-05-01 · cache", "### 2026-05-01 · token cache (renamed, edited)") + "- [fact] two\n"
    theirs = base + "- [fact] three\n"
    result = merge_texts(base, ours, theirs)
    assert result.conflicts == 0 and result.text.count("s-123456789") == 1
    assert "token cache (renamed, edited)" in result.text and "- [fact] two" in result.text and "three" in result.text


def test_deleted_on_one_side_edited_on_the_other_keeps_the_edit(squad_repo):
    ours = BASE.replace("### 2026-05-02: deploy\n\n- [decision] ship on Tuesdays\n", "").rstrip("\n") + "\n"
    theirs = BASE.replace("ship on Tuesdays", "ship on Tuesdays, not before noon")
    merged, code = branches(squad_repo, COLD, BASE, ours, theirs)
    assert code == 0 and "ship on Tuesdays, not before noon" in merged and merged.count("2026-05-02") == 1


def test_hot_body_hash_is_recomputed_and_the_next_session_starts(squad_repo):
    """Both branches end the same session carrying different open items over: the
    `body:` hash used to conflict, and keeping either side's wedged `session start`."""
    hot = squad_repo / ".squad/memory/hot/picard.md"
    ok(tiergit(squad_repo, "session", "start", "--agent", "picard", "--task", "cache work"))
    hot.write_text(hot.read_text().replace("## Blockers\n", "## Blockers\n- [blocker] waiting for the API key\n"))
    commit(squad_repo, "session")
    git(squad_repo, "checkout", "-q", "-b", "theirs")
    hot.write_text(hot.read_text().replace("## Blockers\n", "## Blockers\n- [blocker] staging is down\n"))
    ok(tiergit(squad_repo, "session", "end", "--agent", "picard"))
    commit(squad_repo, "theirs ends")
    git(squad_repo, "checkout", "-q", "main")
    hot.write_text(hot.read_text().replace("## Blockers\n", "## Blockers\n- [todo] rotate the signing key\n"))
    ok(tiergit(squad_repo, "session", "end", "--agent", "picard"))
    commit(squad_repo, "ours ends")
    done = git(squad_repo, "merge", "--no-edit", "-q", "theirs", check=False)
    text = hot.read_text()
    assert "<<<<<<<" not in text.split("\n---\n", 1)[0], text   # no conflict in the frontmatter
    body = text.split("\n---\n", 1)[1]
    for item in ("waiting for the API key", "staging is down", "rotate the signing key"):
        assert item in body
    assert done.returncode == 0, done.stdout + done.stderr + text
    assert f"body: {hotfile.body_hash(body)}" in text
    started = tiergit(squad_repo, "session", "start", "--agent", "picard", "--task", "next")
    assert started.returncode == 0, started.stderr


def test_a_clean_hot_merge_gets_the_merged_bodys_hash_an_unfinished_one_does_not():
    def hot(body: str, stored: str | None = None) -> str:
        return f"---\ntiergit:\n  agent: picard\n  body: {stored or hotfile.body_hash(body)}\n---\n{body}"
    base_body = "# Hot\n\n## Blockers\n- [blocker] a\n"
    ours_body, theirs_body = base_body + "- [blocker] b\n", base_body + "- [blocker] c\n"
    clean = merge_texts(hot(base_body), hot(ours_body), hot(theirs_body))
    assert clean.conflicts == 0
    merged_body = clean.text.split("---\n", 2)[2]
    assert f"body: {hotfile.body_hash(merged_body)}" in clean.text
    unfinished = merge_texts(hot(base_body), hot(ours_body, stored="aaaaaaaaaaaa"), hot(theirs_body))
    assert unfinished.conflicts == 0 and "body: aaaaaaaaaaaa" in unfinished.text
    assert mergederived.body_hash("x") == hotfile.body_hash("x")


def test_a_file_over_the_size_cap_is_merged_line_by_line(tmp_path, monkeypatch):
    from tiergit.core import merge

    monkeypatch.setattr(merge, "MAX_MERGE_BYTES", 100)
    base, ours, theirs = (tmp_path / n for n in ("O", "A", "B"))
    base.write_text(BASE)
    ours.write_text(BASE + "\n### 2026-05-03: ours\n\n- o\n")
    theirs.write_text(BASE.replace("# Cold memory", "# Cold notes"))
    outcome = driverrun.run_driver(base, ours, theirs, "cold.md")
    assert outcome["fallback"] and "entry-merge cap" in outcome["notes"][0]
    assert ours.read_text() == BASE.replace("# Cold memory", "# Cold notes") + "\n### 2026-05-03: ours\n\n- o\n"


def test_two_sessions_started_on_both_sides_conflict_and_picking_theirs_is_consistent():
    """The session keys really differ (two sessions), so they conflict; both alternatives
    carry the recomputed body hash, so keeping either never wedges `session start`."""
    def hot(body: str, task: str) -> str:
        return (f"---\ntiergit:\n  agent: picard\n  session: s-{abs(hash(task)) % 10**9:09d}\n  task: {task}\n"
                f"  body: {hotfile.body_hash(body)}\n---\n{body}")
    base_body = "# Hot\n\n## Current task\nsee frontmatter\n\n## Blockers\n"
    theirs_body = base_body + "- [blocker] staging is down\n"
    result = merge_texts(hot(base_body, "old"), hot(base_body, "alpha"), hot(theirs_body, "beta"))
    assert result.conflicts == 1 and result.conflict_sections == ["the frontmatter"]
    front, body = result.text[4:].split("\n---\n", 1)
    assert body == theirs_body
    theirs_block = front.split("=======\n", 1)[1].split(">>>>>>> theirs", 1)[0]
    ours_block = front.split("<<<<<<< ours\n", 1)[1].split("=======\n", 1)[0]
    for block in (ours_block, theirs_block):
        assert f"body: {hotfile.body_hash(body)}" in block
    resolved = "---\n" + front.split("<<<<<<< ours\n", 1)[0] + theirs_block + "---\n" + body
    meta = parse.parse(resolved).metadata["tiergit"]
    assert meta["task"] == "beta" and meta["body"] == hotfile.body_hash(body)   # not "unfinished"
