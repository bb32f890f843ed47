"""Zero-width and invisible characters that can hide a word from a reader and a regex: a translate
table that drops them. Its own module so core/textlang.py and core/judge.py (which asks textlang
whether a text is English) both read it without importing each other. Pure data."""
from __future__ import annotations

INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u200e\u200f\u2060\u2061\u2062\u2063\u2064\ufeff\u00ad\u180e"))
