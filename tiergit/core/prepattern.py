"""An encoding's pre-tokenizer pattern in the standard library's `re`, for the texts `re` splits
exactly as tiktoken's `regex` pattern does: a hook that counts them never imports `regex`
(~17 ms of its ~80 ms of counting on five real-sized files).

- ASCII text: each Unicode property class becomes its ASCII members (`ascii_pattern`).
- Any other text (`unicode_pattern`): `\\p{L}` is `[^\\W\\d_]` and `\\p{N}` is `\\d`, and a negated
  class of both (`[^\\r\\n\\p{L}\\p{N}]`) is "not the others and not `\\w`, or `_`". Compared over
  every code point, `re` and `regex` disagree on these only for characters `unicode_safe` turns
  away: a number that is no decimal digit (categories Nl and No: `²`, `½`, `Ⅻ`, which `re` calls
  a letter), a character this Python's database leaves unassigned (Cn), and U+001C-U+001F,
  which `re` calls space.
Patterns with other properties (o200k's `\\p{Lu}`, `\\p{M}`) get no `re` form and stay with `regex`.
"""
from __future__ import annotations

import re
import unicodedata

# The ASCII members of the properties tiktoken's patterns name (cl100k, o200k, p50k, r50k).
ASCII_PROPERTIES = {"L": "A-Za-z", "N": "0-9", "Lu": "A-Z", "Ll": "a-z", "Lt": "", "Lm": "", "Lo": "", "M": ""}
ASCII_ODD_SPACE = re.compile("[\x1c-\x1f]")
# Categories whose characters `re` and `regex` class differently (see the module's docstring).
UNSAFE_CATEGORIES = frozenset({"Nl", "No", "Cn"})
# Outside a class: the `re` form of each property `unicode_pattern` knows.
UNICODE_PROPERTIES = {"L": r"[^\W\d_]", "N": r"\d"}


def ascii_safe(text: str) -> bool:
    """ASCII, and none of U+001C-U+001F (`re` calls them space, `regex` does not)."""
    return text.isascii() and not ASCII_ODD_SPACE.search(text)


def unicode_safe(text: str) -> bool:
    """No character `unicode_pattern` would class differently from `regex` (set(): each
    character's category looked up once, at C speed)."""
    if ASCII_ODD_SPACE.search(text):
        return False
    category = unicodedata.category
    return not any(category(c) in UNSAFE_CATEGORIES for c in set(text) if ord(c) > 127)


def ascii_pattern(pat_str: str) -> str | None:
    """`pat_str` for the standard library's `re` on ASCII text: each Unicode property class
    becomes its ASCII members; None when the pattern uses anything else `re` lacks."""
    def outside(name: str) -> str | None:
        members = ASCII_PROPERTIES.get(name)
        return None if members is None else (f"[{members}]" if members else "(?!)")

    def in_class(body: str) -> str | None:
        out = []
        for part in re.split(r"(\\p\{\w+\}|\\.)", body):
            members = ASCII_PROPERTIES.get(part[3:-1]) if part.startswith("\\p{") else part
            if members is None or part.startswith(("\\P", "\\X", "\\N", "\\G")):
                return None
            out.append(members)
        return "[" + "".join(out) + "]"

    return _translate(pat_str, outside, in_class)


def unicode_pattern(pat_str: str) -> str | None:
    """`pat_str` for `re` on any text `unicode_safe` accepts, or None when it names a property
    other than L and N, or names them in a class other than a negated class of both."""
    def in_class(body: str) -> str | None:
        if "\\p" not in body and "\\P" not in body:
            return f"[{body}]"
        rest = body[1:].replace("\\p{L}", "", 1).replace("\\p{N}", "", 1)
        if not body.startswith("^") or len(rest) != len(body) - 11 or "\\p" in rest or "\\P" in rest \
                or "_" in rest or "\\w" in rest or "\\W" in rest:
            return None
        return f"(?:[^{rest}\\w]|_)"   # letters and numbers are \w, all but `_`

    return _translate(pat_str, UNICODE_PROPERTIES.get, in_class)


def _translate(pat_str: str, outside, in_class) -> str | None:
    """`pat_str` with each property outside a class given by `outside(name)` and each class by
    `in_class(its body)` (None from either, or an escape `re` lacks: no translation), if `re`
    compiles the result."""
    out, i = [], 0
    while i < len(pat_str):
        ch = pat_str[i]
        if ch == "[":
            close = _class_end(pat_str, i)
            done = in_class(pat_str[i + 1:close]) if close >= 0 else None
            i = close + 1
        elif pat_str.startswith("\\p{", i):
            close = pat_str.find("}", i)
            done = outside(pat_str[i + 3:close])
            i = close + 1
        elif ch == "\\":
            done = None if pat_str[i + 1:i + 2] in ("P", "X", "N", "G") else pat_str[i:i + 2]
            i += 2
        else:
            done = ch
            i += 1
        if done is None:
            return None
        out.append(done)
    return _compiles("".join(out))


def _class_end(pat_str: str, start: int) -> int:
    """The index of the `]` that closes the class opened at `start` (escapes skipped; a `]`
    right after `[` or `[^` is a member), or -1."""
    i = start + 1
    if pat_str.startswith("^", i):
        i += 1
    if pat_str.startswith("]", i):
        i += 1
    while i < len(pat_str):
        if pat_str[i] == "\\":
            i += 2
            continue
        if pat_str[i] == "[":
            return -1   # a nested class (`regex`'s set operations): no `re` form
        if pat_str[i] == "]":
            return i
        i += 1
    return -1


def _compiles(translated: str) -> str | None:
    if "[]" in translated or "[^]" in translated:
        return None   # a class left with no members: not worth a special case
    try:
        re.compile(translated)
    except re.error:
        return None
    return translated
