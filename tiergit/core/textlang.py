"""The language an item is written in, for the promotion PR's "read carefully" section: a durable
item in another language than the store's is read carefully, since the safeguard word lists
(core/safeguard_words.py) cannot cover every language. Pure; imports only `re` and tiergit.core."""
from __future__ import annotations

import re

from tiergit.core.invisible import INVISIBLE   # "To\u200bken" is one word

# Scripts that name their language (checked in this order: kana before Han, Persian letters before Arabic).
SCRIPTS: tuple[tuple[str, str, int], ...] = (
    ("ja", r"[\u3040-\u30ff]", 1),
    ("ko", r"[\uac00-\ud7af\u1100-\u11ff]", 1),
    ("zh", r"[\u4e00-\u9fff]", 1),
    ("uk", r"[іїєґІЇЄҐ]", 1),
    ("ru", r"[\u0400-\u04ff]", 3),       # three Cyrillic letters: one look-alike letter is an attack, not Russian
    ("el", r"[\u0370-\u03ff]", 3),
    ("fa", r"[پچژگ]", 1),
    ("ar", r"[\u0600-\u06ff]", 1),
    ("he", r"[\u0590-\u05ff]", 1),
    ("hi", r"[\u0900-\u097f]", 1),
    ("th", r"[\u0e00-\u0e7f]", 1),
)
SCRIPT_RES = tuple((lang, re.compile(rx), least) for lang, rx, least in SCRIPTS)
# Each Latin-script language's commonest words that no other list shares (a tie says nothing).
LANGUAGE_WORDS = {lang: frozenset(words.split()) for lang, words in {
    "en": "the and is are to of for with not never every before after use when an on it be must should this that",
    "de": "der die das und ist nicht mit für den dem ein eine wir als nie zu im auf bei wenn nur",
    "fr": "le la les et est des du une un pour pas sont au avec ne jamais sur dans",
    "es": "el los las y es del una para con por al solo nunca si lo",
    "pt": "o os e é do da dos das um uma para com não em na ao",
    "it": "il che non della delle dei degli gli sono è anche più sempre mai quando questo nel alla",
    "nl": "het een niet van voor zijn wordt worden altijd nooit wij ook maar bij naar",
    "pl": "jest się że oraz zawsze nigdy przed dla przez jako tylko tego jeśli należy",
    "tr": "ve bir bu için ile değil olarak her asla gibi ise önce sonra",
    "vi": "và là của không có được các cho với những một để khi luôn đã này",
    "id": "dan yang di untuk dengan tidak ini itu dari akan harus selalu jangan pada adalah",
    "sv": "och är att inte på som det ett alltid aldrig vi till av",
    "cs": "je se že pro jako nebo není vždy nikdy před když také jsou být",
}.items()}
WORD_RE = re.compile(r"[^\W\d_]+")
UNSURE_WORDS = 6    # an item of this many words with none of the store language's commonest is read carefully


def language(text: str) -> str | None:
    """The language an item is written in: by script (ja, ko, zh, uk, ru, el, fa, ar, he, hi, th),
    else by the commonest words of thirteen Latin-script languages; None when too little text says."""
    return _read(text)[0]


def not_english(text: str) -> bool:
    """The text is in another language than English: its script or its commonest words say which,
    or, when they tie, it holds none of English's commonest words."""
    lang, english = _read(text)
    return lang != "en" and (lang is not None or english == 0)


def _read(text: str) -> tuple[str | None, int]:
    """(language(text), how many of English's commonest words it holds; 0 for a script's language)."""
    for lang, rx, least in SCRIPT_RES:
        if len(rx.findall(text, 0, 4000)[:least]) >= least:
            return lang, 0
    seen = _words(text)
    counts = {lang: sum(w in common for w in seen) for lang, common in LANGUAGE_WORDS.items()}
    ranked = sorted(counts.values(), reverse=True)
    best = max(counts, key=lambda k: counts[k])
    return (best if ranked[0] >= 1 and ranked[0] > ranked[1] else None), counts["en"]


def _words(text: str) -> list[str]:
    return WORD_RE.findall(text.lower().translate(INVISIBLE))


def store_language(texts) -> str:
    """The language most of a store's items are written in (items in another are read carefully);
    English, the language of tiergit's templates, when no item says."""
    counts: dict[str, int] = {}
    for text in texts:
        lang = language(text)
        if lang:
            counts[lang] = counts.get(lang, 0) + 1
    return max(counts, key=lambda k: (counts[k], k)) if counts else "en"


def foreign(text: str, store: str | None) -> str | None:
    """Why an item in another language than the store's is read carefully, or None."""
    lang = language(text)
    if store and lang and lang != store:
        return f"written in {lang}, the store is in {store}: read carefully"
    if store in LANGUAGE_WORDS and lang is None:
        # a language no list holds: six words or more, and not one of the store language's commonest
        seen = _words(text)
        if len(seen) >= UNSURE_WORDS and not any(w in LANGUAGE_WORDS[store] for w in seen):
            return f"not written in {store}, the store's language: read carefully"
    return None
