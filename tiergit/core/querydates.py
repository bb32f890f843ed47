"""The time a question names, as a range of days its answer was most likely written in.

"What did Maria do on 31 July, 2023?", "What changed in March 2026?", "the decision of 2026-03-04":
the words say when, not what, and match nothing useful in an item's text. `when` reads the first
date the question holds (an ISO day; a day and a month name with its year, either order; a month
and year) as the days an item answering it is dated: that day or month, and the days after it, when
what happened is told ("yesterday I …"). Not a year alone (a store of one year's items holds it
whole), nor a stamp that opens a title. `without` is the question with the date taken out; `split`
gives both. Pure; imports only `re` and `datetime`.
"""
from __future__ import annotations

import re
from datetime import date, timedelta

# English names, not `calendar`'s (the locale's; its import costs the recall fast path)
_NAMES = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
          "november", "december")
MONTHS = {**{name: n for n, name in enumerate(_NAMES, 1)}, **{name[:3]: n for n, name in enumerate(_NAMES, 1)},
          "sept": 9}
_MONTH = r"(?P<{}>" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\.?"
_DAY = r"(?P<{}>[0-3]?\d)(?:st|nd|rd|th)?"
_YEAR = r"(?P<{}>(?:19|20)\d\d)"
DATE_RE = re.compile(
    r"\b(?:" + r"(?P<iso>(?:19|20)\d\d-[01]\d-[0-3]\d)"
    + r"|" + _DAY.format("d1") + r"\s+(?:of\s+)?" + _MONTH.format("m1") + r",?\s+" + _YEAR.format("y1")
    + r"|" + _MONTH.format("m2") + r"\s+" + _DAY.format("d2") + r",?\s+" + _YEAR.format("y2")
    + r"|" + _MONTH.format("m3") + r",?\s+" + _YEAR.format("y3") + r")\b", re.I)
# The date with the word that leads it in ("on 31 July, 2023", "in March 2026"), taken out together.
LED_DATE_RE = re.compile(r"(?:\b(?:on|in|during|since|by)\s+(?:the\s+)?)?(?:" + DATE_RE.pattern + ")", re.I)
# How long after the day (or the month's end) an item may still tell of it.
TOLD_AFTER = timedelta(days=10)


def _span(m: re.Match) -> tuple[date, date] | None:
    g = m.groupdict()
    try:
        if g["iso"]:
            first = last = date.fromisoformat(g["iso"])
        elif g["y1"] or g["y2"]:
            n = "1" if g["y1"] else "2"
            first = last = date(int(g["y" + n]), MONTHS[g["m" + n].lower()], int(g["d" + n]))
        else:
            year, month = int(g["y3"]), MONTHS[g["m3"].lower()]
            first = date(year, month, 1)
            last = (first + timedelta(days=31)).replace(day=1) - timedelta(days=1)
    except ValueError:   # 31 February
        return None
    return first, last + TOLD_AFTER


def when(text: str) -> tuple[date, date] | None:
    """The days (first, last) an item answering the question is most likely dated, or None. A date that
    opens the text is a title's stamp ("2026-02-22: Sprint closeout", a task or entry title pasted in):
    the day it was written, not what it asks about."""
    opening = len(text) - len(text.lstrip("#*-[( \t"))
    for m in DATE_RE.finditer(text):
        span = _span(m) if m.start() != opening else None
        if span:
            return span
    return None


def without(text: str) -> str:
    """The question with its dates (and the word that leads one) taken out."""
    return " ".join(LED_DATE_RE.sub(" ", text).split())


def split(text: str) -> tuple[tuple[date, date] | None, str]:
    """(the span, the question without its date); (None, the question) when it names no date or is
    nothing but one."""
    span = when(text)
    rest = without(text) if span else text
    return (span, rest) if span and re.search(r"[^\W\d]", rest) else (None, text)


def within(span: tuple[date, date] | None, day) -> bool:
    """Whether an item's day (a date or its ISO text) falls in the span; an unreadable day does not."""
    if not (span and day):
        return False
    try:
        return span[0] <= date.fromisoformat(str(day)[:10]) <= span[1]
    except ValueError:
        return False
