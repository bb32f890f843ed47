"""Each shared fact has one home: the date (clock), the state folder (statedir), the packaged
templates (resources) and the shared patterns (patterns). In-process and fast, plus one
source scan that fails when a second definition creeps back in."""
from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import pytest
from conftest import git, write

from tiergit.core import patterns
from tiergit.features import checks
from tiergit.shell import clock, resources, statedir
from tiergit.shell.store import Store

PACKAGE = Path(__file__).resolve().parents[2] / "tiergit"


# -- clock ---------------------------------------------------------------------------------

def test_today_honours_the_pin_and_ignores_a_malformed_one(monkeypatch) -> None:
    monkeypatch.setenv("TIERGIT_TODAY", "2031-02-03")
    assert clock.today() == date(2031, 2, 3)
    monkeypatch.setenv("TIERGIT_TODAY", "03/02/2031")
    assert clock.today() != date(2031, 2, 3) and isinstance(clock.today(), date)
    monkeypatch.delenv("TIERGIT_TODAY")
    assert clock.today().year >= 2024


def test_the_spawn_prompt_date_follows_the_pin(squad_repo: Path, monkeypatch) -> None:
    """context used date.today() before: the prompt's `Date:` ignored TIERGIT_TODAY."""
    from tiergit.features import context

    write(squad_repo / ".squad/memory/hot/picard.md", "# picard\n\n- [decision] use the staging DB\n")
    monkeypatch.setenv("TIERGIT_TODAY", "2030-07-14")
    spawn = context.build(Store.open(squad_repo), "picard", task="ship it")
    assert "Date: 2030-07-14." in spawn.prompt


# -- statedir ------------------------------------------------------------------------------

def test_state_dir_agrees_with_and_without_a_git_process(repo: Path) -> None:
    assert statedir.state_dir(repo) == (repo / ".git" / "tiergit").resolve()
    assert statedir.near(repo / "any" / "file.md") == repo / ".git" / "tiergit"
    assert statedir.local(repo) == repo / ".git" / "tiergit"


def test_state_dir_of_a_linked_worktree_is_its_own(repo: Path, tmp_path: Path) -> None:
    linked = tmp_path / "linked"
    git(repo, "worktree", "add", "-q", "-b", "side", str(linked))
    own = statedir.state_dir(linked)
    assert own != statedir.state_dir(repo) and own.parent.name == "linked"
    assert statedir.near(linked / "x.md") == own


def test_outside_git_one_fallback_folder(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    assert statedir.near(plain / ".tiergit.yml") is None   # pytest's tmp folders are outside any repo
    assert statedir.local(plain) == plain / statedir.FALLBACK_NAME


def test_the_store_lock_and_journal_live_in_the_state_dir(repo: Path) -> None:
    from tiergit.shell import fsutil, journal

    assert fsutil.store_lock_path(repo).parent.parent == statedir.local(repo)
    assert journal.journal_path(repo).parent == statedir.local(repo)


# -- resources -----------------------------------------------------------------------------

@pytest.mark.parametrize("parts", [("presets", "squad.yml"), ("store", "spawn.md"), ("hooks", "pre-commit"),
                                   ("action", "action.yml"), ("org", "tiergit-reusable.yml")])
def test_packaged_templates_read_through_importlib_resources(parts: tuple[str, ...]) -> None:
    assert resources.read(*parts) == PACKAGE.joinpath("templates", *parts).read_text(encoding="utf-8")


# -- patterns ------------------------------------------------------------------------------

BLOCK = f"{patterns.MANAGED_BEGIN}\n- promote `m-1`\n{patterns.MANAGED_END}\n"


def test_splice_appends_replaces_and_removes_the_managed_listing() -> None:
    assert patterns.splice_managed("", BLOCK) == BLOCK
    assert patterns.splice_managed("# staging\n", BLOCK) == "# staging\n\n" + BLOCK
    assert patterns.splice_managed("# staging", BLOCK) == "# staging\n\n" + BLOCK
    text = "# staging\n\n" + BLOCK.replace("m-1", "m-old") + "\n- [fact] kept\n"
    new = patterns.splice_managed(text, BLOCK)
    assert new == "# staging\n\n" + BLOCK + "- [fact] kept\n" and "m-old" not in new
    # removing keeps everything around the listing byte for byte (the staging file's own text)
    assert patterns.splice_managed(text, None) == "# staging\n\n" + "\n\n- [fact] kept\n"
    assert patterns.splice_managed("no listing\n", None) == "no listing\n"


def test_managed_lines_are_the_listing_with_its_markers() -> None:
    text = "# staging\n\n" + BLOCK + "- after\n"
    assert list(patterns.managed_lines(text)) == [3, 4, 5]
    assert list(patterns.managed_lines("# nothing\n")) == []


def test_a_setext_underline_is_no_conflict_but_a_log_skips_it() -> None:
    text = "Title\n=======\n\n<<<<<<< ours\n- a\n=======\n- b\n>>>>>>> theirs\n"
    assert checks.conflict_lines(text) == [4, 8]          # `=======` alone may be a heading
    assert [n for n, ln in enumerate(text.splitlines(), 1) if patterns.is_conflict_line(ln)] == [2, 4, 6, 8]


def test_transcript_patterns_differ_on_purpose() -> None:
    assert patterns.TRANSCRIPT_LINE_RE.match("**User:** hi")
    assert not patterns.TRANSCRIPT_LINE_RE.match("as the User: said")
    assert patterns.TRANSCRIPT_ANYWHERE_RE.search("as the User: said")
    assert patterns.TRANSCRIPT_OPENING_RE.match("> bot: hello") and not patterns.TRANSCRIPT_LINE_RE.match("> bot: hello")


# -- no second definition ------------------------------------------------------------------

SECOND_HOMES = {
    r"\bdate\.today\(\)|\btoday_utc\b|datetime\.now\(": "clock.py",
    r"__file__": None,
    r'/ "tiergit"(?! *$)|git_dir\([^)]*\) / "tiergit"|/ "tiergit" /': "statedir.py",
    r'"<<<<<<<"': "patterns.py",
    r"MANAGED_(?:BEGIN|END) = ": "patterns.py",
    r"TRANSCRIPT\w* = re\.compile": "patterns.py",
}


def test_no_shared_fact_is_defined_twice() -> None:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for pattern, home in SECOND_HOMES.items():
                if re.search(pattern, line) and path.name != home and '".cache"' not in line:
                    found.append(f"{path.relative_to(PACKAGE.parent)}:{n}: {line.strip()}")
    assert found == [], "a shared fact is built outside its home:\n" + "\n".join(found)


def test_the_templates_folder_is_the_one_importlib_resources_names() -> None:
    from importlib import resources as stdlib_resources

    assert str(resources.templates()) == str(stdlib_resources.files("tiergit") / "templates")
