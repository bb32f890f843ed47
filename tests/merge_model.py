"""A model of two branches editing one memory file, and what their merge must hold.

`branch_pair(text, rng)` makes two branches of `text` with random operations on its dated
entries: add an entry (sometimes under a heading that already exists: repeated headings),
append an item, edit an item, delete an entry, rename an entry's heading (body unchanged),
move an entry (with the undated sections after it), reverse the order of all of them.
`expected(...)` says, line by line, how many times each item line and heading must appear
in the merge: nothing lost (every kept entry, every appended line, every edit) and nothing
duplicated. The rules are the merge driver's contract:

- an entry deleted on one side survives when the other side changed it (edit wins) or
  moved it (in some least reading of that side's reorder: `moved`);
  of two identical entries neither is deleted (which one went cannot be told from the
  text: the merge keeps the words either way, but the headings would not count true);
- a rename on one side and an append or edit on the other is one entry, renamed;
- one side edits an entry's first item and the other its last, so no item is edited
  twice (that would be a real conflict, tested elsewhere); the two branches never
  rename the same entry. A rename is recognised by an unchanged body, or, renamed and
  edited on the same side, by the same date and 80 % of its words kept; an entry with
  no body (a bare heading) is never renamed (nothing tells the renamed one from a new one).
"""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from tiergit.core import parse

OPS = ("add", "add_same_heading", "append", "edit", "delete", "rename", "move", "reorder")


@dataclass
class Entry:
    uid: int
    heading_line: str         # the exact heading line, e.g. "### 2026-05-01: title"
    body: str                 # everything after the heading line
    items: list[str]          # first lines of its items that occur once in the base text


@dataclass
class Branch:
    name: str
    entries: dict[int, Entry]             # uid -> entry as this branch has it
    order: list[int]
    state: dict[int, str] = field(default_factory=dict)   # uid -> changed / deleted / renamed
    edited: dict[str, str] = field(default_factory=dict)  # old line -> new line
    added_lines: list[str] = field(default_factory=list)
    added_headings: list[str] = field(default_factory=list)
    appended: dict[int, list[str]] = field(default_factory=dict)   # uid -> lines appended to it


@dataclass
class Model:
    head: str                 # text before the first dated entry (frontmatter, preamble)
    tails: dict[int, str]     # uid -> undated sections that follow that entry (kept as they are)
    base: dict[int, Entry]
    order: list[int]
    pinned_lines: list[str]   # item lines outside dated entries, unique in the base
    twins: set[int] = field(default_factory=set)   # entries identical to another entry


def _unique_item_lines(text: str, section_text: str, items) -> list[str]:
    counts = Counter(text.splitlines())
    out = []
    for item in items:
        first = item.text.split("\n", 1)[0]
        if counts[first] == 1 and first.strip() and first in section_text.splitlines():
            out.append(first)
    return out


def model_of(text: str) -> Model | None:
    """The entries of `text` at its entry level, or None when it has fewer than two."""
    doc = parse.parse(text)
    head, tails, base, order, pinned, last = doc.frontmatter_text, {}, {}, [], [], None
    for sec in doc.sections:
        if sec.date is None or sec.level == 0:
            if last is None:
                head += sec.text
            else:
                tails[last] += sec.text
            pinned += _unique_item_lines(text, sec.text, sec.items)
            continue
        heading_line, _, body = sec.text.partition("\n")
        uid = len(order)
        base[uid] = Entry(uid, heading_line, "\n" + body if _ else "", _unique_item_lines(text, sec.text, sec.items))
        order.append(uid)
        tails[uid] = ""
        last = uid
    if len(order) < 2 or not head.endswith("\n"):
        return None
    for uid in order:   # every section must end with a newline so sections can be moved
        if not (base[uid].body + tails[uid]).endswith("\n"):
            return None
    texts = Counter(e.heading_line + e.body for e in base.values())
    twins = {u for u, e in base.items() if texts[e.heading_line + e.body] > 1}
    return Model(head, tails, base, order, pinned, twins)


def render(model: Model, branch: Branch) -> str:
    parts = [model.head]
    for uid in branch.order:
        e = branch.entries[uid]
        if branch.state.get(uid) != "deleted":
            parts.append(e.heading_line + e.body)
        parts.append(model.tails.get(uid, ""))
    return "".join(parts)


def _level(heading_line: str) -> str:
    return heading_line.split(" ", 1)[0]


def apply_ops(model: Model, name: str, rng: random.Random, n_ops: int, avoid_rename: set[int]) -> Branch:
    b = Branch(name, {u: Entry(e.uid, e.heading_line, e.body, list(e.items)) for u, e in model.base.items()},
               list(model.order))
    next_uid = 1000 if name == "a" else 2000
    for step in range(n_ops):
        op, tag = rng.choice(OPS), f"{name}{step}"
        live = [u for u in b.order if u in model.base and b.state.get(u) != "deleted"]
        live += [u for u in b.order if u not in model.base] if op == "add_same_heading" else []
        if op.startswith("add"):
            level = _level(model.base[model.order[0]].heading_line)
            heading = (b.entries[rng.choice(live)].heading_line if op == "add_same_heading" and live
                       else f"{level} 2026-06-{rng.randint(1, 28):02d}: {tag} session")
            line = f"- [fact] {tag} learned something new"
            b.entries[next_uid] = Entry(next_uid, heading, f"\n\n{line}\n\n", [line])
            b.order.insert(rng.randint(0, len(b.order)), next_uid)
            b.added_lines.append(line)
            b.added_headings.append(heading)
            next_uid += 1
            continue
        if op == "reorder":   # the whole file newest-first instead of oldest-first, or back
            b.order.reverse()
            continue
        if not live:
            continue
        uid = rng.choice(live)
        if op == "move":   # one entry (with the undated sections after it) to another place
            b.order.remove(uid)
            b.order.insert(rng.randint(0, len(b.order)), uid)
            continue
        e, state = b.entries[uid], b.state.get(uid)
        if op == "delete":
            if uid in model.twins:
                continue   # which of two identical entries was deleted cannot be told from the text
            b.state[uid] = "deleted"   # stays in `order` so the undated sections after it stay
            dropped = set(b.appended.pop(uid, []))
            b.added_lines = [x for x in b.added_lines if x not in dropped]
        elif op == "rename" and state in (None, "changed") and uid not in avoid_rename and e.body.strip():
            # (an entry that is only a heading, renamed, is a deletion and a new heading: no body tells)
            e.heading_line = f"{e.heading_line} (renamed by {tag})"
            b.state[uid] = "renamed"
        elif op in ("append", "edit"):   # also after a rename on this side (renamed and edited)
            if op == "append":
                line = f"- [fact] {tag} appended note"
                e.body = e.body.rstrip("\n") + f"\n\n{line}\n\n"
                b.added_lines.append(line)
                b.appended.setdefault(uid, []).append(line)
            else:   # a edits an entry's first item, b its last (of two or more): never the same one
                if not e.items or (name == "b" and len(e.items) < 2):
                    continue
                old = model.base[uid].items[0] if name == "a" else model.base[uid].items[-1]
                if old in b.edited:
                    continue
                new = f"{old} (revised by {tag})"
                e.body = e.body.replace("\n" + old + "\n", "\n" + new + "\n", 1)
                b.edited[old] = new
            b.state[uid] = "renamed" if state == "renamed" else "changed"
    return b


def branch_pair(model: Model, rng: random.Random, max_ops: int = 5) -> tuple[Branch, Branch]:
    a = apply_ops(model, "a", rng, rng.randint(0, max_ops), set())
    renamed_a = {u for u, s in a.state.items() if s == "renamed"}
    if renamed_a & model.twins:   # of two identical entries, which one a renamed cannot be told
        renamed_a |= model.twins
    b = apply_ops(model, "b", rng, rng.randint(0, max_ops), renamed_a)
    return a, b


def _lcs(x: list, y: list) -> int:
    row = [0] * (len(y) + 1)
    for v in x:
        prev, row = row, [0]
        for j, w in enumerate(y):
            row.append(prev[j] + 1 if v == w else max(prev[j + 1], row[j]))
    return row[-1]


def _tail_sections(model: Model, uid: int) -> int:
    """How many sections the undated text after an entry holds (the merge moves them one by one)."""
    level = len(_level(model.base[model.order[0]].heading_line))
    hashes = [len(ln) - len(ln.lstrip("#")) for ln in model.tails.get(uid, "").splitlines()]
    lines = model.tails.get(uid, "").splitlines()
    return sum(1 for h, ln in zip(hashes, lines) if 0 < h <= level and ln[h:h + 1] == " ")


def _tokens(model: Model, order: list[int], keep) -> list:
    """The base entries a branch kept, each followed by its undated sections, in `order`."""
    out = []
    for uid in order:
        if uid in model.base and keep(uid):   # identical entries cannot be told apart
            e = model.base[uid]
            out.append(("twin", e.heading_line + e.body) if uid in model.twins else ("e", uid))
        out += [("t", uid, n) for n in range(_tail_sections(model, uid) if uid in model.base else 0)]
    return out


def moved(model: Model, x: Branch, uids: list[int]) -> set[int]:
    """Which of `uids` (entries x kept unchanged) x moved in some least reading of its reorder:
    a longest common run of x's and the base's order leaves them out (an LCS by hand, apart
    from the merge's own)."""
    kept = lambda u: x.state.get(u) != "deleted"   # noqa: E731
    mine, theirs = _tokens(model, x.order, kept), _tokens(model, model.order, kept)
    if mine == theirs:
        return set()
    best = _lcs(theirs, mine)
    return {u for u in uids if _lcs([t for t in theirs if t != ("e", u)], [t for t in mine if t != ("e", u)]) == best}


def expected(model: Model, a: Branch, b: Branch) -> tuple[Counter, Counter]:
    """(item line -> count, heading line -> count) the merged text must have."""
    lines: Counter = Counter({line: 1 for line in model.pinned_lines})
    headings: Counter = Counter()
    # An entry one side deleted and the other only moved is kept (a move is a change).
    moved_a = moved(model, a, [u for u in model.order if b.state.get(u) == "deleted" and u not in a.state])
    moved_b = moved(model, b, [u for u in model.order if a.state.get(u) == "deleted" and u not in b.state])
    for uid in model.order:
        sa, sb = a.state.get(uid), b.state.get(uid)
        sa, sb = ("changed" if uid in moved_a else sa), ("changed" if uid in moved_b else sb)
        gone = "deleted" in (sa, sb) and (sa in (None, "deleted") and sb in (None, "deleted"))
        keeper = a if sb == "deleted" else b if sa == "deleted" else None
        if gone:
            continue
        heading = next((x.entries[uid].heading_line for x in (a, b) if x.state.get(uid) == "renamed"),
                       model.base[uid].heading_line)
        headings[heading] += 1
        for line in model.base[uid].items:
            edits = [x.edited[line] for x in (a, b) if line in x.edited and (keeper is None or x is keeper)]
            lines[edits[0] if edits else line] += 1
    for x in (a, b):
        lines.update(x.added_lines)
        headings.update(x.added_headings)
    return lines, headings


def check(model: Model, a: Branch, b: Branch, merged: str) -> tuple[int, int]:
    """(lost, duplicated) lines and headings in `merged` against the model."""
    want_lines, want_heads = expected(model, a, b)
    have = Counter(merged.splitlines())
    lost = dup = 0
    for table in (want_lines, want_heads):
        for line, n in table.items():
            lost += max(0, n - have[line])
            dup += max(0, have[line] - n)
    for x in (a, b):   # an edited line's old text must be gone where the edit was kept
        for old in x.edited:
            if old not in want_lines:
                dup += have[old]
    return lost, dup

