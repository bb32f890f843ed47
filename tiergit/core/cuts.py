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


def dated_units(doc: parse.MemoryDoc) -> list[tuple[date, int, int, str | None]]:
    """Every dated entry and dated log item as (day, first line, last line, log-section heading)."""
    out = []
    for sec in doc.sections:
        if sec.date is not None:
            out.append((sec.date, sec.line, sec.end_line, None))
        elif sec.is_log_section:
            out.extend((item.date, item.line, item.end_line, sec.heading) for item in sec.items if item.date is not None)
    return out


def newest_starts(doc: parse.MemoryDoc, keep_last: int) -> set[int]:
    """First lines of the file's `keep_last` newest dated units (by date, then position): the
    sessions retention always keeps in the tier, whatever their age."""
    if keep_last <= 0:
        return set()
    units = sorted(dated_units(doc), key=lambda u: (u[0], u[1]))
    return {u[1] for u in units[-keep_last:]}


def expired_cuts(doc: parse.MemoryDoc, today: date, ttl_days: int, keep_last: int = 0) -> list[Cut]:
    """Entries past their TTL (by heading date) and log-section items (by their own date),
    except the `keep_last` newest of the file."""
    limit = today - timedelta(days=ttl_days)
    kept = newest_starts(doc, keep_last)
    cuts = []
    for day, first, last, heading in dated_units(doc):
        if day < limit and first not in kept:
            what = "log item" if heading else "entry"
            cuts.append(Cut(first, last, day, f"{what} older than {ttl_days} days", heading))
    return cuts


def pointer_line(dest: str) -> str:
    return (f"- Moved to `{dest}` by tiergit: this section was over the tier's budget "
            "(`tiergit recall` finds its lines; `tiergit restore` or a hand edit brings it back).\n")


def pinned_cuts(doc: parse.MemoryDoc, text: str, day: date, dest: str, over) -> tuple[str, list[Cut]]:
    """The last resort for a file whose pinned (undated) sections alone exceed the budget:
    move section bodies, largest first, to the archive (`dest`), each heading kept with a
    pointer line, until `over(new_text)` is false. -> (new text, cuts of the original text).
    The preamble and sections already holding only a pointer stay."""
    lines = rawtext.split_lines(text)
    pointer = pointer_line(dest)
    candidates = [s for s in doc.sections
                  if s.date is None and s.level > 0 and s.end_line > s.line and not s.is_log_section
                  and pointer not in s.text]
    candidates.sort(key=lambda s: (-len(s.text), s.line))
    chosen: list[Cut] = []
    new = text
    for sec in candidates:
        if not over(new):
            break
        chosen.append(Cut(sec.line + 1, sec.end_line, day, "pinned section over the budget", sec.heading))
        new = _with_pointers(lines, chosen, pointer)
    return new, chosen


def _with_pointers(lines: list[str], cuts: list[Cut], pointer: str) -> str:
    starts = {c.start: c for c in cuts}
    out: list[str] = []
    i = 0
    while i < len(lines):
        cut = starts.get(i + 1)
        if cut is None:
            out.append(lines[i])
            i += 1
            continue
        out.append("\n" + pointer + "\n")
        i = cut.end
    return re.sub(r"\n{3,}", "\n\n", "".join(out))
