"""The spawn prompt as text: `{{placeholders}}` filled, tier files as blocks, and the structure
of Squad's spawn template: success criteria as a checklist, an Escalation section with the
team's own names, and hot's recent actions trimmed to the configured count. What goes in is
read and chosen by tiergit.features.context.

Pure text in, text out (cost: one parse of each hot file). The settings come from the
`spawn:` block of `.tiergit.yml` (validated in config.py): `escalation` maps a situation
to whom the agent escalates, `recent_actions` is how many of hot's last actions a spawn
carries (Squad's hot template: "last 3-5 actions").
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from tiergit.core import parse
from tiergit.core.cuts import remove_lines
from tiergit.core.status import tokens_text

PLACEHOLDERS = ("agent", "date", "situation", "task", "why", "success", "escalation", "hot", "cold", "wiki",
                "knowledge", "recall")
TEMPLATE_PLACEHOLDER_RE = re.compile(r"\{\{\s*([a-zA-Z_]+)\s*\}\}")
TEMPLATE_NOTE_RE = re.compile(r"\A<!--\s*tiergit spawn template.*?-->\n?", re.S)

@dataclass
class Part:
    """One tier file as it appears in the prompt."""
    path: str
    tier: str
    text: str


RECENT_ACTIONS = 5
ESCALATION = {
    "blocked": "the coordinator",
    "decision": "the lead",
    "risk": "the user",
}
ESCALATION_TEXT = {
    "blocked": "Blocked, or the task is unclear: ask {name} instead of guessing.",
    "decision": "A decision outside this task (architecture, scope, another agent's area): escalate to {name}.",
    "risk": "Anything destructive, a credential, or a change to reviewed memory: stop and ask {name}.",
}
RECENT_HEADINGS = ("last actions", "recent actions")


def settings(config) -> dict:
    """The spawn settings over their defaults."""
    spawn = (config.data.get("spawn") or {}) if config is not None else {}
    return {"escalation": {**ESCALATION, **(spawn.get("escalation") or {})},
            "recent_actions": int(spawn.get("recent_actions", RECENT_ACTIONS))}


def checklist(values: list[str] | tuple[str, ...] | str | None) -> str:
    """Every `--success` value as one `- [ ]` line, in the order given."""
    if isinstance(values, str):
        values = [values]
    items = [v.strip() for v in values or [] if v and v.strip()]
    if not items:
        return ""   # an empty section is dropped from the prompt (prompt_clean)
    return "\n".join(f"- [ ] {v}" for v in items)


def escalation(names: dict[str, str]) -> str:
    """One line per situation, naming whom to escalate to; a situation set to "" is left out,
    and a team's own situations (not in the defaults) are listed as `situation: name`."""
    lines = []
    for key, name in names.items():
        if not name:
            continue
        text = ESCALATION_TEXT.get(key)
        lines.append(f"- {text.format(name=name)}" if text else f"- {key}: escalate to {name}.")
    return "\n".join(lines)


def trim_recent(text: str, keep: int, path: str = "hot") -> tuple[str, int]:
    """Hot text with its `Last actions` list cut to the `keep` most recent (newest first, as
    the hot template asks; by their own dates when every item has one). Returns the text and
    how many were left out; the hot file itself is untouched (session end condenses them)."""
    doc = parse.parse(text, path, kinds=False)   # lines and dates only: no judge to import at spawn
    spans: list[tuple[int, int]] = []
    for sec in doc.sections:
        if not sec.heading or sec.heading.strip().lower() not in RECENT_HEADINGS or len(sec.items) <= keep:
            continue
        items = list(sec.items)
        if all(i.date for i in items):
            items.sort(key=lambda i: i.date, reverse=True)   # type: ignore[arg-type, return-value]
        spans += [(i.line, i.end_line) for i in items[keep:]]
    return (remove_lines(text, spans), len(spans)) if spans else (text, 0)


def render(template: str, values: dict[str, str]) -> str:
    """Fill {{placeholders}}; blank lines left by empty sections fold to one."""
    out = TEMPLATE_PLACEHOLDER_RE.sub(lambda m: values.get(m[1], ""), template)
    return re.sub(r"\n{3,}", "\n\n", out).rstrip() + "\n"


def block(title: str, parts: list[Part]) -> str:
    if not parts:
        return ""
    chunks = [f"### {title}\n"]
    for p in parts:
        # Frontmatter is tiergit's bookkeeping (session ids, hashes), not memory: left out.
        _fm, _meta, body = parse.split_frontmatter(p.text, p.path)
        chunks.append(f"<!-- {p.path} -->\n{body.strip()}\n")
    return "\n".join(chunks)


def hot_task(text: str) -> str | None:
    """The body of a hot file's `Current task` section, if it has one."""
    doc = parse.parse(text, "hot", with_items=False)
    for sec in doc.sections:
        if sec.heading and sec.heading.strip().lower() == "current task":
            body = sec.text.split("\n", 1)[1].strip() if "\n" in sec.text else ""
            body = re.sub(r"<!--.*?-->", "", body, flags=re.S).strip()
            return body or None
    return None


def render_stats(st: dict) -> str:
    def row(name: str, s: dict | None, note: str = "") -> str:
        if s is None:
            return f"  {name:<22} {'-':>8} {'-':>8}  {note}"
        tok = tokens_text(s["tokens"], s["tokens_exact"])
        return f"  {name:<22} {s['bytes']:>8} {tok:>8}  {note}"

    def verdict(pct: float | None) -> str:
        if pct is None:
            return ""
        # A new agent's prompt (task + template around a small hot file) can outweigh its tiers.
        return f"; the prompt saves {pct}%" if pct >= 0 else f"; the prompt is {-pct}% larger (task and template text)"

    lines = [f"  {'section':<22} {'bytes':>8} {'tokens':>8}"]
    lines += [row(name, s) for name, s in st["sections"].items()]
    lines.append(row("prompt total", st["total"]))
    pct = st["saved_vs_every_tier"]
    lines.append(row("every tier", st["every_tier"], f"{st['every_tier_files']} file(s)"
                     + verdict(pct)))
    pct = st["saved_vs_legacy"]
    lines.append(row("legacy files", st["legacy"], (", ".join(st["legacy_files"]) or "none")
                     + verdict(pct)))
    return "\n".join(lines)


def without_task(text: str, task: str) -> str:
    """Hot text without its `Current task` section when that section says only `task`: the prompt's
    Task section shows it already (no text twice)."""
    lines = text.splitlines(keepends=True)
    for n, line in enumerate(lines):
        if re.match(r"^#{1,6}\s+current task\s*$", line.strip().lower()):
            end = next((m for m in range(n + 1, len(lines)) if re.match(r"^#{1,6}\s", lines[m])), len(lines))
            body = re.sub(r"<!--.*?-->", "", "".join(lines[n + 1:end]), flags=re.S).strip()
            if task.strip() and body == task.strip():
                return "".join(lines[:n] + lines[end:])
            break
    return text
