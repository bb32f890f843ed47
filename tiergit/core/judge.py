"""Text judgement: what a line of memory is (its kind in plain language), whether it is junk,
and whether it is instruction text aimed at an agent. One place for every caller: parse's
classifier (so session end, transcript compact, import and audit), and the promotion gate.

Deterministic and offline; only `re`, `unicodedata` and core/wakewords (itself `re`) are imported,
so the pre-commit hook path stays lean. Every function is pure and costs a few regex scans of one line.
Dreaming metadata (confidence, status, evidence) is read by `tiergit.core.dreams`.
"""
from __future__ import annotations

import re
import unicodedata

from tiergit.core.patterns import FRAMEWORK_PROMPT_RE, TRANSCRIPT_OPENING_RE
from tiergit.core.invisible import INVISIBLE
from tiergit.core.wakewords import WakeWords

# Letters from other scripts that look like Latin ones (the common homoglyph attack set).
HOMOGLYPHS = str.maketrans({
    "а": "a", "е": "e", "о": "o", "р": "p", "с": "c", "у": "y", "х": "x", "і": "i", "ј": "j", "ѕ": "s",
    "ԁ": "d", "ɡ": "g", "һ": "h", "ӏ": "l", "ո": "n", "ս": "u", "ԝ": "w", "ү": "y",
    "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P", "С": "C", "Т": "T",
    "Х": "X", "У": "Y", "І": "I", "Ј": "J", "Ѕ": "S",
    "α": "a", "ο": "o", "ρ": "p", "ε": "e", "ι": "i", "κ": "k", "ν": "v", "τ": "t", "υ": "u",
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N", "Ο": "O",
    "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X",
})


# Any character the two tables change: a text without one skips both translations (a dict
# translate walks every character in Python's slow path; most non-ASCII items only hold dashes).
_FOLDED = re.compile("[" + re.escape("".join(map(chr, INVISIBLE)) + "".join(map(chr, HOMOGLYPHS))) + "]")


def normalize(text: str) -> str:
    """NFKC, invisible characters removed, look-alike letters folded to Latin: what a reader sees."""
    if text.isascii():
        return text
    text = unicodedata.normalize("NFKC", text)
    if not _FOLDED.search(text):
        return text
    return text.translate(INVISIBLE).translate(HOMOGLYPHS)


# ---- kind from plain language -------------------------------------------------------------
# Lists under a labelled lead-in take its kind only up to this length (core/parse.py); past it only
# marker words give a kind (issue 21: a 456-character root cause is an error, not context).
MAX_PLAIN_CHARS = 200
# A bold lead is a label only when a colon ends it (`**Fix:**`, `**Fix**:`); `**Prefer StorageV2 over
# Storage** — always …` is the sentence's own first words.
MARKUP = re.compile(r"^\s*(?:>\s*)?(?:[-*+]\s+|\d+[.)]\s+)?(?:\[[ xX]\]\s+)?(?:\*\*[^*\n]{0,60}(?::\*\*|\*\*:)\s*)?")
CORRECTION = re.compile(
    r"^(?:no[,.!:;]|no\s+[—–-]+\s|nope\b|wrong[,.:!]|actually[,:]|correction\b|not quite\b|that(?:'s| is| was) (?:wrong|incorrect|not right|not true)\b)"
    r"|\b(?:that(?:'s| is| was) (?:wrong|incorrect|not (?:right|true|how))|is (?:wrong|incorrect)[:;,] (?:we|it|use)"
    r"|(?:owner|user|\w+) corrected (?:me|us|the agent)|i was wrong)\b")
PERMISSION = re.compile(
    r"\b(?:you (?:may|can|are allowed to|have permission to)|go ahead and|feel free to|(?:is|are) (?:approved|allowed|permitted) to"
    r"|(?:not|never) allowed to|(?:it'?s|is) (?:ok|okay|fine) to|permission to|may not|must ask before)\b")
ERROR = re.compile(
    r"\b(?:root[- ]cause|fixed by|the fix (?:was|is)|fix(?:ed)?:|caused by|the bug (?:was|is)|broke because|fails? (?:because|when)"
    r"|failed because|the problem (?:was|is)|workaround|regression (?:from|in|caused)"
    r"|(?:fixed|fixes|solved|resolved) (?:it|this|the (?:bug|issue|problem))|came from|stems from|was due to"
    r"|fail(?:s|ed)? (?:with|at the|on the)|(?:crash|error|exception|timeout)s? (?:came|comes) from)\b")
OPEN = re.compile(
    r"^(?:todo\b|to-do\b|next steps?:|next session:|follow[- ]up:|open question:)|\bnext session\W{0,4}:|\b(?:still need(?:s)? to|blocked (?:on|by)|waiting (?:on|for) \w+ to"
    r"|not yet (?:done|fixed|merged|implemented)|needs? to be (?:done|fixed|added|written|decided|tested)|still needs to)\b")
DECISION = re.compile(
    r"\b(?:we (?:decided|chose|agreed|settled on|went with|are going with|will use|standardi[sz]ed on)|decided (?:to|on|that)"
    r"|(?:the )?decision (?:is|was) to|going forward|from now on|chose \w+ over)\b|\bdecision\W{0,4}:")
RULE = re.compile(
    r"\b(?:never|always|must(?: not)?|mustn't|should(?: not)?|shouldn't|don't|do not|avoid|i prefer|we prefer|prefers?"
    r"|make sure|ensure|only ever|rule of thumb|is required|are required"
    r"|(?:the )?(?:owner|user|captain|team|client)s? (?:wants|prefers|likes|expects|asked for|asked us to))\b")
# "Only" directs when a verb's bare form follows ("Only use signed tags"), not a noun phrase or a
# description ("Only the cron bug affects us", "Only captured explicit inputs", "Only merges when …").
ONLY_DIRECTS = (r"(?= [a-z])(?! (?:the|a|an|this|that|these|those|one|some|my|our|your|its|their|we|it|they)\b)"
                r"(?! [a-z]*(?:ed|ing|[^\Ws]s)\b)(?! [a-z]+ [`\d])")   # "Only port 3000 …": a named thing, no verb
_DIRECTIVE_VERBS = (r"use|keep|run|check|pin|wrap|prefer|avoid|never|always|don't|do not|make sure|ensure|treat|escape|validate|"
                    r"store|name|remember|beware|watch out|stick to|default to|only" + ONLY_DIRECTS + r"|wait for|ask before|close|"
                    r"rotate|try")
# A directive opens the line, or follows a condition or purpose clause ("For skill installs, try `skillhub` first",
# "If it is rate-limited, fall back to `clawhub`", "Before installing, summarize the source and its risks").
IMPERATIVE = re.compile(
    r"^(?:(?:before|after|when|whenever|if|unless|once|for(?! now\b))\b[^;:.!?]{2,80}?,\s*)?(?:" + _DIRECTIVE_VERBS
    + r"|(?<=, )(?:summari[sz]e|fall ?back|ask|add|report|confirm|verify|log|note|follow|document|mention|include))\b")
FACT = re.compile(
    r"\b(?:defaults? to|is stored in|are stored in|lives? (?:in|at|under)|runs? on|is limited to|expires? after|"
    r"is (?:case[- ]sensitive|idempotent|deprecated|read-only|immutable)|only works|doesn't support|does not support|"
    r"takes? (?:about |around )?\d+ (?:s|sec|seconds|minutes|min|hours)|limit is|maximum is|requires the)\b")
# Bold labels that say an item is context whatever its wording (`**Task:** Write the tests`).
CONTEXT_LABEL = re.compile(
    r"(?i)^\s*(?:[-*+]\s+|\d+[.)]\s+)?\*\*(?:context|status|task|pr|why|background|summary|outcome|result|impact|"
    r"scope|files?|changes?|by|date|owner|author|requested by|notes?|what happened)\b"
    r"(?!\s+(?:of|for|to|in|on|at)\b)[^*\n]{0,20}\*\*")   # `**Owner of this branch:** …` is no field label
# Plain-text labels (`Rule: …`, `News preference: …`, `Bug fix (links): …`), up to three words before them.
PLAIN_LABELS = {"rule": "rule", "preference": "rule", "policy": "rule", "convention": "rule", "lesson": "rule",
                "principle": "rule", "guideline": "rule", "decision": "decision", "fix": "error", "root cause": "error",
                "workaround": "error", "todo": "open", "correction": "correction"}
# A paired label names its kind first (`Preference/workflow: …`).
PLAIN_LABEL = re.compile(r"^(?:[\w'-]+\s+){0,2}?(" + "|".join(PLAIN_LABELS) + r")s?(?:/[\w'-]+)?(?:\s*\([^)]{0,30}\))?\s*:\s")
# A rule leads with its directive: the modal sits in the first words of a clause.
CLAUSE = re.compile(r"\s(?:—|–|-|->|→)\s|[:;]\s|,\s(?:so|but|and|or|then)\s")
NARRATIVE = re.compile(r"^(?:📌|team update|implemented|added|created|wrote|updated|refactored|merged|reviewed|completed|finished|"
                       r"fixed|removed|renamed|moved|deleted|migrated|upgraded|installed|configured|deployed|released|"
                       r"shipped|built|started|worked|spent|ran|tested|investigated|explored|discussed|met|opened|closed|"
                       r"went through|went over|looked at|looked into|caught up|synced|chatted|talked|"
                       r"session|today|yesterday|this session)\b")
# A team's convention in its own words, present tense: "We store all timestamps in UTC", "New services are
# written in Go" (a past "We stored …" is a report; "We need to …", "We will …" are plans).
_CONVENTION_VERBS = (r"use|keep|store|write|name|run|deploy|version|pin|prefer|follow|tag|log|return|put|avoid|require|"
                     r"validate|send|cache|ship|review|squash|rebase|document|format|prefix|host|serve|route|encrypt|"
                     r"rotate|mock|wrap|expose|publish|release|treat|handle|default|limit|batch|retry|track|commit|"
                     r"build|test|lint|hash|sign|paginate|namespace")
_PARTICIPLES = (r"written|stored|kept|named|versioned|partitioned|formatted|returned|logged|cached|served|hosted|"
                r"deployed|built|encoded|encrypted|hashed|signed|validated|generated|sent|published|released|pinned|"
                r"tagged|prefixed|namespaced|sorted|paginated|rate-limited|backed up|mirrored|replicated|squashed|"
                r"rebased|reviewed|tested|linted|run|handled|treated|routed|retried|batched|tracked")
CONVENTION = re.compile(
    r"^(?:we (?:always |usually |generally |only |now |consistently )?(?:" + _CONVENTION_VERBS + r")"
    r"|(?:our|the) team (?:always |usually |generally |only |now |consistently )?(?:" + _CONVENTION_VERBS + r")(?:e?s)?)"
    r"\b(?! (?:to|it|that|this)\b)"
    r"|^(?:new |all |every |each |our )?[\w-]+(?: [\w-]+){0,3} (?:is|are) (?:always |never |only |all )?(?:"
    + _PARTICIPLES + r") (?:in|as|with|by|under|per|via|through|using|on|into|behind|before|after|monthly|daily|"
    r"weekly|nightly|hourly)\b")
# Headings whose list bodies are learnings (`### DTO Patterns`, `## Gotchas`, `### Key decisions`).
LEARNING_HEADING = re.compile(
    r"(?i)\b(?:patterns?|lessons?(?: learned)?|rules|conventions?|gotchas?|guidelines?|best practices|pitfalls?|"
    r"anti-patterns?|do'?s and don'?ts)\s*:?\s*$")


_LEAD_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}(?:[T ][0-9:.]+Z?)?\s*[-—–:·]*\s*")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`*])")
# _SENTENCE_END with its mark consumed: a match here at i is one there at i + 1, and re skips to a
# mark's position (a pattern that opens with a lookbehind is tried at every position: 2x slower).
_SENTENCE_GAP_AT = re.compile(r"[.!?]\s+[A-Z`*]")
_LISTED = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s")


def body_of(text: str) -> str:
    """The item's words: normalized, without list marker, checkbox, leading bold label or date."""
    first = normalize(text).strip()
    # Both patterns are anchored at the start: a match and a slice do what sub() did.
    body = first[MARKUP.match(first).end():]   # MARKUP matches at least the empty string
    if m := _LEAD_DATE.match(body):
        body = body[m.end():]
    return body.strip()


def _first_sentence(body: str) -> str:
    """_SENTENCE_END.split(body, maxsplit=1)[0][:200], read from the first 200 characters when
    they decide it (a long item's split searched all of it): a gap found there is the first one,
    and one that starts there but ends past the cut leaves the cut's last character a space."""
    head = body[:200]
    if m := _SENTENCE_GAP_AT.search(head):
        return head[:m.start() + 1]
    if len(body) > 200 and head[-1].isspace():   # re's \s is str.isspace
        return _SENTENCE_END.split(body, maxsplit=1)[0][:200]
    return head


def _folded_over(text: str, limit: int) -> bool:
    """len(" ".join(text.split())) > limit, from a prefix when it decides: a prefix's words are the
    text's first words (the last perhaps cut short), so the prefix's folded length is no longer."""
    head = text[:2 * limit]
    if len(" ".join(head.split())) > limit:
        return True
    return len(head) < len(text) and len(" ".join(text.split())) > limit


# Words one of which a lowercased text must hold (or start with) for the pattern to match it
# (core/wakewords.py): each pattern tries its alternation at every position of the text, and most
# items match none of them. Single words, so whitespace between the pattern's words never matters
# (RULE runs on clauses re-joined with single spaces).
# tests/core/test_judge_prefilter.py holds a phrase for every branch of each pattern.
_MUST_HOLD = {
    CORRECTION: (("no", "actually", "correction"), ("that", "wrong", "incorrect", "corrected")),
    PERMISSION: ((), ("you", "ahead", "free", "approved", "allowed", "permitted", "ok", "fine", "permission", "may",
                      "ask")),
    ERROR: ((), ("root", "fix", "caused", "bug", "broke", "fail", "problem", "workaround", "regression", "solved",
                 "came", "comes", "stems", "due")),
    OPEN: (("todo", "to-do", "follow", "open question"), ("next", "still", "blocked", "waiting", "yet", "need")),
    DECISION: ((), ("decided", "chose", "agreed", "settled", "went", "going", "will", "standardi", "decision", "from")),
    RULE: ((), ("ever", "always", "must", "should", "don't", "not", "avoid", "prefer", "sure", "thumb", "required",
                "wants", "likes", "expects", "asked")),
    FACT: ((), ("default", "stored", "live", "run", "limit", "expire", "sensitive", "idempotent", "deprecated",
                "read-only", "immutable", "works", "support", "take", "maximum", "requires")),
}
# One lookup of an item's tokens answers for all seven (a substring test per word and pattern cost
# ~10 µs an item).
_WAKE = WakeWords(_MUST_HOLD)
_wakes = _WAKE.bits   # held: tests/core/test_judge_prefilter.py swaps it to run every pattern
ALL_WAKE = _WAKE.all
_may_match = _WAKE.may_match


# Marker words, strongest first: an owner's correction or permission outranks the rule wording
# it carries, and an error or an open item is what the line reports.
MARKER_KINDS = tuple((pattern, kind, _WAKE.of(pattern)) for pattern, kind in (
    (CORRECTION, "correction"), (PERMISSION, "permission"), (ERROR, "error"), (OPEN, "open")))
_DECISION, _RULE, _FACT = _WAKE.of(DECISION), _WAKE.of(RULE), _WAKE.of(FACT)


def plain_kind(text: str) -> str | None:
    """The kind plain language gives an unlabelled item, or None (context).

    Order matters: an owner's correction or permission outranks the rule wording it carries
    ("No, that's wrong: always use tabs" is a correction)."""
    if CONTEXT_LABEL.match(text):
        return None
    # The first sentence carries a rule's wording; a modal buried in a long report does not make one.
    body = _first_sentence(body_of(text))
    if len(body) < 12:
        return None
    # A junk line (other than a fragment) has no kind. Most items end with no kind whatever their
    # shape, so junk is asked only of a kind found below (the same answer, for a sixth of the work).
    low = body.lower()
    wakes = _wakes(low)   # a pattern runs only when its bit is set
    for marker, kind, bit in MARKER_KINDS:
        if wakes & bit and marker.search(low):
            return kind if _not_junk(text) else None
    if m := PLAIN_LABEL.match(low):
        return PLAIN_LABELS[m[1]] if _not_junk(text) else None
    if len(text) > MAX_PLAIN_CHARS and _folded_over(text, MAX_PLAIN_CHARS):   # folding never lengthens
        # A long item is a correction, permission, error or open item by its words at any length;
        # rule and fact wording in a long report does not make it one (session end keeps its
        # specific sentences verbatim either way: core/sentence_judge.py).
        return None
    if wakes & _DECISION and DECISION.search(low):
        return "decision" if _not_junk(text) else None
    if NARRATIVE.match(low):
        return None
    if IMPERATIVE.match(low) or (wakes & _RULE and _rule_clause(low)):
        return "rule" if _not_junk(text) else None
    if wakes & _FACT and FACT.search(low):
        return "fact" if _not_junk(text) else None
    # No marker word: the line's shape (a constraint, "X because Y", a config value, a claim about code).
    shaped = _durable_shape().shape_kind(body, bool(_LISTED.match(text)))
    if shaped is None and (CONVENTION.match(low) or _foreign_rule(text[:200])):   # unfolded: look-alike
        shaped = "rule"                                                            # folding turns Cyrillic Latin
    return shaped if shaped is not None and junk(text) is None else None


def _foreign_rule(head: str) -> bool:
    """A rule's words, or a convention's shape, in another language than English ("Wszystkie daty
    zawsze w UTC", "Neue Dienste werden in Go geschrieben")."""
    from tiergit.core import rule_words, textlang   # textlang imports this module
    return (rule_words.rule_word(head) is not None or rule_words.convention(head) is not None) and \
        textlang.not_english(head)


def _rule_clause(low: str) -> bool:
    """A clause of `low` whose first six words hold RULE's wording; RULE runs only on a clause
    whose words wake it (most clauses of a text that holds a RULE word hold none)."""
    for clause in CLAUSE.split(low):
        words = clause.split()[:6]
        if _WAKE.tokens_bits(words) & _RULE and RULE.search(" ".join(words)):
            return True
    return False


def _durable_shape():
    """core/durable_shape.py on first use (held: an import statement per item costs ~2 µs)."""
    global _SHAPES
    if _SHAPES is None:
        from tiergit.core import durable_shape
        _SHAPES = durable_shape
    return _SHAPES


_SHAPES = None


def _not_junk(text: str) -> bool:
    why = junk(text)
    return why is None or why == "a fragment"


def statement(text: str) -> str | None:
    """The durable kind a context item's statement shape suggests (durable_shape.statement_kind), or
    None: what `session end` keeps verbatim in place of condensed context while its budget lasts.
    Same gates as plain_kind: unlabelled, at most MAX_PLAIN_CHARS, not junk, not a work report."""
    if len(" ".join(text.split())) > MAX_PLAIN_CHARS or CONTEXT_LABEL.match(text) or narrative(text):
        return None
    body = _first_sentence(body_of(text))
    if len(body) < 12 or junk(text) is not None:
        return None
    from tiergit.core import durable_shape
    return durable_shape.statement_kind(body, bool(_LISTED.match(text)))


def narrative(text: str) -> bool:
    """A work report ("Fixed …", "Implemented …"), also behind a short `Title:` lead."""
    body = body_of(text).lower()
    lead, sep, rest = body.partition(": ")
    return bool(NARRATIVE.match(body) or (sep and len(lead.split()) <= 5 and NARRATIVE.match(rest.lstrip("*"))))


# A heading or lead-in that announces pending work: the list under it is to-dos, whatever its verbs.
PENDING_HEADING = re.compile(
    r"(?i)^\W*(?:next (?:steps?|actions?)|action items?|to-?dos?|follow[- ]ups?|remaining (?:work|tasks?)"
    r"|open (?:items|tasks))\b[^:.!?\n]{0,40}:?[*_\s]*:?\s*$")


# A heading or lead-in that offers a proposal (`**Proposal:** Split test workflows by branch:`, `### Proposal A:
# …`): the list under it is what was proposed, not what was decided (a `Proposal-first workflow` is a rule's name).
PROPOSAL_LEAD = re.compile(r"(?i)^\W*(?:proposals?|proposed (?:changes?|plans?|approach|solutions?|fix(?:es)?)|"
                           r"suggestions?)(?![-\w])")


def heading_kind(heading: str | None) -> str | None:
    """The kind a sub-heading or lead-in gives the list items under it: a learning-style one (`### DTO
    Patterns`) their rule, a pending-work or proposal one (`Next steps`, `🎯 Next actions needed:`,
    `### Proposal A`) their to-do."""
    if not heading:
        return None
    if PENDING_HEADING.match(heading) or PROPOSAL_LEAD.match(heading):
        return "open"
    return "rule" if LEARNING_HEADING.search(heading) else None


# ---- junk by shape -------------------------------------------------------------------------
SHELL = re.compile(
    r"^(?:\$\s+|>\s+)?(?:sudo\s+)?(?:git|npm|npx|pnpm|yarn|pip3?|python3?|uv|docker|kubectl|curl|wget|rm|cd|ls|cat|make|cargo|"
    r"go|node|bash|sh|az|gh|chmod|chown|mv|cp|mkdir|tiergit|openclaw|pwsh|dotnet|helm|terraform|brew|apt(?:-get)?|"
    r"systemctl|journalctl|ssh|scp|export|echo|grep|sed|awk|find|tail|head)\s+[-\w./:=@\"'$`~]"
    r"|^[A-Z][A-Z0-9_]*=(?:\$\(|[\"'`]|\S+$)")
CODE = re.compile(r"^(?:[{}\[\]();]+$|(?:def|class|function|const|let|var|import|from|return|public|private|using|"
                  r"namespace|if|for|while|async|await)\b[^.!?]*[;{(:=]\s*$|//|/\*|\*/|<[a-zA-Z/][^>]*>\s*$"
                  # a variable statement whose value calls a member (`const stats = await mem.svc.stats();`), a
                  # declaration's head on its own line, a shell test's opening, a condition's continuation,
                  # a parameter (`BudgetScope scope,`)
                  r"|(?:const|let|var)\s+[\w{}\[\], ]+\s*=\s*(?:await\s+)?[\w.$]+\(.*\);$|(?:public|private|internal|protected)\s+(?:(?:static|sealed|abstract|partial|readonly)\s+)*"
                  r"(?:class|interface|record|struct|enum)\s+\w+(?:<[^>]*>)?$|(?:if|elif|while|until)\s+\[\[?\s.*\]\]?;\s*(?:then|do)$"
                  r"|(?:&&|\|\|)\s+\S|[A-Z]\w*(?:<[\w, ]*>)?\??\s+[a-z]\w*[,)]$)")
# An assignment or call statement ending the way code lines end (`player.food += n;`, `x = f({`,
# `["key"] = "value",`), a config line (`nginx.ingress.kubernetes.io/ssl-redirect: "true"`), a code name alone.
CODE_STATEMENT = re.compile(r"^[\w.\[\]\"'$-]+\s*(?:[-+*/|&]?=|:=)\s*\S.*[;,({\[]\s*$")
CONFIG_LINE = re.compile(r"^[a-z][\w.-]*[._/-][\w./-]*:\s*(?:\"[^\"]*\"|'[^']*'|\d+|true|false|null)\s*$")
CODE_NAME = re.compile(r"^`[^`\n]+`[.:]?$")
SQL = re.compile(r"^(?:CREATE (?:TABLE|INDEX|VIEW|UNIQUE INDEX|EXTENSION)|ALTER TABLE|DROP (?:TABLE|INDEX)|INSERT INTO|"
                 r"DELETE FROM|UPDATE \w+ SET|SELECT .{1,200}? FROM)\b")
DIFF = re.compile(r"^(?:@@ .* @@|diff --git |index [0-9a-f]{6,}|--- a/|\+\+\+ b/|[+-]{1}\s*[\w{}();<>/\"'=]+.*[;{}]\s*$)")
HEADING = re.compile(r"^\s{0,3}#{1,6}\s")
BARE = re.compile(r"^\s*(?:[-*+]\s*|\d+[.)]\s*)?(?:\*\*[^*\n]*\*\*:?|__[^_\n]*__:?|[-*_=|:`~#>\s]*|\[[ xX]?\])\s*:?\s*$")
TABLE = re.compile(r"^\s*\|.*\|\s*$")
META = re.compile(r"(?i)^\s*(?:[-*+]\s+)?(?:\*\*)?(?:date|status|author|by|owner|updated|created|time|timestamp|"
                  r"session|duration|commit|branch|pr|issue|version|tags?|requested by|assigned|priority|agent|model|"
                  r"tokens?|cost|confidence|evidence|recalls?)(?:\*\*)?\s*[:=]")
STATUS = re.compile(r"(?i)(?:✅|❌|⏳|🟢|🔴|🟡|\b(?:complete[d]?|done|in progress|pending|passed|failed|ok|success)\b)\s*$")
LOG = re.compile(r"(?i)^\s*(?:\[?\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2})?[^\]]*\]?|\[(?:info|warn(?:ing)?|error|debug|trace)\]|(?:info|warn(?:ing)?|error|debug|trace):"
                 r"|(?-i:INFO|WARN(?:ING)?|ERROR|DEBUG|TRACE)\s|(?-i:[A-Z]\w*(?:Error|Exception)):"
                 r"|\d{2}:\d{2}(?::\d{2})?\s|(?:traceback|exit code|exited with|stdout|stderr)\b)")
REPORT = re.compile(r"(?i)\b(?:cron|heartbeat|scheduled (?:job|task)|delivery (?:report|status)|health ?check)\b.{0,80}"
                    r"\b(?:ok|succeeded|failed|completed|ran|delivered|sent|posted|status)\b"
                    r"|^(?:tasks? completed|status report|monitoring|summary)\s*:|持续监控|监控项|无新|无重大|突破\s*[:：#]|状态[:：（(]|执行时间|cron 任务|由 cron")
PATH_ONLY = re.compile(r"^`?[\w.~/\\-]+(?:/[\w.-]+)+`?:?\s*$|^`?[\w.-]+\.(?:md|py|ts|js|cs|json|ya?ml|toml|sh)`?\s*$")
WORD = re.compile(r"[^\W\d_]{2,}")


_SENTENCE_GAP = re.compile(r"[.!?]\s+[A-Z]")
# A command's name as a sentence's subject (`uv is bind-mounted from its image`, `make sure the lock is held`).
_NAME_AS_SUBJECT = re.compile(r"^(?:sudo\s+)?\S+\s+(?:is|are|was|were|has|had|have|must|should|shall|will|would|can|cannot|"
                              r"could|may|might|does|did|doesn't|isn't|needs?|only|never|always|also|itself|sure)\b", re.I)


def _shell_line(plain: str) -> bool:
    """A command line, not a sentence that starts with a command's name."""
    return (bool(SHELL.match(plain)) and plain.count(" ") < 25 and not _SENTENCE_GAP.search(plain)
            and not _NAME_AS_SUBJECT.match(plain))


# REPORT's words, one of which an ASCII line must hold for it to match (its search tries every
# position of a long line: ~15 % of junk). Non-ASCII lines always run it: under IGNORECASE `ſ`
# matches s and `ı` i, which lower() does not fold, and its Chinese phrases are not ASCII.
_REPORT_WORDS = ("cron", "heartbeat", "scheduled", "delivery", "health")
_REPORT_STARTS = ("task", "status report", "monitoring", "summary")


def _report(plain: str) -> bool:
    if plain.isascii():
        low = plain.lower()
        if not (any(w in low for w in _REPORT_WORDS) or low.startswith(_REPORT_STARTS)):
            return False
    return bool(REPORT.search(plain))


def _code_line(plain: str) -> bool:
    return bool(CODE.match(plain) or CODE_STATEMENT.match(plain) or SQL.match(plain))


# Junk shapes after the markup checks, in order: (test, which part of the line, why).
# "first" is the raw first line, "body" it without its list marker, "plain" the body unquoted.
JUNK_SHAPES = (
    (TABLE.match, "first", "a table row"),
    (DIFF.match, "first", "a diff hunk"),
    (_shell_line, "plain", "a shell command"),
    (_code_line, "plain", "a line of code"),
    (CONFIG_LINE.match, "plain", "a config line"),
    (CODE_NAME.match, "body", "a code name alone"),
    (PATH_ONLY.match, "plain", "a file path"),
    (LOG.match, "plain", "a log line"),
    (_report, "plain", "a cron / status report"),
    (FRAMEWORK_PROMPT_RE.search, "plain", "a framework's own prompt (OpenClaw's flush, reset or compaction prompt)"),
)


def _markup(text: str) -> tuple[str | None, str, str, str]:
    """(why, when the line is junk by its markup alone; the normalized text, its first line,
    that line without its markup): junk's first steps, which `bare` stops after."""
    raw = normalize(text).strip()
    if not raw:
        return "empty", raw, "", ""
    first = raw.splitlines()[0].strip()
    if first.startswith(("```", "~~~")):
        return "a code fence", raw, first, ""
    if HEADING.match(first):
        return "a bare heading", raw, first, ""
    if TRANSCRIPT_OPENING_RE.match(first):
        return "a transcript line", raw, first, ""
    body = MARKUP.sub("", first, count=1).strip()
    if BARE.match(first) or not WORD.search(body):
        return "bare markup, no words", raw, first, body
    return None, raw, first, body


def bare(text: str) -> bool:
    """junk(text) == "bare markup, no words" (a label or marker alone), without the shape tests."""
    return _markup(text)[0] == "bare markup, no words"


def junk(text: str) -> str | None:
    """Why a line is junk by its shape (no knowledge a reviewer would keep), or None."""
    why, raw, first, body = _markup(text)
    if why is not None:
        return why
    parts = {"first": first, "body": body, "plain": body.strip("`")}
    for shape, part, why in JUNK_SHAPES:
        if shape(parts[part]):
            return why
    words = len(WORD.findall(body))   # once: a long line's words cost ~5 µs to find
    if META.match(first) and ((words < 8 and len(CJK_RE.findall(body)) < 16) or STATUS.search(body)):
        return "a metadata / status line"   # a Chinese clause is one "word" here: its characters count
    # `first` is raw's first line stripped, and raw starts with no space: its rstrip, as before.
    if words < 3 and len(CJK_RE.findall(body)) < 8:   # a Chinese sentence has few spaces, not few words
        return "a fragment"
    if words < 15 and first.rstrip("*_ ").endswith(":") and len(WORD.findall(raw)) - words < 5:
        return "a fragment"   # a label alone; with a list under it ("**Convention:** … follow RFC 7807:") an item
    if words < 10 and all(w.lower() in GLUE_WORDS for w in WORD.findall(body)):
        return "a fragment"   # "and then the one for the": only the words between words
    if ENDS_MID_SENTENCE_RE.search(body):
        return "a fragment"   # "and then the second half of the": cut off mid-sentence
    return None


CJK_RE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]")
ENDS_MID_SENTENCE_RE = re.compile(r"(?i)\b(?:the|a|an|of|to|and|or|for|with|probably|should|would|could|might|because|but|if|when|we)$")
GLUE_WORDS = frozenset("and or but then so the a an of for to in on at by with from as one ones that this these those "
                       "it its is was be there here which what who also just".split())
