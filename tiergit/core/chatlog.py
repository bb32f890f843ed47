"""A chat transcript read into turns: JSONL (one message per line, in the shapes agent tools
write) or markdown (`User:` / `Assistant:` lines). Pure: text in, turns out."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass

from tiergit.errors import InputError, TiergitError

SPEAKER_RE = re.compile(
    r"^\s{0,3}(?:[-*]\s+)?(?:\*\*)?(User|Assistant|Human|AI|System|Tool)(?:\*\*)?:(?:\*\*)?(?:\s+(.*))?$")
ROLE_NAMES = {"user": "User", "human": "User", "assistant": "Assistant", "ai": "Assistant",
              "model": "Assistant", "system": "System", "tool": "Tool", "function": "Tool",
              "developer": "System"}


@dataclass
class Turn:
    number: int          # 1-based position in the transcript
    role: str            # User, Assistant, System, Tool
    text: str
    tool_only: bool = False   # only tool calls / tool output: dropped outside the full layer


def _part_text(part) -> tuple[str, bool]:
    """(text, is_tool) of one content part (Claude Code / Anthropic / OpenAI shapes)."""
    if isinstance(part, str):
        return part, False
    if not isinstance(part, dict):
        return "", False
    kind = part.get("type", "text")
    if kind in ("text", "input_text", "output_text"):
        return str(part.get("text", "")), False
    if kind in ("tool_use", "function_call", "tool_call", "server_tool_use"):
        return f"[tool call: {part.get('name') or part.get('function', {}).get('name', '?')}]", True
    if kind in ("tool_result", "function_call_output"):
        inner = part.get("content", part.get("output", ""))
        return (_content_text(inner)[0] if not isinstance(inner, str) else inner), True
    if kind in ("thinking", "redacted_thinking"):
        return "", False
    return f"[{kind}]", True


def _content_text(content) -> tuple[str, bool]:
    if isinstance(content, str):
        return content, False
    if isinstance(content, list):
        pieces = [_part_text(p) for p in content]
        text = "\n\n".join(t for t, _ in pieces if t.strip())
        return text, bool(pieces) and all(tool for t, tool in pieces if t.strip())
    if content is None:
        return "", False
    return json.dumps(content), True


def parse_jsonl(text: str, path: str) -> tuple[list[Turn], int]:
    """One JSON object a line: {role, content} or Claude Code's {type, message: {role, content}}."""
    turns: list[Turn] = []
    skipped = 0
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(path, n, "TR001", f"not valid JSON ({exc.msg}, column {exc.colno})",
                             "each line must be one JSON object such as {\"role\": \"user\", \"content\": \"…\"}") from None
        if not isinstance(obj, dict):
            raise InputError(path, n, "TR002", "a transcript line must be a JSON object",
                             "each line must be one JSON object such as {\"role\": \"user\", \"content\": \"…\"}")
        msg = obj.get("message") if isinstance(obj.get("message"), dict) else obj
        role = msg.get("role")
        if not isinstance(role, str) or ("content" not in msg and "tool_calls" not in msg):
            skipped += 1   # metadata lines (summaries, snapshots) carry no turn
            continue
        body, tool_only = _content_text(msg.get("content"))
        calls = [c.get("function", {}).get("name", "?") for c in msg.get("tool_calls") or [] if isinstance(c, dict)]
        if calls:
            tool_only = not body.strip()
            body = "\n\n".join(([body] if body.strip() else []) + [f"[tool call: {c}]" for c in calls])
        name = ROLE_NAMES.get(role.lower(), role.capitalize())
        if name == "Tool":
            tool_only = True
        turns.append(Turn(len(turns) + 1, name, body.strip(), tool_only))
    return turns, skipped


def parse_markdown(text: str, path: str) -> list[Turn]:
    """`User:` / `Assistant:` turns (also **User:**, Human:, AI:); a speaker line inside a fence is text."""
    turns: list[Turn] = []
    role, lines = None, []
    in_fence = False
    for line in text.splitlines():
        if line.lstrip().startswith(("```", "~~~")):
            in_fence = not in_fence
        match = None if in_fence else SPEAKER_RE.match(line)
        if match:
            if role is not None:
                turns.append(Turn(len(turns) + 1, role, "\n".join(lines).strip(), role == "Tool"))
            role = ROLE_NAMES[match[1].lower()]
            lines = [match[2] or ""]
        elif role is not None:
            lines.append(line)
    if role is not None:
        turns.append(Turn(len(turns) + 1, role, "\n".join(lines).strip(), role == "Tool"))
    if not turns:
        raise TiergitError(f"{path}: no turns found (no `User:` / `Assistant:` lines, and not JSON Lines)",
                           "pass a .jsonl chat transcript or markdown with `User:` / `Assistant:` turns")
    return turns


def read(text: str, path: str) -> tuple[list[Turn], int]:
    first = next((ln.strip() for ln in text.splitlines() if ln.strip()), "")
    if path.endswith((".jsonl", ".ndjson", ".json")) or first.startswith("{"):
        turns, skipped = parse_jsonl(text, path)
        if not turns:
            raise TiergitError(f"{path}: no chat turns found ({skipped} line(s) without role and content)",
                               "each line must be an object with `role` and `content` (or Claude Code's `message`)")
        return turns, skipped
    return parse_markdown(text, path), 0
