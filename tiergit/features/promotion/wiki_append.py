"""Appending promoted lines to a wiki topic: a topic file (`wiki/<topic>.md`), or a `## Topic`
section of a tier that is one file, made when missing."""
from __future__ import annotations

import re

from tiergit.core import parse


def append_to_topic(old: str | None, topic: str, lines: list[str], fixed_file: bool) -> str:
    title = topic.replace("-", " ").replace("_", " ").capitalize()
    block = "\n".join(lines) + "\n"
    if old is None:
        return (f"# {title}\n\n{block}" if not fixed_file else f"## {title}\n\n{block}")
    if not fixed_file:
        body = old.rstrip("\n") + "\n"
        last = body.rstrip("\n").rsplit("\n", 1)[-1]
        return body + ("" if last.lstrip().startswith(("- ", "* ")) else "\n") + block
    # One file for the whole tier (openclaw MEMORY.md): append under `## Title`, made if missing.
    doc = parse.parse(old, "<target>", with_items=False)
    for sec in doc.sections:
        if sec.heading and parse_slug(sec.heading) == parse_slug(topic):
            before = old[: _offset(old, sec.line)]
            section = sec.text.rstrip("\n") + "\n"
            after = old[len(before) + len(sec.text):]
            last = section.rstrip("\n").rsplit("\n", 1)[-1]
            section += ("" if last.lstrip().startswith(("- ", "* ")) else "\n") + block
            return before + section + ("\n" + after if after else "")
    return old.rstrip("\n") + f"\n\n## {title}\n\n{block}"


def parse_slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _offset(text: str, line: int) -> int:
    pos = 0
    for _ in range(line - 1):
        pos = text.index("\n", pos) + 1
    return pos
