"""Progressive compaction of a chat transcript by turn age (OpenClaw's layers).

The newest turns stay in full, older ones keep less and less; items that must never
be compressed (decisions, corrections, permissions, errors, open items) are kept
verbatim in every layer. Reading the transcript into turns is core/chatlog.py.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from tiergit.core import secrets, sentence_judge
from tiergit.core.chatlog import Turn
from tiergit.core.kinds import LIST_MARKER_RE, classify
from tiergit.core.parse import clean_text
from tiergit.core.sessiontext import (
    HEADING_LINE,
    KEEP_KINDS,
    SENTENCE_END,
    truncate_words,
)
from tiergit.shell import tokens

# (name, turns of age below `until` (0 = newest), share of words kept, heading)
LAYERS = (
    ("full", 15, 1.0, "in full"),
    ("key", 30, 0.40, "key exchanges"),
    ("decisions", 50, 0.15, "decisions and outcomes"),
    ("summary", None, 0.05, "one-line summary"),
)
OUTCOME_RE = re.compile(r"\b(decid\w*|agreed|chose|will use|going with|fixed|fix\b|resolved|root cause|"
                        r"failed|fails|error|broke|merged|done|result\w*|outcome|approved|denied|"
                        r"todo|blocker|must|never|always)\b", re.I)


@dataclass
class Layer:
    name: str
    first: int
    last: int
    tokens_in: int = 0
    tokens_out: int = 0
    kept_verbatim: int = 0

    def as_dict(self) -> dict:
        return {"layer": self.name, "turns": [self.first, self.last], "tokens_in": self.tokens_in,
                "tokens_out": self.tokens_out, "kept_verbatim": self.kept_verbatim}


@dataclass
class Result:
    markdown: str
    turns: int
    layers: list[Layer] = field(default_factory=list)
    skipped_lines: int = 0

    @property
    def tokens_in(self) -> int:
        return sum(layer.tokens_in for layer in self.layers)

    @property
    def tokens_out(self) -> int:
        return sum(layer.tokens_out for layer in self.layers)


def _blocks(text: str) -> list[str]:
    """Paragraphs and list items of a turn's text, fences kept whole."""
    out: list[str] = []
    current: list[str] = []
    in_fence = False
    for line in text.splitlines():
        if line.lstrip().startswith(("```", "~~~")):
            in_fence = not in_fence
        starts_item = not in_fence and LIST_MARKER_RE.match(line) and len(line) - len(line.lstrip()) < 2
        if not in_fence and (not line.strip() or starts_item):
            if current:
                out.append("\n".join(current))
            current = [line] if line.strip() else []
            continue
        current.append(line)
    if current:
        out.append("\n".join(current))
    return out


def _parts(blocks: list[str], seen: set[str] | None = None) -> tuple[list[str], list[str]]:
    """(kept, noise) of a turn's blocks: a block of a kind kept verbatim whole; log blocks (fences,
    tool output) dropped; any other block judged sentence by sentence (core/sentence_judge). Text
    already kept earlier in the transcript (`seen`, whitespace-folded) is a duplicate: not kept again."""
    kept: list[str] = []
    noise: list[str] = []
    for block in blocks:
        kind = classify(block)
        if kind in KEEP_KINDS:
            keep, rest = block.strip("\n"), ""
            folded = " ".join(keep.split())
            if seen is not None and folded in seen:
                continue
            seen is not None and seen.add(folded)
        elif kind != "log":
            keep, rest = sentence_judge.split(block, seen)
        else:
            keep, rest = sentence_judge.fence_comments(block), ""   # a code block's prose comments
        kept += [keep] if keep else []
        noise += [rest] if rest else []
    return kept, noise


def _verbatim(blocks: list[str]) -> list[str]:
    """What a turn keeps verbatim in every layer: never-compress and durable blocks, and every
    sentence of the other blocks that is not noise."""
    return _parts(blocks)[0]


def _attributed(turn: Turn, kept: list[str]) -> list[str]:
    """Kept text with its speaker and turn number after it, as list items (a `**User**:` line would
    read as a transcript line, which `session end --notes` drops)."""
    out = []
    for text in kept:
        first, _, rest = text.partition("\n")
        if first.startswith(("```", "~~~")):   # a code block's comments: under their attribution
            first, rest = "code comments:", text
        item = first if LIST_MARKER_RE.match(first) else f"- {first.strip()}"
        out.append(f"{item} ({turn.role}, turn {turn.number})" + (f"\n{rest}" if rest else ""))
    return out


def _shorten(turn: Turn, share: float, outcomes_only: bool, seen: set[str]) -> tuple[list[str], str]:
    kept, noise = _parts(_blocks(turn.text), seen)
    prose = " ".join(" ".join(clean_text(b) for b in noise).split())
    sentences = [s for s in SENTENCE_END.split(prose) if s.strip()]
    if outcomes_only:
        sentences = [s for s in sentences if OUTCOME_RE.search(s)]
    limit = max(6, round(share * len(turn.text.split())))
    chosen: list[str] = []
    count = 0
    for sentence in sentences:
        if count >= limit:
            break
        chosen.append(sentence)
        count += len(sentence.split())
    return _attributed(turn, kept), truncate_words(" ".join(chosen), limit) if chosen else ""


def _full(turn: Turn) -> str:
    """A turn in full; its headings become bold lines so they cannot split the layer sections."""
    lines, in_fence = [], False
    for line in turn.text.splitlines():
        if line.lstrip().startswith(("```", "~~~")):
            in_fence = not in_fence
        match = None if in_fence else HEADING_LINE.match(line)
        lines.append(f"{match[1]}**{match[2]}**" if match and match[2] else line)
    text = "\n".join(lines)
    if not text:
        return f"**{turn.role}**:"
    first = text.split("\n", 1)[0]
    # A turn that opens with a list, fence or quote starts on its own line, so its items stay items;
    # so does one that opens with a kept item ("[decision] …"): glued to "**Assistant**:" it would
    # read as a transcript line, and `session end --notes` would drop it.
    opens_kept = classify(_blocks(text)[0]) in KEEP_KINDS if _blocks(text) else False
    sep = "\n\n" if (LIST_MARKER_RE.match(first) or first.lstrip().startswith(("```", "~~~", ">", "|"))
                     or opens_kept) else " "
    return f"**{turn.role}**:{sep}{text}"


def _summary_line(turns: list[Turn], share: float, seen: set[str]) -> tuple[list[str], int]:
    """The oldest layer: one line for all its turns (~`share` of their words), plus kept sentences."""
    roles: dict[str, int] = {}
    for turn in turns:
        key = "tool" if turn.tool_only else turn.role.lower()
        roles[key] = roles.get(key, 0) + 1
    limit = max(12, round(share * sum(len(t.text.split()) for t in turns if not t.tool_only)))
    firsts = []
    kept: list[str] = []
    for turn in turns:
        own, noise = _parts(_blocks(turn.text), seen)
        kept.extend(_attributed(turn, own))
        if turn.role == "User" and not turn.tool_only and noise:
            prose = " ".join(" ".join(clean_text(b) for b in noise).split())
            # What the user asked for or reported, not an acknowledgement ("Thanks, …").
            sentence = next((s for s in SENTENCE_END.split(prose) if s.strip()
                             and sentence_judge.noise(s) != "chatter"), "")
            if sentence:
                firsts.append(sentence)
    per = max(4, limit // max(1, len(firsts)))
    gist = "; ".join(truncate_words(s, per) for s in firsts)
    counts = ", ".join(f"{n} {role}" for role, n in roles.items())
    line = f"Summary ({counts}): {truncate_words(gist, limit)}" if gist else f"Summary ({counts})."
    return [line, *kept], len(kept)


def _layer_of(age: int) -> int:
    for index, (_, until, _, _) in enumerate(LAYERS):
        if until is None or age < until:
            return index
    return len(LAYERS) - 1


def compact(turns: list[Turn], path: str, encoding: str) -> Result:
    """Markdown with one section per layer, oldest first, and token counts per layer."""
    total = len(turns)
    grouped: dict[int, list[Turn]] = {}
    for turn in turns:
        grouped.setdefault(_layer_of(total - turn.number), []).append(turn)
    sections: list[str] = []
    layers: list[Layer] = []
    seen: set[str] = set()   # kept text, oldest first: a repeat is not kept twice
    for index in sorted(grouped, reverse=True):
        name, _, share, title = LAYERS[index]
        members = grouped[index]
        layer = Layer(name, members[0].number, members[-1].number)
        parts: list[str] = []
        if name == "summary":
            parts, layer.kept_verbatim = _summary_line(members, share, seen)
        for turn in members if name != "summary" else []:
            if index == 0:
                if turn.text.strip():   # an empty turn (thinking only) is not written
                    parts.append(_full(turn))
                layer.kept_verbatim += len(_verbatim(_blocks(turn.text)))
                continue
            kept, short = _shorten(turn, share, name == "decisions", seen)
            if short and not turn.tool_only:
                parts.append(f"**{turn.role}**: {short}")
            parts.extend(kept)
            layer.kept_verbatim += len(kept)
        span = f"{layer.first}–{layer.last}" if layer.first != layer.last else str(layer.first)
        body = "\n\n".join(parts) if parts else "_(nothing to keep)_"
        section = f"## Turns {span} · {title}\n\n{body}\n"
        layer.tokens_in = sum(tokens.count_text(t.text, encoding).tokens for t in members)
        layer.tokens_out = tokens.count_text(section, encoding).tokens
        sections.append(section)
        layers.append(layer)
    name = path.rsplit("/", 1)[-1]
    head = (f"# Transcript {name} (compacted)\n\n"
            f"<!-- tiergit transcript compact: {total} turns; layers by age: newest 15 in full, "
            f"15–30 key exchanges, 30–50 decisions and outcomes, older a one-line summary -->\n\n")
    # Tool output often carries credentials: they are redacted, never copied into the notes.
    text, _ = secrets.redact(head + "\n".join(sections))
    return Result(text, total, layers)
