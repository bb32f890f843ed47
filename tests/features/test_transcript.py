"""`tiergit transcript compact`: layers by turn age, never-compress items verbatim, clear errors."""
from __future__ import annotations

import json
from pathlib import Path

from conftest import tiergit, write
from session_helpers import squad_store  # noqa: F401

from tiergit.core import chatlog, parse
from tiergit.features import transcript

CORRECTION = "- [correction] Never push to main directly; open a pull request."
DECISION = "**Decision:** cache token counts by git blob id."


def claude_code_lines(n: int) -> list[dict]:
    """n turns in Claude Code's shape (type/message, content parts, tool use and results)."""
    lines = [{"type": "summary", "summary": "a session", "leafUuid": "x"}]   # metadata: skipped
    for k in range(n):
        if k % 2 == 0:
            lines.append({"type": "user", "message": {"role": "user", "content":
                          "Okay, let me see the token cache again. Thanks, carry on with the next part."}})
        else:
            # Verbosity (chatter, activity reports, a status) around one repeated root cause.
            parts = [{"type": "thinking", "thinking": "private"},
                     {"type": "text", "text": "I traced the module again. The root cause is the path key. "
                                             "Then I looked at the tests again and they pass now. Moving on to the "
                                             "next part of the review with the team."}]
            if k == 5:
                parts.append({"type": "text", "text": CORRECTION})
            if k == 41:
                parts.append({"type": "text", "text": DECISION})
            if k % 4 == 1:
                parts.append({"type": "tool_use", "name": "Bash", "input": {"command": "pytest -q"}})
            lines.append({"type": "assistant", "message": {"role": "assistant", "content": parts}})
    return lines


def write_jsonl(path: Path, lines: list[dict]) -> Path:
    return write(path, "\n".join(json.dumps(line) for line in lines) + "\n")


def test_jsonl_layers_by_turn_age_and_keeps_never_compress_items(tmp_path: Path) -> None:
    src = write_jsonl(tmp_path / "chat.jsonl", claude_code_lines(80))
    out = tmp_path / "chat.md"
    proc = tiergit(tmp_path, "transcript", "compact", str(src), "-o", str(out), "--json")
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["turns"] == 80 and report["skipped_lines"] == 1
    layers = {layer["layer"]: layer for layer in report["layers"]}
    assert layers["full"]["turns"] == [66, 80]
    assert layers["key"]["turns"] == [51, 65]
    assert layers["decisions"]["turns"] == [31, 50]
    assert layers["summary"]["turns"] == [1, 30]
    # Older layers keep less: the out/in share shrinks with age (the two oldest keep only what is not
    # noise, each sentence once, so which of them holds more depends on where it was first said).
    share = {name: layer["tokens_out"] / layer["tokens_in"] for name, layer in layers.items()}
    assert max(share["summary"], share["decisions"]) < share["key"] < share["full"]
    assert share["summary"] < 0.15
    text = out.read_text()
    assert text.count(CORRECTION) == 1 and text.count(DECISION) == 1   # turns 6 and 42: compressed layers
    assert "private" not in text                                       # thinking is never output
    # The newest turns in full; older ones keep the root cause once, verbatim, with its speaker and turn.
    assert "I traced the module again. The root cause is the path key. Then I looked" in text
    assert "- The root cause is the path key. (Assistant, turn 2)" in text
    assert text.count("The root cause is the path key.") == 1 + 8   # turn 2, and the 8 answers of turns 66-80 in full
    # The output is a valid memory document; transcript lines inside are classified as log.
    doc = parse.parse(text, "chat.md")
    kinds = {i.kind for i in doc.items}
    assert "correction" in kinds and "decision" in kinds and "log" in kinds


def test_openai_style_string_content_and_tool_role(tmp_path: Path) -> None:
    src = write_jsonl(tmp_path / "openai.jsonl", [
        {"role": "system", "content": "You are helpful."},
        {"role": "user", "content": "Fix the cache."},
        {"role": "assistant", "content": None, "tool_calls": [{"id": "1", "type": "function",
                                                               "function": {"name": "run_tests", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "1", "content": "3 failed"},
        {"role": "assistant", "content": [{"type": "output_text", "text": "- [error] Tests fail on a stale key."}]},
    ])
    turns, skipped = chatlog.read(src.read_text(), str(src))
    assert [t.role for t in turns] == ["System", "User", "Assistant", "Tool", "Assistant"]
    assert turns[2].tool_only and turns[3].tool_only and "[tool call: run_tests]" in turns[2].text
    result = transcript.compact(turns, str(src), "cl100k_base")
    assert "- [error] Tests fail on a stale key." in result.markdown
    assert [layer.name for layer in result.layers] == ["full"]


def test_markdown_transcript_turns_and_stdout_output(tmp_path: Path) -> None:
    turns = []
    for k in range(40):
        turns.append(f"User: question {k} about the merge driver and how entries are merged.")
        turns.append(f"**Assistant:** answer {k}. It merges entry by entry. Nothing is dropped.")
    turns.insert(3, "```\nUser: this is inside a fence, not a turn\n```")
    turns.insert(10, "- [permission] Allowed to rewrite the merge driver tests.")
    src = write(tmp_path / "chat.md", "# Session log\n\n" + "\n".join(turns) + "\n")
    proc = tiergit(tmp_path, "transcript", "compact", str(src))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("# Transcript chat.md (compacted)")
    assert "- [permission] Allowed to rewrite the merge driver tests." in proc.stdout
    assert "layer" in proc.stderr and "total" in proc.stderr and "80" in proc.stderr   # the table, on stderr
    parsed, _ = chatlog.read(src.read_text(), str(src))
    assert len(parsed) == 80
    assert "inside a fence" in parsed[2].text   # part of the turn before it


def test_unparseable_line_is_a_clear_error_naming_file_and_line(tmp_path: Path) -> None:
    src = write(tmp_path / "bad.jsonl", '{"role": "user", "content": "hi"}\n{"role": "assistant", "content": \n')
    out = tmp_path / "out.md"
    proc = tiergit(tmp_path, "transcript", "compact", str(src), "-o", str(out))
    assert proc.returncode == 2
    assert f"{src}:2:" in proc.stderr and "not valid JSON" in proc.stderr and "Traceback" not in proc.stderr
    assert not out.exists()
    src2 = write(tmp_path / "list.jsonl", '{"role": "user", "content": "hi"}\n[1, 2]\n')
    proc = tiergit(tmp_path, "transcript", "compact", str(src2))
    assert proc.returncode == 2 and f"{src2}:2:" in proc.stderr and "JSON object" in proc.stderr


def test_no_turns_and_overwriting_the_input_are_refused(tmp_path: Path) -> None:
    src = write(tmp_path / "notes.md", "# Just notes\n\nNo speakers here.\n")
    proc = tiergit(tmp_path, "transcript", "compact", str(src))
    assert proc.returncode == 2 and "no turns found" in proc.stderr
    good = write(tmp_path / "t.md", "User: hi\nAssistant: hello\n")
    proc = tiergit(tmp_path, "transcript", "compact", str(good), "-o", str(good))
    assert proc.returncode == 2 and "would overwrite" in proc.stderr
    assert good.read_text() == "User: hi\nAssistant: hello\n"


def test_compacted_transcript_feeds_session_end(squad_store: Path, tmp_path: Path) -> None:
    src = write_jsonl(tmp_path / "chat.jsonl", claude_code_lines(60))
    notes = tmp_path / "notes.md"
    assert tiergit(tmp_path, "transcript", "compact", str(src), "-o", str(notes)).returncode == 0
    assert tiergit(squad_store, "session", "start", "--agent", "picard", "--task", "Cache").returncode == 0
    proc = tiergit(squad_store, "session", "end", "--agent", "picard", "--notes", str(notes))
    assert proc.returncode == 0, proc.stderr
    cold = (squad_store / ".squad/memory/cold/picard.md").read_text()
    assert CORRECTION in cold and DECISION in cold
    assert "Request 59" not in cold   # transcript lines are dropped from cold


def test_jsonl_without_any_chat_turn_is_an_error(tmp_path: Path) -> None:
    src = write_jsonl(tmp_path / "meta.jsonl", [{"type": "summary", "summary": "x"}, {"type": "snapshot"}])
    proc = tiergit(tmp_path, "transcript", "compact", str(src))
    assert proc.returncode == 2
    assert "no chat turns found (2 line(s) without role and content)" in proc.stderr and str(src) in proc.stderr
