"""The line merge a section falls back to when the entry merge would stop at a conflict. Pure.

The entry merge cuts a section into items and the text between them; two sides that both
write after the section's last block (a `---` rule, a table, a paragraph that a tight
`3. step` continues, a line without its newline) each grow the same piece, which the
item merge can only mark as a conflict. git's `merge=union` merges those: each side
inserted lines at the same place. So does this, and nothing else: a diff3 of the
section's lines where every place both sides changed is a pure insertion (the base had
no line there, or only blank ones) comes out as ours' lines, then theirs' (a blank line
between unless both meet as list items or table rows); any base line both sides changed
differently is a real conflict (None: the entry merge's markers stand).

Cost: one difflib pass per side over the section's lines (only for a section in conflict).
"""
from __future__ import annotations

from tiergit.core.mergeseq import diff3_regions, key_matches

_TIGHT = ("- ", "* ", "+ ", "|")


def _lines(text: str) -> tuple[list[str], bool]:
    """The text's lines without their `\\n`, and whether it ends with one."""
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
        return lines, True
    return lines, False


def _core(lines: list[str]) -> tuple[int, int]:
    start, end = 0, len(lines)
    while start < end and not lines[start].strip():
        start += 1
    while end > start and not lines[end - 1].strip():
        end -= 1
    return start, end


def _tight(line: str) -> bool:
    """A list item or table row: two of them may meet without a blank line."""
    s = line.lstrip()
    digits = len(s) - len(s.lstrip("0123456789"))
    return s.startswith(_TIGHT) or (0 < digits and s[digits:digits + 2] in (". ", ") "))


def _both(os_: list[str], ts: list[str]) -> list[str]:
    """Both sides' insertions at one place: ours', then theirs', each once."""
    (o1, o2), (t1, t2) = _core(os_), _core(ts)
    core_o, core_t = os_[o1:o2], ts[t1:t2]
    if not core_t or core_o == core_t:
        return os_
    if not core_o:
        return ts
    sep = [] if _tight(core_o[-1]) and _tight(core_t[0]) else [""]
    return os_[:o2] + sep + core_t + (os_[o2:] or ts[t2:])


def insertions_only(base: str, ours: str, theirs: str) -> str | None:
    """diff3 of three texts by line, when the two sides only ever inserted at the same places;
    None when both changed the same base line (or lines) differently."""
    (b, b_end), (o, o_end), (t, t_end) = _lines(base), _lines(ours), _lines(theirs)
    to_o, to_t = key_matches(b, o), key_matches(b, t)
    out: list[str] = []
    for tag, bi, oi, ti in diff3_regions(b, o, t, to_o, to_t):
        if tag == "sync":
            out.append(b[bi])
            continue
        bs, os_, ts = b[bi[0]:bi[1]], o[oi[0]:oi[1]], t[ti[0]:ti[1]]
        if os_ == bs or os_ == ts:
            out += ts if os_ == bs else os_
        elif ts == bs:
            out += os_
        elif any(line.strip() for line in bs):
            return None
        else:
            out += _both(os_, ts)
    ends = o_end if ours != base else t_end
    return "\n".join(out) + ("\n" if ends and out else "")
