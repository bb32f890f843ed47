"""Every text pattern more than one module relies on: merge conflict markers, the candidate
listing tiergit manages inside the staging file, and the transcript-line shapes.

Stdlib only (`re`), so the pre-commit hook path may import it. Patterns that mean different
things have different names here; where two look alike, the docstring says why both exist.
"""
from __future__ import annotations

import re

# -- merge conflict markers ----------------------------------------------------------------
# What git writes around a conflict. `=======` alone is also a setext heading underline in
# markdown, so a *check* for conflicts looks only at the opening / base / closing markers;
# readers of append-only logs skip all four (no log line starts with `=======`).
CONFLICT_EDGE_MARKERS = ("<<<<<<<", ">>>>>>>", "|||||||")
CONFLICT_LINE_PREFIXES = ("<<<<<<<", "=======", ">>>>>>>", "|||||||")


def is_conflict_line(line: str) -> bool:
    """True for any line git writes around a conflict (used to skip them in JSONL logs)."""
    return line.startswith(CONFLICT_LINE_PREFIXES)


# -- the candidate listing `promote` writes into the staging file -------------------------
MANAGED_BEGIN = "<!-- tiergit:candidates:begin -->"
MANAGED_END = "<!-- tiergit:candidates:end -->"


def has_managed_block(text: str) -> bool:
    return MANAGED_BEGIN in text and MANAGED_END in text


def splice_managed(text: str, block: str | None) -> str:
    """`text` with its managed listing replaced by `block` (None: removed; no listing yet:
    `block` appended after a blank line). Cost: O(len(text))."""
    if has_managed_block(text):
        head, rest = text.split(MANAGED_BEGIN, 1)
        tail = rest.split(MANAGED_END, 1)[1]
        return head + tail if block is None else head + block + tail.lstrip("\n")
    if block is None:
        return text
    sep = "" if not text or text.endswith("\n\n") else ("\n" if text.endswith("\n") else "\n\n")
    return text + sep + block


def managed_lines(text: str) -> range:
    """1-based line numbers of the managed listing (its marker lines included), else empty."""
    lines = text.splitlines()
    begin = next((n for n, line in enumerate(lines, 1) if line.strip() == MANAGED_BEGIN), None)
    end = next((n for n, line in enumerate(lines, 1) if line.strip() == MANAGED_END), None)
    return range(begin, end + 1) if begin and end and end > begin else range(0)


# -- transcript lines ----------------------------------------------------------------------
# Three deliberately different strengths, one home:
# - TRANSCRIPT_LINE_RE: the parser's rule for "this line is a chat turn, not an item"
#   (a speaker label at the start of a line, bold or list-marked).
TRANSCRIPT_LINE_RE = re.compile(
    r"^\s*(?:[-*]\s+)?(?:\*\*)?(User|Assistant|Human|AI|Candidate)(?:\*\*)?:(?:\*\*)?\s", re.M)
# - TRANSCRIPT_ANYWHERE_RE: the promotion gate refuses a candidate quoting a turn anywhere in it.
TRANSCRIPT_ANYWHERE_RE = re.compile(r"(?:^|[\s>*(\-])(User|Assistant|Human|Candidate)\s*\**:\s")
# - FRAMEWORK_PROMPT_RE: a framework's own prompt pasted into a note with the turn around it, which
#   daily-note transcripts keep: OpenClaw memory-core's pre-compaction memory flush
#   (`extensions/memory-core/src/flush-plan.ts`, the MEMORY_FLUSH_*_HINT lines and the flush turn, date
#   filled in), its session-reset prompt (`src/auto-reply/reply/session-reset-prompt.ts`,
#   BARE_SESSION_RESET_PROMPT_*) and its after-compaction reminder ("Session was just compacted. …").
FRAMEWORK_PROMPT_RE = re.compile(
    r"(?i)\b(?:store durable memories only in memory/|if memory/\S+ already exists, append new content only"
    r"|treat workspace bootstrap/reference files such as memory\.md|pre-compaction memory flush"
    r"|do not create timestamped variant files|write any lasting notes to memory/"
    r"|a new session was started via /new or /reset|(?:run|execute) your session startup sequence"
    r"|session was just compacted\. the conversation summary above is a hint"
    r"|if the runtime model differs from default_model|greet the user in your configured persona"
    r"|do not mention internal steps, files, tools, or reasoning)")
# - TRANSCRIPT_OPENING_RE: the text judge's wider net for an item that opens like a transcript
#   (more speaker names, quote and link prefixes), case-insensitive.
TRANSCRIPT_OPENING_RE = re.compile(
    r"(?i)^\s*(?:[-*>]\s*)*(?:\*\*|__|\[)?(?:user|assistant|human|ai|system|bot|agent|me|you)"
    r"(?:\*\*|__|\])?\s*(?:\*\*)?[:：>]")
