"""Headings, their dates and session markers read the way markdown-it and the parser read them,
without `re` or markdown-it: the fast merge path's view of a memory file (tiergit.core.appendmerge).
`tests/features/test_merge_fast.py` checks `headings` against markdown-it on every corpus file, and
`heading_date` / `own_name` against the parser's dates and session markers."""
_CONTAINER = " \t>*+-0123456789.)"   # what may open a line before a heading inside a list or quote
_DAYS = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)
_ALNUM = frozenset("0123456789abcdefghijklmnopqrstuvwxyz")


def heading_date(text: str) -> tuple[int, int, int] | None:
    """parse.heading_date as a (year, month, day) tuple: the first valid `\\d{4}-\\d{2}-\\d{2}`
    not inside a longer run of digits."""
    n = len(text)
    pos = text.find("-")
    while pos != -1:
        start = pos - 4
        if (start >= 0 and pos + 6 <= n and text[pos + 3] == "-" and text[start:pos].isdecimal()
                and text[pos + 1:pos + 3].isdecimal() and text[pos + 4:pos + 6].isdecimal()
                and not (start > 0 and text[start - 1].isdecimal())
                and not (pos + 6 < n and text[pos + 6].isdecimal())):
            y, m, d = int(text[start:pos]), int(text[pos + 1:pos + 3]), int(text[pos + 4:pos + 6])
            if 1 <= y and 1 <= m <= 12 and 1 <= d <= _DAYS[m - 1] + (
                    m == 2 and y % 4 == 0 and (y % 100 != 0 or y % 400 == 0)):
                return (y, m, d)
            pos = text.find("-", pos + 6)   # re.finditer goes on after a match that is no date
            continue
        pos = text.find("-", pos + 1)
    return None


def _heading_text(rest: str) -> str:
    """markdown-it's heading content after the `#`s: closing `#`s cut, then stripped."""
    end = len(rest)
    while end > 0 and rest[end - 1] in " \t":
        end -= 1
    tmp = end
    while tmp > 0 and rest[tmp - 1] == "#":
        tmp -= 1
    if tmp > 0 and rest[tmp - 1] in " \t":
        end = tmp
    return rest[:end].strip()


def headings(lines: list[str], before: str = "") -> list[tuple[int, int, str]] | None:
    """(0-based line, level, text) of every heading, as parse._headings finds them, or None when
    a line could make markdown-it see it otherwise. `lines` without their `\\n`; `before`: the
    line above the first (for a setext underline)."""
    out = []
    prev = before
    for i, line in enumerate(lines):
        if not line:
            prev = line
            continue
        n = len(line) - len(line.lstrip(" "))
        if n <= 3 and line[n:n + 1] == "#":
            h = len(line) - n - len(line[n:].lstrip("#"))
            if h <= 6 and (n + h == len(line) or line[n + h] in " \t"):
                out.append((i, h, _heading_text(line[n + h:])))
                prev = line
                continue
        s = line.lstrip(_CONTAINER)
        first = s[:1]
        if first == "#":
            k = len(s) - len(s.lstrip("#"))
            if k <= 6 and (k == len(s) or s[k] in " \t"):
                return None   # a heading in a list, a quote or indented
        elif first == "<":
            if not (s.startswith("<!--") and "-->" in s[4:]):
                return None   # an HTML block may hold lines that look like headings
        elif first == "[":
            if "]:" in s:
                return None   # a link reference definition's title may span lines
        elif s.startswith(("```", "~~~")):
            return None
        t = line.strip(" \t")
        if t and (not t.strip("=") or not t.strip("-")) and prev.strip(" \t"):
            return None   # a setext underline makes the line above a heading
        prev = line
    return out


def own_name(text: str) -> str | None:
    """mergekeys.own_name: the block id ending the heading line, else a session marker
    `<!-- s-… -->` in the next three lines."""
    lines = text.split("\n", 4)
    head = lines[0].rstrip("\r").rstrip()
    i = head.rfind("^m-")
    if i > 0 and head[i - 1].isspace() and 4 <= len(head) - i - 3 <= 32 and set(head[i + 3:]) <= _ALNUM:
        return head[i + 1:]
    for line in lines[1:4]:
        at = line.find("<!--")
        while at != -1:
            name = _marker_at(line, at + 4)
            if name is not None:
                return name
            at = line.find("<!--", at + 1)
    return None


def _marker_at(line: str, pos: int) -> str | None:
    """mergekeys.MARKER_RE after its `<!--`: \\s*(?:tiergit:session\\s+)?(s-[0-9a-z]{4,32})\\s*-->."""
    n = len(line)
    while pos < n and line[pos].isspace():
        pos += 1
    starts = [pos]
    if line.startswith("tiergit:session", pos):
        p = pos + len("tiergit:session")
        q = p
        while q < n and line[q].isspace():
            q += 1
        if q > p:
            starts.insert(0, q)
    for p in starts:
        if not line.startswith("s-", p):
            continue
        q = p + 2
        while q < n and line[q] in _ALNUM:
            q += 1
        if not 4 <= q - p - 2 <= 32:
            continue
        r = q
        while r < n and line[r].isspace():
            r += 1
        if line.startswith("-->", r):
            return line[p:q]
    return None
