"""OpenClaw Dreaming metadata on a candidate, in every form it is written, and the clean text.

Real forms: `- Candidate: … ; confidence: 0.84; evidence: memory/x.md:448-451` on one line,
indented `- confidence: 0.62` / `- recalls: 0` / `- status: staged` sub-items, `confidence=0.00`,
`Confidence = 0.00`, `[confidence=0.8]`, `[likely_durable] … [memory/2026-03-17.md:53]` backfill
candidates and `Reflections: Theme: …; note: reflection`. `read_dreamed` reads a staged item as a
Dreaming candidate (its clean text, kind and what vouched for it). Pure; a few regex scans per item.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from tiergit.core import judge, kinds

# `key: value`, `key=value`, `Key = value`, as a sub-item (`- key: v`), after `;` or inside `[...]`.
FIELD = re.compile(
    r"(?i)(?:^|(?<=[\s;,(\[|]))(?:-\s+)?\b(confidence|status|evidence|recalls?|score|note|source)\s*[:=]\s*"
    r"(?P<value>[^;\n\]|]*?)(?=\s*(?:;|\n|\]|\||\s-\s+\w+\s*[:=]|\s+\b(?:confidence|status|evidence|recalls?|score|note)\s*[:=]|$))")
TAG = re.compile(r"\[(likely_durable|unclear|durable|ephemeral|reflection)\]", re.I)
SOURCE_REF = re.compile(r"\[?\s*(?:memory/[\w./-]+\.md|[\w-]+\.md):\d+(?:-\d+)?(?:\s*,\s*(?:memory/[\w./-]+\.md|[\w-]+\.md):\d+(?:-\d+)?)*\s*\]?")
PREFIX = re.compile(r"^\s*(?:[-*+]\s+)?(?:\*\*)?(?:Candidate|Reflections?|Theme|Possible Lasting Update)s?(?:\*\*)?\s*:\s*", re.I)
SCORE_BRACKET = re.compile(r"[\[(]\s*(?:score|confidence|recalls?|rank|conf)\s*[=:]?\s*[\d.]+[^\])]*[\])]", re.I)
NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
# The markers OpenClaw writes around a Dreaming phase's report in a daily note
# (`<!-- openclaw:dreaming:light:start -->` … `<!-- openclaw:dreaming:light:end -->`).
BLOCK_MARK = re.compile(r"^\s*<!--\s*openclaw:dreaming:(?P<phase>[\w-]+):(?P<edge>start|end)\s*-->\s*$", re.I)
DREAM_HEADING = re.compile(r"^ {0,3}#{1,6}\s+(?:reflections?|possible lasting \w+|candidates?)\b", re.I)
STATUSES = ("staged", "promoted", "rejected", "pending", "keep", "archived")


@dataclass
class DreamMeta:
    confidence: float | None = None
    status: str | None = None
    recalls: int | None = None
    evidence: list[str] = field(default_factory=list)
    tag: str | None = None
    note: str | None = None

    @property
    def present(self) -> bool:
        return (self.confidence is not None or self.status is not None or self.tag is not None
                or self.recalls is not None or bool(self.evidence))


def _quick(text: str) -> bool:
    low = text.lower()
    return any(w in low for w in ("confidence", "status", "evidence", "recall", "likely_durable", "unclear]",
                                  "candidate", "reflection", ".md:"))


def read(text: str) -> DreamMeta:
    """Every Dreaming field the item carries (the first of each; evidence refs all)."""
    meta = DreamMeta()
    if not _quick(text):
        return meta
    for m in FIELD.finditer(text):
        key, value = m[1].lower(), m["value"].strip().strip("`*\"'")
        if key in ("confidence", "score") and meta.confidence is None:
            num = NUMBER.match(value)
            meta.confidence = float(num[0]) if num else None
        elif key == "status" and meta.status is None:
            word = value.split()[0].lower().strip(".,") if value.split() else ""
            meta.status = word if word in STATUSES else None
        elif key.startswith("recall") and meta.recalls is None:
            num = NUMBER.match(value)
            meta.recalls = int(float(num[0])) if num else None
        elif key == "evidence":
            meta.evidence += [ref.strip() for ref in value.split(",") if ".md:" in ref]
        elif key == "note" and meta.note is None:
            meta.note = value.lower()
    tag = TAG.search(text)
    if tag:
        meta.tag = tag[1].lower()
    if not meta.evidence:
        meta.evidence = [r.strip("[] ") for r in SOURCE_REF.findall(text) if ".md:" in r]
    return meta


# A note lifted from a dated log: a session stamp first ("2026-04-28 17:30 — Title: …"), or a date
# in the lead title ("Durable memory - 2026-04-20: Observations: …", "**[2026-04-13 10:11 PM]** …").
STAMPED = re.compile(r"^\s*(?:[-*+]\s+)?(?:Candidate:\s*)?(?:\d{4}-\d{2}-\d{2}[ T]\d{1,2}:\d{2}"
                     r"|[^:;\n]{0,60}?(?<![\w-])\d{4}-\d{2}-\d{2}(?![\w-])[^:;\n]{0,24}[:：])")
DUMP = re.compile(r"^\s*(?:[-*+]\s+)?(?:Candidate:\s*)?Possible Lasting (?:Truths|Updates)\s*:|Candidate:\s*(?:-\s*)?Candidate:",
                  re.I)
REFLECTION = re.compile(r"^\s*(?:[-*+]\s+)?(?:Candidate:\s*)?(?:Reflections?|Theme)\s*:", re.I)


def verdict(meta: DreamMeta, min_confidence: float, text: str = "") -> str | None:
    """Why Dreaming's own metadata rules the candidate out, or None when it may pass."""
    if meta.status in ("promoted", "archived"):
        return f"Dreaming already marked it `status: {meta.status}`"
    if meta.status == "rejected":
        return "Dreaming rejected it (`status: rejected`)"
    if meta.note == "reflection" or meta.tag == "reflection" or REFLECTION.match(text):
        return "a Dreaming reflection (a theme across memories), not a memory"
    if DUMP.match(text):
        return "a raw Dreaming dump (`Possible Lasting Truths:` / a nested candidate), not one memory"
    if meta.tag in ("unclear", "ephemeral"):
        return f"Dreaming tagged it `[{meta.tag}]`"
    if meta.confidence is not None:
        if meta.confidence <= 0:
            return "Dreaming confidence 0.00"
        if meta.confidence < min_confidence:
            return f"Dreaming confidence {meta.confidence:.2f} < {min_confidence:.2f}"
        return None
    if meta.tag in ("likely_durable", "durable"):
        return None
    return "Dreaming output without a confidence" if meta.status else None


def vouched(meta: DreamMeta, min_confidence: float, text: str = "") -> bool:
    """Dreaming scored it (confidence, or a `[likely_durable]` tag) and did not rule it out:
    its confidence stands in for tiergit's recall and score signals."""
    return meta.present and verdict(meta, min_confidence, text) is None and (
        meta.confidence is not None or meta.tag in ("likely_durable", "durable"))


TITLE = re.compile(r"^(?P<title>[^:;.!?`*\n]{3,80}?):\s+(?=\S)")


def untitled(cleaned: str) -> str:
    """A light-sleep candidate's text without the section titles it opens with (up to two), each a
    lead of two to eight words before `: ` ("Memoria DB Backup: …", "OpenClaw 5.7 — Upgrade Decision:
    WAIT: …"); a one-word label (`Decision:`, `Fix:`) is the item's own and stays."""
    out = cleaned
    for _ in range(2):
        m = TITLE.match(out)
        if not m or not 2 <= len(m["title"].split()) <= 8 or not out[m.end():].strip():
            break
        out = out[m.end():]
    return out


def clean(text: str) -> str:
    """The candidate's knowledge alone: no `Candidate:` prefix, metadata fields, sub-items,
    tags, evidence refs or score brackets; whitespace folded."""
    first = [ln for ln in text.splitlines() if not re.match(
        r"^\s+[-*]\s+(?:confidence|status|evidence|recalls?|score|note|source)\s*[:=]", ln, re.I)]
    out = " ".join(" ".join(first).split())
    out = re.sub(r"^\s*(?:[-*+]\s+|\d+[.)]\s+)", "", out)
    out = TAG.sub("", out)
    out = PREFIX.sub("", out)
    out = re.sub(r"^\d{4}-\d{2}-\d{2}(?:[T ]\d{1,2}:\d{2}(?::\d{2})?)?\s*[—–-]\s*", "", out)   # a session stamp
    out = SCORE_BRACKET.sub("", out)
    out = FIELD.sub("", out)
    out = SOURCE_REF.sub("", out)
    out = re.sub(r"(?:\s*[;,|]\s*)+$", "", out)
    out = re.sub(r"\s*;\s*(?=;|$)", "", out)
    return " ".join(out.split()).strip(" -;,")


def report_lines(text: str) -> frozenset[int]:
    """1-based lines of `text` inside a Dreaming phase's report: between OpenClaw's start and end
    markers; after a start with no end, the lines in Dreaming's own shape (its candidate, theme and
    nested-dump items, their indented metadata, its `### Reflections` / `### Possible Lasting …`
    headings, blank lines) up to the first that is not. What Dreaming writes there is its copy of
    other notes (each candidate cites them as evidence), not the session's own text."""
    lines = text.splitlines()
    out: set[int] = set()
    n = 0
    while n < len(lines):
        mark = BLOCK_MARK.match(lines[n])
        if not (mark and mark["edge"].lower() == "start"):
            n += 1
            continue
        phase = mark["phase"].lower()
        end = next((k for k in range(n + 1, len(lines)) if (m := BLOCK_MARK.match(lines[k]))
                    and m["edge"].lower() == "end" and m["phase"].lower() == phase), None)
        if end is None:   # unclosed: as far as the lines keep Dreaming's shape
            end = n
            while end + 1 < len(lines) and _dreaming_shaped(lines[end + 1]):
                end += 1
        out.update(range(n + 1, end + 2))
        n = end + 1
    return frozenset(out)


def _dreaming_shaped(line: str) -> bool:
    return (not line.strip() or line[:1].isspace() or bool(PREFIX.match(line)) or bool(DREAM_HEADING.match(line))
            or line.lstrip().startswith(("- - ", "* * ")))


def read_dreamed(raw: str, text: str, kind: str, min_confidence: float) -> tuple[str, str, str, list[str]]:
    """A staged item read as a Dreaming candidate: (clean text, kind, what vouched for it, evidence).
    Its kind is judged on the clean text; a vouched candidate in plain prose counts as a fact."""
    meta = read(raw)
    if not meta.present:
        return text, kind, "", []
    cleaned = clean(raw) or text
    kind = kinds.classify("- " + cleaned)
    # A light-sleep candidate opens with its daily note's section titles ("Memoria DB Backup: …"). A
    # title's word ("Ingest Architecture Decision: Background Jobs: CREATE TABLE …") does not make every
    # line under it durable: when the lines alone carry no kind, the candidate is context.
    body = untitled(cleaned) if PREFIX.match(raw) else cleaned
    if body != cleaned and kind in kinds.DURABLE_KINDS and kinds.classify("- " + body) == "context":
        kind = "context"
    vouches = vouched(meta, min_confidence, raw)
    # A note lifted from a dated session log is an event unless its wording makes it knowledge. Deep
    # sleep's `[likely_durable]` vouches for plain prose; a light-sleep candidate (a daily note's section
    # title and its lines joined) counts as a fact only when its lines read as a standing statement.
    if vouches and kind == "context" and not judge.junk(cleaned) and not judge.narrative(cleaned) \
            and not STAMPED.match(raw) and not judge.CONTEXT_LABEL.match("- " + cleaned) \
            and (meta.tag in ("likely_durable", "durable") or _states(cleaned, body)):
        kind = "fact"
    how = (f"confidence {meta.confidence:.2f}" if meta.confidence is not None else meta.tag or "") if vouches else ""
    return cleaned, kind, how, meta.evidence


def _states(cleaned: str, body: str) -> bool:
    """A light-sleep candidate's lines (after its section titles, `;`-joined) state standing facts:
    its first line does, and its titles do not file it as a report (`Result:`, `Plan / Next steps:`)."""
    from tiergit.core import statement

    titles = cleaned[: len(cleaned) - len(body)]
    if any(statement.REPORT_LABEL.search(t.strip()) for t in titles.split(":") if t.strip()):
        return False
    first = next((p.strip() for p in body.split("; ") if p.strip()), "")
    return bool(first) and statement.standing(first) is not None
