"""Durable kinds from a line's shape (tiergit/core/durable_shape.py), through parse.classify and session
end's compaction: the lines below were written for this test, in the shapes real notes use."""
from __future__ import annotations

import pytest

from tiergit.core import durable_shape, parse
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
    assert parse.classify(line) == kind


@pytest.mark.parametrize("line", NARRATIVE)
def test_narrative_stays_context(line):
    assert parse.classify(line) == "context"


def test_long_shaped_line_is_condensed_not_kept():
    # Over MAX_SHAPE_CHARS a shape alone does not keep a line verbatim (the replay's token budget).
    line = "- The importer is non-negotiable for " + "every project and every workspace that we run " * 3
    assert len(line) > durable_shape.MAX_SHAPE_CHARS
    assert durable_shape.shape_kind(line[2:], True) is None


def test_session_end_keeps_shaped_lines_and_condenses_narrative():
    body = "".join(f"{line}\n" for line, _ in SHAPED) + "".join(f"{line}\n" for line in NARRATIVE)
    doc = parse.parse("# Hot\n\n## Notes\n\n" + body)
    out = compact.compact_doc(doc, set())
    kept = "\n".join(out.kept)
    assert all(line in kept for line, _ in SHAPED)
    assert not any(line in kept for line in NARRATIVE)
    assert out.condensed_items == len(NARRATIVE)
