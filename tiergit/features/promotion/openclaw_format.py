"""MEMORY.md promotions in OpenClaw's own format, so `openclaw memory promote` and tiergit
agree on what was promoted.

OpenClaw's Deep phase appends to the workspace's MEMORY.md:

    ## Promoted From Short-Term Memory (2026-05-20)

    <!-- openclaw-memory-promotion:memory:memory/2026-05-12.md:10:13 -->
    - <snippet> [score=0.873 recalls=0 avg=0.620 source=memory/2026-05-12.md:10-13]

tiergit writes its promotions the same way (no `<!-- tiergit: … --> ^m-…`): the marker
names the source file and lines, the bracket carries the score. The item's id stays the
hash of its text, because `parse.clean_text` drops the score bracket. Pure functions but
`promoted_in_store`, which reads MEMORY.md; cost linear in its text.
"""
from __future__ import annotations

import re
from datetime import date
from pathlib import PurePosixPath

from tiergit.core import parse
from tiergit.core.candidate import FORCED_RE
from tiergit.core.prtext import wiki_text

SECTION = "Promoted From Short-Term Memory"
MARKER_RE = re.compile(r"<!-- openclaw-memory-promotion:(?P<key>[^\s>]+) -->")
SECTION_RE = re.compile(rf"^## {SECTION} \((\d{{4}}-\d{{2}}-\d{{2}})\)\s*$", re.M)


def is_openclaw_memory(tier_path: str) -> bool:
    """A reviewed tier that is OpenClaw's own long-term file: `/MEMORY.md` at the workspace root."""
    return tier_path.startswith("/") and PurePosixPath(tier_path.lstrip("/")).as_posix() == "MEMORY.md"


def dreams_paths(cfg) -> list[str]:
    """OpenClaw's DREAMS.md beside its MEMORY.md, when MEMORY.md is one of the config's tiers."""
    return ["DREAMS.md"] if any(is_openclaw_memory(t.path) for t in cfg.tiers.values()) else []


def marker(source: str, start: int, end: int) -> str:
    return f"<!-- openclaw-memory-promotion:memory:{source}:{start}:{end} -->"


def promotion_lines(source: str, line: int, n_lines: int, text: str, kind: str, score: float,
                    recalls: int, relevance: float) -> list[str]:
    """The two lines OpenClaw writes per promoted snippet: its marker, then the snippet."""
    end = line + max(n_lines, 1) - 1
    one_line = " ".join(text.split())
    note = f"[score={score:.3f} recalls={recalls} avg={relevance:.3f} source={source}:{line}-{end}]"
    return [marker(source, line, end), f"- [{kind}] {one_line} {note}"]


def append_promotions(old: str | None, today: date, lines: list[str]) -> str:
    """MEMORY.md with today's promotions: under today's section when it is the last one
    (a second run the same day), else in a new `## Promoted From Short-Term Memory (day)`."""
    body = (old or "").rstrip("\n")
    heading = f"## {SECTION} ({today.isoformat()})"
    block = "\n".join(lines)
    last = list(SECTION_RE.finditer(body))
    if last and last[-1][1] == today.isoformat() and "\n## " not in body[last[-1].end():]:
        return body + "\n" + block + "\n"
    sep = "\n\n" if body else ""
    return f"{body}{sep}{heading}\n\n{block}\n"


def promoted_keys(text: str) -> set[str]:
    """The `memory:<path>:<start>:<end>` keys already promoted into a MEMORY.md."""
    return {m["key"] for m in MARKER_RE.finditer(text)}


def promoted_snippets(text: str) -> list[str]:
    """The snippet under each promotion marker of a MEMORY.md, lowercased, whitespace folded,
    without the score note: what OpenClaw (or tiergit) already promoted."""
    out, lines = [], text.splitlines()
    for i, line in enumerate(lines[:-1]):
        if MARKER_RE.fullmatch(line.strip()):
            snippet = re.sub(r"\s*\[score=[^\]]*\]\s*$", "", lines[i + 1])
            out.append(" ".join(snippet.lower().split()))
    return out


def already_promoted(snippets: list[str], item_text: str) -> bool:
    """An item is promoted when a snippet holds its whole text (OpenClaw promotes chunks of
    a note, flattened to one line, so one snippet may hold several items)."""
    needle = " ".join(item_text.lower().split())
    return len(needle) >= 12 and any(needle in s for s in snippets)


def promoted_in_store(store) -> list[str]:
    """Snippets the store's OpenClaw MEMORY.md marks as promoted (by OpenClaw or by tiergit)."""
    cfg = store.config
    out: list[str] = []
    for tier in cfg.tiers.values():
        path = store.repo / cfg.repo_path(tier.path)
        if is_openclaw_memory(tier.path) and path.is_file():
            out += promoted_snippets(path.read_text(encoding="utf-8", errors="replace"))
    return out


def marked_sources(store) -> dict[str, str]:
    """`path:line` -> MEMORY.md path, for every promotion marker's first source line: how
    `review sync` recognizes a promoted item whose text hash is not its id (a proposal)."""
    cfg = store.config
    out: dict[str, str] = {}
    for tier in cfg.tiers.values():
        rel = cfg.repo_path(tier.path)
        if is_openclaw_memory(tier.path) and (store.repo / rel).is_file():
            for key in promoted_keys((store.repo / rel).read_text(encoding="utf-8", errors="replace")):
                head, _, _end = key.rpartition(":")
                kind, _, source = head.partition(":")
                if kind == "memory" and source:
                    out[source] = rel
    return out


MONTHS = ("january february march april may june july august september october november december").split()
DIARY_DAY_RE = re.compile(r"^\s*\*\s*(?P<month>[A-Z][a-z]+) (?P<day>\d{1,2}), (?P<year>\d{4})\b")
BACKFILL_DAY_RE = re.compile(r"<!--\s*openclaw:dreaming:[\w-]*entry\b[^>]*?\bday=(\d{4}-\d{2}-\d{2})")
HEADING_DAY_RE = re.compile(r"^#{1,6}\s.*?\b(\d{4}-\d{2}-\d{2})\b")
CANDIDATE_RE = re.compile(r"^\s*(?:[-*+]\s+)?(?:\*\*)?Candidate(?:\*\*)?\s*:|\[(?:likely_durable|unclear|durable)\]", re.I)


def entry_days(text: str) -> list[date | None]:
    """Per line of DREAMS.md (index 0 is line 1), the day of the Dreaming entry it belongs to:
    a diary entry's `*April 17, 2026 at 3:03 AM*` line, a backfill entry's `day=…` marker, or a
    dated heading, whichever came last above it."""
    out: list[date | None] = []
    current: date | None = None
    for line in text.splitlines():
        current = _line_day(line) or current
        out.append(current)
    return out


def _line_day(line: str) -> date | None:
    m = DIARY_DAY_RE.match(line)
    try:
        if m and m["month"].lower() in MONTHS:
            return date(int(m["year"]), MONTHS.index(m["month"].lower()) + 1, int(m["day"]))
        m = BACKFILL_DAY_RE.search(line) or HEADING_DAY_RE.match(line)
        return date.fromisoformat(m[1]) if m else None
    except ValueError:
        return None


def is_dreaming_candidate(raw: str, dreamed: str, has_meta: bool) -> bool:
    """Only Dreaming's candidate structures in DREAMS.md are candidates (a `Candidate:` line, a
    `[likely_durable]`/`[unclear]` tagged line, or an item carrying Dreaming's metadata), never the
    diary's prose paragraphs around them."""
    return bool(dreamed) or has_meta or bool(CANDIDATE_RE.search(raw))


def append_rows(old: str | None, today: date, rows) -> str:
    """OpenClaw's MEMORY.md: one `## Promoted From Short-Term Memory (day)` section, a marker per item.
    A tier item's snippet is its own clean text (labels kept), so the line in MEMORY.md hashes
    to the same id. A staged item (a Dreaming candidate, a proposal) is written as its cleaned
    text (`prtext.wiki_text`: no `Candidate:` prefix, confidence, status, evidence refs or tags): its raw
    line is Dreaming's bookkeeping, not knowledge; `review sync` finds it by the marker's source
    line, and Dreaming's confidence and evidence stay in the review log's `proposed` event."""
    lines = []
    for r in rows:
        c = r.cand
        text = wiki_text(c.text, c.kind) if c.staged else FORCED_RE.sub("", parse.clean_text(c.raw)).strip()
        lines += promotion_lines(c.source, c.line, c.raw.rstrip("\n").count("\n") + 1, text,
                                 c.kind, r.score.total, r.recalls, r.score.signals.get("relevance", 0.0))
    return append_promotions(old, today, lines)
