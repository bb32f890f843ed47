"""A merge's line endings and BOM. Pure.

The three versions are merged as LF text without a BOM; the result takes the base's line
ending (CRLF when most of its lines end so) and its BOM, or ours' when the base has no line
(a file both sides added). So a side that saved the file CRLF, or with a BOM, never leaves a
file of mixed endings, and the blank line before a heading is the same blank line on every
side. A lone CR inside a line is text and stays as it is.
"""
from __future__ import annotations

from collections import namedtuple

BOM = "\ufeff"
# A tuple, not a dataclass: `dataclasses` is ~12 ms of every merged file (see core/record.py).
Skin = namedtuple("Skin", "bom crlf")


def _crlf(text: str) -> bool | None:
    crlf = text.count("\r\n")
    lf = text.count("\n") - crlf
    return None if crlf == lf == 0 else crlf > lf


def skin_of(base: str, ours: str) -> Skin:
    """The base's ending and BOM; ours' when the base has none to go by."""
    crlf = _crlf(base)
    if crlf is None:
        crlf = bool(_crlf(ours))
    ref = base if base else ours
    return Skin(ref.startswith(BOM), crlf)


def bare(text: str) -> str:
    """The text as the merge reads it: no BOM, LF line endings."""
    if text.startswith(BOM):
        text = text[1:]
    return text.replace("\r\n", "\n") if "\r" in text else text


def dress(text: str, skin: Skin) -> str:
    """The merged text in the file's line ending, with its BOM."""
    if skin.crlf:
        text = text.replace("\n", "\r\n")
    return BOM + text if skin.bom and text else text
