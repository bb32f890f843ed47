"""Durable knowledge by the *shape* of an unlabelled line, when no marker word says what it is.

Real memory states much of its knowledge with no label and no "never"/"always": "TDD
non-negotiable for Domain/Application changes", "Every filed issue -> memory entry", "`init.ts`
wrote an absolute `teamRoot` to config.json: crash on clone". These shapes are read here;
`judge.plain_kind` asks them last, after its marker words and after it has set narrative
("Added …", "Fixed …") aside, so a work report is still condensed.

A shape is a form plus an anchor (a constraint word, a quantifier, a cause, a failure with the
code name it hit), at most MAX_SHAPE_CHARS long: every line kept verbatim costs the replay's
token budget (<= 15 % of tokens in). Two broader shapes were measured and left out for that
budget: "Label: concrete value" config facts and present-tense claims naming code (+6.8 % of
history characters, 8 of 11 labelled hits durable) -- see docs/judge.md.
Pure and cheap: a few regex scans of the item's first sentence; imports only `re`.
"""
from __future__ import annotations

import re

# A constraint or requirement, wherever it sits in the sentence.
CONSTRAINT = re.compile(
    r"\b(?:non-negotiable|mandatory|required (?:for|by|on|before|when)|forbidden|prohibited|not allowed|"
    r"only (?:if|when|after|before|via|through)|unless|use \S+ instead|won't work|do(?:es)? not work|breaks? (?:on|when|if))\b"
    r"|\b(?:ONLY|NEVER|MUST)\b")
# A quantified generalisation: "Every filed issue -> memory entry", "All actions SHA-pinned".
QUANTIFIED = re.compile(r"^(?:every|each|any|all|no) \w+(?:[ -]\w+){0,4}?\s*(?:→|->|=>|must|should|needs?|gets?|goes|"
                        r"requires?|is|are|has|have|uses?|runs?)(?!\w)")
# A cause or reason joined to a claim: "X because Y", "prevents …", "so that …".
CAUSE = re.compile(r"\b(?:because|due to|so that|which means|prevents?|otherwise|the reason|rationale)\b|(?:→|->) (?:caus|break|fail)")
# An error report: the thing that broke and how.
FAILURE = re.compile(
    r"\b(?:crash(?:es|ed)?|exception|error|bug|mismatch|timeout|timed out|regression|broke|broken|incorrectly|"
    r"was missing|were missing|not found|denied|refused|leak(?:s|ed)?|deadlock|race condition|oom|"
    r"HTTP [45]\d\d|[45]0[0-9] (?:bad|not|internal|gateway|service))\b|崩溃|报错|错误|失败|停止|bug")
# A present-tense claim about a system: the verb a fact is written with.
PRESENT = re.compile(
    r"\b(?:is|are|uses|use|returns|rejects|accepts|controls|checks|owns|holds|expects|requires|reads|writes|stores|"
    r"keeps|needs|has|lives|runs|maps|matches|means|fires|preserves|supports|calls|emits|blocks|allows|wins|"
    r"defaults|resolves|loads|creates|covers|applies|works|handles|carries|points|lacks|gets|"
    r"can|cannot|can't|won't|does|doesn't|do not|don't|must|should)\b")
# A concrete anchor: a code name, a path, a number with a unit or a version, a URL, an env/config name.
ANCHOR = re.compile(
    r"`[^`]{2,}`|https?://|\b[A-Z][a-z]+[A-Z]\w*|\b\w+_\w+\b|\b\w+\(\)|\b[\w-]+\.(?:md|py|ts|js|cs|json|ya?ml|toml|sh|ps1)\b"
    r"|\b\d+(?:\.\d+)?\s*(?:ms|s|sec|min|h|hours|days|KB|MB|GB|k|K|%|dims|tokens|lines|bytes|ticks|px)\b|\bv?\d+\.\d+(?:\.\d+)?\b"
    r"|\b[A-Z]{2,}(?:_[A-Z0-9]+)+\b")
# A numbered or bulleted to-do: an action verb first, after an optional `**Owner:**` label.
OPEN_VERB = re.compile(
    r"^(?:fix|investigate|add|update|rewrite|clarify|create|remove|migrate|implement|document|write|verify|review|"
    r"consider|decide|replace|refactor|split|rename|move|extract|audit|re-?run|retry|follow up|port|wire|enable|"
    r"drop|delete|upgrade|bump|pin|restore|backfill|deprecate)\b")
# Longer shaped lines are mostly reports; chosen with the replay's 15 % token budget.
MAX_SHAPE_CHARS = 90
# A report leads with a past-tense verb ("Bumped …", "Wired …"); "seed", "need", "speed" are not one.
PAST_LEAD = re.compile(r"^(?!\w*eed\b)\w+ed\b")


def shape_kind(body: str, is_list_item: bool) -> str | None:
    """The durable kind an unlabelled line's shape gives it, or None (context).

    `body` is the item's first sentence without its list marker or bold lead label (as
    `judge.body_of` gives it), in its own case; `is_list_item` says it was a list entry."""
    return which_shape(body, is_list_item)[0]


def which_shape(body: str, is_list_item: bool) -> tuple[str | None, str]:
    """(kind, name of the shape that gave it): shape_kind with its reason, for the benchmark."""
    low = body.lower()
    if len(body) > MAX_SHAPE_CHARS:
        return None, ""
    if QUANTIFIED.match(low):
        return "rule", "quantified"
    if is_list_item and OPEN_VERB.match(low) and len(body.split()) >= 4:
        return "open", "to-do"
    if FAILURE.search(body if not body.isascii() else low) and (ANCHOR.search(body) or CAUSE.search(low)):
        return "error", "failure"
    if CONSTRAINT.search(body) and not PAST_LEAD.match(low):
        return "rule", "constraint"
    if CAUSE.search(low) and PRESENT.search(low) and not PAST_LEAD.match(low):
        return "fact", "cause"
    return None, ""
