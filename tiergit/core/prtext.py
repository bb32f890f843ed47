"""How a candidate reads where people see it: the wiki line a reviewer approves (labels and
metadata gone) and a score beside its bar at the precision that explains the verdict. Pure."""
from __future__ import annotations

import re

from tiergit.core import kinds
from tiergit.core.candidate import FORCED_RE
from tiergit.core.block_fields import BYLINE_FIELDS, STATUS_FIELDS, WHAT_FIELDS

LABEL_RE = re.compile(r"^\*\*([^*\n]{1,60}?)[:：]?\*\*[:：]?\s*")
# Squad's decision metadata before the knowledge: `**By:** TypeScriptDev **Status:** Implemented **What:** …`.
META_RUN_RE = re.compile(r"^(?:\*\*(?:" + BYLINE_FIELDS + r"|" + STATUS_FIELDS + r"|priority|area|issue|pr|who|when|source)\s*[:：]?\*\*[:：]?"
                         r"[^*\n]*?(?=\*\*|$)\s*)+", re.I)
META_LABELS = frozenset({"what", "decision", "pattern", "rule", "fact", "lesson", "key lesson", "convention", "correction",
                         "constraint", "learning", "key learning", "key insight", "insight", "preference"}
                        | set(WHAT_FIELDS.split("|")))


def wiki_text(text: str, kind: str) -> str:
    """The item as a reviewer and an agent should read it in the wiki: no metadata run (`**By:** …
    **Status:** …`), no kind label (`**What:**`, `**Pattern:**`), no `tiergit:forced` marker."""
    body = META_RUN_RE.sub("", text) if text.startswith("**") else text
    m = LABEL_RE.match(body)
    # a label goes when it is metadata or names the kind by itself (`**Pattern:**`); one that names the
    # subject (`**Single port architecture**:`) or is the rule (`**Prefer StorageV2 over Storage**`) stays
    if m and (m[1].strip().lower() in META_LABELS or (kind != "context" and kinds.classify(m[0]) == kind)):
        body = body[m.end():]
    body = FORCED_RE.sub("", body).strip()
    return body[:1].upper() + body[1:] if body else text.strip()


def score_pair(total: float, bar: float) -> tuple[str, str]:
    """A score and its bar with the decimals that show which side of the bar it is on
    (0.6996 against 0.70 reads "0.6996 < 0.7000", never "0.70 < 0.70")."""
    for places in (2, 3, 4, 6):
        a, b = f"{total:.{places}f}", f"{bar:.{places}f}"
        if (a != b) == (total != bar):
            return a, b
    return repr(total), repr(bar)
