"""The merge driver's fast path (tiergit/shell/mergefast.py) answers exactly as the full entry merge.

Its pieces are checked against the code they stand in for, on every markdown file and every
replayed version in the corpus: headings against markdown-it (parse._headings), dates against
parse.heading_date, session markers and block ids against mergekeys.own_name. Its answers are
checked against merge.merge_texts on append merges cut from real histories (one step of a
replay appended on one side, another project's step or the next step on the other), and a
sample goes through real `git merge`s with the driver `tiergit install` registers, once with
the fast path and once with it off (TIERGIT_MERGE_FAST=0): the merged files are byte-identical.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import CORPUS, HAVE_CORPUS, corpus_files, corpus_map

import tiergit
from tiergit import mergeentry
from tiergit.core import appendmerge, mdheadings, merge, mergekeys, parse
from tiergit.features import install
from tiergit.shell import mergefast

B = "# picard\n\n## Learnings\n\n### One (2026-01-01)\n\n- x\n"


def _full(base: str, ours: str, theirs: str) -> str:
    return merge.merge_texts(base, ours, theirs).text


def _fast_equals_full(base: str, ours: str, theirs: str) -> bool | None:
    """None when the fast path declines; else whether it equals the full merge (asserted)."""
    got = appendmerge.merge(base, ours, theirs)
    if got is None:
        return None
    assert got == _full(base, ours, theirs), (base[-300:], ours[len(base):][:300], theirs[len(base):][:300])
    return True


# Hand-written shapes (all text here is ours): each row is (appended on ours, appended on theirs).
APPENDS = [
    ("\n### Two (2026-01-02)\n\n- y\n", "\n### Three (2026-01-03)\n\n- z\n"),
    ("\n### Two (2026-01-04)\n\n- y\n", "\n### Three (2026-01-03)\n\n- z\n"),       # sorted by date
    ("### Two (2026-01-04)\n- y", "\n\n### Three (2026-01-03)\n\n- z\n"),            # no blank, no final newline
    ("\n### Two\n\n- undated\n", "\n### Three (2026-01-03)\n\n- z\n\n### Four (2026-01-02)\n\n- w\n"),
    ("- more\n", "### Three (2026-01-03)\n\n- z\n"),                               # one side grows the last entry
    ("- more\n", "\n### Three (2026-01-03)\n\n- z\n"),   # one grows it, the other adds a blank line to it
    ("\n## Later (2026-02-01)\n\n- a level up\n", "\n### Three (2026-01-03)\n\n- z\n"),   # ### no longer cuts
    ("\n### Two (2026-01-02)\n<!-- s-abcd1234 -->\n\n- y\n", "\n### Two b (2026-01-02) ^m-beef0001\n\n- z\n"),
    ("\n### Two (2026-01-02) ##\n\n- y\n", "\n###\tThree   (2026-01-03)  ###   \n\n- z\n"),
]
DECLINED = [
    ("- more\n", "- other\n"),                                                      # both grow the last entry
    ("\n### One (2026-01-01)\n\n- again\n", "\n### Three (2026-01-03)\n\n- z\n"),   # a namesake of a base entry
    ("\n### Two (2026-01-02)\n\n- y\n", "\n### Two (2026-01-02)\n\n- z\n"),         # the same heading on both sides
    ("\n```\n# not a heading\n```\n", "\n### Three (2026-01-03)\n\n- z\n"),         # a fence
    ("\n- ### Two (2026-01-02)\n", "\n### Three (2026-01-03)\n\n- z\n"),            # a heading in a list
    ("\nTwo (2026-01-02)\n---\n", "\n### Three (2026-01-03)\n\n- z\n"),             # setext
    ("\n<div>\n# x\n</div>\n", "\n### Three (2026-01-03)\n\n- z\n"),                # an HTML block
    ("\n### Two (2026-01-02)\r\n", "\n### Three (2026-01-03)\n\n- z\n"),            # CR
]


@pytest.mark.parametrize("x,y", APPENDS)
def test_hand_written_appends_settle_as_the_entry_merge(x, y):
    for base in (B, B.replace("## Learnings\n\n", "")):
        assert _fast_equals_full(base, base + x, base + y) is True
        assert _fast_equals_full(base, base + y, base + x) is True


def test_a_newest_first_file_gets_its_new_entries_newest_first():
    base = "# T\n\n## 2026-03-01 newest\n\n- n\n\n## 2026-02-01 older\n\n- o\n"
    x, y = "\n## 2026-01-02 a\n\n- a\n", "\n## 2026-01-03 b\n\n- b\n\n## 2026-01-01 c\n"
    assert _fast_equals_full(base, base + x, base + y) is True
    merged = appendmerge.merge(base, base + x, base + y)
    assert merged.index("2026-01-03 b") < merged.index("2026-01-02 a") < merged.index("2026-01-01 c")


@pytest.mark.parametrize("x,y", DECLINED)
def test_what_needs_the_parser_is_declined(x, y):
    assert appendmerge.merge(B, B + x, B + y) is None
    assert merge.merge_texts(B, B + x, B + y).text   # the full merge still answers


L2 = "# T\n\n## 2026-01-01 day one\n\n- x\n\n## Learnings\n\n**Pattern:** keep it\n\n- and this\n"   # `##` cuts
INSIDE = [
    ("\n### 2026-06-01: main session\n\n- [fact] main learned a thing\n", "\n### 2026-06-02: b session\n\n- [fact] b did\n"),
    ("\n- [rule] another rule\n- and one more", "\n### Later\n\nSome closing words.\n\n\n"),
    ("\nA plain paragraph.\n\n\n", "\n### Later\n\n1. first\n2. second\n"),
    ("\n\n", "\n### Later\n\n- z\n"),
]
INSIDE_DECLINED = [
    ("\n### A\n\n- the same bullet\n", "\n### B\n\n- the same bullet\n"),     # one item on both sides
    ("\n### A\n\n- a\n", "\nno heading first\n"),                           # theirs opens with an item
    ("\n  indented continuation\n", "\n### B\n\n- b\n"),                     # may continue a base item
    ("\n### A\n\n- 2026-06-01 dated item\n", "\n### B\n\n- b\n"),            # new dated items are sorted
    ("- glued on\n", "\n### B\n\n- b\n"),                                     # no blank line first
]


@pytest.mark.parametrize("x,y", INSIDE)
def test_both_sides_adding_inside_the_last_section_settle_as_the_item_merge(x, y):
    assert _fast_equals_full(L2, L2 + x, L2 + y) is True


@pytest.mark.parametrize("x,y", INSIDE_DECLINED)
def test_inside_the_last_section_what_needs_the_parser_is_declined(x, y):
    assert appendmerge.merge(L2, L2 + x, L2 + y) is None


@pytest.mark.parametrize("end", ["**Pattern:** a paragraph may be text between items\n", "---\n", "> a quote\n"])
def test_a_last_section_not_ending_with_a_list_item_is_declined_when_both_add_to_it(end):
    base = L2 + "\n" + end
    x, y = INSIDE[0]
    assert appendmerge.merge(base, base + x, base + y) is None
    assert appendmerge.merge(base, base + "\n\n", base + y) == _full(base, base + "\n\n", base + y)


def test_frontmatter_and_big_files_are_declined():
    fm = "---\ntiergit: {body: abc}\n---\n" + B
    assert appendmerge.merge(fm, fm + "\n### A (2026-01-02)\n", fm + "\n### C (2026-01-03)\n") is None
    big = B + "- filler line\n" * (mergefast.MAX_MERGE_BYTES // 14)
    assert mergefast.settle(big.encode(), (big + "a\n").encode(), (big + "b\n").encode()) is None
    assert mergefast.MAX_MERGE_BYTES == merge.MAX_MERGE_BYTES


TRICKY_HEADINGS = ["# a", "#a", "####### seven", "###### six", "   ### three spaces", "#", "# #", "## a ##",
                   "## a#", "## a \\#", "#\ta\t#\t", "## ###", "# a # b #  ", "  #  ", "## 2026-13-01 x",
                   "## 12026-01-01", "## 2024-02-29 leap", "## 2023-02-29 not leap", "## 0000-01-01",
                   "## x 2026-1-01 2026-01-02", "## ２０２６-０１-０２ wide digits", "## a\u00a0", "## \u3000b"]


def test_headings_dates_and_names_on_hand_written_lines():
    text = "\n".join(TRICKY_HEADINGS) + "\n"
    got = mdheadings.headings(text.split("\n"))
    assert got == parse._headings(text)
    for _, _, heading in got:
        want = parse.heading_date(heading)
        assert mdheadings.heading_date(heading) == (None if want is None else (want.year, want.month, want.day))
    for section in ["### A ^m-abcd", "### A\t^m-abcdef12  ", "### A^m-abcd", "### A ^m-abc", "### A ^m-" + "a" * 33,
                    "### A\n<!-- s-abcd -->", "### A\n\n\n<!--tiergit:session s-0a1b2c3d-->", "### A\nx <!-- s-ab -->",
                    "### A\n<!-- tiergit:sessions-abcd -->", "### A\n<!-- s-abcd --> <!-- s-efgh -->",
                    "### A\n<!-- x --><!-- s-abcd  -->", "### A\n\n\n\n<!-- s-abcd -->"]:
        assert mdheadings.own_name(section) == mergekeys.own_name(merge.Piece(("s",), section)), section


# Hand-written lines for random files: every block kind the scan, the keys and the item merge
# care about ({d}: a digit, {w}: a word).
FUZZ_LINES = ["# Title", "## Learnings", "## 2026-01-0{d} day", "### 2026-02-0{d}: entry {w}", "### Notes {w}",
              "#### sub {w}", "- item {w}", "- [fact] fact {w}", "* star {w}", "1. one {w}", "2) two {w}",
              "  continued {w}", "    code {w}", "**Pattern:** pat {w}", "Plain paragraph {w}.", "---", "***",
              "> quote {w}", "", "", "", "- 2026-03-0{d} dated {w}", "<!-- s-abcd{d}{d}{d}{d} -->", "### Same",
              "- same bullet", "text with ^m-abcd{d}", "   - nested {w}", "- [ ] todo {w}", "- ", "3. same bullet"]


def _random_block(rng, n: int) -> str:
    lines = [rng.choice(FUZZ_LINES).format(d=rng.randint(1, 9), w=rng.choice("abcdefghij")) for _ in range(n)]
    return "\n".join(lines) + ("\n" if rng.random() < 0.9 else "")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_fast_path_equals_the_entry_merge_on_random_appends(seed):
    """Random files and appends from FUZZ_LINES; half the cases shaped for the last-section path
    (the base ends with a list item, theirs opens with a heading)."""
    import random

    rng = random.Random(seed)
    settled = 0
    for case in range(1500):
        base = _random_block(rng, rng.randint(1, 12)).rstrip("\n") + "\n"
        if case % 2:
            base += rng.choice(["- last\n", "1. last\n", "- last\n  more\n", "* x\n\n", "- a\n- b\n\n\n"])
            x = "\n" * rng.randint(1, 2) + _random_block(rng, rng.randint(1, 6))
            y = "\n" * rng.randint(1, 2) + rng.choice(["### H\n", "#### deeper\n", "### 2026-04-01 dated\n"]) \
                + _random_block(rng, rng.randint(0, 6))
        else:
            x = "\n" * (rng.random() < 0.7) + _random_block(rng, rng.randint(0, 6))
            y = "\n" * (rng.random() < 0.7) + _random_block(rng, rng.randint(0, 6))
        settled += bool(_fast_equals_full(base, base + x, base + y))
    assert settled >= 100, settled   # about a tenth settle; every one equals the entry merge


def _versions() -> list[list[Path]]:
    return [sorted(folder.glob("*.md")) for folder in sorted(CORPUS.glob("*/replay/*")) if folder.is_dir()] \
        if HAVE_CORPUS else []


@pytest.mark.corpus
def test_headings_agree_with_markdown_it_on_every_corpus_file():
    """Where the scanner answers, it finds markdown-it's headings; it answers on most files."""
    paths = corpus_files("**/*.md")
    answered = 0
    for path in paths:
        text = path.read_bytes().decode("utf-8", "replace")
        if text.startswith("---") or any(c in text for c in appendmerge._ODD):
            continue
        got = mdheadings.headings(text.split("\n"))
        if got is None:
            continue
        answered += 1
        assert got == parse._headings(text), path
        for _, _, heading in got:
            want = parse.heading_date(heading)
            assert mdheadings.heading_date(heading) == (None if want is None else (want.year, want.month, want.day))
    assert paths and answered >= len(paths) // 2, (answered, len(paths))


@pytest.mark.corpus
def test_own_names_agree_on_every_corpus_section():
    for path in corpus_files("*/.squad/**/*.md") + corpus_files("*/replay/*/*.md"):
        text = path.read_text("utf-8", "replace")
        lines = text.split("\n")
        starts = [i for i, ln in enumerate(lines) if ln.startswith("#")] + [len(lines)]
        for a, b in zip(starts, starts[1:]):
            section = "\n".join(lines[a:b])
            assert mdheadings.own_name(section) == mergekeys.own_name(merge.Piece(("s",), section)), (path, a)


def _append_cases():
    """(name, base, ours, theirs) from real histories: where version i+1 only appended to
    version i, ours appends that step; theirs appends another replay's step (or the step after)."""
    steps = []
    for versions in _versions():
        texts = [p.read_bytes().decode("utf-8", "replace") for p in versions]
        for n, (old, new) in enumerate(zip(texts, texts[1:])):
            if new.startswith(old) and len(new) > len(old) and old.endswith("\n"):
                steps.append((f"{versions[n + 1].parent.parent.parent.name}/{versions[n + 1].name}", old, new[len(old):]))
    for n, (name, base, x) in enumerate(steps):
        other = steps[(n + 7) % len(steps)][2]
        follow = steps[n + 1][2] if n + 1 < len(steps) and steps[n + 1][1] == base + x else None
        yield name, base, base + x, base + other
        if follow is not None and follow != x:
            yield name + "+next", base, base + x, base + follow


@pytest.mark.corpus
def test_fast_path_equals_the_entry_merge_on_corpus_appends():
    settled = declined = 0
    for name, base, ours, theirs in _append_cases():
        for o, t in ((ours, theirs), (theirs, ours)):
            if _fast_equals_full(base, o, t):
                settled += 1
            else:
                declined += 1
    # Declined (the full merge runs): CRLF or BOM files, fences or HTML, both sides growing the
    # last entry, a heading reused. About a quarter of these real appends settle here.
    assert settled >= 100, (settled, declined)


SESSIONS = [  # what two sessions append (hand-written), in a few shapes
    ("\n### 2026-06-01: main session\n\n- [fact] main learned a thing\n", "\n### 2026-06-02: b session\n\n- [fact] b learned a thing\n"),
    ("\n## 2026-06-01: main session\n\n**Pattern:** main's pattern\n", "\n### Side notes\n\n- b's note\n"),
    ("\n- [rule] a rule from main\n", "\n\n### 2026-06-02 b session\n\n1. step one\n2. step two\n\n"),
    ("\n\n", "\n### Later (2026-06-03)\n\nClosing words from b.\n"),
]


@pytest.mark.corpus
def test_fast_path_equals_the_entry_merge_on_every_corpus_history_with_new_sessions():
    """Every Squad history and every third replayed version, with sessions appended on both sides."""
    paths = corpus_files("*/.squad/agents/*/history.md") + [p for v in _versions() for p in v[::3]]
    settled = sum(corpus_map(_sessions_settled, paths))   # each worker asserts fast == full
    assert paths and settled >= len(paths), (settled, len(paths))


def _sessions_settled(path: Path) -> int:
    """How many of SESSIONS' merges on this file the fast path settles (each equal to the full merge)."""
    base = path.read_bytes().decode("utf-8", "replace")
    if not base.endswith("\n"):
        return 0
    return sum(bool(_fast_equals_full(base, o, t)) for x, y in SESSIONS
               for o, t in ((base + x, base + y), (base + y, base + x)))


def _git(repo: Path, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True,
                          env={**os.environ, "TIERGIT": "0", "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@x",
                               "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@x", **(env or {})})


@pytest.mark.corpus
@pytest.mark.e2e
def test_real_git_merges_are_byte_identical_with_and_without_the_fast_path(tmp_path):
    """Many files per merge, as git runs the driver: one merge with the fast path, one without."""
    cases = list(_append_cases())[::9][:40]
    assert len(cases) >= 20
    results = {}
    for mode in ("1", "0"):
        repo = tmp_path / f"r{mode}"
        repo.mkdir()
        _git(repo, "init", "-q", "-b", "main")
        _git(repo, "config", "merge.tiergit.driver", install.driver_command())
        (repo / ".gitattributes").write_text("*.md merge=tiergit\n")
        for side in ("base", "b", "main"):
            if side == "b":
                _git(repo, "checkout", "-q", "-b", "b")
            elif side == "main":
                _git(repo, "checkout", "-q", "main")
            for n, (_, base, ours, theirs) in enumerate(cases):
                (repo / f"m{n:03d}.md").write_bytes({"base": base, "main": ours, "b": theirs}[side].encode())
            _git(repo, "add", "-A")
            assert _git(repo, "commit", "-q", "-m", side).returncode == 0
        done = _git(repo, "merge", "--no-edit", "-q", "b", env={"TIERGIT_MERGE_FAST": mode})
        results[mode] = (done.returncode, {p.name: p.read_bytes() for p in sorted(repo.glob("m*.md"))})
    assert results["1"][0] == results["0"][0]
    assert results["1"][1] == results["0"][1]
    for n, (name, base, ours, theirs) in enumerate(cases):
        assert results["1"][1][f"m{n:03d}.md"] == _full(base, ours, theirs).encode(), name


PROBE = ("import sys; sys.path.append(%r); from tiergit import mergeentry; rc = mergeentry.main(); "
         "mods = sorted(sys.modules); print(__import__('json').dumps({'rc': rc, 'mods': mods}))")


def _probe(tmp_path: Path, base: str, ours: str, theirs: str) -> tuple[dict, str]:
    files = []
    for name, text in (("O", base), ("A", ours), ("B", theirs)):
        (tmp_path / name).write_text(text)
        files.append(str(tmp_path / name))
    root = str(Path(tiergit.__file__).resolve().parent.parent)
    proc = subprocess.run([sys.executable, "-I", "-S", "-c", PROBE % root, *files, "cold.md"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.splitlines()[-1]), (tmp_path / "A").read_text()


def test_the_isolated_entry_settles_appends_with_os_and_sys_only(tmp_path):
    out, merged = _probe(tmp_path, B, B + APPENDS[0][0], B + APPENDS[0][1])
    assert out["rc"] == 0 and merged == _full(B, B + APPENDS[0][0], B + APPENDS[0][1])
    assert not {"re", "datetime", "dataclasses", "markdown_it", "yaml", "click"} & set(out["mods"])


def test_the_isolated_entry_runs_the_full_merge_in_the_same_process(tmp_path):
    """Both sides grew the same entry: the entry merge runs after `site`, without a second interpreter."""
    out, merged = _probe(tmp_path, B, B + "- y\n", B + "- z\n")
    assert out["rc"] == 0 and merged == _full(B, B + "- y\n", B + "- z\n") and merged.endswith("- x\n- y\n- z\n")
    assert {"tiergit.features.driverrun", "tiergit.core.parse"} <= set(out["mods"])   # markdown-it when the scanner hands on


@pytest.mark.parametrize("case", ["stray carriage return", "entries at a new level"])
def test_the_full_merge_reads_real_histories_without_markdown_it(tmp_path, case):
    """The line scanner answers where 15 of the corpus's 72 histories sent the driver to markdown-it
    (~40 ms of a process git starts per file): a CRLF history holding one stray `\\r` inside a line (a
    botched `\\recurring…` escape), and both sides adding `###` dated entries to a history that had
    none (the base's headings were read again at the new level)."""
    if case == "stray carriage return":
        base = B.replace("- x\n", "- x (not \\rx)\n").replace("\\r", "\r").replace("\n", "\r\n")
        ours, theirs = base + "- y\r\n", base.replace("- x", "- x2") + "- z\r\n"
    else:
        base = "# picard\n\n## Learnings\n\n- x\n"
        ours = base.replace("- x", "- x2") + "\n### 2026-12-01 — ours\n\n- y\n"
        theirs = base + "\n### 2026-12-02 — theirs\n\n- z\n"
    out, _ = _probe(tmp_path, base, ours, theirs)
    merged = (tmp_path / "A").read_bytes()
    assert out["rc"] == 0 and merged == _full(base, ours, theirs).encode()
    assert b"- y" in merged and b"- z" in merged and b"x2" in merged
    assert "tiergit.core.parse" in out["mods"] and "markdown_it" not in out["mods"]


def test_the_isolated_entry_hands_other_merges_to_the_full_driver(tmp_path):
    """A conflict: the fast entry execs `python -m tiergit merge-driver`, whose exit code and
    conflict markers come back to git."""
    base = "# T\n\n### 2026-05-01: e\n\n**Fact:** old\n"
    files = []
    for name, text in (("O", base), ("A", base.replace("old", "ours")), ("B", base.replace("old", "theirs"))):
        (tmp_path / name).write_text(text)
        files.append(str(tmp_path / name))
    cmd = install.driver_command().replace("%O %A %B %P", " ".join(files + ["x.md"]))
    proc = subprocess.run(cmd, shell=True, capture_output=True, text=True, cwd=tmp_path, timeout=60)
    assert proc.returncode == 1, proc.stderr
    assert "<<<<<<< ours\n**Fact:** ours\n=======\n**Fact:** theirs\n>>>>>>> theirs\n" in (tmp_path / "A").read_text()
    if hasattr(os, "mkfifo"):   # a FIFO in place of a version: the full driver's one-line refusal
        os.mkfifo(tmp_path / "F")
        cmd = install.driver_command().replace("%O %A %B %P", " ".join([files[0], files[1], str(tmp_path / "F"), "x.md"]))
        proc = subprocess.run(cmd, shell=True, capture_output=True, text=True, cwd=tmp_path, timeout=60)
        assert proc.returncode == 2 and "FIFO" in proc.stderr and "Traceback" not in proc.stderr


class _LeftThroughExit(Exception):
    pass


def test_the_registered_entry_leaves_without_the_interpreter_teardown(tmp_path, monkeypatch, capfd):
    """`mergeentry.run` (what the registered command calls) leaves through `_exit` with main's code,
    once %A is written and stdout and stderr are flushed: a settled file with 0, a file the entry
    merge took with its code (1: conflict markers written), its message already out."""
    calls = []

    def fake_exit(code):
        calls.append(code)
        raise _LeftThroughExit

    monkeypatch.setattr(mergefast.sysos, "_exit", fake_exit)

    def versions(base: str, ours: str, theirs: str) -> list[str]:
        for name, text in (("O", base), ("A", ours), ("B", theirs)):
            (tmp_path / name).write_text(text)
        return [str(tmp_path / n) for n in ("O", "A", "B")] + ["x.md"]

    monkeypatch.setattr(sys, "argv", ["-c", *versions(B, B + APPENDS[0][0], B + APPENDS[0][1])])
    with pytest.raises(_LeftThroughExit):
        mergeentry.run()
    assert calls == [0] and (tmp_path / "A").read_text() == _full(B, B + APPENDS[0][0], B + APPENDS[0][1])
    base = "# T\n\n### 2026-05-01: e\n\n**Fact:** old\n"
    monkeypatch.setattr(sys, "argv", ["-c", *versions(base, base.replace("old", "ours"), base.replace("old", "theirs"))])
    with pytest.raises(_LeftThroughExit):
        mergeentry.run()
    assert calls == [0, 1]
    assert "<<<<<<< ours\n**Fact:** ours\n=======\n**Fact:** theirs\n>>>>>>> theirs\n" in (tmp_path / "A").read_text()
    assert "conflict" in capfd.readouterr().err.lower()
