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

from rapidfuzz import fuzz

from tiergit.core.kinds import DURABLE_KINDS, LIST_MARKER_RE, NEVER_COMPRESS, classify
from tiergit.core.parse import Item, MemoryDoc, clean_text
from tiergit.errors import TiergitError
from tiergit.shell.tokens import count_text

# Kept verbatim: never-compress kinds plus the durable ones (rules and facts are what promotion feeds on).
KEEP_KINDS = NEVER_COMPRESS | DURABLE_KINDS
DEFAULT_RATIO = 0.10
DEFAULT_TIMEOUT = 60.0
# Condensed lines are budgeted in tokens of the configured encoding.
FLOOR_WORDS = 6             # words of a condensed line whose label does not name a topic
MAX_LINE_TOKENS = 60
FLOOR_RESERVE = 20          # tokens statements kept verbatim leave for the entry's first condensed line
LABEL_WORDS = 6
ENTRY_OVERHEAD_TOKENS = 30  # the entry heading and its session marker, when the caller does not say
# Hot-template and catch-all sections: as a label they do not say what the work was.
GENERIC_SECTIONS = {"current task", "active decisions", "last actions", "blockers", "talking to", "notes",
                    "learnings", "context", "core context", "summary", "session notes", "scribe notes"}
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


def own_text(notes: str, boilerplate: frozenset[str] = frozenset()) -> str:
    """What the session wrote: the notes without HTML comments and without the template's own
    lines (`boilerplate`, compared stripped), which no session wrote and no entry should pay for."""
    text = HTML_COMMENT.sub("", notes)
    return "\n".join(ln for ln in text.splitlines() if ln.strip() and ln.strip() not in boilerplate)


def _fold_words(text: str) -> set[str]:
    return {w for w in WORD_RE.findall(text.lower()) if len(w) > 2}


def _summary_sentence(item: Item) -> str:
    """The item's first sentence, without bold field labels (`**Context:**`), emphasis marks,
    a leading date (the entry heading has the date) or a nested list marker."""
    text = FIELD_LABEL.sub("", first_sentence(item.text)).replace("**", "").replace("__", "")
    return LEADING_NOISE.sub("", text).strip()   # a leading date or a nested list marker


def _told_fragments(cold_text: str) -> dict[str, list[str]]:
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


def _already_told(sentence: str, told: dict[str, list[str]]) -> bool:
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


@dataclass
class Group:
    label: str            # "" under the heading the entry is titled after
    items: list[Item]
    summary: list[str]    # the summary's words: first sentences of the items, `; `-joined

    def line(self, n_words: int) -> str:
        if n_words == 0:
            return f"- {self.label}"
        body = " ".join(self.summary[:n_words])
        if n_words < len(self.summary):
            body = body.rstrip(",;:") + " …"
        return f"- {self.label}: {body}" if self.label else f"- {body}"


def _tokens(text: str, encoding: str) -> int:
    return count_text(text + "\n", encoding).tokens


def _condense(groups: list[Group], budget: float, encoding: str) -> dict[int, int]:
    """Words per chosen group line (index -> word count) within `budget` tokens.

    The largest group always gets a line (the entry says what the work was): its label alone
    when that names a topic, else the label and its first FLOOR_WORDS words. Then, largest
    first, each group that fits gets such a line; whatever budget is left lengthens the
    chosen lines, word by word, up to MAX_LINE_TOKENS each.
    """
    order = sorted(range(len(groups)), key=lambda k: -sum(words(i.text) for i in groups[k].items))
    chosen: dict[int, int] = {}
    for k in order:
        group = groups[k]
        start = 0 if _names_a_topic(group.label) else min(FLOOR_WORDS, len(group.summary))
        cost = _tokens(group.line(start), encoding)
        if chosen and cost > budget:
            break
        chosen[k] = start
        budget -= cost
    lines = [k for k in order if k in chosen]
    for left, k in enumerate(lines):
        group, n = groups[k], chosen[k]
        base = _tokens(group.line(n), encoding)
        share = budget / (len(lines) - left)   # what an earlier line leaves goes to the next
        lo, hi = n, len(group.summary)
        while lo < hi:   # the most words whose line costs at most `share` more (and at most the cap)
            mid = (lo + hi + 1) // 2
            cost = _tokens(group.line(mid), encoding)
            if cost - base <= share and cost <= MAX_LINE_TOKENS:
                lo = mid
            else:
                hi = mid - 1
        budget -= _tokens(group.line(lo), encoding) - base
        chosen[k] = lo
    return chosen


def _names_a_topic(label: str) -> bool:
    """A sub-heading such as `Git Rebase for Doc Merges` says what the work was by itself;
    a template section (`Last actions`, `Notes`) or a one-word heading does not."""
    return len(label.split()) >= 2 and section_key(label) not in GENERIC_SECTIONS


def compact_doc(doc: MemoryDoc, cold_ids: set[str], ratio: float = DEFAULT_RATIO,
                labels: dict | None = None, skip_lines: frozenset[int] = frozenset(),
                cold_text: str = "", title: str = "", overhead: int = ENTRY_OVERHEAD_TOKENS,
                encoding: str = "cl100k_base", boilerplate: frozenset[str] = frozenset()) -> Compaction:
    """Deterministic compaction of a notes document (pure).

    Items of KEEP_KINDS are kept verbatim unless cold already has their id; log items (fences,
    tool output, transcript lines) are dropped; context is condensed into one line per heading,
    sized so the whole entry (`overhead`: its heading and marker, in tokens) stays near `ratio`
    of the session's own text (the notes without HTML comments and `boilerplate` lines, i.e.
    the hot template's headings and hints). Context cold already tells, or that only repeats
    the title and the kept items, is not written again.
    """
    out = Compaction()
    seen = set(cold_ids)
    told = _told_fragments(cold_text)
    groups: dict[tuple[int, int], tuple[str | None, list[Item]]] = {}
    # A context item that repeats a kept item (same id) must not shadow it.
    keep_ids = {i.id for i in doc.items if i.kind in KEEP_KINDS and i.line not in skip_lines}
    for index, section in enumerate(doc.sections):
        subs = _sub_headings(section)
        for item in section.items:
            if item.line in skip_lines:
                continue
            if item.kind in KEEP_KINDS:
                if item.id in seen:
                    out.duplicates += 1
                    continue
                seen.add(item.id)
                out.kept.append(cold_form(item, section.heading, labels))
                out.kept_ids.append(item.id)
            elif item.kind == "log":
                out.dropped += 1
            elif item.id in seen or item.id in keep_ids or _already_told(_summary_sentence(item), told):
                out.duplicates += 1
            else:
                seen.add(item.id)
                above = [n for n, (line, _) in enumerate(subs) if line < item.line]
                key = (index, above[-1] if above else -1)
                heading = subs[key[1]][1] if above else section.heading
                groups.setdefault(key, (heading, []))[1].append(item)
    size = count_text(own_text(doc.render(), boilerplate), encoding).tokens if groups else 0
    budget = ratio * size - overhead - (count_text("\n".join(out.kept), encoding).tokens if out.kept else 0)
    budget = _keep_statements(out, groups, budget, encoding)
    # Words the entry already carries (its title and kept items): a sentence made of them adds nothing.
    known = _fold_words(title + " " + " ".join(out.kept))
    same = section_label(title).lower() if title else None
    context: list[Group] = []
    for heading, items in groups.values():
        label = "" if section_label(heading).lower() == same else section_label(heading)
        sentences = []
        for item in items:
            sentence = _summary_sentence(item)
            new_words = _fold_words(sentence) - known
            if sentence and (new_words or not _fold_words(sentence)) and sentence not in sentences:
                sentences.append(sentence)
        if not sentences:
            out.duplicates += len(items)
            continue
        context.append(Group(label, items, "; ".join(sentences).split()))
    if context:
        chosen = _condense(context, budget, encoding)
        for k, group in enumerate(context):
            if k not in chosen:
                out.dropped += len(group.items)
                continue
            out.condensed.append(group.line(chosen[k]))
            out.condensed_items += len(group.items)
    return out


def _keep_statements(out: Compaction, groups: dict, budget: float, encoding: str) -> float:
    """Keep context items shaped as statements (judge.statement: "`X` returns …", "Model: gemini-2
    (768 dims)") verbatim instead of condensing them, shortest first, while the entry's budget lasts;
    move them from their groups to `out.kept` (in note order) and return the budget left."""
    from tiergit.core import judge

    found = [(count_text(item.text.rstrip("\n"), encoding).tokens, item.line, key, item)
             for key, (_, items) in groups.items() for item in items if judge.statement(item.text)]
    chosen = []
    budget -= FLOOR_RESERVE   # the condensed line every entry with context keeps
    for cost, _, key, item in sorted(found, key=lambda f: (f[0], f[1])):
        if cost + 1 > budget:
            break
        budget -= cost + 1
        chosen.append((key, item))
    if not chosen:
        return budget + FLOOR_RESERVE
    lines = {id(item) for _, item in chosen}
    for key in {key for key, _ in chosen}:
        heading, items = groups[key]
        groups[key] = (heading, [i for i in items if id(i) not in lines])
    for _, item in sorted(chosen, key=lambda c: c[1].line):
        out.kept.append(item.text.rstrip("\n"))
        out.kept_ids.append(item.id)
    return budget + FLOOR_RESERVE


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
