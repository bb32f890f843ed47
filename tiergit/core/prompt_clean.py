"""Template noise out of a spawn prompt: HTML comment hints and headings left with nothing under them.

The hot template carries `<!-- one line each ... -->` hints for the agent that
writes it; in a prompt they are noise, as are `## WHY` / `### Blockers`
headings with no text. Provenance markers (`<!-- path -->` lines that name a
file) are kept: they tell the agent where a block came from.
Cost: a few regex passes, linear in the prompt.
"""
from __future__ import annotations

import re

COMMENT_RE = re.compile(r"<!--(?!\s*[\w./-]+\.md\s*-->)(?!\s*m-[0-9a-f]+\b).*?-->", re.S)
HEADING_RE = re.compile(r"^(#{1,6})\s+\S")
FENCE_RE = re.compile(r"^\s*(```|~~~)")


def strip_comments(text: str) -> str:
    """Remove HTML comments except provenance markers; lines left empty by it go too."""
    out = []
    for line in COMMENT_RE.sub("\0", text).splitlines():
        if "\0" in line:
            line = line.replace("\0", "")
            if not line.strip():
                continue
        out.append(line)
    return "\n".join(out) + ("\n" if text.endswith("\n") else "")


def drop_empty_sections(text: str) -> str:
    """Remove each heading whose section (up to the next heading of the same or a higher level) is blank."""
    lines = text.splitlines()
    levels = _heading_levels(lines)
    keep = [True] * len(lines)
    for n, level in levels.items():
        end = next((m for m in sorted(levels) if m > n and levels[m] <= level), len(lines))
        body = [lines[m] for m in range(n + 1, end) if keep[m]]
        if all(not b.strip() for b in body):
            for m in range(n, end):
                keep[m] = False
    # headings are judged deepest first would matter only for nested empties: run twice
    out = "\n".join(line for line, k in zip(lines, keep) if k)
    return out + ("\n" if text.endswith("\n") else "")


def _heading_levels(lines: list[str]) -> dict[int, int]:
    levels, fenced = {}, False
    for n, line in enumerate(lines):
        if FENCE_RE.match(line):
            fenced = not fenced
        elif not fenced and HEADING_RE.match(line):
            levels[n] = len(HEADING_RE.match(line)[1])
    return levels


def clean(text: str) -> str:
    """Comments out, then empty sections out (twice, so a parent emptied by its children goes too)."""
    text = strip_comments(text)
    return drop_empty_sections(drop_empty_sections(text))
