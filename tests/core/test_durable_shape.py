"""Durable kinds from a line's shape (tiergit/core/durable_shape.py), through kinds.classify and session
end's compaction: the lines below were written for this test, in the shapes real notes use."""
from __future__ import annotations

import pytest

from tiergit.core import durable_shape, judge, kinds, parse
from tiergit.features import compact

SHAPED = [
    ("- TDD non-negotiable for Domain/Application changes", "rule"),
    ("- Every filed issue → memory entry with issue number", "rule"),
    ("- Seed flags from code defaults ONLY if no row exists yet", "rule"),
    ("- `loader.ts` crashes with a null `teamRoot` on a fresh clone", "error"),
    ("- Tier parameter mismatch in `Parity.Tests.ps1` (ints vs names)", "error"),
    ("1. **Lucius**: Fix the `AiStatusResult` compile error in the phase tests", "open"),
    ("- Retries are capped at three because the upstream rate-limits bursts", "fact"),
]
NARRATIVE = [
    "- Added `GameEndReason` enum to shared/types.ts: LastStanding, TimeUp.",
    "- Reviewed PR #412 and left comments on the naming",
    "- Bumped the version stamps in two manifests",
    "- Kaylee: read-only screen shipped; iOS recipe updated",
]


@pytest.mark.parametrize("line,kind", SHAPED)
def test_shaped_lines_get_a_durable_kind(line, kind):
    assert kinds.classify(line) == kind


@pytest.mark.parametrize("line", NARRATIVE)
def test_narrative_stays_context(line):
    assert kinds.classify(line) == "context"


def test_long_shaped_line_is_condensed_not_kept():
    # Over MAX_SHAPE_CHARS a shape alone does not keep a line verbatim (the replay's token budget).
    line = "- The importer is non-negotiable for " + "every project and every workspace that we run " * 3
    assert len(line) > durable_shape.MAX_SHAPE_CHARS
    assert durable_shape.shape_kind(line[2:], True) is None


PLAIN_REPORTS = [line for line in NARRATIVE if "Bumped" in line] + ["- Worked through the review queue with the team"]
SPECIFIC_REPORTS = [line for line in NARRATIVE if line not in PLAIN_REPORTS]


def test_session_end_keeps_shaped_lines_and_narrative_with_specifics_and_condenses_plain_reports():
    # Issue 21: a work report that names code, a path or a number stays verbatim (it is context by
    # kind); only a report with nothing specific in it is condensed.
    body = "".join(f"{line}\n" for line, _ in SHAPED) + "".join(f"{line}\n" for line in SPECIFIC_REPORTS + PLAIN_REPORTS)
    doc = parse.parse("# Hot\n\n## Notes\n\n" + body)
    out = compact.compact_doc(doc, set())
    kept = "\n".join(out.kept)
    assert all(line in kept for line, _ in SHAPED)
    assert all(line in kept for line in SPECIFIC_REPORTS)
    assert not any(line in kept for line in PLAIN_REPORTS)
    assert out.condensed_items == len(PLAIN_REPORTS)


# Statements: how something is, with a concrete anchor; kept verbatim only while the entry has budget.
STATEMENTS = [
    "- `resolveRoot()` returns the worktree root, not the main checkout",
    "- Embedding model: nomic-embed-text (768 dims, 8K context)",
    "- The exporter only reads `settings.toml` from the store root",
    "- All integration suites invoke the packaged `bin/cli.js` through a subprocess",
]
REPORTS = [
    "- Fixed the `resolveRoot()` fallback in PR #88",
    "- Today the exporter reads `settings.toml` again ✅",
    "- We moved the cache to `~/.cache/app` for the release",
    "- Build: 0 errors, 2 warnings (12.4s)",
    "- Builds green on Linux and `macos-14` runners",
]


@pytest.mark.parametrize("line", STATEMENTS)
def test_statements_are_context_by_kind_but_read_as_statements(line):
    assert kinds.classify(line) == "context"   # not a kind: promotion never sees them as durable
    assert judge.statement(line) == "fact"


@pytest.mark.parametrize("line", REPORTS)
def test_work_reports_are_not_statements(line):
    assert judge.statement(line) is None


def _session(lines: list[str], padding: int) -> compact.Compaction:
    """Notes holding `lines` plus `padding` lines of work narrative (which sets the entry's budget)."""
    filler = "".join(f"- Worked through the backlog item {'again ' * n}with the team and wrote it up\n"
                     for n in range(padding))
    doc = parse.parse("# Hot\n\n## Notes\n\n" + "".join(f"{ln}\n" for ln in lines) + filler)
    return compact.compact_doc(doc, set())


def test_session_end_keeps_statements_verbatim_whatever_the_budget():
    # Since issue 21 the entry's budget no longer decides: statements are kept verbatim in a roomy
    # session and in one with nothing else to pay for them.
    for padding in (120, 0):
        out = _session(STATEMENTS, padding)
        assert all(line in out.kept for line in STATEMENTS)
        assert bool(out.condensed) == bool(padding)   # the narrative still gets its condensed line


