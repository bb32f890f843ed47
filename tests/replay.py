"""Replaying an agent's real history.md versions as sessions (used by tests and benchmarks/bench_replay.py).

Each consecutive pair of versions in corpus/*/replay/<agent>/ is one session: the new
version's added lines (each run headed by the section heading it sits under) are that
session's hot notes.
"""
from __future__ import annotations

import difflib
import re
from datetime import datetime, timezone
from pathlib import Path

HEADING = re.compile(r"^#{1,6}\s")
VERSION_RE = re.compile(r"^(\d+)_(\d{4}-\d{2}-\d{2})_([0-9a-f]+)\.md$")


def agent_dirs(corpus: Path) -> list[Path]:
    return sorted(p for p in corpus.glob("*/replay/*") if p.is_dir())


def versions(agent_dir: Path) -> list[Path]:
    return sorted(p for p in agent_dir.glob("*.md") if VERSION_RE.match(p.name))


def version_time(path: Path) -> datetime:
    day = VERSION_RE.match(path.name)[2]  # type: ignore[index]
    return datetime.fromisoformat(day).replace(hour=12, tzinfo=timezone.utc)


def _heading_above(lines: list[str], index: int) -> str | None:
    in_fence = False
    found = None
    for n, line in enumerate(lines[:index]):
        if line.lstrip().startswith(("```", "~~~")):
            in_fence = not in_fence
        elif not in_fence and HEADING.match(line):
            found = n
    return lines[found] if found is not None else None


def new_text(old: str, new: str) -> str:
    """The lines `new` adds to `old`, each run under the heading it belongs to."""
    a, b = old.splitlines(keepends=True), new.splitlines(keepends=True)
    chunks: list[str] = []
    current = None   # the heading the last chunk ends under
    for tag, _, _, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag not in ("insert", "replace"):
            continue
        run = b[j1:j2]
        if not "".join(run).strip():
            continue
        if not HEADING.match(run[0]):
            heading = _heading_above(b, j1)
            if heading is not None and heading != current:
                run = [heading, "\n", *run]
        current = _heading_above(b, j2)
        chunks.append("".join(run).strip("\n") + "\n")
    return "\n".join(chunks)


def task_of(text: str, fallback: str) -> str:
    """The session's task: its first dated heading (an entry), else its first heading."""
    headings = [ln.lstrip("#").strip() for ln in text.splitlines() if HEADING.match(ln)]
    dated = [h for h in headings if re.search(r"\d{4}-\d{2}-\d{2}", h)]
    return ((dated or headings or [fallback])[0])[:80] or fallback
