"""Compaction of session notes: keep what must survive, condense context, drop logs.

Deterministic and offline by default. A user's summarizer command may replace
the condensed part; whatever it returns, `ensure_kept` re-adds every item that
must survive verbatim (DESIGN rule 2), so a summarizer can only add, never lose.
"""
from __future__ import annotations

import os
import re
import shlex
import signal
import subprocess
from dataclasses import dataclass, field

from tiergit.errors import TiergitError
from tiergit.parse import DURABLE_KINDS, LIST_MARKER_RE, NEVER_COMPRESS, Item, MemoryDoc, classify, clean_text

# Kept verbatim: never-compress kinds plus the durable ones (rules and facts are what promotion feeds on).
KEEP_KINDS = NEVER_COMPRESS | DURABLE_KINDS
DEFAULT_RATIO = 0.10
DEFAULT_TIMEOUT = 60.0
# Sizes in characters (~4 a token), so dense technical text is budgeted by what it costs.
MIN_LINE_CHARS, MAX_LINE_CHARS = 48, 240   # condensed text per line, beyond its label
LABEL_WORDS = 6
ENTRY_OVERHEAD_CHARS = 120                 # the entry heading and its session marker
# Hot-template sections that give items their kind; written to cold with an explicit prefix.
SECTION_PREFIX = {"active decisions": "[decision]", "blockers": "[blocker]"}
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'`(\[*])")
DATE_SUFFIX = re.compile(r"\s*[(\[]?\d{4}-\d{2}-\d{2}(?:[T ][0-9:.-]+Z?)?[)\]]?\s*$")
LEADING_DATE = re.compile(r"^\s*\d{4}-\d{2}-\d{2}(?:[T ][0-9:.]+Z?)?\s*[-—–:·]*\s*")
SUB_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$")
SEEN_PREFIX_WORDS = 8


@dataclass
class Compaction:
    kept: list[str] = field(default_factory=list)        # verbatim item texts, as written to cold
    kept_ids: list[str] = field(default_factory=list)
    condensed: list[str] = field(default_factory=list)   # one summary line per notes section
    condensed_items: int = 0                              # context items folded into those lines
    dropped: int = 0                                      # log items and duplicates of the session
    duplicates: int = 0                                   # kept items already in cold
    notes: list[str] = field(default_factory=list)

    def body(self) -> str:
        """The entry body: kept items verbatim, then the condensed context."""
        blocks: list[str] = []
        for text in self.kept + self.condensed:
            if blocks and _is_list_item(blocks[-1]) and _is_list_item(text):
                blocks[-1] += "\n" + text
            else:
                blocks.append(text)
        return "\n\n".join(blocks)


def _is_list_item(text: str) -> bool:
    last = text.rsplit("\n\n", 1)[-1]
    return bool(LIST_MARKER_RE.match(last))


def settings(compact: dict, config_name: str = ".tiergit.yml") -> dict:
    """`compact:` from the config, validated: {command, timeout, ratio}."""
    unknown = set(compact) - {"command", "timeout", "ratio"}
    if unknown:
        raise TiergitError(f"{config_name}: compact.{sorted(unknown)[0]}: unknown key",
                           "compact takes command, timeout and ratio")
    command = compact.get("command")
    if command is not None and (not isinstance(command, str) or not command.strip()):
        raise TiergitError(f"{config_name}: compact.command: must be a command line string",
                           "example: compact: {command: 'llm -m gpt-4o-mini -s \"Summarize\"', timeout: 60}")
    timeout = compact.get("timeout", DEFAULT_TIMEOUT)
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or timeout <= 0:
        raise TiergitError(f"{config_name}: compact.timeout: must be a positive number of seconds")
    ratio = compact.get("ratio", DEFAULT_RATIO)
    if isinstance(ratio, bool) or not isinstance(ratio, (int, float)) or not 0 < ratio <= 1:
        raise TiergitError(f"{config_name}: compact.ratio: must be a fraction between 0 and 1, e.g. 0.10")
    return {"command": command, "timeout": float(timeout), "ratio": float(ratio)}


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


def truncate_chars(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    cut = text[:limit].rsplit(" ", 1)[0] if " " in text[:limit] else text[:limit]
    return cut.rstrip(",;:") + " …"


def truncate_words(text: str, limit: int) -> str:
    parts = text.split()
    return text if len(parts) <= limit else " ".join(parts[:limit]).rstrip(",;:") + " …"


def section_label(heading: str | None) -> str:
    if not heading:
        return "Notes"
    label = LEADING_DATE.sub("", DATE_SUFFIX.sub("", heading)).strip(" #*:") or heading
    return truncate_words(label, LABEL_WORDS)


def _sub_headings(section) -> list[tuple[int, str]]:
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


def _already_told(item: Item, cold_folded: str) -> bool:
    """Context whose opening words cold already holds (notes re-pasted from an earlier session)."""
    opening = " ".join(first_sentence(item.text).split()[:SEEN_PREFIX_WORDS])
    return len(opening.split()) >= 4 and opening in cold_folded


def compact_doc(doc: MemoryDoc, cold_ids: set[str], ratio: float = DEFAULT_RATIO,
                labels: dict | None = None, skip_lines: frozenset[int] = frozenset(),
                cold_text: str = "", title: str = "") -> Compaction:
    """Deterministic compaction of a notes document (pure).

    Items of KEEP_KINDS are kept verbatim unless cold already has their id; context is
    condensed into one line per heading, sized so the whole stays near `ratio` of the
    notes' words; log items (fences, tool output, transcript lines) are dropped.
    """
    out = Compaction()
    seen = set(cold_ids)
    cold_folded = " ".join(cold_text.split())
    total_chars = 0
    kept_chars = 0
    groups: dict[tuple[int, int], tuple[str | None, list[Item]]] = {}
    # A context item that repeats a kept item (same id) must not shadow it.
    keep_ids = {i.id for i in doc.items if i.kind in KEEP_KINDS and i.line not in skip_lines}
    for index, section in enumerate(doc.sections):
        total_chars += len(section.text)
        subs = _sub_headings(section)
        for item in section.items:
            if item.line in skip_lines:
                continue
            if item.kind in KEEP_KINDS:
                if item.id in seen:
                    out.duplicates += 1
                    continue
                seen.add(item.id)
                text = cold_form(item, section.heading, labels)
                out.kept.append(text)
                out.kept_ids.append(item.id)
                kept_chars += len(text) + 1
            elif item.kind == "log":
                out.dropped += 1
            elif item.id in seen or item.id in keep_ids or _already_told(item, cold_folded):
                out.duplicates += 1
            else:
                seen.add(item.id)
                above = [n for n, (line, _) in enumerate(subs) if line < item.line]
                key = (index, above[-1] if above else -1)
                heading = subs[key[1]][1] if above else section.heading
                groups.setdefault(key, (heading, []))[1].append(item)
    context = list(groups.values())
    if context:
        # A group under the heading the entry is titled after needs no label of its own.
        same = section_label(title).lower() if title else None
        labels_ = ["" if section_label(h).lower() == same else section_label(h) for h, _ in context]
        budget = ratio * total_chars - kept_chars - ENTRY_OVERHEAD_CHARS
        # The largest groups get a line first; once the budget is spent the rest are dropped
        # (at least one line per session, so the entry always says what the work was).
        order = sorted(range(len(context)), key=lambda k: -sum(words(i.text) for i in context[k][1]))
        chosen = set()
        for k in order:
            cost = len(labels_[k]) + 4 + MIN_LINE_CHARS
            if chosen and cost > budget:
                break
            chosen.add(k)
            budget -= cost
        allowance = int(min(MAX_LINE_CHARS, MIN_LINE_CHARS + max(0.0, budget) / len(chosen)))
        for k, (heading, items) in enumerate(context):
            summary = "; ".join(s for s in (first_sentence(i.text) for i in items) if s)
            if k not in chosen or not summary:
                out.dropped += len(items)
                continue
            label = f"{labels_[k]}: " if labels_[k] else ""
            out.condensed.append(f"- {label}{truncate_chars(summary, allowance)}")
            out.condensed_items += len(items)
    return out


def ensure_kept(summary: str, kept: list[str]) -> tuple[str, list[str]]:
    """Re-add every kept item whose clean text the summary lacks (compared whitespace-folded)."""
    folded = " ".join(summary.split())
    missing = [text for text in kept if " ".join(clean_text(text).split()) not in folded]
    if not missing:
        return summary, []
    joined = "\n\n".join(missing)
    return (summary.rstrip() + "\n\n" + joined if summary.strip() else joined), missing


HEADING_LINE = re.compile(r"^(\s{0,3})#{1,6}\s+(.*?)\s*#*\s*$")
# Session markers, the short form and the one entries carried before it (`tiergit:session s-…`).
SESSION_MARKER = re.compile(r"<!--\s*(?:tiergit:session\b.*?|s-[0-9a-z]{4,32}\s*)-->", re.S)


def sanitize_summary(text: str) -> str:
    """A summary must not add headings (they would split or fake cold entries) or session markers."""
    text = SESSION_MARKER.sub("", text.replace("\r\n", "\n"))
    lines = []
    for line in text.split("\n"):
        m = HEADING_LINE.match(line)
        lines.append(f"{m[1]}**{m[2]}**" if m and m[2] else line)
    return "\n".join(lines).strip()


@dataclass
class SummarizerResult:
    text: str | None     # None: fall back to the deterministic path
    note: str


def run_summarizer(command: str, text: str, timeout: float, env: dict[str, str] | None = None) -> SummarizerResult:
    """Run the user's summarizer: `text` on stdin, the summary on stdout, within `timeout`."""
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        return SummarizerResult(None, f"summarizer command cannot be parsed ({exc}); used the deterministic compaction")
    if not argv:
        return SummarizerResult(None, "summarizer command is empty; used the deterministic compaction")
    try:
        # Its own process group, so a timeout also ends any children it started.
        proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                start_new_session=True, env={**os.environ, **(env or {})})
    except OSError as exc:
        return SummarizerResult(None, f"summarizer `{argv[0]}` could not start ({exc.strerror}); "
                                      "used the deterministic compaction")
    try:
        out, err = proc.communicate(text.encode("utf-8"), timeout=timeout)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.communicate()
        return SummarizerResult(None, f"summarizer `{argv[0]}` timed out after {timeout:g}s; "
                                      "used the deterministic compaction")
    if proc.returncode != 0:
        detail = err.decode("utf-8", "replace").strip().splitlines()
        why = f": {detail[-1][:120]}" if detail else ""
        return SummarizerResult(None, f"summarizer `{argv[0]}` failed (exit {proc.returncode}{why}); "
                                      "used the deterministic compaction")
    try:
        summary = sanitize_summary(out.decode("utf-8"))
    except UnicodeDecodeError:
        return SummarizerResult(None, f"summarizer `{argv[0]}` wrote non-UTF-8 output; used the deterministic compaction")
    if not summary:
        return SummarizerResult(None, f"summarizer `{argv[0]}` returned nothing; used the deterministic compaction")
    return SummarizerResult(summary, f"summarized by `{argv[0]}`")
