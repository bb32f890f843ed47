"""The merge driver through real `git merge` in repos set up by `tiergit init` (driver + .gitattributes)."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from conftest import git, tiergit, write
from delivery_fixtures import squad_repo, squad_template  # noqa: F401

from tiergit.core import parse

CAPCOM = Path(__file__).parents[1] / "fixtures/squad/sdk-history.md"  # hand-written, shaped like a real history
COLD = ".squad/memory/cold/picard.md"
NO_HOOKS = {"TIERGIT": "0"}   # these tests are about merging, not about the pre-commit checks


def commit_all(repo: Path, message: str) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message, env=NO_HOOKS)


def branch_with(repo: Path, name: str, path: str, text: str, base: str = "main") -> None:
    git(repo, "checkout", "-q", "-b", name, base)
    write(repo / path, text)
    commit_all(repo, f"{name}: edit {path}")
    git(repo, "checkout", "-q", "main")


def merge(repo: Path, branch: str) -> subprocess.CompletedProcess:
    return git(repo, "merge", "--no-ff", "--no-edit", "-q", branch, check=False, env=NO_HOOKS)


def headings(text: str) -> list[str]:
    return re.findall(r"^#{1,6} .*$", text, flags=re.M)


def session_entry(title: str, day: str, body: str) -> str:
    return f"\n### {day}: {title}\n\n**Context:** {body}\n\n**Pattern:** {body} (pattern)\n"


def seeded(squad_repo: Path, text: str, path: str = COLD) -> str:
    write(squad_repo / path, text)
    commit_all(squad_repo, "seed memory")
    return text


def test_init_registers_the_driver_and_the_attribute(squad_repo):
    driver = git(squad_repo, "config", "merge.tiergit.driver").stdout.strip()
    assert " -I -S -c " in driver and "tiergit.mergeentry" in driver and driver.endswith(" %O %A %B %P")
    attr = git(squad_repo, "check-attr", "merge", "--", COLD).stdout
    assert attr.strip() == f"{COLD}: merge: tiergit"


def test_two_session_entries_and_a_pinned_edit_merge_cleanly(squad_repo):
    """Must show: two branches each add a session entry to the same cold file, a third edits
    a pinned section; real `git merge` of all three holds every change, with no conflict."""
    base = seeded(squad_repo, CAPCOM.read_text())
    branch_with(squad_repo, "session-a", COLD, base + session_entry("Retry budget", "2026-05-02", "alpha work"))
    branch_with(squad_repo, "session-b", COLD, base + session_entry("Token cache", "2026-05-01", "beta work"))
    pinned = base.replace("- **Role:** SDK Expert", "- **Role:** SDK Expert and release reviewer")
    assert pinned != base
    branch_with(squad_repo, "pinned-edit", COLD, pinned)
    for branch in ("session-a", "session-b", "pinned-edit"):
        done = merge(squad_repo, branch)
        assert done.returncode == 0, done.stdout + done.stderr
    merged = (squad_repo / COLD).read_text()
    assert "<<<<<<<" not in merged and ">>>>>>>" not in merged
    assert "- **Role:** SDK Expert and release reviewer" in merged
    # Both entries whole, in date order (the file is oldest-first at its end), nothing else lost.
    beta = session_entry("Token cache", "2026-05-01", "beta work").strip()
    alpha = session_entry("Retry budget", "2026-05-02", "alpha work").strip()
    assert beta in merged and alpha in merged
    assert merged.index(beta) < merged.index(alpha)
    assert headings(merged) == headings(base) + ["### 2026-05-01: Token cache", "### 2026-05-02: Retry budget"]
    assert git(squad_repo, "status", "--porcelain").stdout == ""
    assert len(git(squad_repo, "log", "--merges", "--format=%H").stdout.split()) == 3


def test_same_entry_edited_differently_conflicts_only_inside_that_entry(squad_repo):
    """Must show: two different edits of the same item conflict, with markers inside that entry only."""
    base = seeded(squad_repo, CAPCOM.read_text())
    old = "**Key insight:** Squad SDK does NOT contribute"
    assert old in base
    branch_with(squad_repo, "edit-a", COLD, base.replace(old, "**Key insight:** The SDK adapter does NOT contribute")
                + session_entry("Alpha session", "2026-05-03", "alpha"))
    branch_with(squad_repo, "edit-b", COLD, base.replace(old, "**Key insight:** Squad never contributes"))
    assert merge(squad_repo, "edit-a").returncode == 0
    done = merge(squad_repo, "edit-b")
    assert done.returncode == 1
    assert "conflict inside '2026-03-14: WSL Transient API Error Investigation (Issue #363)'" in done.stderr
    merged = (squad_repo / COLD).read_text()
    assert merged.count("<<<<<<< ours") == 1 and merged.count(">>>>>>> theirs") == 1
    start, end = merged.index("<<<<<<< ours"), merged.index(">>>>>>> theirs")
    conflict = merged[start:end]
    assert "The SDK adapter does NOT contribute" in conflict and "Squad never contributes" in conflict
    # The markers sit inside the entry: after its heading and before the next heading.
    entry_head = merged.index("### 2026-03-14: WSL Transient API Error Investigation")
    next_head = merged.index("\n## Core Context")
    assert entry_head < start < end < next_head
    # Only the changed paragraph is inside the markers; its neighbours are not.
    assert "**Investigation findings:**" not in conflict and "**Outcome:**" not in conflict
    # Everything else merged: the new entry from edit-a is there once, outside the markers.
    assert merged.count("### 2026-05-03: Alpha session") == 1 and merged.index("### 2026-05-03") > end
    assert git(squad_repo, "diff", "--name-only", "--diff-filter=U").stdout.split() == [COLD]


def test_union_interleaves_two_new_entries_tiergit_keeps_each_whole(squad_repo):
    """Squad's `merge=union` vs tiergit on a history shaped like a real one (Squad union-merges them).

    Two sessions each close the same note in the file's last entry and append their own
    entry. union keeps lines from both sides with no marker: it interleaves the two new
    entries (a line of one lands in the other) and hides the disagreement. tiergit keeps
    both entries whole and marks only the one paragraph both sides changed."""
    base_text = CAPCOM.read_text()
    last = base_text.rstrip("\n").rsplit("\n", 1)[1]
    assert last.startswith("📌 **Team update (2026-03-25T18:11Z):**")

    def session(closing: str, title: str, day: str, who: str) -> str:
        entry = f"\n### {day}: {title}\n\n**Context:** {who} session\n\n**Status:** closed\n"
        return base_text.replace(last, last + f" {closing}") + entry

    a = session("Filed as #901.", "Alpha findings", "2026-05-01", "alpha")
    b = session("Fixed upstream.", "Beta findings", "2026-05-02", "beta")
    outcomes = {}
    for driver in ("union", "tiergit"):
        repo = squad_repo.parent / f"cmp-{driver}"
        repo.mkdir()
        git(repo, "init", "-q", "-b", "main")
        assert tiergit(repo, "install").returncode == 0
        write(repo / ".gitattributes", f"*.md merge={driver}\n")
        write(repo / "history.md", base_text)
        commit_all(repo, "base")
        branch_with(repo, "a", "history.md", a)
        branch_with(repo, "b", "history.md", b)
        assert merge(repo, "a").returncode == 0
        outcomes[driver] = (merge(repo, "b").returncode, (repo / "history.md").read_text())
    alpha = "### 2026-05-01: Alpha findings\n\n**Context:** alpha session\n\n**Status:** closed\n"
    beta = "### 2026-05-02: Beta findings\n\n**Context:** beta session\n\n**Status:** closed\n"
    union_code, union = outcomes["union"]
    # union: "merged" silently, but the alpha entry lost its own Status line and carries
    # beta's version of the closing note instead.
    assert union_code == 0 and "<<<<<<<" not in union
    assert alpha not in union
    alpha_in_union = union[union.index("### 2026-05-01: Alpha findings"):union.index("### 2026-05-02")]
    assert "Fixed upstream." in alpha_in_union and "**Status:** closed" not in alpha_in_union
    # tiergit: each entry whole, in date order, after the original; only the note both
    # sides changed is marked, inside the entry that holds it.
    code, ours = outcomes["tiergit"]
    assert code == 1
    assert alpha in ours and beta in ours and ours.index(alpha) < ours.index(beta)
    conflict = ours[ours.index("<<<<<<< ours"):ours.index(">>>>>>> theirs")]
    assert "Filed as #901." in conflict and "Fixed upstream." in conflict and "###" not in conflict
    assert ours.index(">>>>>>> theirs") < ours.index(alpha)
    assert ours.startswith(base_text[:base_text.index(last)])


def test_two_promotions_appending_to_one_wiki_section_merge_cleanly(squad_repo):
    wiki = ".squad/memory/wiki/auth.md"
    base = seeded(squad_repo, "# Auth\n\n## Rules\n\n- [rule] Refresh tokens before expiry ^m-0000aaaa\n"
                  "\n## Decisions\n\n- [decision] Use MSAL for sign-in ^m-0000bbbb\n", wiki)
    a = base.replace("expiry ^m-0000aaaa\n", "expiry ^m-0000aaaa\n- [rule] Cache keys include the tenant ^m-1111aaaa\n")
    b = base.replace("expiry ^m-0000aaaa\n", "expiry ^m-0000aaaa\n- [rule] Never log tokens ^m-2222bbbb\n")
    branch_with(squad_repo, "promote-1", wiki, a)
    branch_with(squad_repo, "promote-2", wiki, b)
    assert merge(squad_repo, "promote-1").returncode == 0
    done = merge(squad_repo, "promote-2")
    assert done.returncode == 0, done.stderr
    merged = (squad_repo / wiki).read_text()
    assert merged == ("# Auth\n\n## Rules\n\n- [rule] Refresh tokens before expiry ^m-0000aaaa\n"
                      "- [rule] Cache keys include the tenant ^m-1111aaaa\n- [rule] Never log tokens ^m-2222bbbb\n"
                      "\n## Decisions\n\n- [decision] Use MSAL for sign-in ^m-0000bbbb\n")


def test_deleted_on_one_side_and_untouched_on_the_other_is_deleted(squad_repo):
    base = seeded(squad_repo, CAPCOM.read_text())
    doomed = base[base.index("### 2025-01-25: SDK Init"):]
    archived = base.replace(doomed, "")
    branch_with(squad_repo, "archive", COLD, archived)
    branch_with(squad_repo, "session", COLD, base.replace("## Core Context\n", "## Core Context\n\n- [fact] Hot is reset per session\n"))
    assert merge(squad_repo, "archive").returncode == 0
    assert merge(squad_repo, "session").returncode == 0
    merged = (squad_repo / COLD).read_text()
    assert "SDK Init Implementation Deep Dive" not in merged
    assert "- [fact] Hot is reset per session" in merged


def test_edited_on_one_side_deleted_on_the_other_is_kept(squad_repo):
    base = seeded(squad_repo, CAPCOM.read_text())
    entry = base[base.index("### 2025-01-25: SDK Init"):]
    branch_with(squad_repo, "archive", COLD, base.replace(entry, ""))
    branch_with(squad_repo, "edit", COLD, base.replace("**The fix path is clear**", "**The fix path is now clear**"))
    assert merge(squad_repo, "archive").returncode == 0
    done = merge(squad_repo, "edit")
    assert done.returncode == 0
    assert "edited on one side, deleted on the other" in done.stderr
    assert "**The fix path is now clear**" in (squad_repo / COLD).read_text()


def test_frontmatter_merges_key_by_key(squad_repo):
    base = seeded(squad_repo, "---\nagent: picard\nupdated: 2026-05-01\n---\n# Cold\n\n### 2026-05-01: one\n\n- x\n")
    branch_with(squad_repo, "a", COLD, base.replace("updated: 2026-05-01\n", "updated: 2026-05-01\nowner: ops\n"))
    branch_with(squad_repo, "b", COLD, base.replace("agent: picard\n", "agent: picard\nteam: core\n")
                .replace("- x\n", "- x\n- y\n"))
    assert merge(squad_repo, "a").returncode == 0
    assert merge(squad_repo, "b").returncode == 0
    doc = parse.parse((squad_repo / COLD).read_text())
    assert doc.metadata == {"agent": "picard", "updated": parse.heading_date("2026-05-01"), "owner": "ops", "team": "core"}
    assert "- x\n- y\n" in doc.render()


def test_unparseable_frontmatter_falls_back_to_a_line_merge(squad_repo):
    base = seeded(squad_repo, "---\nagent: picard\n---\n# Cold\n\n- one\n")
    branch_with(squad_repo, "broken", COLD, "---\nagent: [picard\n---\n# Cold\n\n- one\n- two\n")
    branch_with(squad_repo, "other", COLD, base.replace("- one\n", "- one\n- three\n"))
    assert merge(squad_repo, "broken").returncode == 0
    done = merge(squad_repo, "other")
    assert done.returncode == 1
    assert "invalid frontmatter" in done.stderr and "merged line by line" in done.stderr
    merged = (squad_repo / COLD).read_text()
    assert "- two" in merged and "- three" in merged and "<<<<<<< ours" in merged


def test_binary_content_keeps_ours_and_reports_a_conflict(squad_repo):
    base = seeded(squad_repo, "# Cold\n\n- one\n")
    branch_with(squad_repo, "bin", COLD, "# Cold\n\n- one\n\0\1binary")
    branch_with(squad_repo, "text", COLD, base + "- two\n")
    assert merge(squad_repo, "text").returncode == 0
    done = merge(squad_repo, "bin")
    assert done.returncode != 0
    assert "binary" in (done.stdout + done.stderr).lower()
    assert (squad_repo / COLD).read_text() == base + "- two\n"
    theirs = git(squad_repo, "show", f":3:{COLD}").stdout
    assert "binary" in theirs


def test_driver_quoting_survives_spaces_in_paths(squad_repo):
    path = ".squad/memory/cold/notes with spaces.md"
    base = seeded(squad_repo, "# Cold\n\n### 2026-05-01: one\n\n- x\n", path)
    branch_with(squad_repo, "a", path, base + "\n### 2026-05-02: two\n\n- y\n")
    branch_with(squad_repo, "b", path, base + "\n### 2026-05-03: three\n\n- z\n")
    assert merge(squad_repo, "a").returncode == 0
    done = merge(squad_repo, "b")
    assert done.returncode == 0, done.stderr
    assert headings((squad_repo / path).read_text()) == ["# Cold", "### 2026-05-01: one", "### 2026-05-02: two",
                                                        "### 2026-05-03: three"]


def test_driver_command_json_and_exit_codes(tmp_path):
    files = {name: tmp_path / name for name in ("O", "A", "B")}
    files["O"].write_text("# T\n\n### 2026-05-01: e\n\n**Fact:** old\n")
    files["A"].write_text("# T\n\n### 2026-05-01: e\n\n**Fact:** ours\n")
    files["B"].write_text("# T\n\n### 2026-05-01: e\n\n**Fact:** theirs\n")
    proc = subprocess.run([sys.executable, "-m", "tiergit", "merge-driver", *map(str, files.values()), "x.md",
                           "--json"], capture_output=True, text=True)
    assert proc.returncode == 1, proc.stderr
    assert '"conflicts": 1' in proc.stdout and "2026-05-01: e" in proc.stdout
    assert files["A"].read_text() == ("# T\n\n### 2026-05-01: e\n\n<<<<<<< ours\n**Fact:** ours\n=======\n"
                                      "**Fact:** theirs\n>>>>>>> theirs\n")
    help_text = subprocess.run([sys.executable, "-m", "tiergit", "merge-driver", "--help"],
                               capture_output=True, text=True).stdout
    assert "Example" in help_text and "%O %A %B %P" in help_text


def test_driver_quoting_survives_spaces_in_the_interpreter_path(squad_repo, tmp_path):
    """install.driver_command quotes the interpreter: a python under a folder with spaces works."""
    from tiergit.features import install

    wrapper = tmp_path / "tools with spaces" / "python"
    wrapper.parent.mkdir()
    wrapper.write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n')
    wrapper.chmod(0o755)
    git(squad_repo, "config", "merge.tiergit.driver", install.driver_command(str(wrapper)))
    base = seeded(squad_repo, "# Cold\n\n### 2026-05-01: one\n\n- x\n")
    branch_with(squad_repo, "a", COLD, base + "\n### 2026-05-02: two\n\n- y\n")
    branch_with(squad_repo, "b", COLD, base + "\n### 2026-05-03: three\n\n- z\n")
    assert merge(squad_repo, "a").returncode == 0
    done = merge(squad_repo, "b")
    assert done.returncode == 0, done.stderr
    assert headings((squad_repo / COLD).read_text())[-2:] == ["### 2026-05-02: two", "### 2026-05-03: three"]
