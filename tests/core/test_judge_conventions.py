"""A team's convention in plain present-tense English (core/judge.py's CONVENTION): "We store all
timestamps in UTC", "New services are written in Go" are rules; a report, a plan or a vague line is not."""
from __future__ import annotations

import pytest

from tiergit.core import judge, kinds


@pytest.mark.parametrize("line", [
    "We store all timestamps in UTC.",
    "We keep UI texts in translation files and never hard-code them.",
    "- We name tables in plural snake_case.",
    "Our team keeps every secret in the vault.",
    "The team always squashes feature branches before merging.",
    "New microservices are written in Go.",
    "The events table is partitioned monthly.",
])
def test_a_present_tense_convention_is_a_rule(line):
    assert judge.plain_kind(line) == "rule"
    assert kinds.classify(line) == "rule"


@pytest.mark.parametrize("line", [
    "We stored the timestamps in UTC.",      # a report of what was done
    "We tried Redis but it was slow.",
    "We need to fix the flaky test.",        # a plan
    "We use it a lot.",                      # says nothing
    "We will deploy on Friday.",
])
def test_a_report_a_plan_or_a_vague_line_is_no_convention(line):
    assert judge.plain_kind(line) != "rule"


@pytest.mark.parametrize("text", [
    "**By:** Priya\n**What:** Background jobs run on a Postgres-backed queue.\n**Why:** one fewer system",
    "**By:** TypeScriptDev **Status:** Implemented **What:** Strict mode in every package.",   # joined into one line
    "**By:** Hugo\n**Date:** 2026-01-28\n**Decision:** Analytics events carry a schema version.",
])
def test_a_squad_decision_block_reads_as_a_standing_statement_at_the_gate(text):
    from tiergit.core import statement
    assert statement.standing(text) == "decision block"
    assert kinds.classify(text) == "context"     # its kind is unchanged: session end condenses it as before


@pytest.mark.parametrize("text", ["**By:** Ripley", "**Status:** Implemented\n**What:** x y z", "**By:** Hugo and **bold** What: x"])
def test_a_byline_without_a_decision_field_is_no_decision_block(text):
    from tiergit.core import statement
    assert statement.standing(text) != "decision block"
