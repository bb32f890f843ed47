"""Cuts: spans of a memory file that leave it for the archive, and the pure rules that find
and remove them (expiry by date, line removal that keeps or folds the file's formatting).
The archive writes themselves are planned by tiergit.features.retention."""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

from tiergit.core import parse, rawtext


@dataclass(frozen=True)
class Cut:
    """A span of a memory file to move to the archive."""
    start: int          # 1-based first line (file lines, frontmatter included)
    end: int            # 1-based last line, inclusive
    day: date           # decides the archive month
    reason: str
    heading: str | None = None   # section heading a cut item came from (kept as context)


def plural(n: int, one: str, many: str) -> str:
    return one if n == 1 else many


def remove_lines(text: str, spans: list[tuple[int, int]]) -> str:
    lines = rawtext.split_lines(text)
    drop = set()
    for start, end in spans:
        drop.update(range(start - 1, end))
    kept = [ln for i, ln in enumerate(lines) if i not in drop]
    return re.sub(r"\n{3,}", "\n\n", "".join(kept))


def cut_lines(text: str, spans: list[tuple[int, int]]) -> str:
    """`text` without the lines of `spans` (1-based, inclusive). Unlike `remove_lines`, blank
    lines are folded only where a cut joins two blank runs: the rest of the file keeps its
    exact formatting (DREAMS.md and MEMORY.md are OpenClaw's files, not ours to reflow)."""
    lines = rawtext.split_lines(text)
    drop: set[int] = set()
    for start, end in spans:
        drop.update(range(start - 1, end))
    kept: list[str] = []
    joined = False          # the previous kept line sits right before a removed run
    for i, line in enumerate(lines):
        if i in drop:
            joined = bool(kept)
            continue
        if joined and not line.strip() and not kept[-1].strip():
            continue        # blank before and after the cut: keep one
        joined = False
        kept.append(line)
    return "".join(kept)


def chunk(lines: list[str], cut: Cut) -> str:
    body = "".join(lines[cut.start - 1: cut.end]).rstrip("\n") + "\n"
    return body


def expired_cuts(doc: parse.MemoryDoc, today: date, ttl_days: int) -> list[Cut]:
    """Entries past their TTL (by heading date) and log-section items (by their own date)."""
    limit = today - timedelta(days=ttl_days)
    cuts = []
    for sec in doc.sections:
        if sec.date is not None:
            if sec.date < limit:
                cuts.append(Cut(sec.line, sec.end_line, sec.date, f"entry older than {ttl_days} days"))
        elif sec.is_log_section:
            for item in sec.items:
                if item.date is not None and item.date < limit:
                    cuts.append(Cut(item.line, item.end_line, item.date,
                                    f"log item older than {ttl_days} days", sec.heading))
    return cuts
