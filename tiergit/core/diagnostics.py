"""Findings and how they are printed: ruff-style text, JSON, GitHub annotations, job summary
markdown (written to $GITHUB_STEP_SUMMARY by tiergit.features.checkrun)."""
from __future__ import annotations

import json

from tiergit.core.record import record_class


@record_class
class Finding:
    """One problem found in a file: where, its code, how bad, and how to fix it."""
    path: str
    line: int
    code: str
    severity: str  # critical | warning | info
    message: str
    hint: str = ""

    def text(self) -> str:
        head = f"{self.path}:{self.line}: {self.code} [{self.severity}] {self.message}"
        return head + (f"\n  hint: {self.hint}" if self.hint else "")

    def github(self) -> str:
        level = {"critical": "error", "warning": "warning"}.get(self.severity, "notice")
        msg = self.message + (f" -- {self.hint}" if self.hint else "")
        msg = msg.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
        return f"::{level} file={self.path},line={self.line},title=tiergit {self.code}::{msg}"


def render(findings: list[Finding], fmt: str) -> str:
    if fmt == "json":
        return json.dumps([f.as_dict() for f in findings], indent=2)
    if fmt == "github":
        return "\n".join(f.github() for f in findings)
    return "\n".join(f.text() for f in findings)


def summary_line(findings: list[Finding], files: int) -> str:
    crit = sum(1 for f in findings if f.severity == "critical")
    warn = sum(1 for f in findings if f.severity == "warning")
    if not findings:
        return f"tiergit: {files} memory file(s) checked, all within budget"
    return f"tiergit: {files} memory file(s) checked: {crit} critical, {warn} warning(s)"


def summary_markdown(findings: list[Finding], files: int) -> str:
    lines = ["## tiergit check", "", summary_line(findings, files), ""]
    if findings:
        lines += ["| file | line | code | severity | message |", "| --- | --- | --- | --- | --- |"]
        for f in findings:
            message = f.message.replace("|", "\\|")
            lines.append(f"| `{f.path}` | {f.line} | {f.code} | {f.severity} | {message} |")
    return "\n".join(lines) + "\n"
