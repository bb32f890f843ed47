"""An item's kind: the label vocabulary and the rule that reads a kind from an item's text.

`classify` tries a `[kind]` prefix, a bold label, the item's hot section, then plain language
(core/judge.py). Pure: text in, a kind out.
"""
from __future__ import annotations

import re
from functools import lru_cache

from tiergit.core.kind_tags import LABEL_TAGS, TRANSLATED_LABEL_WORDS, TRANSLATED_TAGS
from tiergit.core.patterns import TRANSCRIPT_LINE_RE

LIST_MARKER_RE = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?")
LEADING_DATE_RE = re.compile(r"^\**\d{4}-\d{2}-\d{2}(?:[t ][0-9:.]+z?)?\**\s*(?:[—–:-]+\s*)?")

KINDS = ("decision", "rule", "fact", "correction", "permission", "error", "open", "context", "log")
DURABLE_KINDS = frozenset({"decision", "rule", "fact", "correction"})
NEVER_COMPRESS = frozenset({"decision", "correction", "permission", "error", "open"})

# The default vocabulary (DESIGN.md's kind table). A bold label matches by its leading
# words, so `**Pattern:**` also gives `**Key patterns identified:**` (see classify).
DEFAULT_LABELS: dict[str, list[str]] = {
    "decision": ["[decision]", "**Decision:**", "**What:**"],
    "rule": ["[rule]", "[preference]", "**Rule:**", "**Pattern:**", "**Anti-pattern:**", "**Fix pattern:**",
             "**Lesson:**", "**Learning:**", "**Insight:**", "**Convention:**"],
    "fact": ["[fact]", "**Fact:**", "**Constraint:**"],
    "correction": ["[correction]", "**Correction:**"],
    "permission": ["[permission]", "**Approved:**", "**Denied:**"],
    "error": ["[error]", "**Root cause:**", "**Fix:**", "**Problem:**", "**Solution:**"],
    "open": ["[todo]", "[blocker]", "- [ ]"],
    "log": ["[log]"],
}
# Bump when DEFAULT_LABELS or classify() change, so caches of parsed kinds are rebuilt.
CLASSIFIER_VERSION = 11
# A label that starts with a question word asks a question (`**What went wrong:**`), so an
# entry such as `**What:**` (Squad's decision field) matches only a label of its own length.
QUESTION_WORDS = frozenset({"what", "why", "how", "when", "who", "where", "which"})
# Letters of any script: a label may be `**Entscheidung:**` or `**決定：**`.
LABEL_WORD_RE = re.compile(r"(?:[^\W_]|#)+(?:['-][^\W_]+)*")
# Compiled once: classify and item_id run per item, and re's cache lookup cost ~10 % of indexing.
_BOLD_RE = re.compile(r"\*\*([^*\n]{1,60})\*\*([:：]?)")
_OPEN_BOX_RE = re.compile(r"^[-*+]\s+\[ \]")
_NOT_LETTER_RE = re.compile(r"[^a-z ]")
SECTION_KINDS = {"active decisions": "decision", "blockers": "open", "current task": "open"}


def label_words(label: str) -> tuple[str, ...]:
    """The words of a bold label, lowercased, without a leading "Key" (`**Key lessons:**` -> lessons)."""
    words = tuple(LABEL_WORD_RE.findall(label.lower()))
    return words[1:] if len(words) > 1 and words[0] == "key" else words


def _bold_label(body: str) -> tuple[str, ...] | None:
    """The words of the bold label an item starts with: the bold text up to its first colon,
    which must be inside the bold or right after it (`**Fix 1: Stderr leak**`, `**Fix**:`)."""
    match = _BOLD_RE.match(body)
    if not match:
        return None
    inner, colon_after = match[1], match[2]
    if ":" in inner or "：" in inner:   # a CJK text's colon is full-width
        inner = re.split("[:：]", inner, maxsplit=1)[0]
    elif not colon_after:
        return None   # a bold phrase without a colon is emphasis, not a label
    return label_words(inner) or None


def _words_match(label: tuple[str, ...], entry: tuple[str, ...]) -> bool:
    """The label starts with the entry's words, each word as written or with a plural s/es."""
    if len(label) < len(entry) or (entry[0] in QUESTION_WORDS and len(label) != len(entry)):
        return False
    return all(w in (e, e + "s", e + "es") for w, e in zip(label, entry))


def _label_table(labels: dict[str, list[str]] | None) -> list[tuple[str, str, tuple[str, ...] | None]]:
    """(label, kind, bold-label words or None) ordered so the most specific entry is tried first:
    prefixes by length, bold labels by word count, then configured before default, then longer
    (`**Fixes:**` before `**Fix:**`, which also matches "fixes")."""
    table = {k: [*v, *dict.fromkeys([*LABEL_TAGS.get(k, ()), *TRANSLATED_TAGS.get(k, ()), *(f"[{w}]" for w in TRANSLATED_LABEL_WORDS.get(k, ()))]),
                 *(f"**{w}:**" for w in TRANSLATED_LABEL_WORDS.get(k, ()))]
             for k, v in DEFAULT_LABELS.items()}
    for kind, values in (labels or {}).items():
        table[kind] = list(values)
    configured = set(labels or {})
    rows = []
    for kind, values in table.items():
        for label in values:
            text = str(label).strip().lower()
            bold = re.fullmatch(r"\*\*([^*]+?)\*\*:?", text)
            words = label_words(bold[1]) if bold else None
            rows.append((text, kind, words or None, kind in configured))
    rows.sort(key=lambda r: (-len(r[2]), not r[3], -len(r[0])) if r[2] else (-100, False, -len(r[0])))
    return [(text, kind, words) for text, kind, words, _ in rows]


def classify(text: str, section_heading: str | None = None, labels: dict[str, list[str]] | None = None) -> str:
    """An item's kind from its prefix, bold label or section (see DESIGN.md's table).

    `[kind]` prefixes match exactly. A bold label matches a vocabulary entry by its leading
    words: case, a plural s/es, a leading "Key" and any words after the entry's are ignored,
    so `**Pattern:**` gives `**Patterns:**`, `**Key pattern:**`, `**Pattern identified:**`.
    The entry with the most words wins (`**Fix pattern:**` rule over `**Fix:**` error).
    """
    stripped = text.lstrip()
    if stripped.startswith("```") or stripped.startswith("~~~") or TRANSCRIPT_LINE_RE.match(stripped):
        return "log"
    if _OPEN_BOX_RE.match(stripped):
        return "open"
    # Both patterns are anchored at the start: a match and a slice do what sub(count=1) did.
    body = stripped[m.end():].lower() if (m := LIST_MARKER_RE.match(stripped)) else stripped.lower()
    # A dated log item (`- 2026-04-23 — [correction] …`) is classified by what follows its date.
    if m := LEADING_DATE_RE.match(body):
        body = body[m.end():]
    bold = _bold_label(body)
    prefixes, box_prefixes, plain_rows, by_first = _label_lookup(_freeze(labels) if labels else ())
    # Most items carry no label: when no row could match, skip the walk over the table.
    # A `- [ ]`-style label holds no letter: lowercasing cannot make a text start with one.
    if bold is not None or body.startswith(prefixes) or (
            stripped.startswith("- [") and stripped.lower().startswith(box_prefixes)):
        kind = _first_row(stripped, body, bold, plain_rows, by_first)
        if kind is not None:
            return kind
    if section_heading:
        kind = _section_kind(section_heading)
        if kind is not None:
            return _content_over_section(text, kind)
    # Unlabelled prose: what plain language says it is ("never …", "root cause …", "you may …").
    return _judge().plain_kind(text) or "context"


@lru_cache(maxsize=1024)
def _section_kind(heading: str) -> str | None:
    """The kind a hot section's heading gives its items (every item of a section asks)."""
    return SECTION_KINDS.get(_NOT_LETTER_RE.sub("", heading.lower()).strip())


def _judge():
    """core/judge.py, imported on first use: the pre-commit hook never classifies, and judge's
    patterns cost ~40 ms to compile. Held here: an import statement per item cost ~3 % of indexing."""
    global _JUDGE
    if _JUDGE is None:
        from tiergit.core import judge
        _JUDGE = judge
    return _JUDGE


_JUDGE = None


# Kinds an item's own words give it that outrank the hot section it sits in: "No — we use Bicep"
# under *Active decisions* is a correction, "You may force-push" a permission.
CONTENT_OVER_SECTION = {"decision": ("correction", "permission", "error", "open"), "open": ("correction", "permission")}


def _content_over_section(text: str, section_kind: str) -> str:
    own = _judge().plain_kind(text)
    return own if own in CONTENT_OVER_SECTION.get(section_kind, ()) else section_kind


def _freeze(labels: dict[str, list[str]] | None):
    return tuple(sorted((k, tuple(v)) for k, v in (labels or {}).items()))


def _first_row(stripped: str, body: str, bold: tuple[str, ...] | None, plain_rows: tuple, by_first: dict) -> str | None:
    """The kind of the label table's first row the item matches, or None. A bold label is tried
    only on the rows its first word can match (by_first), not walked over all ~30 rows."""
    at, found = float("inf"), None   # the first plain row matched: past every row until one is
    for n, label, kind in plain_rows:
        if stripped.lower().startswith(label) if label.startswith("- [") else body.startswith(label):
            at, found = n, kind
            break
    if bold is not None:
        for n, kind, words in by_first.get(bold[0], ()):
            if n > at:
                break
            if _words_match(bold, words):
                return kind
    return found


@lru_cache(maxsize=16)
def _label_lookup(frozen) -> tuple[tuple[str, ...], tuple[str, ...], tuple, dict]:
    """The label table's plain prefix labels (`[rule]`: what an item without a bold label can
    match), its `- [ ]`-style labels (matched against the item with its list marker), its rows
    without bold words as (row, label, kind), and its bold rows as (row, kind, words) under each
    form their first word may take (the word and its plurals), in the table's order."""
    table = _label_table_cached(frozen)
    by_first: dict[str, list] = {}
    for n, (_, kind, words, first) in enumerate(table):
        for form in sorted(first):
            by_first.setdefault(form, []).append((n, kind, words))
    return (tuple(label for label, _, words, _ in table if words is None and not label.startswith("- [")),
            tuple(label for label, _, words, _ in table if words is None and label.startswith("- [")),
            tuple((n, label, kind) for n, (label, kind, words, _) in enumerate(table) if words is None),
            {form: tuple(rows) for form, rows in by_first.items()})


@lru_cache(maxsize=16)
def _label_table_cached(frozen) -> tuple[tuple[str, str, tuple[str, ...] | None, frozenset], ...]:
    """The label table, each row with the forms its first bold word may take (see classify)."""
    return tuple([(text, kind, words, frozenset((words[0], words[0] + "s", words[0] + "es")) if words else frozenset())
            for text, kind, words in _label_table({k: list(v) for k, v in frozen})])
