"""The user's pluggable summarizer (`compact.command`): a process that reads the session notes
on stdin and writes a summary on stdout, run within a timeout in its own process group.
Any failure falls back to the deterministic compaction, with a note saying why."""
from __future__ import annotations

import os
import re
import shlex
import signal
import subprocess
from dataclasses import dataclass

from tiergit.core.sessiontext import HEADING_LINE

# Session markers, the short form and the one entries carried before it (`tiergit:session s-…`).
SESSION_MARKER = re.compile(r"<!--\s*(?:tiergit:session\b.*?|s-[0-9a-z]{4,32}\s*)-->", re.S)


def sanitize_summary(text: str) -> str:
    """A summary must not add headings (they would split or fake cold entries) or session markers."""
    text = SESSION_MARKER.sub("", text.replace("\r\n", "\n"))
    lines = []
    for line in text.split("\n"):
        m = HEADING_LINE.match(line)
        lines.append(f"{m[1]}**{m[2]}**" if m and m[2] else line)
    return "\n".join(lines).strip()


@dataclass
class SummarizerResult:
    text: str | None     # None: fall back to the deterministic path
    note: str


def run_summarizer(command: str, text: str, timeout: float, env: dict[str, str] | None = None) -> SummarizerResult:
    """Run the user's summarizer: `text` on stdin, the summary on stdout, within `timeout`."""
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        return SummarizerResult(None, f"summarizer command cannot be parsed ({exc}); used the deterministic compaction")
    if not argv:
        return SummarizerResult(None, "summarizer command is empty; used the deterministic compaction")
    try:
        # Its own process group, so a timeout also ends any children it started.
        proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                start_new_session=True, env={**os.environ, **(env or {})})
    except OSError as exc:
        return SummarizerResult(None, f"summarizer `{argv[0]}` could not start ({exc.strerror}); "
                                      "used the deterministic compaction")
    try:
        out, err = proc.communicate(text.encode("utf-8"), timeout=timeout)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.communicate()
        return SummarizerResult(None, f"summarizer `{argv[0]}` timed out after {timeout:g}s; "
                                      "used the deterministic compaction")
    if proc.returncode != 0:
        detail = err.decode("utf-8", "replace").strip().splitlines()
        why = f": {detail[-1][:120]}" if detail else ""
        return SummarizerResult(None, f"summarizer `{argv[0]}` failed (exit {proc.returncode}{why}); "
                                      "used the deterministic compaction")
    try:
        summary = sanitize_summary(out.decode("utf-8"))
    except UnicodeDecodeError:
        return SummarizerResult(None, f"summarizer `{argv[0]}` wrote non-UTF-8 output; used the deterministic compaction")
    if not summary:
        return SummarizerResult(None, f"summarizer `{argv[0]}` returned nothing; used the deterministic compaction")
    return SummarizerResult(summary, f"summarized by `{argv[0]}`")
