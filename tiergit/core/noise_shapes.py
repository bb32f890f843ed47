"""Noise shapes for the sentence judgement (core/sentence_judge.py) added by weight in issue 21's
"Noise by weight" pass: what a runtime or a tool wrote around the team's memory, and bookkeeping
that names nothing beyond a hash, a branch or a date. Each shape is checked before the "anything
specific is kept" default, so each one stays narrow: a cause, a rule or a fix word keeps the sentence.

Pure; imports only `re`.
"""
from __future__ import annotations

import re

# What a runtime tells the agent about a command it ran in the background ("An async command you ran earlier
# has completed.", "Please relay the command output to the user …"): the prompt's scaffolding, not the memory.
RUNTIME_NOTICE = re.compile(
    r"^(?:an? (?:async|background|scheduled) (?:command|task|job|process) you (?:ran|started|launched|scheduled)\b"
    r"[^.]{0,40}\b(?:completed|finished|exited|ended)"
    r"|the (?:result|output)s? (?:is|are) shown (?:in|above)\b[^.]{0,40}\bsystem messages?"
    r"|please relay the (?:command |tool |task )?(?:output|result)s? to the user"
    r"|if (?:the command|it) (?:succeeded|failed|worked), (?:share|explain|tell|report) (?:the|what)\b)", re.I)
# A wrapper's begin/end marker on a line of its own (`END_QUOTED_NOTES`, `BEGIN_UNTRUSTED_CONTEXT`).
WRAPPER_MARKER = re.compile(r"^\s*(?:BEGIN|END|START|STOP)_[A-Z][A-Z0-9_]*\s*$")
# A metadata label whose value opens with a date (`**Consolidation Info**: 2026-08-10 — 4th nightly pass.`):
# a run's stamp. The label must say it is metadata (info, metadata, stats, run), so `**Deadline:** 2026-…` is not.
DATED_INFO = re.compile(r"^(?:[^:：]{0,30}\b)?(?:info|metadata|meta|stats|run)\s*[:：]\s*\d{4}-\d{2}-\d{2}\b"
                        r"(?!.*\b(?:because|due to|caused|fail\w*|error\w*|broke\w*|must|never|always)\b)", re.I)
# A git bookkeeping report: only git verbs, small words, a hash, a branch in code and punctuation
# (`Cherry-picked to `main` (a1b2c3d), pushed`). Any other word ("because", "rolled back", a file) keeps it.
GIT_VERB = r"(?:cherry-?picked|pushed|force-pushed|merged|rebased|committed|tagged|squashed|fast-forwarded|reverted)"
GIT_FILLER = r"(?:to|into|onto|on|and|then|as|from|via|the|branch|commit|both|also)"
GIT_TOKEN = rf"(?:{GIT_VERB}|{GIT_FILLER}|`[^`\s]+`|\(?[0-9a-f]{{7,40}}\)?|#\d+)"
GIT_BOOKKEEPING = re.compile(rf"^(?i:{GIT_TOKEN})(?:[\s,;:—–-]+(?i:{GIT_TOKEN}))*[\s.]*$")
# A bold line that titles a numbered step of a plan (`**Sub-task 2: Parse the report**`, `**Step 3 — Deploy**`):
# a heading in bold, judged as a heading is (kept when it names code, a path or a quote, or states a rule).
NUMBERED_TITLE = re.compile(r"^\s*(?:[-*+]\s+)?\*\*(?P<title>(?:sub-?task|task|step|stage|part|milestone|sprint|week|day)"
                            r"\s*\d{1,3}[a-z]?\s*[:：—–-]\s*(?:(?!\*\*).)+?)\*\*\s*$", re.I)
# A review verdict on a pull request and nothing else (`PR #41 (Dana, retry cleanup): APPROVE & MERGE ✅`); a
# verdict with a reason or a condition after it is kept.
REVIEW_VERDICT = re.compile(r"^(?:pr|pull request|mr)\s*#\d+\b[^:]{0,80}:\s*(?:approved?|lgtm|rejected?|changes requested|"
                            r"request changes)(?:\s*(?:&|and|with)\s*[A-Za-z -]{1,20})?[\s✅❌✔️]*$", re.I)
# A test-results row: a test file or suite named in a cell and a bare pass/fail verdict in the last
# (`| Domain | `OrderTests.cs` | Kim | 12 | ✅ PASS |`): a runner's report in a table.
RESULT_CELL = re.compile(r"^[\s*✅❌⚠️]*(?:pass(?:ed)?|fail(?:ed)?)[\s*]*$", re.I)
TEST_CELL = re.compile(r"tests?\b|\btest_|\.(?:spec|test)\.|tests?\.\w+`?$", re.I)


def test_result_row(raw: str) -> bool:
    if not raw.lstrip().startswith("|"):   # asked of every line: split only a table row
        return False
    cells = [c.strip() for c in raw.strip().strip("|").split("|")]
    return len(cells) >= 3 and bool(RESULT_CELL.match(cells[-1])) and any(TEST_CELL.search(c) for c in cells[:-1])


# A calendar position (`Day 5`, `Week 2`) dates a line; it counts nothing.
CALENDAR_POSITION = re.compile(r"\b(?:day|week)\s+\d{1,3}\b", re.I)
# A stamp's label in Chinese (`时间: 2026-08-14 11:50 (Asia/Shanghai)`, `日期：…`).
# A date that is due (`截止日期`, `到期时间`, `计划时间`, `预计日期`) is an open item, not a stamp.
CJK_STAMP_LABEL = re.compile(r"(?<!截止)(?<!到期)(?<!计划)(?<!预计)(?:时间|日期)|更新于|记录于")
# A type or category field that names no code, path or identifier (`**Type:** UI Enhancement`): how the
# author filed the entry. One that names code (`**Category:** `Capacity` (distinct from …)`) is kept.
KIND_FIELD = re.compile(r"^(?:type|category)\s*[:：]\s*[^`/_]*$", re.I)


def numbered_title(raw: str) -> str | None:
    """The title of a bold numbered-step line, or None."""
    match = NUMBERED_TITLE.match(raw)
    return match["title"] if match else None


def shape(body: str) -> str | None:
    """Why `body` (marker, bold and status emoji already left out) is one of these shapes, or None."""
    if RUNTIME_NOTICE.match(body):
        return "a runtime's notice to the agent"
    if WRAPPER_MARKER.match(body):
        return "a wrapper's begin/end marker"
    if DATED_INFO.match(body) or (KIND_FIELD.match(body) and not re.search(r"\w\.\w|\b[a-z]+[A-Z]\w*", body)):
        return "a metadata / status line"
    if REVIEW_VERDICT.match(body):
        return "a review verdict"
    if GIT_BOOKKEEPING.match(body) and re.search(GIT_VERB, body, re.I):
        return "git bookkeeping"
    return None
