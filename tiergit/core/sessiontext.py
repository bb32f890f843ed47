"""Session notes read item by item, as an entry is written from them: section keys, an item's
cold form (its kind kept as an explicit prefix), summary sentences, and what cold already
tells. Pure: parsed items and text in."""
from __future__ import annotations

import re

from rapidfuzz import fuzz

from tiergit.core.kinds import DURABLE_KINDS, LIST_MARKER_RE, NEVER_COMPRESS, classify
from tiergit.core.parse import Item, clean_text

# Kept verbatim: never-compress kinds plus the durable ones (rules and facts are what promotion feeds on).
KEEP_KINDS = NEVER_COMPRESS | DURABLE_KINDS
LABEL_WORDS = 6
TOLD_MIN_CHARS = 32         # openings shorter than this are too generic to call a repeat
TOLD_SIMILARITY = 92        # rapidfuzz ratio of two openings that makes them the same sentence
FIELD_LABEL = re.compile(r"^\s*(?:📌\s*)?\*\*[^*\n]{1,60}?(?::\*\*|\*\*:)\s*")   # `**Context:**`
LEADING_NOISE = re.compile(r"^(?:\s*(?:[-*+]|\d{4}-\d{2}-\d{2}(?:[T ][0-9:.]+Z?)?)(?:\s*[—–:·-]+\s*|\s+|$))+")
NUMBER_RE = re.compile(r"\d+")
HTML_COMMENT = re.compile(r"<!--.*?-->", re.S)
WORD_RE = re.compile(r"[a-z0-9](?:[a-z0-9_.#/-]*[a-z0-9])?")
# Hot-template sections that give items their kind; written to cold with an explicit prefix.
SECTION_PREFIX = {"active decisions": "[decision]", "blockers": "[blocker]"}
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'`(\[*])")
DATE_SUFFIX = re.compile(r"\s*[(\[]?\d{4}-\d{2}-\d{2}(?:[T ][0-9:.-]+Z?)?[)\]]?\s*$")
LEADING_DATE = re.compile(r"^\s*\d{4}-\d{2}-\d{2}(?:[T ][0-9:.]+Z?)?\s*[-—–:·]*\s*")
SUB_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$")


def section_key(heading: str | None) -> str:
    return re.sub(r"[^a-z ]", "", (heading or "").lower()).strip()


def own_kind(item: Item, labels: dict | None) -> str:
    """The kind the item's own text gives it, ignoring its section."""
    return classify(item.text, None, labels)


def cold_form(item: Item, heading: str | None, labels: dict | None) -> str:
    """The item's exact text; a kind given only by its hot section becomes an explicit prefix,
    so the item keeps its kind in cold (the prefix does not change its id)."""
    text = item.text.rstrip("\n")
    prefix = SECTION_PREFIX.get(section_key(heading))
    if prefix is None or own_kind(item, labels) == item.kind:
        return text
    marker = LIST_MARKER_RE.match(text)
    cut = marker.end() if marker else len(text) - len(text.lstrip())
    return f"{text[:cut]}{prefix} {text[cut:]}"


def words(text: str) -> int:
    return len(text.split())


def first_sentence(text: str) -> str:
    return SENTENCE_END.split(clean_text(text), maxsplit=1)[0].strip()


def truncate_words(text: str, limit: int) -> str:
    parts = text.split()
    return text if len(parts) <= limit else " ".join(parts[:limit]).rstrip(",;:") + " …"


def section_label(heading: str | None) -> str:
    if not heading:
        return "Notes"
    label = LEADING_DATE.sub("", DATE_SUFFIX.sub("", heading)).strip(" #*:") or heading
    return truncate_words(label, LABEL_WORDS)


def sub_headings(section) -> list[tuple[int, str]]:
    """(line, text) of the headings inside a section (deeper than its split level), outside fences."""
    found, in_fence = [], False
    for offset, line in enumerate(section.text.splitlines()[1:] if section.level else section.text.splitlines()):
        if line.lstrip().startswith(("```", "~~~")):
            in_fence = not in_fence
            continue
        match = None if in_fence else SUB_HEADING.match(line)
        if match:
            found.append((section.line + offset + (1 if section.level else 0), match[1]))
    return found


def own_text(notes: str, boilerplate: frozenset[str] = frozenset()) -> str:
    """What the session wrote: the notes without HTML comments and without the template's own
    lines (`boilerplate`, compared stripped), which no session wrote and no entry should pay for."""
    text = HTML_COMMENT.sub("", notes)
    return "\n".join(ln for ln in text.splitlines() if ln.strip() and ln.strip() not in boilerplate)


def fold_words(text: str) -> set[str]:
    return {w for w in WORD_RE.findall(text.lower()) if len(w) > 2}


def summary_sentence(item: Item) -> str:
    """The item's first sentence, without bold field labels (`**Context:**`), emphasis marks,
    a leading date (the entry heading has the date) or a nested list marker."""
    text = FIELD_LABEL.sub("", first_sentence(item.text)).replace("**", "").replace("__", "")
    return LEADING_NOISE.sub("", text).strip()   # a leading date or a nested list marker


def told_fragments(cold_text: str) -> dict[str, list[str]]:
    """Cold's sentences (item texts, condensed lines split at their `; ` and label), by first word."""
    index: dict[str, list[str]] = {}
    for line in cold_text.splitlines():
        text = FIELD_LABEL.sub("", clean_text(line)).replace("**", "")
        if not text or text.startswith(("#", "<!--")):
            continue
        label, sep, rest = text.partition(": ")
        parts = [text] + (rest.split("; ") if sep and len(label.split()) <= LABEL_WORDS else text.split("; "))
        for part in parts:
            part = " ".join(part.removesuffix("…").split()).lower()
            if len(part) >= TOLD_MIN_CHARS:
                index.setdefault(part.split()[0], []).append(part)
    return index


def already_told(sentence: str, told: dict[str, list[str]]) -> bool:
    """Context whose opening cold already holds, word for word or nearly (rapidfuzz): notes
    re-pasted from an earlier session, or a line an earlier entry condensed. Numbers must be
    the same: `PR #1090 - Track F Commit 3` is news after `PR #1089 - Track F Commit 2`."""
    folded = " ".join(sentence.split()).lower()
    if len(folded) < TOLD_MIN_CHARS:
        return False
    for fragment in told.get(folded.split()[0], ()):
        n = min(len(folded), len(fragment))
        if n >= TOLD_MIN_CHARS and fuzz.ratio(folded[:n], fragment[:n]) >= TOLD_SIMILARITY \
                and NUMBER_RE.findall(folded[:n]) == NUMBER_RE.findall(fragment[:n]):
            return True
    return False


HEADING_LINE = re.compile(r"^(\s{0,3})#{1,6}\s+(.*?)\s*#*\s*$")
