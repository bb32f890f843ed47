"""The JSON Lines logs tiergit owns (`<logs>/recalls.jsonl`, `<logs>/reviews.jsonl`), checked
before they are committed: one JSON object a line, no NUL byte, no conflict marker. Readers skip
a bad line, so a broken log would otherwise lose recall counts and review outcomes silently
on every clone. Pure: bytes in, findings out."""
from __future__ import annotations

import json

from tiergit.core.diagnostics import Finding
from tiergit.core.patterns import is_conflict_line

OWNED = ("recalls.jsonl", "reviews.jsonl", "openclaw-recalls.jsonl")
MAX_REPORTED = 3        # findings a file reports before one summary line


def is_owned(config, rel: str) -> bool:
    """A repo-relative path that is one of tiergit's own logs."""
    folder = config.repo_path(config.logs).rstrip("/")
    return any(rel == f"{folder}/{name}" for name in OWNED)


def _problem(raw: bytes) -> str | None:
    if b"\0" in raw:
        return "holds a NUL byte"
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return f"is not UTF-8 (byte {exc.start})"
    if not text.strip():
        return None             # a blank line holds no event (readers skip it); nothing is lost
    try:
        value = json.loads(text)
    except ValueError:
        return "is not JSON" + (" (a merge conflict marker)" if is_conflict_line(text) else "")
    return None if isinstance(value, dict) else "is JSON but not an object"


def findings(rel: str, data: bytes) -> list[Finding]:
    """LOG001 (critical) for each bad line, the first few by line, then a count."""
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()             # the final newline ends the last line, it starts none
    bad = [(n, p) for n, raw in enumerate(lines, 1) if (p := _problem(raw.rstrip(b"\r")))]
    hint = ("tiergit writes one JSON object a line: delete or repair the line "
            "(`git checkout -- FILE` restores the committed log)")
    out = [Finding(rel, n, "LOG001", "critical", f"log line {p}", hint) for n, p in bad[:MAX_REPORTED]]
    if len(bad) > MAX_REPORTED:
        out.append(Finding(rel, bad[MAX_REPORTED][0], "LOG001", "critical",
                           f"{len(bad) - MAX_REPORTED} more bad log line(s)", hint))
    return out
