"""The raw text of a memory file: bytes decoded (or refused with the fix), lines split the
way markdown-it splits them, raw transcript lines found. Pure: bytes and text in."""
from __future__ import annotations

import re

from tiergit.core.patterns import TRANSCRIPT_LINE_RE
from tiergit.errors import InputError

_LINE_RE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+")
# Where str.splitlines breaks besides \n (Python's documented list).
_OTHER_BREAKS_RE = re.compile("[\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")


def split_lines(text: str) -> list[str]:
    """Lines with their endings, split where markdown-it splits them (\\r\\n, \\r or \\n).

    str.splitlines also breaks at form feeds, U+0085 and U+2028, which real files hold
    (a .NET project's histories carry stray \\x0c): block maps would point past the lines.
    A text holding none of those other breaks nor \\r is split by str.splitlines: the same
    lines, without a pattern call per line."""
    if _OTHER_BREAKS_RE.search(text) is None:
        return text.splitlines(True)
    return _LINE_RE.findall(text)


def decode(data: bytes, path: str, max_bytes: int | None = None) -> str:
    """Bytes of a memory file -> text, or an InputError naming the file and the fix."""
    if max_bytes is not None and len(data) > max_bytes:
        raise InputError(path, 1, "TG003", f"file is {len(data)} bytes, over the {max_bytes}-byte limit",
                         "split it, or raise limits.max_file_bytes in .tiergit.yml")
    nul = data.find(b"\0")  # the whole file (memchr-fast): a NUL after 8 KB is binary too
    if nul >= 0:
        raise InputError(path, 1, "TG001", f"binary file in the memory store (NUL byte at offset {nul})",
                         "memory files are UTF-8 markdown; move binaries out of the store")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise InputError(path, line, "TG002", f"not valid UTF-8 (byte {exc.start})",
                         "re-save the file as UTF-8") from None


def has_transcript(text: str) -> list[int]:
    """1-based lines that look like raw chat transcript (`User:` / `Assistant:`), outside fences."""
    hits = []
    in_fence = False
    for n, line in enumerate(split_lines(text), 1):
        line = line.rstrip("\r\n")
        if line.lstrip().startswith(("```", "~~~")):
            in_fence = not in_fence
            continue
        if not in_fence and TRANSCRIPT_LINE_RE.match(line):
            hits.append(n)
    return hits
