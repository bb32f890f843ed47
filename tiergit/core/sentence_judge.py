"""Keep what matters, sentence by sentence: a sentence is condensed only when it is recognisably
noise (tool output and logs, status metadata, template hints and markup, an activity report
with nothing specific in it); anything else, and anything that carries specifics (code spans,
identifiers, paths, numbers and versions, quoted text, a cause, a condition, a rule, a
correction, a permission, an open item) is kept verbatim whatever its length.

One module for session end, transcript compact and import (through `split`), pure; it imports
only `re` and core/judge.py. The cost of keeping a noisy sentence is a few tokens; the cost of
dropping a root cause is the next agent repeating the bug.
"""
from __future__ import annotations

import re
import textwrap

from tiergit.core import judge, noise_shapes
from tiergit.core.patterns import TRANSCRIPT_OPENING_RE

# A sentence ends after . ! ? (or a CJK full stop) before a capital, digit, quote, code or bold mark, or a `//` comment.
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9`*\"'(\[]|//)|(?<=[。！？])\s*(?=\S)")
# A line that starts a unit of its own inside an item: a nested list item, a table row, a quote, a tree
# branch drawn in box characters (`├─ HK leg: …`), which must not pull the line above into a diagram.
# A wrapper's marker line (`END_QUOTED_NOTES`) and the envelope tag after it are units too, so they are not
# glued to the note they wrap.
UNIT_START = re.compile(r"^\s*(?:(?:[-*+]|\d+[.)]|\||>)\s|\*\*[^*\n]{1,60}\*\*|\||[\u2500-\u257f]|(?:BEGIN|END|START|STOP)_[A-Z]"
                        r"|\[(?i:untrusted|subagent|sub-agent)\b)")
PREFIX = re.compile(r"^\s*(?:>\s*)?(?:(?:[-*+]|\d+[.)])\s+)?(?:\[[ xX]\]\s+)?")
STATUS_LEAD = re.compile(r"^(?:✅|✔️?|✓|☑️?|🎉|🟢|⏳|📌|📊|📈|📉|💰)\s*")

# ---- recognisable noise --------------------------------------------------------------------
# Real log lines: a timestamp with a level or in brackets, a level in capitals, a traceback.
LOG_LINE = re.compile(
    r"^\[\d{4}-\d{2}-\d{2}[T ][\d:.]+[^\]]*\]|^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2})?(?:[.,]\d+)?Z?\s+\[?"
    r"(?:INFO|WARN|WARNING|ERROR|DEBUG|TRACE)\b|^\[?(?:INFO|WARN|WARNING|ERROR|DEBUG|TRACE)\]?[: ]"
    r"|^(?:Traceback \(most recent|exit code \d|stdout:|stderr:)")
JSON_LINE = re.compile(r"^[\"'][\w.@$ -]+[\"']\s*:\s*.*$|^[\[\]{}]+,?$")
# Dreaming's own metadata and promotion notes (`[score=0.83 recalls=0 …]`, `confidence: 0.6`).
DREAM_META = re.compile(r"^\[(?:score|confidence)=|^(?:confidence|status|recalls?|evidence|note|avg)\s*[:=]\s", re.I)
# What a transcript reader writes for a tool call or a part it does not show (`[tool call: Bash]`).
# A chat envelope's bracketed tag (`[Untrusted daily memory: memory/…]`, `[Subagent Task]: Research …`): what the
# runtime wrapped around a message or handed a sub-agent, not the team's memory.
ENVELOPE = re.compile(r"^\[(?:untrusted|subagent|sub-agent|system message|cron job|heartbeat|inter-session)\b[^\]\n]{0,60}\](?::|$)",
                      re.I)
TOOL_PLACEHOLDER = re.compile(r"^\[(?:tool[ _](?:call|use|result|output)|image|document|file)(?::[^\]]*)?\]$", re.I)
# A quote or P&L row: most cells a price or a percentage change, none a phrase (a monitor's output).
PRICE_CELL = re.compile(r"^[*\s]*(?:[+-]?(?:[A-Z]{0,3}\$|¥|€|£)\s?[\d,.]+|[▲▼△▽+-]?\s?[\d,.]+\s?%)[*\s]*$")
# Box-drawing characters: a line of an ASCII-art diagram (`│ Path 3: Host Compromise │`, `└─▶`).
BOX_DRAWING = re.compile(r"[\u2500-\u257f\u2580-\u259f]")
TABLE_RULE = re.compile(r"^\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?$")
TEMPLATE_HINT = re.compile(r"^<!--.*-->$|^\(?(?:one|a) (?:line|item|bullet) (?:per|for each)\b|^_\(.*\)_$", re.I)
# A build, test or system status with nothing named (`Build clean: 0 errors`, `All tests passing`).
STATUS_PHRASE = re.compile(
    r"\b(?:builds?|tests?|checks?|ci|pipeline|lint|suite|system|services?)\b[^.;]{0,50}\b(?:pass(?:es|ed|ing)?|green|clean|"
    r"succeed(?:s|ed)?|ok|operating normally|running normally|healthy|live)\b|\b0 (?:errors|failures|warnings)\b"
    r"|\b(?:still listening|ready for (?:work|the next \w+)|standing by)\b", re.I)
# A zero count says "clean", nothing more (`0 errors`); any other count is a specific (`All 396 tests pass`).
ZERO_COUNT = re.compile(r"\b0 (?:errors?|failures?|failed|warnings?|issues?|problems?)\b", re.I)
# A status that leaves something open is an open item, not metadata (`**Status:** awaiting the owner's call`).
OPEN_STATUS = re.compile(r"\b(?:await\w*|pending|blocked|waiting|on hold|undecided|tbd|proposed|needs? (?:a |an |the )?"
                         r"(?:decision|review|approval|sign-?off|input|answer))\b", re.I)
# A report that nothing happened (`今日无新进展`, "no new progress today").
NOTHING_NEW = re.compile(r"无新|无重大|暂无|\bno (?:new|significant) (?:progress|updates?|changes?|signals?)\b|\bnothing new\b", re.I)
# A check-marked line this short is a status (`✅ Seeding validated`, `✓ All green`); a longer one states a
# behaviour it checked (`✅ Evicted entry can be re-embedded (cache miss produces …)`) and is judged as prose.
SHORT_STATUS_WORDS = 5
DATE_TIME = re.compile(r"\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?Z?)?\b|\b\d{1,2}:\d{2}\b")
ACTIVITY = re.compile(
    r"\b(?:merged|integrated|implemented|completed|complete|validated|verified|updated|added|created|written|wrote|"
    r"shipped|passed|passing|reviewed|tested|confirmed|finished|resolved|addressed|done|succeeded|successfully|"
    r"in progress|looked at|went through|ran|re-?ran|checked)\b"
    # a report's closing participle (`All related issues closed.`), or readiness (`Ready to begin on the next sprint.`);
    # mid-sentence these words are adjectives ("documented process without enforcement gets bypassed")
    r"|\b(?:closed|filed|documented|deployed|released|published|executed)\.?$|^ready to (?:begin|start|proceed)\b", re.I)
# Conversation that carries nothing: acknowledgements and announcements of the next step.
CHATTER = re.compile(
    r"^(?:thanks|thank you|ok(?:ay)?|sure|sounds good|great|perfect|got it|understood|alright|right|yes|yep|"
    r"let me|let's|let us|i will|i'll|i am going to|i'm going to|we will|we'll|we are going to|we're going to|"
    r"now i|next,? i|moving on|carry on|continuing|"
    r"working on|checking|looking|on it|will do|done)\b", re.I)
LEAD = re.compile(r"^(?:\d{4}-\d{2}-\d{2}(?:[T ][\d:.]+Z?)?\s*[-—–:·]*\s*)?(?:[\w ]{1,30}:\s+)?")
# A work report opens with a past-tense verb ("Bumped the version stamps", "Traced it to …").
PAST_LEAD = re.compile(r"^(?:(?:i|we|then|also|and)\s+)*(?:(?!(?:need|feed|seed|speed|embed|proceed|exceed|succeed|bed|red|shed)\b)"
                       r"[A-Za-z][a-z]{2,}ed|ran|read|wrote|went|made|did|took|saw|found|spent|began)\s+"
                       r"(?:the|a|an|to|it|up|out|at|in|on|into|over|back|with|through|all|some|my|our|this|that|these|those)\b",
                       re.I)   # "Shared creature pool …" opens with an adjective, not a report
# A verbless report: a past-tense lead and no present or modal verb after it ("Unified creature type system
# across server/client."); with one ("Shared creature pool is read by …") it is a statement.
BARE_PAST_LEAD = re.compile(r"^(?i:(?!(?:need|feed|seed|speed|embed|proceed|exceed|succeed|bed|red|shed|based|used|related|"
                            r"advanced|required|detailed|expected|limited|nested|shared|mixed|fixed)\b))[A-Z]?[a-z]{2,}ed\s+[a-z]")
# Any -s word may be the verb ("logs", "exists"): doubt keeps.
PRESENT_VERB = re.compile(r"\b(?:is|are|has|have|does|do|must|should|shall|can|cannot|will|would|may|might|need|go|get|"
                          r"stay|exist|live|run|[a-z]{2,}(?<!s)s)\b", re.I)
EVALUATION = re.compile(r"^(?:read|looked|went|tried|spent|began|clean|good|great|nice|solid|lgtm|looks good|all good|well[- ]\w+)\b", re.I)

# ---- specifics ----------------------------------------------------------------------------
SPECIFIC = re.compile(
    r"`|https?://|\b[\w-]+\.(?:md|py|ts|tsx|js|jsx|mjs|cs|csproj|ps1|psm1|sh|json|jsonl|ya?ml|toml|"
    r"ini|cfg|txt|css|scss|html|go|rs|java|kt|rb|php|sql|xml|lock|env)\b|\b[A-Za-z]*[a-z][A-Z]\w*|\b\w+_\w+\b"
    r"|\b[a-z]\w*\.[a-z]\w*\(|\w\(\)|\b[a-z]+(?:-[a-z0-9]+){2,}\b|\b[a-z]+:[a-z][\w-]*\b|\"[^\"]{3,}\"|“[^”]{3,}”"
    r"|\b(?:because|so that|caused by|due to|since|unless|if|when(?:ever)?|otherwise|except|until|instead|rather than"
    r"|only|not|no longer|never|always|n't|cannot|can't)\b|\b[A-Z]{2,}\b(?<!\bPR)(?<!\bCI)|→|->|=|[<>]=?\s*\d")
# A path: two slashes or more, a rooted or home path, or one slash with a dot, digit, `_` or `-` beside it.
# One slash between two plain words is "and/or" (`server/client`, `read/write`), no path.
_SEGMENT = r"[\w-]+(?:\.[\w-]+)*"   # a path segment; a dot only inside it (an extension), never the sentence's full stop
PATH = re.compile(rf"(?<![\w/.~-])(?:(?:~|\.{{1,2}})?/?{_SEGMENT}(?:/{_SEGMENT}){{2,}}|(?:~|\.{{1,2}})?/{_SEGMENT}"
                  rf"|[\w-]*[\d_][\w-]*/{_SEGMENT}|[\w-]+(?:\.[\w-]+)+/{_SEGMENT}|{_SEGMENT}/[\w-]*[\d_][\w-]*"
                  rf"|{_SEGMENT}/[\w-]+\.[\w-]+)")
CAUSE = re.compile(r"\b(?:because|so that|caused by|due to|unless|except|but|fail\w*|broke\w*|error\w*)\b", re.I)
NON_LATIN = re.compile(r"[\u0400-\u04ff\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")
# A Chinese work report's verbs (done, updated, fixed, created, ran, published, generated), and the words that
# make a Chinese sentence more than a report (a cause, condition, rule, correction, failure, open item).
CJK_ACTIVITY = re.compile(r"已(?:完成|更新|修复|新增|创建|发布|生成|处理|整理|提交|部署|合并)|完成了|成功(?:生成|发布|创建|更新|部署)")
CJK_MARKER = re.compile(r"因为|由于|导致|所以|如果|除非|必须|不要|不能|禁止|应该|应当|需要|注意|原因|错误|失败|问题|更正|纠正|"
                        r"不是|而是|待|未|风险|规则|决定|结论|教训")
# What names a thing (a check-marked line that names nothing is status whatever its numbers).
NAMED = re.compile(r"`|https?://|\b[\w.-]+/[\w./-]+|\b\w+\.[a-z]{2,5}\b|\b[A-Za-z]*[a-z][A-Z]\w*|\b\w+_\w+\b|\"[^\"]{3,}\"")
# What makes a heading more than a title: code, a path, a URL, a quote, a snake_case name or a call (a product's
# CamelCase name or a file's name alone titles a section: `## OpenClaw Upgrade`, `# MEMORY.md (Long-term)`).
HEADING_NAMES = re.compile(r"`|https?://|\b[\w.-]+/[\w./-]+|\b\w+_\w+\b|\w\(\)|\"[^\"]{3,}\"|“[^”]{3,}”")
# Status metadata (`**By:** Ripley`, `**Date:** …`); an owner, stack or model line is a fact.
META = re.compile(r"(?i)^\s*(?:[-*+]\s+)?(?:\*\*)?(?:date|status|author|authors|by|updated|created|time|timestamp|"
                  r"session|duration|commit|pr|issue|requested by|assigned|assignees?|reviewers?|branch|phase|sprint|"
                  r"milestone|priority|tokens?|cost|confidence|"
                  r"evidence|recalls?|(?:session|run|message|request|trace|job|sender|chat) ?id|source|channel)"
                  r"(?:\*\*)?\s*[:=]")
# A label whose value is only a date or a time (`**Summarized by Scribe:** 2026-06-10T03:35:00Z`): a stamp.
STAMP_VALUE = re.compile(r"^(?P<label>[^:]{1,40}):\s*[\[(]?\s*\d{4}-\d{2}-\d{2}(?:[T ]\d{1,2}:\d{2}(?::\d{2})?(?:[.,]\d+)?)?\s*"
                         r"(?:Z|UTC|GMT[+-]?\d{0,2}|[+-]\d{2}:?\d{2})?\s*[\])]?\s*(?:\([A-Z][A-Za-z_]+/[A-Za-z_]+\))?\s*$", re.I)
# The label of a stamp says when something was done (a date word, or a past participle: "Summarized by");
# a date that is due ("Deadline:", "Due:", "Scheduled:", "Target:") is an open item.
STAMP_LABEL = re.compile(r"\b(?:date|time|timestamp|as of|last|(?!(?:schedul|plann|expect|requir|need|propos)ed\b)[a-z]{3,}ed)\b", re.I)
# The clock a runtime prints into a prompt (`Current time: Wednesday, April 22nd, 2026 - 7:54 PM (Europe/…)`).
CLOCK = re.compile(r"^(?:current|local) (?:time|date(?:time)?)\s*:", re.I)
# A date that is due is an open item (`**Deadline:** 2026-09-30`), not a stamp.
DUE_DATE = re.compile(r"\b(?:deadline|due|scheduled|target|eta|expires?|expiry|until|before)\b[^.]{0,40}\d{4}-\d{2}-\d{2}", re.I)
# Dreaming's staged copy of a chat turn (`Candidate: User: …`, `Candidate: Assistant: NO_REPLY`): a transcript line.
CANDIDATE_TURN = re.compile(r"^(?:candidate|possible lasting \w+)\s*:\s*(?:\*\*|__|\[)?(?:user|assistant|human|ai|system|bot)"
                            r"(?:\*\*|__|\])?\s*[:：]|^(?:candidate\s*:\s*)?reflections\s*:\s*theme\s*:", re.I)
# A chat envelope's speaker with a qualifier (`System (untrusted): [2026-…] Exec completed …`,
# `Sender (untrusted metadata):`): a transcript line like `User:`.
QUALIFIED_SPEAKER = re.compile(r"^(?:user|assistant|human|ai|system|bot|agent|sender|conversation(?: info)?)\s*"
                               r"\([^)]{1,40}\)\s*[:：]", re.I)
# A label that says what follows is a fix or a cause (`Fixed: …`, `Root cause: …`).
FIX_LABEL = re.compile(r"^(?:fix(?:ed|es)?|solution|workaround|root cause|cause|resolution)\s*(?:\([^)]{0,30}\))?\s*:", re.I)
MARKERS = (FIX_LABEL, judge.PLAIN_LABEL, judge.CORRECTION, judge.PERMISSION, judge.ERROR, judge.OPEN, judge.DECISION, judge.RULE, judge.FACT)


def _carries_marker(low: str) -> bool:
    """The lower-cased text holds a fix label or a rule, correction, permission, error, open, decision or fact word."""
    return any(marker.search(low) for marker in MARKERS)


def split_sentences(text: str) -> list[str]:
    """A line's sentences, each exactly as written (the line's prefix stays on the first)."""
    return [s for s in SENTENCE_END.split(text.strip()) if s.strip()]


def _plain(sentence: str) -> str:
    """The sentence's words: list marker, checkbox, status emoji and bold marks left out."""
    body = STATUS_LEAD.sub("", PREFIX.sub("", judge.normalize(sentence).strip(), count=1))
    return body.replace("**", "").replace("__", "").strip()


def _shape_noise(raw: str, body: str) -> str | None:
    """Noise by shape whatever the words: markup, code, shell, logs, metadata."""
    if raw.startswith(("```", "~~~")):
        return "a code fence"
    title = noise_shapes.numbered_title(raw)   # `**Step 2: Parse the report**`: a heading in bold
    if judge.HEADING.match(raw) or title:
        # A heading that names code, a path or a quote, or states a rule, fix or correction, is kept (compact
        # shows it above what is kept under it); one with only a title, a date, a count or a session is noise.
        text = title or re.sub(r"^\s{0,3}#{1,6}\s*|\s#+\s*$", "", raw)
        named = HEADING_NAMES.search(text) or _carries_marker(text.lower())
        return None if named and noise(text) is None else "a heading"
    if TRANSCRIPT_OPENING_RE.match(raw) or CANDIDATE_TURN.match(body) or QUALIFIED_SPEAKER.match(body):
        return "a transcript line"
    if TABLE_RULE.match(raw) or (judge.BARE.match(raw) and not _bold_statement(raw)) or not re.search(r"[^\W_]", body):
        return "bare markup"
    if len(BOX_DRAWING.findall(raw)) >= 2:
        return "a line of a box diagram"
    if raw.startswith("|") and _quote_row(raw):
        return "a quote / P&L row (tool output)"
    if noise_shapes.test_result_row(raw):
        return "a test-results row (tool output)"
    if raw.startswith("|") and _header_row(raw):
        return "a table's header row"
    stamp = STAMP_VALUE.match(body)
    if (stamp and (STAMP_LABEL.search(stamp["label"]) or noise_shapes.CJK_STAMP_LABEL.search(stamp["label"]))) \
            or CLOCK.match(body):
        return "a date stamp"
    if TOOL_PLACEHOLDER.match(body):
        return "a tool call or output placeholder"
    if ENVELOPE.match(body):
        return "a chat envelope's tag"
    why = noise_shapes.shape(body)
    if why:
        return why
    if FIELD_ENUMERATOR.match(body):
        return "a label and a list number"   # `**Actions Taken:** 1.`: the list follows
    if TEMPLATE_HINT.match(body):
        return "a template hint"
    checks = ((judge.DIFF.match, raw, "a diff hunk"), (judge._shell_line, body, "a shell command"),
              (judge._code_line, body, "a line of code"), (judge.CONFIG_LINE.match, body, "a config line"),
              (JSON_LINE.match, body, "a line of JSON"), (LOG_LINE.match, body, "a log line"),
              (_dream_meta, body, "Dreaming metadata"), (_report, body, "a cron / status report"))
    for check, part, why in checks:
        if check(part):
            return why
    if META.match(raw) and not OPEN_STATUS.search(body) and (len(judge.WORD.findall(body)) < 8 or judge.STATUS.search(body)):
        return "a metadata / status line"
    return None


# A line in bold and nothing else: a statement in bold (`**Option C: Change MIN_RETRIES to 3**`) is judged by
# its words; a bold label that announces what follows (`**Context:**`) is markup.
BOLD_LINE = re.compile(r"^\s*(?:[-*+]\s+|\d+[.)]\s+)?(?:\*\*(?P<a>(?:(?!\*\*)[^\n])+)\*\*|__(?P<b>(?:(?!__)[^\n])+)__)\s*$")


def _bold_statement(raw: str) -> bool:
    line = BOLD_LINE.match(raw)
    inner = (line["a"] or line["b"]).strip() if line else ""
    return len(judge.WORD.findall(inner)) >= 3 and not inner.endswith((":", "："))


# A label with only a list number after it (`**Actions Taken:** 1.`): the list's lead-in.
FIELD_ENUMERATOR = re.compile(r"^[^:：]{1,40}[:：]\s*\d{1,2}[.)]\s*$")


def _dream_meta(body: str) -> bool:
    return bool(DREAM_META.match(body)) and not OPEN_STATUS.search(body)


def _report(body: str) -> bool:
    """A cron or monitoring report that names nothing or says nothing changed (one that names what
    changed, a file or code, is kept)."""
    return bool(judge.REPORT.search(body)) and (not NAMED.search(body) or bool(NOTHING_NEW.search(body)))


def _quote_row(row: str) -> bool:
    cells = [c.strip() for c in row.strip().strip("|").split("|") if c.strip()]
    prices = sum(bool(PRICE_CELL.match(c)) for c in cells)
    numbers = sum(bool(re.fullmatch(r"[*\s]*[\d,.]+[*\s]*", c)) for c in cells)
    return (len(cells) >= 3 and prices >= 2 and (prices + numbers) * 2 >= len(cells)
            and not any(len(c.split()) >= 3 for c in cells))


def _header_row(row: str) -> bool:
    """A table's header row: three cells or more, each a short label (at most three words or eight
    characters of another script, no digit, code or sentence mark); the rows under it carry the content."""
    cells = [c.strip().strip("*_ ") for c in row.strip().strip("|").split("|")]
    # A lone `#` or `No.` column and a unit sign on a label (`浮%`, `Cost $`) are header marks too.
    labels = [re.sub(r"^(?:#|no\.)$|(?<=\S)\s?[%$#]$", "x", c, flags=re.I) for c in cells]
    return len(cells) >= 3 and all(
        c and len(c.split()) <= 3 and len(c) <= (8 if NON_LATIN.search(c) else 30) and not re.search(r"[\d`/.:;=()\[\]#$%]", c)
        for c in labels)


# A sentence that only announces what follows (`Add a new config variable:`, `它的问题不是差，而是：`): the lines
# under it carry the content. One that names code, a path, a quote or a count, or carries a rule, fix,
# correction, permission or open word, is kept as written.
LEAD_IN_END = re.compile(r"[:：]\s*$")
LEAD_IN_NAMES = re.compile(r"`|https?://|\"[^\"]{3,}\"|“[^”]{3,}”|\b\w+_\w+\b|\b[A-Za-z]*[a-z][A-Z]\w*")


def _lead_in(body: str) -> bool:
    if not LEAD_IN_END.search(body) or LEAD_IN_NAMES.search(body) or PATH.search(body) or _counts(body):
        return False
    low = body.lower()
    return not _carries_marker(low) and not CJK_MARKER.search(body)


def _without_dates(body: str) -> str:
    """The body without dates, times and zero counts: digits left in it are counts, versions, ids."""
    return noise_shapes.CALENDAR_POSITION.sub("", DATE_TIME.sub("", ZERO_COUNT.sub("", body)))


def _counts(body: str) -> bool:
    return bool(re.search(r"\d", _without_dates(body)))


def specific(sentence: str) -> bool:
    """The sentence carries something a later agent could need as written."""
    body = _plain(sentence)
    rest = _without_dates(body)
    if DUE_DATE.search(body):
        return True
    if re.search(r"\d", rest) or SPECIFIC.search(rest) or PATH.search(rest):
        return True
    return _carries_marker(rest.lower())   # a zero count ("0 errors") is no error wording


def noise(sentence: str) -> str | None:
    """Why a sentence is recognisable noise, or None: it is kept verbatim."""
    raw = judge.normalize(sentence).strip()
    if not raw:
        return "empty"
    body = _plain(raw)
    prose = _comment_prose(body)
    if prose:
        return noise(prose)   # `/// Restores the goal by clearing …`: a doc comment is its sentence
    why = _shape_noise(raw, body)
    if why:
        return why
    status_lead = STATUS_LEAD.match(PREFIX.sub("", raw, count=1))
    if status_lead and not NAMED.search(body) and not _counts(body) and len(judge.WORD.findall(body)) <= SHORT_STATUS_WORDS:
        return "a status line"   # `✅ Seeding validated`: a check mark, nothing named or counted
    if STATUS_PHRASE.search(body) and not NAMED.search(body) and not CAUSE.search(ZERO_COUNT.sub("", body)) and not _counts(body):
        return "a status line"   # `Build clean: 0 errors`; a count (`All 396 tests pass`) is kept
    if _lead_in(body):
        return "a lead-in to what follows"
    if specific(raw):
        return None
    if NON_LATIN.search(body):
        # prose in another script: kept, unless it reports work done in Chinese with nothing named and
        # no cause, rule, correction or open word (`任务完成 ✅ 技术随笔已成功生成并发布`)
        done = CJK_ACTIVITY.search(body) and not CJK_MARKER.search(body) and not re.search(r"\[ \]", raw)
        return "an activity report with nothing specific" if done else None
    if len(judge.WORD.findall(body)) < 3:
        return "a fragment"
    body = LEAD.sub("", body, count=1)   # `Context: Worked …`, `2026-04-21 — Looked …`: the report itself
    bare_report = BARE_PAST_LEAD.match(body) and not PRESENT_VERB.search(body)
    if judge.NARRATIVE.match(body.lower()) or PAST_LEAD.match(body) or bare_report or ACTIVITY.search(body) or EVALUATION.match(body):
        return "an activity report with nothing specific"
    if CHATTER.match(body):
        return "chatter"
    return None


# A comment line in a code block: the author's prose about the code (`# Create the directory, then chown …`).
COMMENT = re.compile(r"^\s*(?:#(?![!#])|//+|--|;+|/\*+|\*(?!\*))\s*(?P<body>.*?)\s*(?:\*/)?$")
FENCE = re.compile(r"^\s*(?:```|~~~)\s*(?P<lang>[\w+#-]*)")


def _comment_text(line: str) -> str:
    """The prose of a comment line (doc-comment tags left out), when it has three words or more and
    starts with a letter; "" otherwise (no comment, or too little to be a sentence)."""
    comment = COMMENT.match(line)
    text = re.sub(r"</?\w+[^>]*>", " ", comment["body"]).strip() if comment else ""
    # a numbered step (`# 1. Install jq if missing`) starts with its number
    return text if len(judge.WORD.findall(text)) >= 3 and re.match(r"(?:\d{1,2}[.)]\s+)?[^\W\d_]", text) else ""


def _comment_prose(body: str) -> str:
    """The prose of a `//` or `///` comment line (`_comment_text`). `#` lines outside a code block are
    headings, so only `//` counts here."""
    return _comment_text(body) if body.startswith("//") else ""


# Fences an author writes prose, plans and lists in (a code block in notes is code; these are not).
PROSE_FENCES = frozenset({"", "text", "txt", "plaintext", "md", "markdown"})
# Fences that hold a program's output: noise whatever they say.
OUTPUT_FENCES = frozenset({"console", "output", "log", "shell-session"})


def fence_comments(text: str, prose: bool = False) -> str:
    """A fenced code block cut to its comment lines that say something (not noise, three words or
    more), as a fenced block of the same language; "" when it has none or is no code block. The
    code itself stays condensed; a comment is a sentence like any other. With `prose` (session
    notes), a fence with no language or a text/markdown one is the author's own text: each of its
    lines that is not noise is kept, as a line of the same fenced block."""
    lines = text.strip("\n").splitlines()
    opening = FENCE.match(lines[0]) if lines else None
    lang = opening["lang"].lower() if opening else ""
    if not opening or lang in OUTPUT_FENCES or (lang in PROSE_FENCES and not prose):
        return ""
    if lang in PROSE_FENCES and any(_console_line(line) for line in lines[1:]):
        return ""   # a pasted terminal session: a command and its output
    kept = []
    for line in lines[1:]:
        if FENCE.match(line):
            continue
        if lang in PROSE_FENCES:
            if line.strip() and noise(line) is None:
                kept.append(line.rstrip())
            continue
        comment = _comment_text(line)
        if comment and noise(comment) is None:
            kept.append(line.strip())
    return f"```{opening['lang']}\n" + "\n".join(kept) + "\n```" if kept else ""


def _console_line(line: str) -> bool:
    """A shell prompt, a command or a log line: the fence around it is a terminal session."""
    body = line.strip()
    return bool(re.match(r"^(?:\$|>>>|PS [A-Z]:\\?[^>]*>|[\w.@-]+[$#%])\s", body)) or judge._shell_line(body) \
        or bool(LOG_LINE.match(body))


def units(text: str) -> list[tuple[str, str]]:
    """An item's text as (prefix, body) units: its first line and each nested item, table row or
    quote line start a unit; wrapped lines join the unit above. The prefix is the unit's indent,
    list marker and checkbox, so a kept unit is written back as it was."""
    out: list[list[str]] = []
    hard_break = False
    for line in text.splitlines():
        if not line.strip():
            continue
        if out and not hard_break and not UNIT_START.match(line):
            out[-1][1] += " " + line.strip()
            continue
        hard_break = line.endswith(("  ", "\\"))
        prefix = PREFIX.match(line)[0]
        out.append([prefix, line[len(prefix):].strip()])
        hard_break = line.endswith(("  ", "\\"))
    return [(p, b) for p, b in out]


MIN_REPEAT = 24   # shorter sentences ("Fixed.", "See above.") may repeat without being the same news


def _spans(body: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence in `body`, so kept neighbours keep the text between them."""
    spans, start = [], 0
    for match in SENTENCE_END.finditer(body):
        spans.append((start, match.start()))
        start = match.end()
    spans.append((start, len(body)))
    return [(a, b) for a, b in spans if body[a:b].strip()]


def _join(body: str, spans: list[tuple[int, int]]) -> str:
    """The chosen sentences as written: adjacent ones with their own separator, others with a space."""
    out, last = "", None
    for a, b in spans:
        out += (body[last:a] if last is not None and body[last:a].strip() == "" else (" " if out else "")) + body[a:b]
        last = b
    return out


def split(text: str, seen: set[str] | None = None) -> tuple[str, str]:
    """(kept, condensed) parts of an item: the kept sentences verbatim, in order, each unit with its
    prefix; the noise sentences left for condensing. Either may be empty. With `seen` (folded
    sentences kept before, updated here), a sentence kept before is a duplicate, not kept again."""
    kept_units, noise_units = [], []
    for prefix, body in units(text):
        kept, dropped = [], []
        for n, (a, b) in enumerate(_spans(body)):
            lead = prefix if n == 0 else ""
            folded = " ".join(body[a:b].split())
            if seen is not None and folded in seen:
                continue   # kept before: a duplicate, neither kept nor condensed again
            if noise(lead + body[a:b]) is None:
                kept.append((a, b))
                if seen is not None and len(folded) >= MIN_REPEAT:
                    seen.add(folded)
            else:
                dropped.append((a, b))
        if kept:
            kept_units.append(prefix + _join(body, kept))
        if dropped:
            noise_units.append(prefix + _join(body, dropped))
    # A nested unit kept without its parent comes out at the left margin: glued under the item
    # before it in the entry, it would read as that item's sub-item.
    return textwrap.dedent("\n".join(kept_units)), "\n".join(noise_units)
