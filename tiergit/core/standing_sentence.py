"""The standing sentence of a longer item: what the gate may promote when the item as a whole is no
durable knowledge.

Squad's Learnings are often one line of several sentences, kinded `context`: "CONTRIBUTING.md and
CONTRIBUTORS.md exist at repo root. Contributors Guide page added in v0.8.24. Each release should
include contributor recognition updates." The standing-statement shape (`statement.standing`) reads a
line's first sentences only, so the rule in the third is never seen, and the line as a whole is half
event. A recalled item of this kind may be judged sentence by sentence: one sentence that reads as a
standing claim (a subject and a present-tense verb), or carries a durable kind by its own words,
becomes the candidate; the PR shows that sentence, and the item is its provenance.

Left whole, never split:
- an item that opens as a report or an event (a status mark such as 📌 or ✅, a past-tense lead
  "Implemented …", "Traced …", a participle "audit … confirmed:", a lead label that files a report
  as `statement.standing` reads one, "**Next steps:**", "**Outcome:**", or a first sentence the
  sentence judgement calls noise), or a finding that calls for a one-off action ("Quick fix: add …"):
  its sentences are that report's findings, states of that day;
Never the candidate:
- a sentence that needs its neighbours (a pronoun or "this …" first, "them"/"they" anywhere, no subject: "Works on …",
  "Has a …", a demonstrative with no noun: "read this before …"), a past or temporary state, an
  announcement of a change ("A new … exists at …", "… is now …", "… no longer …"), noise, or under
  four words;
- a bare setting ("Cache key format: `job:{jobId}:details`"): out of its item, its label says what the
  value is, not of what.
A sentence with a durable kind of its own ("… should …", "Never …") is preferred; else the first
standing claim. One sentence per item: the PR stays short, and the item's recalls (the agent read
the whole item) are not counted twice. Pure; imports core modules only.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from tiergit.core import kinds, parse, sentence_judge, statement

MIN_WORDS = 4
# A lead that reads the sentence as a continuation of the one before: a pronoun or a determiner
# pointing back ("This framework is …", "It also …", "Such files …").
ANAPHORA = re.compile(r"^(?:this|that|these|those|it|its|it's|they|their|them|such|he|she|his|her|there|here|"
                      r"the same|same|above|below|former|latter|otherwise|however|instead)\b", re.I)
# A demonstrative with no noun after it points at a neighbour ("You must read this before …").
BARE_DEMONSTRATIVE = re.compile(r"\b(?:this|these|those)\b(?=\s*(?:[.,;:!?)—–]|$)|\s+(?:before|after|when|while|in|on|at|for|to|as|"
                                r"first|now|and|or|because|if|unless|is|are|was|were|will|must|should|can)\b)", re.I)
# A plural pronoun anywhere points at a neighbour's noun ("Tracking them shows what needs documentation.").
BACK_REF = re.compile(r"\b(?:them|they|these|those)\b", re.I)
# An announcement: what changed that day, not how things are ("A new PR review skill exists at …",
# "X is now the default", "Y no longer needs Z").
ANNOUNCES = re.compile(r"\b(?:a|an)\s+new\b|\bnewly\b|\bnow\b|\bno longer\b", re.I)
# A report's lead: a past-tense verb first ("Implemented Flight's …", "Traced complete …"); the words
# that read as adjectives there ("Shared pool …", "Required check …") are not one.
REPORT_LEAD = re.compile(r"^(?!(?:need|seed|speed|feed|embed|bed|red|shed|based|used|related|advanced|required|"
                         r"detailed|expected|limited|nested|shared|mixed|fixed|preferred|supported|named|"
                         r"generated|automated|deprecated|enabled|disabled|signed|scoped|typed|versioned)\b)"
                         r"[A-Za-z][a-z]{2,}ed\b", re.I)
NO_SUBJECT_AUX = frozenset({"can", "cannot", "can't", "will", "won't", "must", "should", "may", "have"})


@dataclass(frozen=True)
class Sentence:
    index: int      # 1-based, in the item's clean text
    text: str       # the sentence as written (whitespace folded)
    kind: str       # its own durable kind, else "fact"
    why: str        # "rule" / "decision" / … by its words, or statement.standing's "claim" / "setting"


def _plain(sentence: str) -> str:
    return sentence_judge.STATUS_LEAD.sub("", sentence.replace("**", "").strip())


LEAD_LABEL = re.compile(r"^\s*(?:[-*+]\s+|\d+[.)]\s+)?\*\*([^*\n]{1,60})\*\*")


def opens_as_report(first: str) -> bool:
    """The item's first sentence files it as a report or an event, not knowledge."""
    raw = first.strip()
    if sentence_judge.STATUS_LEAD.match(raw) or sentence_judge.noise(raw):
        return True
    label = LEAD_LABEL.match(raw)   # "**Next steps:** …", "**Gately outcome:** …": the label files a report
    if label and statement.REPORT_LABEL.search(label[1].rstrip(":. ").strip()):
        return True
    plain = _plain(raw)
    if REPORT_LEAD.match(plain):
        return True
    return bool(statement.PARTICIPLE.match(plain)) and statement.standing(plain) is None


def _needs_neighbours(sentence: str) -> bool:
    plain = _plain(sentence)
    words = plain.split()
    if len(words) < MIN_WORDS or ANAPHORA.match(plain) or BARE_DEMONSTRATIVE.search(plain) or BACK_REF.search(plain):
        return True
    first = words[0].strip("`*\"'(").lower()
    # no subject: the sentence goes on from the one before ("Works on npx cache hits …", "Has a …",
    # "Must be …"); a base form first is an instruction ("Keep posts practical …"), a rule's own shape
    finite = first.endswith("s") or first in NO_SUBJECT_AUX
    return (bool(statement.VERB.match(first)) and finite) or bool(statement.PAST.match(first))


def pick(text: str) -> Sentence | None:
    """The sentence of a several-sentence item that may be promoted on its own, or None."""
    sentences = [" ".join(s.split()) for s in sentence_judge.split_sentences(parse.clean_text(text))]
    # an item that calls for a one-off action ("Quick fix: add …") is a finding: its sentences are that day's
    if len(sentences) < 2 or opens_as_report(sentences[0]) or statement.PENDING.search(" ".join(sentences)):
        return None
    durable: Sentence | None = None
    claim: Sentence | None = None
    for n, s in enumerate(sentences, start=1):
        if _needs_neighbours(s) or statement.TEMPORARY.search(s) or ANNOUNCES.search(s) or sentence_judge.noise(s):
            continue
        shape = statement.standing(s)
        own = kinds.classify("- " + s)
        if own in kinds.DURABLE_KINDS and durable is None and (shape or not _reports(s)):
            durable = Sentence(n, s, own, own)
        elif shape == "claim" and claim is None:
            claim = Sentence(n, s, "fact", shape)
    return durable or claim


def _reports(sentence: str) -> bool:
    """Status, this-run words or a work reference: the sentence reports, whatever its marker word."""
    plain = _plain(sentence)
    return bool(statement.STATUS.search(plain) or statement.DEICTIC.search(plain) or statement.WORK_REF.match(plain))
