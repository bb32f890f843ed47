"""A standing statement: an unlabelled line that states how something *is*, for the gate.

Most durable knowledge in real memory carries no label and no marker word: "Transcript
imports preserve original text in `LearningResource.Transcript`", "Required check is
`Analyze (actions)` (CodeQL)", "Embedding model: gemini-embedding-2 (768 dims)". The kind
judgement calls such lines context (session end must not keep every one verbatim: its token
budget binds). The promotion gate can afford a second look, because a cold item reaches it
only after it was recalled: a recalled context line that reads as a standing statement is
promotable as a fact.

A standing statement, by shape:
- a claim: a subject of one to eight words (not a pronoun alone, brackets and quotes balanced),
  then a present-tense verb or modal and a complement, in the first sentences ("X preserves …",
  "X is the …", "X can bypass … with …"; a bold noun-phrase label may be the first sentence);
- or a setting: a short label and one concrete value (`Embedding model: gemini-embedding-2`,
  `URL: https://…`, a label and a code span), not a file pointer or a link to a run.
Set aside, whatever the verb: work reports (a past-tense lead with its object, "X documented —"),
past or temporary states ("was", "until"), status and progress (pass/green/✅/⏳, counts such as
6/6), lines about this run or session, instructions, steps and test descriptions ("Verifies …",
"Set `PATH`"), labels that file a report (`**Updated:**`, `**Result:**`),
references to a PR or issue, chat addressed to a person, questions, junk, and lines over MAX_CHARS.
The verb list is English: other languages are read as settings only.
Pure and cheap: a few regex scans of one line; imports only `re` and tiergit.core.judge.
"""
from __future__ import annotations

import re

from tiergit.core import judge
from tiergit.core.block_fields import BYLINE_FIELDS, STATUS_FIELDS, WHAT_FIELDS

MAX_CHARS = 400

# A finite present-tense verb (or modal) after a subject. Base forms only where they are rarely nouns
# ("API tests still use …", "Transcript imports preserve …"), so "param block 31-35" is no claim.
VERB = re.compile(
    r"(?:is|are|isn't|aren't|has|have|can|cannot|can't|won't|will|does|doesn't|don't|must|should|"
    r"may|needs?|stays?|remains?|uses?|returns|rejects?|accepts?|controls|checks|owns|holds|expects?|"
    r"requires?|reads|writes|stores|keeps?|maps|matches|means|fires|preserves?|supports?|calls|emits|"
    r"blocks|allows|wins|defaults|resolves|loads|creates|covers|applies|works|handles|carries|points|"
    r"lacks|gets|gives|catches|breaks|filters|merges|exists|competes|reports|runs|takes|triggers|"
    r"produces|contains|lives|sits|depends|overrides|wraps|ignores|skips|fails|prevents|causes|"
    r"governs|decides|limits|caps|expires|refuses|treats|drops|sends|serves|caches|lets|shares?|relies|rely|"
    r"belongs|counts|costs|outranks|beats|replaces|follows|goes|retries|sets|adds|removes|strips|converts|parses|"
    r"validates|renders|rotates|signs|encrypts|hashes|builds|deploys|publishes|pulls|pushes|syncs|polls|spawns|"
    r"starts|stops|waits|lists|sorts|invalidates|refreshes|redirects|routes)$", re.I)
PAST = re.compile(r"(?:was|were|had|did|got|became|gained|made|broke|went|wasn't|weren't|didn't)$", re.I)
ADVERB = re.compile(r"(?:still|also|only|now|never|always|already|both|all|then|just|automatically|each|exclusively|"
                    r"not|often|usually|typically|generally)$", re.I)
# The first word of a line with no subject: an instruction, a step or a test description.
NO_SUBJECT = re.compile(
    r"(?:skip|not|ok|okay|yes|sure|thanks|also|then|and|but|so|plus|if|verif(?:y|ies|ied)|ensure[sd]?|check(?:s|ed)?|"
    r"adds?|added|set|sets|ask(?:s|ed)?|run|use|create[sd]?|update[sd]?|remove[sd]?|fix(?:es|ed)?|test(?:ed)?|"
    r"confirm(?:s|ed)?|validate[sd]?|make|makes|made|tr(?:y|ies|ied)|call(?:ed)?|extend(?:s|ed)?|keep|implement(?:s|ed)?|"
    r"investigate[sd]?|document(?:ed)?|write|writes|rewrite|review(?:ed)?|consider|decide|replace|refactor|"
    r"split|rename|move|extract|audit|migrate|wire|enable|disable|drop|delete|upgrade|bump|pin|restore|"
    r"persist|integrate|introduce|support|skips|counts|throws|opens|returns|emits|refresh|monitor|strip|build|"
    r"prefer|avoid|trace|log|wait|retry|revisit|track|schedule|plan|ship|deploy|merge|push|pull|sync|measure|"
    r"profile|mark|flag|link|wrap|cite|can|could|may|might|should|would|will|need|must|"
    r"what|which|who|why|how|where)$", re.I)
# "Replaced `try …`", "Added the …": a past-tense verb first, then its object (not "Required check …").
PAST_LEAD = re.compile(r"^[A-Za-z]+ed$")
OBJECT = re.compile(r"^(?:the|a|an|this|that|these|those|all|some|its|their|our|my|`|\d|to|in|on|from|with|for)\b|^`",
                    re.I)
TOKEN = re.compile(r"`[^`]*`|\S+")


# A state bounded by an event ("stays stable until Phase 3") or told in the past ("files were touched").
TEMPORARY = re.compile(r"\b(?:until|till|for now|was|were|had been)\b", re.I)


def _claim(part: str) -> bool:
    """A subject of 1-8 words (balanced brackets and quotes, no past-tense verb), then a present
    verb or modal, then a complement; not a temporary or past state, not a clause cut off at `;`."""
    if TEMPORARY.search(part) or part.rstrip().endswith((";", ",")):
        return False
    tokens = TOKEN.findall(part)
    if len(tokens) < 3 or NO_SUBJECT.match(tokens[0].strip("*`\"'(").lower()):
        return False
    for i, tok in enumerate(tokens[1:10], start=1):
        word = tok.strip(".,;:!*\"'")
        if PAST.match(word):
            return False
        if ADVERB.match(word) or not VERB.match(word):
            continue
        subject = " ".join(tokens[:i])
        if subject.count("(") != subject.count(")") or subject.count('"') % 2 or tok.endswith((",", ";", ":")) \
                or any(t.endswith((",", ";", "!")) for t in tokens[:i]):
            return False
        rest = tokens[i + 1:]
        return bool(rest) and bool(re.match(r"[\w`(\"'~<>=-]", rest[0]))
    return False


# A setting: a short label and one concrete value (URL, code span, identifier with a digit).
SETTING = re.compile(
    r"^(?P<label>[A-Za-z][\w /()-]{1,40}?)\s*[:：]\s+(?P<value>https?://\S+|`[^`]{2,80}`|"
    r"[A-Za-z][\w.+-]*\d[\w.+/-]*|[\w.~-]*/[\w./~-]+)(?P<rest>.*)$")
# Status and progress: a report of this run, not a standing fact.
STATUS = re.compile(
    r"✅|❌|⏳|⏸|🟢|🔴|⚠️|\b(?:pass(?:es|ed|ing)?|green|succeeded|success(?:ful(?:ly)?)?|complete[d]?|done|ready|"
    r"shipped|merged|deployed|initiali[sz]ed|operating normally|no regressions?|fixed|resolved|"
    r"clean(?:ly)?|verified|validated|confirmed|in progress|pending|wip|blocked)\b|(?<!/)\b\d+\s*/\s*\d+\b(?!\s*(?:dims|gb|kb)|/\d)"
    # a state that just changed ("X is now fully activated"), not "X is now a wrapper around Y"
    r"|\b(?:is|are) now (?:\w+ly )?\w+ed\b",
    re.I)
# This run, this session, here and now: the line is about an event.
DEICTIC = re.compile(r"\b(?:this (?:run|session|pr|week|sprint|time)|today|yesterday|tonight|right now|so far|"
                     r"for now|at the moment|currently|recently|last (?:night|week|session))\b", re.I)
# What the line leans on is in the lines around it ("use same config", "as above"): out of them it says nothing.
LEANS = re.compile(r"\bsame(?: \w+){1,2}\W*$|\b(?:as|see|the) (?:above|below)\b|\baforementioned\b|"
                   r"\bthe (?:former|latter)\b|"
                   r"\b(?:mentioned|discussed|noted|described|listed|shown) (?:above|below|earlier)\b", re.I)
# A reference to a PR, issue or release first: a work item.
WORK_REF = re.compile(r"^(?:\*\*)?(?:pr|issue|release|commit|bug|task|phase|step|round|wave|sprint)?\s*#?\d+\b|^#\d+|"
                      r"^(?:pr|issue|release|commit)\s+(?:#|`)", re.I)
# A past participle as the main verb in the first words ("Five gaps identified", "X documented —").
PARTICIPLE = re.compile(
    r"^(?:(?!(?:is|are|was|were|be|been|being|get|gets|got|has|have|had|not)\s)\S+\s+){0,5}?"
    r"(?!(?:need|seed|speed|feed|embed|bed|red|shed|used to|based|named|called|related|expected|required|nested|"
    r"detailed|advanced|limited|shared|fixed-\w+)\b)[a-z]{3,}ed\b(?!\s+(?:by|as|in|on|to|with|for|from|under)\s)",
    re.I)
PATH_VALUE = re.compile(r"^`?[~\w./{}-]*(?:\.[a-z]{1,5}(?::\d+(?:-\d+)?)?|/)`?$")
QUESTION = re.compile(r"\?\s*$|？")


PERSON = re.compile(r"\b(?:i|i'm|i've|me|my|you|your|we|we're|us|our|let's|let me|let us)\b", re.I)
# Where the main clause ends: "… runs at 02:00 UTC because that's the quietest window for all our regions"
# is a claim about the job; a person in the reason does not make it a report.
MAIN_CLAUSE_END = re.compile(r"\s(?:because|since|so that|which|as (?:most|many|all|our|we)|given that)\s|\s[—–]\s|;", re.I)
# A bare pronoun as the subject ("This is …", "It was …"): the line needs its neighbours to mean anything.
BARE_SUBJECT = re.compile(r"^(?:this|that|it|these|those|they|he|she|there)\s+(?P<verb>[\w']+)", re.I)
# A lead label that files the line as a report ("**Updated:**", "**Status:**", "**Verification:**").
REPORT_LABEL = re.compile(
    r"(?:^|\s)(?!(?:need|seed|speed|embed|feed|required|preferred|expected|supported|related|based|named|limited|"
    r"shared|detailed|advanced|allowed|denied)\b)\w+ed\b|\b(?:status|results?|outcome|verification|validation|evidence|"
    r"summary|progress|tests?|testing|discovery|action|cleanup|sign-off|commit|pr|issue|run|releases?|line|command|"
    r"timeline|eta|estimate|findings?|next|todo|plan|proposals?|suggestions?|ideas?|navigation|changes?|current|new|assert\w*)\b"
    r"|^what (?:changed|happened)", re.I)
SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z`*])|\s+—\s+")


def _setting(whole: str) -> bool:
    """A short label and one concrete value; a file path or a line as the value is a pointer, a link
    to a run or PR an event, a list of code spans an inventory."""
    m = SETTING.match(whole)
    if not m or len(m["rest"]) >= 80 or re.search(r"`[^`]+`\s*,\s*`", whole) or PATH_VALUE.match(m["value"]):
        return False
    if re.search(r"(?i)\b(?:file|line|path|location|document)s?$", m["label"]) or REPORT_LABEL.search(m["label"]):
        return False
    return not re.search(r"/(?:runs|pull|issues|commit|actions)/", m["value"]) \
        and not REPORT_LABEL.search(m["rest"].split("(")[0])


# A notice that the knowledge was filed elsewhere ("… merged to team decisions log", "**Decision merged:**
# `decisions.md`"): it points at the item, it is not the item. Not a standing passive ("Errors are logged to …").
FILED = re.compile(r"(?<!\bis )(?<!\bare )(?<!\bbe )(?<!\bbeen )\b(?:merged|moved|filed|logged|recorded|copied|written|"
                   r"appended|saved)\s+(?:in)?to\s+(?:`|(?:the\s+)?(?:[\w-]+\s+){0,2}(?:logs?|files?|inbox|decisions?|wiki|"
                   r"docs?|history|records?)\b)", re.I)
FILED_LABEL = re.compile(r"\b(?:merged|filed|logged|recorded|moved|archived)\b", re.I)
# An item's leading bold label (`- **Decision merged:** …`), its words in group 1.
BOLD_LEAD = re.compile(r"^\s*(?:[-*+]\s+|\d+[.)]\s+)?\*\*([^*\n]{1,60})\*\*:?\s*")
# A finding with the one-off action it calls for ("… undocumented. Quick fix: add an inline comment"). A bare
# "Fix:" after a root cause is the lesson's fix ("… corrupt each other. Fix: a temp dir per call"): knowledge.
PENDING = re.compile(r"(?:^|[.;]\s+|\s—\s)(?:(?:quick|suggested|proposed|recommended) fix|todo|to-do|action items?|"
                     r"next steps?|follow[- ]up|remediation)\s*:", re.I)


def _lead_label(text: str) -> re.Match | None:
    """BOLD_LEAD on the item's normalised text."""
    return BOLD_LEAD.match(judge.normalize(text).strip())


def filed(text: str) -> bool:
    """The item's first sentence (or its bold label) reports that it was filed somewhere else."""
    label = _lead_label(text)
    if label and FILED_LABEL.search(label[1]):
        return True
    first = SENTENCE.split(judge.body_of(text), maxsplit=1)[0]
    return bool(FILED.search(first))


# A Squad decision block as decisions.md writes it: its byline first, then the decision's field
# (`**By:** Priya` / `**Date:** …` then `**What:** …`). Its kind stays the byline's (`context`), so
# session end condenses it as before; the gate reads the block as the decision it records.
# The byline fields: who wrote a block and when (also the head of core/prtext.py's metadata run), in
# English and the languages core/block_fields.py lists (`**Von:** Katrin` / `**Was:** …`); a colon
# may be full-width (`**担当：**`).
_FIELD_END = r"\s*(?:[:：]\*\*|\*\*\s*[:：])"
DECISION_BLOCK = re.compile(   # the fields on lines of their own, or joined into one line
    r"(?is)\A\s*(?:[-*+]\s+)?\*\*(?:" + BYLINE_FIELDS + r")" + _FIELD_END + r"[^*\n]*\s"
    r"(?:\s*\*\*(?:" + BYLINE_FIELDS + r"|" + STATUS_FIELDS + r")" + _FIELD_END + r"[^*\n]*\s)*"
    r"\s*\*\*(?:" + WHAT_FIELDS + r")" + _FIELD_END + r"\s*\S")


def standing(text: str) -> str | None:
    """The shape that makes the line a standing statement ("claim" or "setting"), or a Squad
    decision block ("decision block"), or None."""
    if m := DECISION_BLOCK.match(text):
        # a block whose decision field reports a meeting ("**What:** Went through the board") records no decision
        what = re.split(r"\n|\*\*", text[m.end() - 1:], maxsplit=1)[0]
        return None if judge.narrative(what) else "decision block"
    line = " ".join(text.split())
    if not line or len(line) > MAX_CHARS or judge.junk(text) or judge.narrative(text) or PENDING.search(line):
        return None
    body = judge.body_of(text)
    label = _lead_label(text)
    whole = (label[1].rstrip(":. ") + ": " + body) if label and body else body
    if label and REPORT_LABEL.search(label[1].rstrip(":. ").strip()):
        return None
    if (STATUS.search(whole) or DEICTIC.search(whole) or LEANS.search(whole) or QUESTION.search(whole)
            or WORK_REF.match(whole) or WORK_REF.match(body) or PERSON.search(MAIN_CLAUSE_END.split(whole, 1)[0])):
        return None
    if _setting(whole):
        return "setting"
    # A claim in one of the first sentences (a bold lead label may hold the first one); a first one that
    # is an instruction, a past or temporary state rules the line out.
    heads = ([label[1].rstrip(":. ")] if label else []) + SENTENCE.split(body)[:2]
    parts = [p.strip(" *:;—–-") for p in heads]
    for n, part in enumerate(parts[:2] if label else parts[:1]):
        if _rules_out(part, is_label=bool(label) and n == 0):
            return None
    for part in parts:
        bare = BARE_SUBJECT.match(part)
        if bare and (VERB.match(bare["verb"]) or PAST.match(bare["verb"]) or ADVERB.match(bare["verb"])):
            return None
        if PARTICIPLE.match(part) and not _claim(part):
            return None
        if part.isascii() and _claim(part):
            return "claim"
    return None


def _rules_out(part: str, is_label: bool) -> bool:
    """An opening that makes the line no statement: a past or temporary state, a past-tense verb
    with its object, an instruction. A bold label is a noun phrase ("**Retry policy:**") unless
    its first word takes an object ("**Push to X**")."""
    lead = TOKEN.findall(part)[:2]
    if not lead or TEMPORARY.search(part):
        return True
    takes_object = len(lead) == 2 and bool(OBJECT.match(lead[1]))
    if PAST_LEAD.match(lead[0]) and takes_object:
        return True
    return bool(NO_SUBJECT.match(lead[0].strip("*`\"'(").lower())) and (not is_label or takes_object)
