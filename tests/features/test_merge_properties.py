"""Property tests: random entry additions, edits and deletions on two branches of real corpus files.

Every example checks: no entry lost, none duplicated, every appended item kept, the
result parses, and conflict markers appear exactly when both branches edited the
same item. `test_merge_in_process` runs 40 examples through `merge_texts` (the
driver's core, no git) to stay fast; `test_merge_through_real_git` runs 10 examples
end to end: a real repository, the driver registered as `tiergit install` does,
and a real `git merge`.
"""
from __future__ import annotations

import re
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from conftest import CORPUS, HAVE_CORPUS
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tiergit.core import parse
from tiergit.core.merge import merge_texts
from tiergit.features import install

# Hand-written seeds run everywhere; with the corpus, real files join them.
SEEDS = sorted((Path(__file__).parents[1] / "fixtures" / "squad").rglob("*.md"))
FILES = SEEDS + [CORPUS / p for p in (
    "bradygaster_squad/.squad/agents/network/history.md",     # three ### entries, small
    "bradygaster_squad/.squad/agents/capcom/history.md",      # entries between pinned sections
    "bradygaster_squad/.squad/agents/surgeon/history.md",     # undated ### sections among entries
    "martinopedal_azure-analyzer/.squad/agents/scribe/history.md",  # ## entries
) if HAVE_CORPUS]
OPS = st.lists(st.tuples(st.sampled_from(["add", "edit", "append", "delete"]), st.integers(0, 60)), max_size=6)


@dataclass
class Branch:
    name: str
    text: str
    edited: set[str] = field(default_factory=set)      # entry headings whose first item was changed
    appended: list[tuple[str, str]] = field(default_factory=list)   # (entry heading, item line)


def base_text(path: Path) -> str:
    text = path.read_text()
    return text if text.endswith("\n") else text + "\n"


def apply_ops(name: str, text: str, ops: list[tuple[str, int]]) -> Branch:
    branch = Branch(name, text)
    level = parse.parse(text).entry_level or 3    # new entries at the file's entry level
    for step, (op, n) in enumerate(ops):
        doc = parse.parse(branch.text)
        sections = [s.text for s in doc.sections]
        entries = [i for i, s in enumerate(doc.sections) if s.date is not None]
        tag = f"{name}{step}"
        if op == "add":
            hashes = "#" * level
            new = (f"{hashes} 2026-06-{n % 28 + 1:02d}: {tag} session\n\n**Context:** {tag} did work.\n\n"
                   f"- [fact] {tag} learned something\n\n")
            first = 1 if doc.sections and doc.sections[0].level == 0 else 0
            at = first + n % (len(sections) - first + 1)
            if at > 0 and not sections[at - 1].endswith("\n"):
                sections[at - 1] += "\n"
            sections.insert(at, new)
        elif not entries:
            continue
        else:
            idx = entries[n % len(entries)]
            sec = doc.sections[idx]
            if op == "delete":
                sections.pop(idx)
            elif op == "edit" and sec.items:
                item = sec.items[0]
                first_line = item.text.split("\n", 1)[0]
                sections[idx] = sec.text.replace(first_line, first_line + f" (revised by {tag})", 1)
                branch.edited.add(sec.heading)
            elif op == "append":
                body = sec.text.rstrip("\n")
                line = f"- [fact] {tag} note"
                sections[idx] = body + f"\n\n{line}\n" + sec.text[len(body) + 1:]
                branch.appended.append((sec.heading, line))
        branch.text = (doc.frontmatter_text + "".join(sections))
    return branch


def entry_sections(text: str) -> dict[str, str]:
    return {s.heading: s.text for s in parse.parse(text).entries}


def heading_count(text: str, heading: str) -> int:
    return len(re.findall(r"^#{1,6} " + re.escape(heading) + r"\s*$", text, flags=re.M))


def check(base: str, a: Branch, b: Branch, merged: str, conflicts: int) -> None:
    parse.parse(merged)                      # the result parses
    base_e, a_e, b_e = entry_sections(base), entry_sections(a.text), entry_sections(b.text)
    expected = set(a_e) | set(b_e)
    for heading in base_e:
        in_a, in_b = heading in a_e, heading in b_e
        a_changed = in_a and a_e[heading].rstrip() != base_e[heading].rstrip()
        b_changed = in_b and b_e[heading].rstrip() != base_e[heading].rstrip()
        if not (in_a and in_b) and not (in_a and a_changed) and not (in_b and b_changed):
            expected.discard(heading)
    for heading in set(base_e) | set(a_e) | set(b_e):
        want = 1 if heading in expected else 0
        assert heading_count(merged, heading) == want, (heading, want)
    for branch in (a, b):
        for heading, line in branch.appended:
            if heading in expected and line in entry_sections(branch.text).get(heading, ""):
                assert merged.count(line + "\n") == 1, line
    both_edited = a.edited & b.edited & set(a_e) & set(b_e)
    assert (conflicts > 0) == bool(both_edited)
    assert ("<<<<<<< ours" in merged) == bool(both_edited)
    if not conflicts:
        assert sorted(e.heading for e in parse.parse(merged).entries) == sorted(expected)


@settings(max_examples=40, deadline=None)
@given(path=st.sampled_from(FILES), ops_a=OPS, ops_b=OPS)
def test_merge_in_process(path, ops_a, ops_b):
    base = base_text(path)
    a, b = apply_ops("a", base, ops_a), apply_ops("b", base, ops_b)
    result = merge_texts(base, a.text, b.text, path=str(path))
    check(base, a, b, result.text, result.conflicts)


def _git(repo: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True)


@pytest.mark.e2e
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(path=st.sampled_from(FILES), ops_a=OPS, ops_b=OPS)
def test_merge_through_real_git(path, ops_a, ops_b):
    base = base_text(path)
    a, b = apply_ops("a", base, ops_a), apply_ops("b", base, ops_b)
    with tempfile.TemporaryDirectory() as tmp:
        repo = Path(tmp)
        _git(repo, "init", "-q", "-b", "main")
        _git(repo, "config", "merge.tiergit.driver", install.driver_command())
        (repo / ".gitattributes").write_text("*.md merge=tiergit\n")
        for branch_name, text in (("main", base), ("a", a.text), ("b", b.text)):
            if branch_name != "main":
                _git(repo, "checkout", "-q", "-b", branch_name, "main")
            (repo / "history.md").write_text(text)
            _git(repo, "add", "-A")
            _git(repo, "commit", "-q", "--allow-empty", "-m", branch_name)
        _git(repo, "checkout", "-q", "a")
        done = _git(repo, "merge", "--no-edit", "-q", "b")
        merged = (repo / "history.md").read_text()
        conflicts = merged.count("<<<<<<< ours")
        assert done.returncode == (1 if conflicts else 0), done.stderr
        check(base, a, b, merged, conflicts)
