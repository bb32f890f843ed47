"""Scoring the judgement on the labelled corpus SENTENCES (tests/labels/sentences_corpus.tsv, drawn by
tests/sentence_sample.py), through the code paths the commands use:

- the judgement alone: is the sentence worth keeping (durable, never-compress or specific) or noise;
- `session end`'s compaction: each labelled sentence's file is cut into sessions the way
  tests/replay_labelled.py cuts it (at headings, <= 120 KB) and each chunk compacted in turn, cold
  growing; a sentence counts as kept when its text (list marker aside, whitespace folded) is in cold;
- `transcript compact`: every labelled line is one turn of a transcript, inside ordinary sentences,
  at every age; a sentence counts as kept when its text is in the compacted markdown.

Runs on the old judgement too (benchmarks/bench_judge.py extracts an older tiergit/ and runs this
module under it): the sentence judgement falls back to "its kind is one session end keeps".
Shared by tests/features/test_sentence_keep.py and benchmarks/bench_judge.py.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

import labelled
from sentence_sample import split_sentences

KEEP_LABELS = frozenset({"nc", "durable", "specific"})
NOISE_LABELS = frozenset({"activity", "tool", "meta", "template", "dup"})
MARKER = re.compile(r"^\s*(?:>\s*)?(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?")
# A heading's marks: session end shows a kept sub-heading in bold inside its entry (features/compact.py).
HEADING_MARKS = re.compile(r"^\s{0,3}#{1,6}\s+")
ENCODING = "cl100k_base"


@dataclass
class Sentence:
    label: str
    split: str
    rel: str
    line: int
    index: int
    text: str       # the sentence as the sampler cut it
    line_text: str  # its whole line

    @property
    def keep(self) -> bool:
        return self.label in KEEP_LABELS

    @property
    def verbatim(self) -> str:
        """What must appear in the output for the sentence to count as kept verbatim."""
        return " ".join(MARKER.sub("", self.text, count=1).split())

    @property
    def forms(self) -> tuple[str, ...]:
        """What counts as the sentence kept verbatim in cold: itself, or for a heading its words in bold."""
        if not HEADING_MARKS.match(self.text):
            return (self.verbatim,)
        return (self.verbatim, "**" + " ".join(HEADING_MARKS.sub("", self.text, count=1).split()) + "**")


# round 4's sample (parts tune, held); round 5's (part new), round 6's (part round6) and round 7's (part
# round7), all held out
SAMPLES = {"first": "sentences_corpus", "new": "sentences_corpus_new", "round6": "sentences_corpus_round6",
           "round7": "sentences_corpus_round7", "round8": "sentences_corpus_round8",
           "round9": "sentences_corpus_round9",
           "round10": "sentences_corpus_round10"}
# The other readings of each sample, resolved with the first: worth keeping when any of them says so.
# reader2 of "new" and "round6" is the first reader's second pass; reader3 (and round6's reader4) are
# independent readers who saw only the sentences; rounds 7 and 8's two readings (the file and its reader2) are
# both independent readers'.
READINGS = {"first": ("reader2",), "new": ("reader2", "reader3"), "round6": ("reader2", "reader3", "reader4"),
            "round7": ("reader2",), "round8": ("reader2",), "round9": ("reader2",), "round10": ("reader2",)}


def sentences(corpus: Path, labels: str | None = None, sample: str = "first") -> list[Sentence]:
    """The labelled sentences of a sample (SAMPLES). `labels` (else $TIERGIT_SENTENCE_LABELS): "first"
    (default: the first reader's, which the tests hold the judgement to), or "resolved": worth keeping
    when any reading of the sample says so (its `_reader2`, `_reader3`, ... files; benchmarks/bench_judge.py
    prints both)."""
    labels = labels or os.environ.get("TIERGIT_SENTENCE_LABELS", "first")
    name = SAMPLES[sample]
    others = READINGS.get(sample, ()) if labels == "resolved" else ()
    keep_by: dict[int, str] = {}
    for reading in others:
        for r in labelled.rows(f"{name}_{reading}.tsv"):
            if r[1] in KEEP_LABELS:
                keep_by.setdefault(int(r[0]), r[1])
    out = []
    for number, (label, split, rel, n, sha, k) in enumerate(labelled.rows(f"{name}.tsv"), 1):
        if label in NOISE_LABELS and number in keep_by:
            label = keep_by[number]
        line = labelled.corpus_line(corpus, rel, int(n), sha)
        out.append(Sentence(label, split, rel, int(n), int(k), split_sentences(line)[int(k)], line))
    return out


def agreement(sample: str = "first", reading: str = "reader2") -> tuple[int, int, float]:
    """(sentences, agreeing on keep/noise, Cohen's kappa) of the first reading of a sample and another
    (`reading`: the file suffix, reader2 or reader3)."""
    first = ["keep" if r[0] in KEEP_LABELS else "noise" for r in labelled.rows(f"{SAMPLES[sample]}.tsv")]
    return labelled.kappa(first, _keep_or_noise(sample, reading))


def agreement_between(sample: str, a: str, b: str) -> tuple[int, int, float]:
    """(sentences, agreeing on keep/noise, Cohen's kappa) of two other readings of a sample (file suffixes)."""
    return labelled.kappa(_keep_or_noise(sample, a), _keep_or_noise(sample, b))


def _keep_or_noise(sample: str, reading: str) -> list[str]:
    return ["keep" if r[1] in KEEP_LABELS else "noise" for r in labelled.rows(f"{SAMPLES[sample]}_{reading}.tsv")]


def judged_worth_keeping(text: str) -> bool:
    """The judgement on one sentence: the sentence judge where there is one, else (the old
    judgement) a kind session end keeps verbatim, or a statement it keeps while budget lasts."""
    try:
        from tiergit.core import sentence_judge
    except ImportError:
        from tiergit.core import judge, kinds, sessiontext
        return kinds.classify(text) in sessiontext.KEEP_KINDS or bool(judge.statement(text))
    return sentence_judge.noise(text) is None


def _fold(text: str) -> str:
    return " ".join(text.split())


def session_end_cold(corpus: Path, rel: str) -> tuple[str, int, int]:
    """(cold text, tokens in, tokens kept) after the file's chunks were compacted one after another."""
    import replay_labelled

    from tiergit.core import parse
    from tiergit.features import compact
    from tiergit.shell.tokens import count_text
    text = (corpus / rel).read_text(encoding="utf-8", errors="replace").replace("\0", "")
    cold, ids, tokens_in, tokens_kept = "", set(), 0, 0
    for chunk in replay_labelled.chunks(text):
        doc = _notes(parse, chunk)
        out = compact.compact_doc(doc, ids, cold_text=cold)
        body = out.body()
        ids.update(out.kept_ids)
        cold += "\n\n" + body
        tokens_in += count_text(chunk, ENCODING).tokens
        tokens_kept += count_text(body, ENCODING).tokens if body else 0
    return cold, tokens_in, tokens_kept


def _notes(parse, chunk: str):
    """The chunk parsed as session end parses its notes (core/hotfile.notes_doc: a paragraph above
    any heading is an item too); the old judgement's parse has no such switch."""
    try:
        return parse.parse(chunk, notes=True)
    except TypeError:
        return parse.parse(chunk)


def session_end_outcomes(corpus: Path, items: list[Sentence], mapper=None) -> tuple[list[bool], int, int]:
    """Which sentences are verbatim in cold after their files' session ends; tokens in and kept."""
    files = sorted({s.rel for s in items})
    results = (mapper or (lambda fn, xs: [fn(x) for x in xs]))(lambda rel: session_end_cold(corpus, rel), files)
    cold = {rel: _fold(text) for rel, (text, _, _) in zip(files, results)}
    return ([any(form in cold[s.rel] for form in s.forms) for s in items], sum(r[1] for r in results),
            sum(r[2] for r in results))


FILLER = ("Thanks, let me look at that now.", "Okay, checking the next file.", "Sounds good, carry on.")


def transcript_markdown(items: list[Sentence]) -> str:
    """A markdown transcript: each labelled line one turn (inside ordinary sentences when it is
    prose, its own paragraph when it is a list item, table row or heading), with a filler turn
    between, so the lines sit at every age from the newest layer to the one-line summary."""
    turns = []
    for n, s in enumerate(items):
        role = "User" if n % 2 == 0 else "Assistant"
        line = s.line_text.strip()
        if MARKER.match(line) or line.startswith(("|", "#", "```", "**")):
            body = f"{FILLER[n % 3]}\n\n{line}\n\nI will continue with the next step."
        else:
            body = f"{FILLER[n % 3]} {line} I will continue with the next step."
        turns.append(f"{role}: {body}")
        turns.append(f"{'Assistant' if role == 'User' else 'User'}: {FILLER[(n + 1) % 3]}")
    return "\n\n".join(turns) + "\n"


def transcript_outcomes(items: list[Sentence]) -> list[bool]:
    from tiergit.core import chatlog
    from tiergit.features import transcript
    turns, _ = chatlog.read(transcript_markdown(items), "sample.md")
    folded = _fold(transcript.compact(turns, "sample.md", ENCODING).markdown)
    return [s.verbatim in folded for s in items]


def ratio(a: float, b: float) -> float:
    return a / b if b else float("nan")


def metrics(corpus: Path, items: list[Sentence], mapper=None) -> dict:
    """The issue's figures for one part of the labelled sentences."""
    from tiergit.shell.tokens import count_text
    judged = [judged_worth_keeping(s.text) for s in items]
    keep = [s.keep for s in items]
    tp = sum(j and k for j, k in zip(judged, keep))
    junk_tp = sum((not j) and (not k) for j, k in zip(judged, keep))
    in_cold, tokens_in, tokens_kept = session_end_outcomes(corpus, items, mapper)
    in_transcript = transcript_outcomes(items)
    noise_tokens = [count_text(s.verbatim, ENCODING).tokens for s in items if not s.keep]
    noise_kept = [c for c, s in zip(in_cold, items) if not s.keep]
    return {
        "sentences": len(items), "worth_keeping": sum(keep), "noise": len(items) - sum(keep),
        "keep_precision": ratio(tp, sum(judged)), "keep_recall": ratio(tp, sum(keep)),
        "junk_precision": ratio(junk_tp, len(judged) - sum(judged)), "junk_recall": ratio(junk_tp, len(keep) - sum(keep)),
        "session_end_kept": ratio(sum(c for c, k in zip(in_cold, keep) if k), sum(keep)),
        "transcript_kept": ratio(sum(c for c, k in zip(in_transcript, keep) if k), sum(keep)),
        "noise_tokens_removed": ratio(sum(t for t, kept in zip(noise_tokens, noise_kept) if not kept), sum(noise_tokens)),
        "tokens_in": tokens_in, "tokens_kept": tokens_kept,
        "missed_session_end": [s for s, c in zip(items, in_cold) if s.keep and not c],
        "missed_transcript": [s for s, c in zip(items, in_transcript) if s.keep and not c],
        "noise_kept": [s for s, c in zip(items, in_cold) if not s.keep and c],
    }
