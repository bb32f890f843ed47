"""Squad's spawn through tiergit: the exact text tiergit inserts into Squad's own files, where,
and how it comes out again. Pure: text in, text out.

Squad's coordinator builds each agent's prompt from `.github/agents/squad.agent.md` (the
"How to Spawn an Agent" section) and `.squad/templates/spawn-reference.md` (the full spawn
template, whose memory line is "Read `agents/{name}/history.md` ..."); Scribe follows
`.squad/agents/scribe/charter.md`. tiergit only *inserts* (a marked block, or one marked
line in the template), never rewrites Squad's own lines, so removing the insertion gives
Squad's original back byte for byte, and `squad upgrade` (which rewrites the first two
files) just drops it - `tiergit check` reports that, `check --fix` / `install` re-apply.
"""
from __future__ import annotations

from dataclasses import dataclass

BEGIN = "<!-- tiergit:squad-wiring:begin (`tiergit uninstall` removes this block) -->"
END = "<!-- tiergit:squad-wiring:end -->"
LINE_MARK = "MEMORY (tiergit):"

COORDINATOR = f"""{BEGIN}
**Per-agent memory comes from tiergit.** Before each spawn, for the agent (`{{name}}` below is
its `.squad/agents/` folder name in lowercase) and its task in one line:

1. Run `tiergit session start --agent {{name}} --task "<task>" --force`: it adopts what Scribe
   appended to `history.md` into the agent's cold tier and opens its hot notes.
2. Run `tiergit context --agent {{name}} --include-cold --task "<task>"` and paste its whole
   output into the spawn prompt as `MEMORY (tiergit)`. Do not inline
   `.squad/agents/{{name}}/history.md` and do not tell the agent to read it: the output holds
   its hot notes, its history as cold keeps it (within the cold budget, newest sessions and
   every correction included) and the task's most relevant knowledge.

Tell the agent to search earlier work with `tiergit recall "<three or four words>" --agent {{name}}`
(what its spawn prompt already carries is not repeated), and to
keep its session notes (decisions, corrections, open items) in `.squad/memory/hot/{{name}}.md`.
When the agent is done, Scribe runs `tiergit session end --agent {{name}}`.
{END}
"""

SCRIBE = f"""{BEGIN}
## tiergit memory

- After each session, for every agent that worked (its folder name in lowercase), run
  `tiergit session end --agent <name>`: the agent's hot notes are compacted into its cold
  tier, so a correction such as "No, we use Bicep, not ARM" reaches its next spawn.
- What you append to `history.md` is adopted into the agent's cold tier at its next
  `tiergit session start`; keep appending as before.
- Before merging decisions or summarizing a history, `tiergit recall "<words>"` shows what
  is already recorded (the archive and git history included).
{END}
"""

SPAWN_LINE = ("MEMORY (tiergit): the coordinator pasted `tiergit context --agent {name} --include-cold` into this "
              "prompt; that is your history, so do not read agents/{name}/history.md in full. Search "
              "earlier work with `tiergit recall \"<words>\" --agent {name}`; keep session notes in "
              ".squad/memory/hot/{name}.md (Scribe runs `tiergit session end --agent {name}`).")


@dataclass(frozen=True)
class Target:
    path: str
    anchors: tuple[str, ...]      # the first line that starts with (or, `inline`, contains) one
    before: bool                  # insert before the anchor line (else after it)
    block: str                    # "" for the one-line insertion into the template
    inline: bool = False


TARGETS = (
    Target(".github/agents/squad.agent.md", ("**Full Spawn Template**", "### How to Spawn an Agent"), True,
           COORDINATOR),
    Target(".squad/templates/spawn-reference.md", ("Read `agents/{name}/history.md`",), False, "", inline=True),
    Target(".squad/agents/scribe/charter.md", ("## The Memory Architecture", "## Boundaries"), True, SCRIBE),
)


def _anchor(lines: list[str], target: Target) -> int | None:
    for anchor in target.anchors:
        for i, line in enumerate(lines):
            if (anchor in line) if target.inline else line.startswith(anchor):
                return i
    return None


def _insertion(lines: list[str], i: int, target: Target) -> str:
    if target.block:
        return target.block + "\n"
    anchor = lines[i]
    indent = anchor[: len(anchor) - len(anchor.lstrip())]
    return indent + SPAWN_LINE + ("\r\n" if anchor.endswith("\r\n") else "\n")


def wired(text: str, target: Target) -> bool:
    return (BEGIN in text and END in text) if target.block else LINE_MARK in text


def wire(text: str, target: Target) -> str | None:
    """`text` with tiergit's insertion (unchanged when it is there); None when no anchor is found."""
    if wired(text, target):
        return text
    lines = text.splitlines(keepends=True)
    i = _anchor(lines, target)
    if i is None:
        return None
    at = i if target.before else i + 1
    if not target.before and not lines[i].endswith("\n"):
        return None                      # the anchor is the file's unterminated last line
    return "".join(lines[:at]) + _insertion(lines, i, target) + "".join(lines[at:])


def unwire(text: str, target: Target) -> str:
    """`text` without tiergit's insertion: exactly the bytes before `wire`. A block someone
    edited by hand goes from its begin marker to its end marker and the blank line after."""
    if target.block:
        exact = target.block + "\n"
        if exact in text:
            return text.replace(exact, "", 1)
        start = text.find(BEGIN)
        end = text.find(END, start)
        if start < 0 or end < 0:
            return text
        stop = end + len(END)
        for _ in range(2):
            if text.startswith("\n", stop):
                stop += 1
        return text[:start] + text[stop:]
    return "".join(ln for ln in text.splitlines(keepends=True) if not ln.lstrip().startswith(LINE_MARK))
