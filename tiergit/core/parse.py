"""Memory files -> frontmatter, sections (dated entries or pinned), items. Lossless.

`render(parse(text)) == text` for every input: sections keep their exact lines.
Headings are found with markdown-it, so `#` inside a code fence is never a heading.
"""
from __future__ import annotations

import hashlib
import re
from bisect import bisect_left
from dataclasses import dataclass, field
from datetime import date
from functools import lru_cache

from tiergit.core.patterns import TRANSCRIPT_LINE_RE
from tiergit.errors import InputError

DATE_RE = re.compile(r"(?<!\d)(\d{4})-(\d{2})-(\d{2})(?!\d)")
BLOCK_ID_RE = re.compile(r"\s\^(m-[0-9a-z]{4,32})\s*$")
KIND_PREFIX_RE = re.compile(r"^\[(\w+)\]\s*")
LIST_MARKER_RE = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?")
# OpenClaw's promotion note after a snippet in MEMORY.md: not part of the item's text (or id).
OPENCLAW_NOTE_RE = re.compile(r"\s*\[score=[0-9.]+ [^\]]*source=[^\]]*\]\s*$")
BOLD_LABEL_RE = re.compile(r"^\s*(?:[-*+]\s+|\d+[.)]\s+)?\*\*([^*\n]{1,60}?):?\*\*:?")
LEADING_DATE_RE = re.compile(r"^\**\d{4}-\d{2}-\d{2}(?:[t ][0-9:.]+z?)?\**\s*(?:[—–:-]+\s*)?")
ITEM_DATE_RE = re.compile(r"^\s*(?:[-*+]\s+|\d+[.)]\s+)?(?:\[\w+\]\s*)?\**(\d{4}-\d{2}-\d{2})")

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
CLASSIFIER_VERSION = 4
# A label that starts with a question word asks a question (`**What went wrong:**`), so an
# entry such as `**What:**` (Squad's decision field) matches only a label of its own length.
QUESTION_WORDS = frozenset({"what", "why", "how", "when", "who", "where", "which"})
LABEL_WORD_RE = re.compile(r"[a-z0-9#]+(?:['-][a-z0-9]+)*")
# Compiled once: classify and item_id run per item, and re's cache lookup cost ~10 % of indexing.
_SPACES_RE = re.compile(r"\s+")
_BOLD_RE = re.compile(r"\*\*([^*\n]{1,60})\*\*(:?)")
_OPEN_BOX_RE = re.compile(r"^[-*+]\s+\[ \]")
_NOT_LETTER_RE = re.compile(r"[^a-z ]")
SECTION_KINDS = {"active decisions": "decision", "blockers": "open", "current task": "open"}


@dataclass
class Item:
    kind: str
    text: str          # exact source text of the item (may span lines)
    line: int          # 1-based line in the file
    end_line: int      # 1-based, inclusive
    id: str
    explicit_id: bool
    date: date | None  # the item's own leading date, if any

    @property
    def clean(self) -> str:
        return clean_text(self.text)

    @property
    def durable(self) -> bool:
        return self.kind in DURABLE_KINDS

    @property
    def never_compress(self) -> bool:
        return self.kind in NEVER_COMPRESS


@dataclass
class Section:
    heading: str | None   # heading text without the #'s; None for the preamble
    level: int            # 0 for the preamble
    text: str             # exact text, heading line included
    line: int             # 1-based first line in the file
    date: date | None
    items: list[Item] = field(default_factory=list)

    @property
    def pinned(self) -> bool:
        return self.date is None

    @property
    def is_log_section(self) -> bool:
        """An undated section whose items mostly carry their own dates (Squad's dated Learnings lists)."""
        if self.date is not None or not self.items:
            return False
        return sum(1 for i in self.items if i.date) * 2 > len(self.items)

    @property
    def end_line(self) -> int:
        return self.line + self.text.count("\n") - (0 if self.text.endswith("\n") or not self.text else -1) - 1


@dataclass
class MemoryDoc:
    path: str
    frontmatter_text: str        # exact, delimiters included ('' when absent)
    metadata: dict
    sections: list[Section]      # the preamble (level 0) first when the body has one
    entry_level: int | None      # heading level of dated entries, None when nothing is dated

    def render(self) -> str:
        return self.frontmatter_text + "".join(s.text for s in self.sections)

    @property
    def entries(self) -> list[Section]:
        return [s for s in self.sections if s.date is not None]

    @property
    def pinned(self) -> list[Section]:
        return [s for s in self.sections if s.date is None and s.level > 0]

    @property
    def items(self) -> list[Item]:
        return [i for s in self.sections for i in s.items]


def heading_date(heading: str) -> date | None:
    for match in DATE_RE.finditer(heading):
        try:
            return date(int(match[1]), int(match[2]), int(match[3]))
        except ValueError:
            continue
    return None


def clean_text(text: str) -> str:
    """Item text without list marker, kind prefix or block id, whitespace folded."""
    lines = [ln.strip() for ln in text.strip().splitlines()]
    joined = " ".join(ln for ln in lines if ln)
    joined = LIST_MARKER_RE.sub("", joined, count=1)
    joined = KIND_PREFIX_RE.sub("", joined, count=1)
    joined = BLOCK_ID_RE.sub("", joined)
    joined = OPENCLAW_NOTE_RE.sub("", joined)
    return joined.strip()


def item_id(text: str) -> tuple[str, bool]:
    match = BLOCK_ID_RE.search(text.rstrip())
    if match:
        return match[1], True
    normal = _SPACES_RE.sub(" ", clean_text(text)).strip().lower()
    return "m-" + hashlib.sha1(normal.encode("utf-8")).hexdigest()[:8], False


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
    if ":" in inner:
        inner = inner.split(":", 1)[0]
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
    table = {k: list(v) for k, v in DEFAULT_LABELS.items()}
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
    body = LIST_MARKER_RE.sub("", stripped, count=1).lower()
    # A dated log item (`- 2026-04-23 — [correction] …`) is classified by what follows its date.
    body = LEADING_DATE_RE.sub("", body, count=1)
    bold = _bold_label(body)
    for label, kind, words, first in _label_table_cached(_freeze(labels)):
        if words is not None:
            # `first` (the entry's first word and its plurals) is a cheap necessary condition
            if bold is not None and bold[0] in first and _words_match(bold, words):
                return kind
        elif label.startswith("- ["):
            if stripped.lower().startswith(label):
                return kind
        elif body.startswith(label):
            return kind
    if section_heading:
        key = _NOT_LETTER_RE.sub("", section_heading.lower()).strip()
        if key in SECTION_KINDS:
            return SECTION_KINDS[key]
    # Unlabelled prose: what plain language says it is ("never …", "root cause …", "you may …").
    # Imported here: the pre-commit hook never classifies, and judge's patterns cost ~40 ms to compile.
    from tiergit.core import judge
    return judge.plain_kind(text) or "context"


def _freeze(labels: dict[str, list[str]] | None):
    return tuple(sorted((k, tuple(v)) for k, v in (labels or {}).items()))


@lru_cache(maxsize=16)
def _label_table_cached(frozen) -> list[tuple[str, str, tuple[str, ...] | None, frozenset]]:
    """The label table, each row with the forms its first bold word may take (see classify)."""
    return [(text, kind, words, frozenset((words[0], words[0] + "s", words[0] + "es")) if words else frozenset())
            for text, kind, words in _label_table({k: list(v) for k, v in frozen})]


_LINE_RE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+")


def split_lines(text: str) -> list[str]:
    """Lines with their endings, split where markdown-it splits them (\\r\\n, \\r or \\n).

    str.splitlines also breaks at form feeds, U+0085 and U+2028, which real files hold
    (a .NET project's histories carry stray \\x0c): block maps would point past the lines."""
    return _LINE_RE.findall(text)


@lru_cache(maxsize=1)
def _md():
    from markdown_it import MarkdownIt
    # Only block tokens and the raw text of inline tokens are read: skipping the inline
    # pass roughly halves parse time and leaves every token map and heading text the same.
    return MarkdownIt("commonmark").disable("inline")


def split_frontmatter(text: str, path: str = "<text>") -> tuple[str, dict, str]:
    """(exact frontmatter text, metadata, body). Raises InputError on invalid YAML."""
    if not (text.startswith("---\n") or text.startswith("---\r\n")):
        return "", {}, text
    lines = split_lines(text)
    if len(lines) > 1 and not lines[1].strip():
        # `---` then a blank line is a markdown thematic break (OpenClaw's session notes open
        # with one), never frontmatter, which starts with its first key.
        return "", {}, text
    for idx in range(1, len(lines)):
        if lines[idx].rstrip("\r\n") in ("---", "..."):
            fm = "".join(lines[: idx + 1])
            yaml_text = "".join(lines[1:idx])
            from tiergit.core import (
                safeyaml,  # PyYAML costs ~25 ms: only files with frontmatter pay it
            )

            try:
                meta = safeyaml.load(yaml_text) if yaml_text.strip() else {}
            except safeyaml.AliasError as exc:
                raise InputError(path, exc.line + 1, "FM001", "frontmatter uses a YAML alias",
                                 "write the value out in full") from None
            except Exception as exc:  # noqa: BLE001 - any YAML error
                mark = getattr(exc, "problem_mark", None)
                line = (mark.line + 2) if mark is not None else 1
                problem = getattr(exc, "problem", None) or "invalid YAML"
                raise InputError(path, line, "FM001", f"invalid frontmatter: {problem}",
                                 "fix the YAML between the --- lines, or remove it") from None
            if meta is None:
                meta = {}
            if not isinstance(meta, dict):
                raise InputError(path, 2, "FM001", "frontmatter must be a YAML mapping (key: value lines)",
                                 "use `key: value` lines between the --- delimiters")
            return fm, meta, "".join(lines[idx + 1:])
    raise InputError(path, 1, "FM001", "frontmatter is not closed",
                     "add a closing --- line after the metadata, or remove the opening ---")


def _headings(body: str, tokens=None) -> list[tuple[int, int, str]]:
    """(0-based start line, level, text) of every heading in the body."""
    tokens = _md().parse(body) if tokens is None else tokens
    out = []
    for i, tok in enumerate(tokens):
        if tok.type == "heading_open" and tok.map is not None:
            out.append((tok.map[0], int(tok.tag[1]), tokens[i + 1].content.strip()))
    return out


def _block_ranges(body_lines: list[str]) -> list[tuple[str, int, int]]:
    """(type, start, end) top-level blocks of a section body: list items, paragraphs, fences."""
    return _blocks_of(_md().parse("".join(body_lines)))


def _blocks_of(tokens) -> list[tuple[str, int, int]]:
    """_block_ranges over an already parsed token stream (line numbers as its token maps)."""
    blocks = []
    depth = 0
    list_depth = 0
    for tok in tokens:
        if tok.type in ("bullet_list_open", "ordered_list_open"):
            list_depth += 1
        elif tok.type in ("bullet_list_close", "ordered_list_close"):
            list_depth -= 1
        elif tok.type == "list_item_open" and list_depth == 1 and tok.map:
            blocks.append(("item", tok.map[0], tok.map[1]))
        elif tok.type == "paragraph_open" and list_depth == 0 and depth == 0 and tok.map:
            blocks.append(("para", tok.map[0], tok.map[1]))
        elif tok.type == "fence" and list_depth == 0 and tok.map:
            blocks.append(("fence", tok.map[0], tok.map[1]))
        if tok.type == "blockquote_open":
            depth += 1
        elif tok.type == "blockquote_close":
            depth -= 1
    return blocks


def _items(section_lines: list[str], first_line: int, heading: str | None,
           labels: dict[str, list[str]] | None, skip_heading: bool,
           blocks: list[tuple[str, int, int]] | None = None) -> list[Item]:
    offset = 1 if skip_heading else 0
    body_lines = section_lines[offset:]
    from tiergit.core import judge

    items = []
    subs = [n for n, ln in enumerate(body_lines) if ln.lstrip().startswith("#")]
    lead: tuple[str, int] | None = None   # (kind, end) of a `**Root cause:**` paragraph that opens a list
    for btype, start, end in (_block_ranges(body_lines) if blocks is None else blocks):
        end = min(end, len(body_lines))   # never past the section, whatever a token map says
        if start >= end:
            continue
        while end > start and not body_lines[end - 1].strip():
            end -= 1
        text = "".join(body_lines[start:end])
        if btype == "para" and not BOLD_LABEL_RE.match(text) and not TRANSCRIPT_LINE_RE.match(text):
            # A plain paragraph is only an item under a "log"/hot section or when labelled.
            if heading is None:
                continue
        kind = classify(text, heading, labels)
        if kind == "context" and btype == "item":
            # A list under a labelled lead-in keeps its kind; under `### DTO Patterns`, a learning.
            above = [n for n in subs if n < start]
            sub = body_lines[above[-1]].lstrip("# \t").strip() if above else None
            inherited = lead[0] if lead and not any(lead[1] <= n < start for n in subs) and len(text) <= judge.MAX_PLAIN_CHARS else None
            kind = inherited or (judge.heading_kind(sub) if len(text) <= judge.MAX_PLAIN_CHARS else None) or kind
        if btype == "para":
            lead = (kind, end) if kind != "context" and text.rstrip().rstrip("*_").endswith(":") else None
        elif lead and kind == lead[0] and items and items[-1].kind == lead[0]:
            lead = (kind, end)   # the list continues
        iid, explicit = item_id(text)
        dm = ITEM_DATE_RE.match(text)
        item_date = heading_date(dm[1]) if dm else None
        line = first_line + offset + start
        items.append(Item(kind=kind, text=text, line=line, end_line=line + (end - start) - 1,
                          id=iid, explicit_id=explicit, date=item_date))
    # A bare label (`**Key patterns:**`) says nothing by itself: it keeps its kind only as the
    # lead-in of the list under it.
    for n, item in enumerate(items):
        if item.kind != "context" and judge.junk(item.text) == "bare markup, no words" and not (
                n + 1 < len(items) and items[n + 1].kind == item.kind):
            item.kind = "context"
    return items


def parse(text: str, path: str = "<text>", labels: dict[str, list[str]] | None = None,
          with_items: bool = True) -> MemoryDoc:
    fm_text, meta, body = split_frontmatter(text, path)
    fm_lines = fm_text.count("\n")
    lines = split_lines(body)
    tokens = _md().parse(body)
    heads = _headings(body, tokens)
    dated_levels = [lvl for _, lvl, txt in heads if heading_date(txt)]
    entry_level = min(dated_levels) if dated_levels else None
    split_level = entry_level if entry_level is not None else 2
    cuts = [(start, lvl, txt) for start, lvl, txt in heads if lvl <= split_level]
    sections: list[Section] = []
    if not cuts or cuts[0][0] > 0:
        end = cuts[0][0] if cuts else len(lines)
        if end > 0:
            sections.append(Section(None, 0, "".join(lines[:end]), fm_lines + 1, None))
    for idx, (start, lvl, txt) in enumerate(cuts):
        end = cuts[idx + 1][0] if idx + 1 < len(cuts) else len(lines)
        dated = heading_date(txt) if lvl == entry_level else None
        sections.append(Section(txt, lvl, "".join(lines[start:end]), fm_lines + start + 1, dated))
    if with_items:
        shared = _shared_blocks(tokens) if FAST_BLOCKS else None
        for sec in sections:
            sec_lines = split_lines(sec.text)
            skip = sec.level > 0
            blocks = None
            if shared is not None:   # the section's blocks from the body's one parse
                first = sec.line - fm_lines - 1 + skip
                lo, hi = bisect_left(shared, (first,)), bisect_left(shared, (first + len(sec_lines) - skip,))
                blocks = [(t, s - first, e - first) for s, t, e in shared[lo:hi]]
            sec.items = _items(sec_lines, sec.line, sec.heading, labels, skip_heading=skip, blocks=blocks)
    return MemoryDoc(path=path, frontmatter_text=fm_text, metadata=meta, sections=sections,
                     entry_level=entry_level)


# Read each body's blocks from its one markdown-it parse instead of parsing every section
# again (half the parse time). Off only to prove the two equal (tests/test_parse_fastblocks.py).
FAST_BLOCKS = True


def _shared_blocks(tokens) -> list[tuple[int, str, int]] | None:
    """(start, type, end) of the body's blocks when every heading is a top-level ATX heading
    (one line, no open container around it), so a section parsed alone yields the same blocks;
    None otherwise (a setext heading or a heading in a list or quote: sections are parsed alone)."""
    for tok in tokens:
        if tok.type == "heading_open" and (tok.level != 0 or not tok.markup.startswith("#")):
            return None
    return [(s, t, e) for t, s, e in _blocks_of(tokens)]


def decode(data: bytes, path: str, max_bytes: int | None = None) -> str:
    """Bytes of a memory file -> text, or an InputError naming the file and the fix."""
    if max_bytes is not None and len(data) > max_bytes:
        raise InputError(path, 1, "TG003", f"file is {len(data)} bytes, over the {max_bytes}-byte limit",
                         "split it, or raise limits.max_file_bytes in .tiergit.yml")
    nul = data.find(b"\0")  # the whole file (memchr-fast): a NUL after 8 KB is binary too
    if nul >= 0:
        raise InputError(path, 1, "TG001", f"binary file in the memory store (NUL byte at offset {nul})",
                         "memory files are UTF-8 markdown; move binaries out of the store")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise InputError(path, line, "TG002", f"not valid UTF-8 (byte {exc.start})",
                         "re-save the file as UTF-8") from None


def has_transcript(text: str) -> list[int]:
    """1-based lines that look like raw chat transcript (`User:` / `Assistant:`), outside fences."""
    hits = []
    in_fence = False
    for n, line in enumerate(split_lines(text), 1):
        line = line.rstrip("\r\n")
        if line.lstrip().startswith(("```", "~~~")):
            in_fence = not in_fence
            continue
        if not in_fence and TRANSCRIPT_LINE_RE.match(line):
            hits.append(n)
    return hits
