"""Memory files -> frontmatter, sections (dated entries or pinned), items. Lossless: `render(parse(text)) == text`.

Headings are found with markdown-it, so `#` inside a code fence is never a heading. judge (its patterns) and
safeyaml (PyYAML) are imported inside the functions that use them: the hook's budget (it parses no item kinds,
and only a file with frontmatter needs YAML).
"""
from __future__ import annotations

import re
from bisect import bisect_left
from datetime import date

from tiergit.core import mdblocks, mdscan, mdsegments
from tiergit.core.frontmatter import split_frontmatter  # noqa: F401 - moved there; callers keep parse.split_frontmatter
from tiergit.core.kinds import DURABLE_KINDS, LIST_MARKER_RE, NEVER_COMPRESS, classify
from tiergit.core.patterns import TRANSCRIPT_LINE_RE
from tiergit.core.record import Record
from tiergit.core.rawtext import split_lines
from tiergit.core.sha1 import sha1

DATE_RE = re.compile(r"(?<!\d)(\d{4})-(\d{2})-(\d{2})(?!\d)")
BLOCK_ID_RE = re.compile(r"\s\^(m-[0-9a-z]{4,32})\s*$")
KIND_PREFIX_RE = re.compile(r"^\[(\w+)\]\s*")
# OpenClaw's promotion note after a snippet in MEMORY.md: not part of the item's text (or id).
OPENCLAW_NOTE_RE = re.compile(r"\s*\[score=[0-9.]+ [^\]]*source=[^\]]*\]\s*$")
BOLD_LABEL_RE = re.compile(r"^\s*(?:[-*+]\s+|\d+[.)]\s+)?\*\*([^*\n]{1,60}?):?\*\*:?")
ITEM_DATE_RE = re.compile(r"^\s*(?:[-*+]\s+|\d+[.)]\s+)?(?:\[\w+\]\s*)?\**(\d{4}-\d{2}-\d{2})")
# Work done once: the same item text recurs across a file's versions (history, archive, the
# recall index's history rows) and across files, and its kind and id depend on nothing else
# (the kind also on its section heading and the label vocabulary). Bounded: cleared when full.
_MEMO_MAX = 50_000   # ~10 MB of keys at most; a store's versions repeat within far fewer
_KIND_MEMO: dict[tuple, str] = {}
_ID_MEMO: dict[str, tuple[str, bool, str]] = {}


def _kind_once(text: str, heading: str | None, labels: dict | None, labels_key: tuple) -> str:
    key = (text, heading, labels_key)
    kind = _KIND_MEMO.get(key)
    if kind is None:
        if len(_KIND_MEMO) >= _MEMO_MAX:
            _KIND_MEMO.clear()
        kind = _KIND_MEMO[key] = classify(text, heading, labels)
    return kind


def _id_once(text: str) -> tuple[str, bool, str]:
    """(id, explicit, clean text): the id is read from the clean text, so both come from one pass."""
    got = _ID_MEMO.get(text)
    if got is None:
        if len(_ID_MEMO) >= _MEMO_MAX:
            _ID_MEMO.clear()
        clean = clean_text(text)
        got = _ID_MEMO[text] = (*_id_of(text, clean), clean)
    return got


def labels_key(labels: dict[str, list[str]] | None) -> tuple:
    return tuple(sorted((k, tuple(v)) for k, v in (labels or {}).items()))


class Item(Record):
    _fields = ("kind", "text", "line", "end_line", "id", "explicit_id", "date")
    # (text, clean_text(text)) once computed: kept only while `text` is that very string
    _clean: tuple[str, str] | None = None

    def __init__(self, kind: str, text: str, line: int, end_line: int, id: str, explicit_id: bool,
                 date: date | None) -> None:
        # text: exact source text (may span lines); line / end_line: 1-based, inclusive; date: its own leading date
        self.kind, self.text, self.line, self.end_line = kind, text, line, end_line
        self.id, self.explicit_id, self.date = id, explicit_id, date

    @property
    def clean(self) -> str:
        got = self._clean
        if got is not None and got[0] is self.text:
            return got[1]
        clean = clean_text(self.text)
        self._clean = (self.text, clean)
        return clean

    def __getstate__(self) -> dict:
        # The parse cache pickles items: the clean text is recomputed on demand, not stored twice.
        state = dict(self.__dict__)
        state.pop("_clean", None)
        return state

    @property
    def durable(self) -> bool:
        return self.kind in DURABLE_KINDS

    @property
    def never_compress(self) -> bool:
        return self.kind in NEVER_COMPRESS


class Section(Record):
    _fields = ("heading", "level", "text", "line", "date", "items")

    def __init__(self, heading: str | None, level: int, text: str, line: int, date: date | None,
                 items: list[Item] | None = None) -> None:
        # heading: no #'s, None for the preamble (level 0); text: exact, heading line included; line: 1-based
        self.heading, self.level, self.text, self.line, self.date = heading, level, text, line, date
        self.items: list[Item] = [] if items is None else items

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


class MemoryDoc(Record):
    _fields = ("path", "frontmatter_text", "metadata", "sections", "entry_level")

    def __init__(self, path: str, frontmatter_text: str, metadata: dict, sections: list[Section],
                 entry_level: int | None) -> None:
        # frontmatter_text: exact, delimiters included ('' when absent); sections: the preamble (level 0)
        # first when the body has one; entry_level: of dated entries' headings, None when nothing is dated
        self.path, self.frontmatter_text, self.metadata = path, frontmatter_text, metadata
        self.sections, self.entry_level = sections, entry_level

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
    # Both patterns are anchored at the start: a match and a slice do what sub(count=1) did.
    if m := LIST_MARKER_RE.match(joined):
        joined = joined[m.end():]
    if joined.startswith("[") and (m := KIND_PREFIX_RE.match(joined)):
        joined = joined[m.end():]
    # Both patterns hold a literal an item rarely has: a substring test spares their search.
    if "^m-" in joined:
        joined = BLOCK_ID_RE.sub("", joined)
    if "[score=" in joined:
        joined = OPENCLAW_NOTE_RE.sub("", joined)
    return joined.strip()


def item_id(text: str) -> tuple[str, bool]:
    return _id_of(text, None)


def _id_of(text: str, clean: str | None) -> tuple[str, bool]:
    """item_id, given the text's clean_text when the caller has it (None: computed here)."""
    match = BLOCK_ID_RE.search(text.rstrip()) if "^m-" in text else None
    if match:
        return match[1], True
    # str.split() splits on the whitespace `\s+` matches (both ask Py_UNICODE_ISSPACE), without a regex
    clean = clean_text(text) if clean is None else clean
    # clean_text leaves no line break or edge space, and ASCII's other spaces are \t and \x1f: most need no fold
    folded = clean.isascii() and "  " not in clean and "\t" not in clean and "\x1f" not in clean
    normal = (clean if folded else " ".join(clean.split())).lower()
    return "m-" + sha1(normal.encode("utf-8")).hexdigest()[:8], False


def _headings(body: str, tokens=None) -> list[tuple[int, int, str]]:
    """(0-based start line, level, text) of every heading in the body."""
    return mdblocks.headings_of(mdblocks.md().parse(body) if tokens is None else tokens)


def _items(section_lines: list[str], first_line: int, heading: str | None,
           labels: dict[str, list[str]] | None, skip_heading: bool,
           blocks: list[tuple[str, int, int]] | None = None, lkey: tuple | None = None, notes: bool = False,
           kinds: bool = True) -> list[Item]:
    lkey = labels_key(labels) if lkey is None else lkey
    offset = 1 if skip_heading else 0
    body_lines = section_lines[offset:]
    if kinds:   # the judgement's patterns load only where kinds are read (not in the merge driver)
        from tiergit.core import judge

    items = []
    subs = [n for n, ln in enumerate(body_lines) if ln.lstrip().startswith("#")]
    lead: tuple[str, int] | None = None   # (kind, end) of a `**Root cause:**` paragraph that opens a list
    for btype, start, end in mdblocks.item_blocks(body_lines, blocks, quotes=notes):
        end = min(end, len(body_lines))   # never past the section, whatever a token map says
        if start >= end:
            continue
        while end > start and not body_lines[end - 1].strip():
            end -= 1
        text = "".join(body_lines[start:end])
        if btype == "para" and not BOLD_LABEL_RE.match(text) and not TRANSCRIPT_LINE_RE.match(text):
            # A plain paragraph is only an item under a heading or when labelled (else a preamble), or in notes.
            if heading is None and not notes:
                continue
        kind = _kind_once(text, heading, labels, lkey) if kinds else "context"
        if kinds and kind in ("context", "rule") and btype == "item" and len(text) <= judge.MAX_PLAIN_CHARS:
            # Under a labelled lead-in, its kind; `### DTO Patterns`, a learning; `Next steps:`, a to-do.
            above = [n for n in subs if n < start]
            sub = body_lines[above[-1]].lstrip("# \t").strip() if above else None
            got = (lead[0] if lead and not any(lead[1] <= n < start for n in subs) else None, judge.heading_kind(sub))
            kind = (got[0] or got[1] or kind) if kind == "context" else ("open" if "open" in got else kind)
        if btype == "para":
            lead_kind = "open" if kinds and judge.heading_kind(text.strip()) == "open" else kind
            lead = (lead_kind, end) if lead_kind != "context" and text.rstrip().rstrip("*_").endswith(":") else None
        elif lead and kind == lead[0] and items and items[-1].kind == lead[0]:
            lead = (kind, end)   # the list continues
        iid, explicit, clean = _id_once(text)
        dm = ITEM_DATE_RE.match(text)
        item_date = heading_date(dm[1]) if dm else None
        line = first_line + offset + start
        item = Item(kind=kind, text=text, line=line, end_line=line + (end - start) - 1,
                    id=iid, explicit_id=explicit, date=item_date)
        item._clean = (text, clean)
        items.append(item)
    if kinds:
        _drop_bare_labels(items)
    return items


def _drop_bare_labels(items: list[Item]) -> None:
    """A bare label (`**Key patterns:**`) says nothing by itself: it keeps its kind only as the
    lead-in of the list under it."""
    from tiergit.core import judge

    for n, item in enumerate(items):
        if item.kind != "context" and judge.bare(item.text) and not (
                n + 1 < len(items) and items[n + 1].kind == item.kind):
            item.kind = "context"


def parse(text: str, path: str = "<text>", labels: dict[str, list[str]] | None = None,
          with_items: bool = True, notes: bool = False, by_stretch: bool = False, kinds: bool = True) -> MemoryDoc:
    """`notes`: a session's notes, where a paragraph above any heading and a block quote are items.
    `by_stretch`: one of several versions of a file read together (mdsegments.scan). `kinds=False`:
    every item is "context", unjudged (for a reader of ids, lines and dates only: the merge)."""
    fm_text, meta, body = split_frontmatter(text, path)
    fm_lines = fm_text.count("\n")
    lines = split_lines(body)
    # The line scanner answers for most bodies, stretch by stretch; markdown-it for the rest (core/mdsegments.py).
    scanned = mdsegments.scan(lines, by_stretch) if mdblocks.FAST_BLOCKS and mdscan.ENABLED else None
    tokens = None if scanned is not None else mdblocks.md().parse(body)
    heads = scanned[0] if scanned is not None else _headings(body, tokens)
    dated_levels = [lvl for _, lvl, txt in heads if heading_date(txt)]
    entry_level = min(dated_levels) if dated_levels else None
    split_level = entry_level if entry_level is not None else 2
    cuts = [(start, lvl, txt) for start, lvl, txt in heads if lvl <= split_level]
    sections: list[Section] = []
    spans: list[tuple[int, int]] = []   # each section's lines in `lines` (its text, not split again)
    if not cuts or cuts[0][0] > 0:
        end = cuts[0][0] if cuts else len(lines)
        if end > 0:
            sections.append(Section(None, 0, "".join(lines[:end]), fm_lines + 1, None))
            spans.append((0, end))
    for idx, (start, lvl, txt) in enumerate(cuts):
        end = cuts[idx + 1][0] if idx + 1 < len(cuts) else len(lines)
        dated = heading_date(txt) if lvl == entry_level else None
        sections.append(Section(txt, lvl, "".join(lines[start:end]), fm_lines + start + 1, dated))
        spans.append((start, end))
    if with_items:
        if scanned is not None:
            shared = scanned[1]
        else:
            shared = mdblocks.shared_blocks(tokens) if mdblocks.FAST_BLOCKS else None
        lkey = labels_key(labels)
        for sec, (lo, hi) in zip(sections, spans):
            sec_lines = lines[lo:hi]
            skip = sec.level > 0
            blocks = None
            if shared is not None:   # the section's blocks from the body's one parse
                first = sec.line - fm_lines - 1 + skip
                lo, hi = bisect_left(shared, (first,)), bisect_left(shared, (first + len(sec_lines) - skip,))
                blocks = [(t, s - first, e - first) for s, t, e in shared[lo:hi]]
            sec.items = _items(sec_lines, sec.line, sec.heading, labels, skip_heading=skip, blocks=blocks, lkey=lkey, notes=notes,
                               kinds=kinds)
    return MemoryDoc(path=path, frontmatter_text=fm_text, metadata=meta, sections=sections,
                     entry_level=entry_level)
