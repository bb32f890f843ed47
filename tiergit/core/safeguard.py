"""Content that changes a safeguard, judged by what it does: topic x action.

A safeguard is how agents treat review, approval, tests, hooks, CI, credentials, permissions,
certificates and TLS, dependencies, destructive commands, or where their instructions come from
(`safeguard_words.TOPICS`). A sentence that names one and, in the same sentence, an action that
weakens it (skip, disable, delete, trust, without, always approve, force…, in eight languages,
or a protective action under a negation: "never ask for approval") **weakens** it; a sentence
that names one without weakening it **touches** it. Judged after joining lines, on the markdown
source, its rendered text, each HTML comment and each link target and title, since a reviewer
reads the rendered text and an agent reads the source. Pure; imports only `re`, `unicodedata`
and tiergit.core.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from tiergit.core import safeguard_words as words
from tiergit.core.judge import HOMOGLYPHS, INVISIBLE

TOPIC_RES = {name: re.compile(terms) for name, terms in words.TOPICS.items()}
TOPIC_NAMES = list(words.TOPICS)
# One pass finds every topic term; the named group says which topic (t0, t1, … in TOPICS' order).
ANY_TOPIC_RE = re.compile("|".join(f"(?P<t{n}>{terms})" for n, terms in enumerate(words.TOPICS.values())))
INHERENT_ANY_RE = re.compile("|".join(f"(?:{p})" for _, p in words.INHERENT))
INHERENT_RES = tuple((topic, re.compile(p)) for topic, p in words.INHERENT)
WEAK_RE = re.compile(words.WEAK)
TOPIC_WEAK_RES = {name: re.compile(p) for name, p in words.TOPIC_WEAK.items()}
NEAR = 40           # characters between an action and the safeguard it acts on
WITHOUT_RE = re.compile(words.WITHOUT)
PROTECT_RE = re.compile(words.PROTECT)
COMMENT_RE = re.compile(r"<!--(.*?)(?:-->|$)", re.S)
LINK_RE = re.compile(r"!?\[([^\]\n]*)\]\(\s*<?([^)\s>]*)>?(?:\s+[\"']([^\"'\n]*)[\"'])?\s*\)")
BARE_URL_RE = re.compile(r"https?://\S+")
SENTENCE_RE = re.compile(r"(?<=[.!?])\s+|[。！？\n]")
MIXED_WORD_RE = re.compile(r"\w*[^\x00-\x7f]\w*")
CODE_NAME_RE = re.compile(r"`[^`]*`|\b[a-z]+-[a-z]+(?:-[a-z]+)*\b(?=\s*[$(])|(?<=\$\()[a-z]+-[a-z]+")
CLAUSE_END = ",;:—、，；"


@dataclass(frozen=True)
class Finding:
    weakens: bool
    topic: str          # readable topic, e.g. "code review"
    where: str          # "text", "an HTML comment", "a link target"
    evidence: str       # the words that decided it

    @property
    def reason(self) -> str:
        hidden = "" if self.where == "text" else f", hidden in {self.where}"
        if self.weakens:
            return f"weakens a safeguard ({self.topic}: \"{self.evidence}\"{hidden})"
        return f"changes a safeguard ({self.topic}){hidden}: read carefully"


def views(raw: str) -> list[tuple[str, str]]:
    """(where, text) a reader or an agent may see: the rendered text, each HTML comment, each link
    target and title (URL-decoded, its separators as spaces), and the whole source."""
    rendered = LINK_RE.sub(lambda m: m[1], COMMENT_RE.sub(" ", raw))
    out = [("text", rendered)]
    out += [("an HTML comment", m[1]) for m in COMMENT_RE.finditer(raw)]
    for m in LINK_RE.finditer(raw):
        out.append(("a link target", _deslug(m[2])))
        if m[3]:
            out.append(("a link title", m[3]))
    out += [("a link target", _deslug(u)) for u in BARE_URL_RE.findall(rendered)]
    out.append(("the markdown source", raw))
    return out


def _unquote(url: str) -> str:
    """%XX escapes decoded as UTF-8 (what a browser shows), `+` as a space."""
    raw = re.sub(r"%([0-9a-fA-F]{2})", lambda m: chr(int(m[1], 16)), url.replace("+", " "))
    try:
        return raw.encode("latin-1").decode("utf-8")
    except (UnicodeEncodeError, UnicodeDecodeError):
        return raw


def _deslug(url: str) -> str:
    return re.sub(r"[-_+/=?&#%.]+", " ", _unquote(url))


def _flat(text: str) -> str:
    """Lowercased, NFKC, invisible characters gone, lines joined; look-alike letters folded to Latin
    only inside words that mix them with Latin ones (so Russian stays Russian, "сode" becomes "code")."""
    text = unicodedata.normalize("NFKC", text).translate(INVISIBLE)
    if not text.isascii():
        text = MIXED_WORD_RE.sub(lambda m: m[0].translate(HOMOGLYPHS) if re.search("[a-zA-Z]", m[0]) else m[0], text)
    return " ".join(text.lower().split())


def _negated(sentence: str, start: int, end: int) -> bool:
    before = sentence[max(0, start - 40):start]
    return bool(words.NEGATION.search(before) or words.NEGATED_AFTER.match(sentence[end:]))


def _close(m: re.Match, spans: list[tuple[int, int]], reach: int = NEAR) -> bool:
    return any(m.start() - reach <= hi and lo <= m.end() + reach for lo, hi in spans)


def _weakening(sentence: str, topics: dict[str, list[tuple[int, int]]]) -> tuple[str, str] | None:
    """(topic, evidence) when an action in the sentence, near one of its topics, weakens it."""
    for name, spans in topics.items():
        rx = TOPIC_WEAK_RES.get(name)
        for m in (rx.finditer(sentence) if rx else ()):
            if _close(m, spans) and not _negated(sentence, m.start(), m.end()):
                return name, _near(sentence, m.start(), m.end())
    lo = max(0, min(a for spans in topics.values() for a, _ in spans) - NEAR - 30)
    hi = max(b for spans in topics.values() for _, b in spans) + NEAR + 30
    for m in WEAK_RE.finditer(sentence, lo, hi):   # only near a topic can an action weaken it
        near = [n for n, spans in topics.items() if _close(m, spans)]
        if near and not _negated(sentence, m.start(), m.end()):
            return near[0], _near(sentence, m.start(), m.end())
    for m in WITHOUT_RE.finditer(sentence):
        # "without review": the dropped safeguard follows (or, in Chinese and Japanese, precedes) the word.
        after = m[0] not in ("无需", "なしで", "せずに")
        for name, spans in topics.items():
            if any(_dropped(sentence[m.end():lo]) if after and lo >= m.end() else (not after and 0 <= m.start() - hi <= 8)
                   for lo, hi in spans):
                if not _negated(sentence, m.start(), m.end()):
                    return name, _near(sentence, m.start(), m.end())
    for m in PROTECT_RE.finditer(sentence):
        near = [n for n, spans in topics.items() if _close(m, spans)]
        if near and _negated(sentence, m.start(), m.end()):
            return near[0], _near(sentence, m.start(), m.end())
    return None


BETWEEN_OK = frozenset("a an any the its their your our human code manual proper prior running checking asking reading "
                       "verifying waiting for getting passing requesting telling informing zu un une la le les el los las "
                       "o os a as de des du die der den das einen eine".split())


def _dropped(between: str) -> bool:
    """`without <these words> <topic>` drops the safeguard itself ("without running the tests"),
    not something else ("without downloading a dependency tree")."""
    words_between = between.split()
    return len(words_between) <= 3 and all(w in BETWEEN_OK for w in words_between)


def _near(sentence: str, start: int, end: int) -> str:
    """The action with a few whole words either side."""
    before = sentence[:start].split()[-3:]
    after = sentence[end:].split()[:3]
    return " ".join(before + [sentence[start:end]] + after).strip("[]*` ")


def judge_text(text: str) -> tuple[bool, str, str] | None:
    """(weakens, topic, evidence) for one view's text, or None when it names no safeguard."""
    flat = _flat(text)
    touched: tuple[bool, str, str] | None = None
    # Two scans per sentence (the big alternations cost per character): commands, then topics.
    for sentence in SENTENCE_RE.split(flat):
        for m in INHERENT_ANY_RE.finditer(sentence):
            if not _negated(sentence, m.start(), m.end()):
                return True, next((t for t, rx in INHERENT_RES if rx.search(m[0])), INHERENT_RES[-1][0]), m[0]
        # Topic x action on the prose: a code span or a `Verb-Noun` name (`Remove-Credentials`) is a
        # name, not an action; commands inside code were judged above.
        prose = CODE_NAME_RE.sub(lambda m: " " * len(m[0]), sentence) if "`" in sentence or "-" in sentence else sentence
        topics: dict[str, list[tuple[int, int]]] = {}
        for m in ANY_TOPIC_RE.finditer(prose):
            topics.setdefault(TOPIC_NAMES[int(m.lastgroup[1:])], []).append(m.span())
        if not topics:
            continue
        hit = _weakening(prose, topics)
        if hit:
            return True, hit[0], hit[1][:60]
        if touched is None:
            first = min(topics, key=lambda t: topics[t][0])
            lo, hi = topics[first][0]
            touched = (False, first, sentence[lo:hi])
    return touched


@lru_cache(maxsize=65536)
def judge(raw: str) -> Finding | None:
    """How an item changes a safeguard: the first view that weakens one, else the first that
    touches one, else None. Cost: one scan when it names no safeguard, else a few regex passes
    per sentence of each view (cached: the gate and the PR section ask twice)."""
    touched: Finding | None = None
    seen: set[str] = set()
    for where, text in views(raw):
        if text in seen:
            continue
        seen.add(text)
        got = judge_text(text)
        if got is None:
            continue
        finding = Finding(got[0], got[1], "text" if where == "the markdown source" else where, got[2])
        if finding.weakens:
            return finding
        touched = touched or finding
    return touched


def weakens(raw: str) -> str | None:
    """The refusal reason when the item weakens a safeguard, else None."""
    f = judge(raw)
    return f.reason if f is not None and f.weakens else None


# Each language's commonest words (sets: a store's language reads every candidate's words).
LANGUAGE_WORDS = {lang: frozenset(words.split()) for lang, words in {
    "en": "the and is are to of for with not never every before after use when an on it be must should this that",
    "de": "der die das und ist nicht mit für den dem ein eine wir als nie zu im auf bei wenn nur",
    "fr": "le la les et est des du une un pour pas sont au avec ne jamais sur dans",
    "es": "el los las y es del una para con por al solo nunca si lo",
    "pt": "o os e é do da dos das um uma para com não em na ao",
}.items()}
LATIN_WORD_RE = re.compile(r"[a-zà-öø-ÿ]+")


def language(text: str) -> str | None:
    """The language an item is written in (ja, zh, ko, ru by script; en, de, fr, es, pt by their
    commonest words), or None when too little text says."""
    if re.search(r"[\u3040-\u30ff]", text):
        return "ja"
    if re.search(r"[\uac00-\ud7af]", text):
        return "ko"
    if re.search(r"[\u4e00-\u9fff]", text):
        return "zh"
    if len(re.findall(r"[\u0400-\u04ff]", text)) >= 3:
        return "ru"
    seen = LATIN_WORD_RE.findall(text.lower())
    counts = {lang: sum(w in common for w in seen) for lang, common in LANGUAGE_WORDS.items()}
    best = max(counts, key=lambda k: counts[k])
    ranked = sorted(counts.values(), reverse=True)
    return best if ranked[0] >= 1 and ranked[0] > ranked[1] else None


def store_language(texts) -> str | None:
    """The language most of a store's items are written in (items in another are read carefully)."""
    counts: dict[str, int] = {}
    for text in texts:
        lang = language(text)
        if lang:
            counts[lang] = counts.get(lang, 0) + 1
    return max(counts, key=lambda k: (counts[k], k)) if counts else None
