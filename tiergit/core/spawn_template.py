"""The structure of Squad's spawn template: success criteria as a checklist, an Escalation
section with the team's own names, and hot's recent actions trimmed to the configured count.

Pure text in, text out (cost: one parse of each hot file). The settings come from the
`spawn:` block of `.tiergit.yml` (validated in config.py): `escalation` maps a situation
to whom the agent escalates, `recent_actions` is how many of hot's last actions a spawn
carries (Squad's hot template: "last 3-5 actions").
"""
from __future__ import annotations

from tiergit.core import parse
from tiergit.core.cuts import remove_lines

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
    doc = parse.parse(text, path)
    spans: list[tuple[int, int]] = []
    for sec in doc.sections:
        if not sec.heading or sec.heading.strip().lower() not in RECENT_HEADINGS or len(sec.items) <= keep:
            continue
        items = list(sec.items)
        if all(i.date for i in items):
            items.sort(key=lambda i: i.date, reverse=True)   # type: ignore[arg-type, return-value]
        spans += [(i.line, i.end_line) for i in items[keep:]]
    return (remove_lines(text, spans), len(spans)) if spans else (text, 0)
