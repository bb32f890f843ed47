"""A question and its answer kept together in the recall index (tiergit/features/recall_index.py). Pure.

- A paragraph that ends with a question mark is indexed and shown with the paragraph after it (its
  answer), unless that one asks too. List items are not paired this way: a list of open questions
  is not a question and its answer.
- In a dialogue (list items that are speaker turns, `- Caroline: …`), a turn that follows the other
  speaker's question is indexed with that question before it: the question holds the words a later
  search uses ("How long have you been married?" / "5 years already!"), the answer often none of them.
"""
from __future__ import annotations

import re

from tiergit.core.kinds import LIST_MARKER_RE

TURN_RE = re.compile(r"^\s*[-*+]\s+(?:\*\*)?([A-Z][\w.'-]*(?: [A-Z][\w.'-]*){0,2})(?:\*\*)?:(?:\*\*)?\s")


def _asks(text: str, clean: str) -> bool:
    """A paragraph (not a list item) that ends with a question mark."""
    return clean.rstrip().endswith("?") and not LIST_MARKER_RE.match(text)


def _answers(question: str, question_clean: str, text: str) -> bool:
    """`text` is a speaker's turn right after another speaker's turn that asks something."""
    asked, said = TURN_RE.match(question), TURN_RE.match(text)
    return bool(asked and said and asked[1] != said[1] and "?" in question_clean)


def texts(raws: list[str], cleans: list[str]) -> list[tuple[str, str]]:
    """(raw, clean) to index for each item of one section, in order (`raws`: the items as written,
    `cleans`: their clean texts)."""
    out = []
    for n, (raw, clean) in enumerate(zip(raws, cleans)):
        if n + 1 < len(raws) and _asks(raw, clean) and not _asks(raws[n + 1], cleans[n + 1]):
            raw, clean = raw + "\n" + raws[n + 1], clean + "\n" + cleans[n + 1]
        elif n and _answers(raws[n - 1], cleans[n - 1], raw):
            raw, clean = raws[n - 1] + "\n" + raw, cleans[n - 1] + "\n" + clean
        out.append((raw, clean))
    return out
