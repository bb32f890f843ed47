"""Content that changes a safeguard, judged by what it does: topic x action.

A safeguard is how agents treat review, approval, tests, hooks, CI, credentials, permissions,
certificates and TLS, dependencies, destructive commands, or where their instructions come from
(`safeguard_words.TOPICS`). A sentence that names one and, in the same sentence, an action that
weakens it (skip, disable, delete, trust, without, always approve, force…, in eight languages,
or a protective action under a negation: "never ask for approval") **weakens** it; a sentence
that names one without weakening it **touches** it. Judged after joining lines, on the markdown
source, its rendered text, each HTML comment and each link target and title, since a reviewer
reads the rendered text and an agent reads the source. Pure; imports only `html`, `re`,
`unicodedata` and tiergit.core.
"""
from __future__ import annotations

import html
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from tiergit.core import safeguard_words as words
from tiergit.core.judge import HOMOGLYPHS, INVISIBLE

TOPIC_RES = {name: re.compile(terms) for name, terms in words.TOPICS.items()}
TOPIC_NAMES = list(words.TOPICS)
# One pass finds every topic term; the named group says which topic (t0, t1, … in TOPICS' order).


def ascii_part(pattern: str) -> str:
    """The top-level alternatives of a pattern that are ASCII: all an ASCII sentence can match (a word
    list in 23 languages costs an English sentence 2.6x its scan time otherwise)."""
    parts, depth, start, n = [], 0, 0, 0
    while n < len(pattern):
        c = pattern[n]
        if c == "\\":
            n += 2
            continue
        depth += c == "(" and 1 or (c == ")" and -1) or 0
        if c == "[":   # a class holds no alternation; skip it whole
            n = pattern.index("]", n + 2 if pattern[n + 1:n + 2] in ("]", "^") else n + 1)
        elif c == "|" and depth == 0:
            parts.append(pattern[start:n])
            start = n + 1
        n += 1
    parts.append(pattern[start:])
    return "|".join(p for p in parts if _may_match_ascii(p)) or "(?!)"


def _may_match_ascii(alternative: str) -> bool:
    """Whether an alternative can match ASCII text: no non-ASCII letter outside a class that also
    holds an ASCII character (`desact[ií]v` matches "desactivar" typed without its accent)."""
    return re.sub(r"\[\^?([^\]]*)\]", lambda m: "a" if re.search(r"[\x00-\x7f]", m[1]) else "\u00e9", alternative).isascii()


ANY_TOPIC_RE = re.compile("|".join(f"(?P<t{n}>{terms})" for n, terms in enumerate(words.TOPICS.values())))
ANY_TOPIC_ASCII_RE = re.compile("|".join(f"(?P<t{n}>{ascii_part(terms)})" for n, terms in enumerate(words.TOPICS.values())))
INHERENT_ANY_RE = re.compile("|".join(f"(?:{p})" for _, p in words.INHERENT))
INHERENT_RES = tuple((topic, re.compile(p)) for topic, p in words.INHERENT)
WEAK_RE = re.compile(words.WEAK)
WEAK_ASCII_RE = re.compile(ascii_part(words.WEAK))
APPROVAL_RE = TOPIC_RES["human approval"]
INNER_NEGATION_RE = re.compile(r"\b(?:not|never|nie|nicht|niemals|niet|nooit|jamais|nunca|mai|non)\b")
GUARDED_RE = re.compile(r"\b(?:before|prior to|vor dem|vor der|avant de|avant tout|antes de)\b (?:[\w`-]+,? ){0,5}$")
# "Don't run destructive commands without asking": the negation turns the whole clause, however long.
CLAUSE_NEGATED_RE = re.compile(r"(?:^|[.;:!?]\s*|-\s+)(?:never|don'?t|do not|must not|mustn'?t|should(?:n'?t| not)|cannot|can'?t)\b[^,;:.!?]*$")
REQUIRES_APPROVAL_RE = re.compile(r"\b(?:needs?|requires?|required|must (?:get|have))\b[^.;]{0,30}?\b(?:confirmation|approval|sign-off|review)\b")
GUARDED_ACT_RE = re.compile(r"delet|remov|drop|skip|disabl|bypass|lösch|supprim|borr|elimin")
SECRET_NAME_RE = re.compile(r"`[^`]*?(?:\b[a-z0-9]+_(?:token|secret|password|api_key)\b|\.env\b(?!\.(?:example|sample|template))|\bauthorization\b)[^`]*`")
DESCRIBED_RE = re.compile(r"\b(?:a|an|the|one|this|that)\s$")
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
    raw = html.unescape(raw) if "&" in raw else raw   # "&#115;kip" renders, and reaches an agent's reading, as "skip"
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


def flat(text: str) -> str:
    """Lowercased, NFKC, invisible characters gone, lines joined; look-alike letters folded to Latin
    only inside words that mix them with Latin ones (so Russian stays Russian, "сode" becomes "code")."""
    text = unicodedata.normalize("NFKC", text).translate(INVISIBLE)
    if not text.isascii():
        text = MIXED_WORD_RE.sub(lambda m: m[0].translate(HOMOGLYPHS) if re.search("[a-zA-Z]", m[0]) else m[0], text)
    return " ".join(text.lower().split())


def _negated(sentence: str, start: int, end: int) -> bool:
    before = sentence[max(0, start - 40):start]
    return bool(words.NEGATION.search(before) or words.NEGATED_AFTER.match(sentence[end:])
                # a verb split around its object: "sla de review nooit over", "turn the hooks never off"
                or (" " in sentence[start:end] and INNER_NEGATION_RE.search(sentence, start, end)))


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
    for m in (WEAK_ASCII_RE if sentence.isascii() else WEAK_RE).finditer(sentence, lo, hi):   # only near a topic
        if DESCRIBED_RE.search(sentence, max(0, m.start() - 6), m.start()) and m[0].endswith("ed"):
            continue   # "a skipped test hid the bug": a participle describing a thing, not an instruction
        if GUARDED_ACT_RE.match(m[0]) and _guarded(sentence, m.start()):
            continue   # "ask a human before any branch deletion": the guarded act, not an instruction
        near = [n for n, spans in topics.items() if _close(m, spans)]
        if near and not _negated(sentence, m.start(), m.end()) \
                and not (m[0].startswith("without") and CLAUSE_NEGATED_RE.search(sentence, 0, m.start())):
            return near[0], _near(sentence, m.start(), m.end())
    for m in WITHOUT_RE.finditer(sentence):
        # "without review": the dropped safeguard follows (or, in Chinese and Japanese, precedes) the word.
        after = m[0] not in words.WITHOUT_AFTER
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
                       "o os a as de des du die der den das einen eine".split()) | frozenset(words.more.BETWEEN.split())


def _guarded(sentence: str, at: int) -> bool:
    """Whether an act at `at` is what the sentence guards: "ask … before <act>", or "<act> … needs
    explicit human confirmation" (not "doesn't need")."""
    ask = PROTECT_RE.search(sentence)
    if ask and not _negated(sentence, *ask.span()) and GUARDED_RE.search(sentence, max(0, at - 50), at):
        return True
    need = REQUIRES_APPROVAL_RE.search(sentence)
    return bool(need and not _negated(sentence, *need.span()))


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
    folded = flat(text)
    touched: tuple[bool, str, str] | None = None
    # Two scans per sentence (the big alternations cost per character): commands, then topics.
    for sentence in SENTENCE_RE.split(folded):
        for m in INHERENT_ANY_RE.finditer(sentence):
            if not _negated(sentence, m.start(), m.end()):
                topic = next((t for t, rx in INHERENT_RES if rx.search(m[0])), INHERENT_RES[-1][0])
                # "before rm -rf, ask the owner for confirmation": a guarded command, judged as prose below
                if topic == "destructive commands" and APPROVAL_RE.search(sentence):
                    continue
                return True, topic, m[0]
        # Topic x action on the prose: a code span or a `Verb-Noun` name (`Remove-Credentials`) is a
        # name, not an action; commands inside code were judged above.
        prose = CODE_NAME_RE.sub(lambda m: " " * len(m[0]), sentence) if "`" in sentence or "-" in sentence else sentence
        topics: dict[str, list[tuple[int, int]]] = {}
        for m in (ANY_TOPIC_ASCII_RE if prose.isascii() else ANY_TOPIC_RE).finditer(prose):
            topics.setdefault(TOPIC_NAMES[int(m.lastgroup[1:])], []).append(m.span())
        if prose is not sentence:   # a secret's name in code (`PYPI_TOKEN`) still names the secret
            for m in SECRET_NAME_RE.finditer(sentence):
                topics.setdefault("credentials and secrets", []).append(m.span())
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
