"""core/querydates.py: the days a question's date points at, and the question without it."""
from __future__ import annotations

from datetime import date

import pytest

from tiergit.core import querydates


@pytest.mark.parametrize(("question", "first", "last", "rest"), [
    ("What did Maria do on 31 July, 2023?", date(2023, 7, 31), date(2023, 8, 10), "What did Maria do ?"),
    ("Where was James at on July 12, 2022?", date(2022, 7, 12), date(2022, 7, 22), "Where was James at ?"),
    ("the cache decision of 2026-03-04", date(2026, 3, 4), date(2026, 3, 14), "the cache decision of"),
    ("What was Jolene doing in June 2023?", date(2023, 6, 1), date(2023, 7, 10), "What was Jolene doing ?"),
    ("what broke in Feb. 2024", date(2024, 2, 1), date(2024, 3, 10), "what broke"),
])
def test_a_named_date_is_a_span_of_days_and_leaves_the_question(question, first, last, rest) -> None:
    assert querydates.when(question) == (first, last)
    assert querydates.without(question) == rest


@pytest.mark.parametrize("question", [
    "When did Deborah visit Brazil?", "we may ship it", "port 2023 is open", "31 February 2023 was no day",
    "the 2023 budget", "what changed in 2025",   # a year alone: a name, a number, or nearly every item
    "2026-02-22: Sprint 11 closeout", "### 12 March, 2026 - cache review",   # a title's stamp
])
def test_no_date_no_span(question) -> None:
    assert querydates.when(question) is None


def test_within_reads_a_day_as_a_date_or_its_text() -> None:
    span = querydates.when("on 12 March, 2026")
    assert querydates.within(span, date(2026, 3, 12)) and querydates.within(span, "2026-03-22")
    assert not querydates.within(span, "2026-03-23") and not querydates.within(span, "2026-03-11")
    assert not querydates.within(span, None) and not querydates.within(None, "2026-03-12")
    assert not querydates.within(span, "2026-13-40")   # not a day: no boost, no error
