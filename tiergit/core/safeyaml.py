"""YAML loading that refuses aliases (no billion-laughs) and keeps line numbers."""
from __future__ import annotations

import re
from typing import Any

import yaml

try:  # the C loader is ~10x faster; fall back silently where libyaml is absent
    from yaml import CSafeLoader as _Base
except ImportError:  # pragma: no cover
    from yaml import SafeLoader as _Base  # type: ignore[assignment]


class AliasError(yaml.YAMLError):
    def __init__(self, line: int) -> None:
        super().__init__(f"YAML aliases (*name) are not allowed (line {line})")
        self.line = line


class _NoAliasLoader(yaml.SafeLoader):
    """Pure-python loader: used only to locate the offending alias for the message."""

    def compose_node(self, parent, index):  # type: ignore[override]
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            raise AliasError(event.start_mark.line + 1)
        return super().compose_node(parent, index)


class DepthError(yaml.YAMLError):
    """Nesting deeper than any config or frontmatter needs (PyYAML's composer recurses
    once per level, so 20k levels would end in RecursionError)."""

    def __init__(self, line: int) -> None:
        super().__init__(f"YAML nested more than {MAX_DEPTH} levels deep (line {line})")
        self.line = line
        self.problem = f"nested more than {MAX_DEPTH} levels deep"
        self.problem_mark = yaml.Mark("<yaml>", 0, line - 1, 0, None, None)


MAX_DEPTH = 64
# Block markers that open a nesting level on the same line (`- - - x`, `? `).
_BLOCK_MARKERS_RE = re.compile(r"[ \t]*((?:[-?][ \t]+)*)")


def check_depth(text: str) -> None:
    """Raise DepthError when flow brackets or same-line block markers nest deeper than
    MAX_DEPTH. Cost: one pass over the text, only when it has that many openers at all.
    Quotes are skipped roughly (a bracket inside a quoted string can only over-count)."""
    if text.count("[") + text.count("{") + text.count("- ") + text.count("? ") <= MAX_DEPTH:
        return
    depth, quote = 0, ""
    for number, line in enumerate(text.splitlines(), 1):
        block = _BLOCK_MARKERS_RE.match(line)
        markers = len(re.findall(r"[-?]", block.group(1))) if block else 0
        if markers > MAX_DEPTH:
            raise DepthError(number)
        for ch in line:
            if quote:
                quote = "" if ch == quote else quote
            elif ch in "'\"":
                quote = ch
            elif ch in "[{":
                depth += 1
                if depth + markers > MAX_DEPTH:
                    raise DepthError(number)
            elif ch in "]}":
                depth = max(0, depth - 1)
        quote = "" if quote == "'" else quote  # a single-quoted scalar may not span lines in flow


def has_alias(text: str) -> bool:
    # '*' followed by a name char outside quotes is rare in memory frontmatter; the
    # scanner confirms, so a false positive here only costs a slower re-parse.
    return "*" in text or "&" in text


def load(text: str) -> Any:
    """yaml.safe_load without aliases. Raises AliasError, DepthError or yaml.YAMLError."""
    check_depth(text)
    try:
        if has_alias(text):
            return yaml.load(text, Loader=_NoAliasLoader)  # noqa: S506 - SafeLoader subclass
        return yaml.load(text, Loader=_Base)  # noqa: S506
    except RecursionError:  # indentation nesting deep enough to exhaust the stack
        raise DepthError(1) from None


def compose(text: str) -> yaml.Node | None:
    """The node tree (for line numbers), with aliases and deep nesting refused."""
    check_depth(text)
    try:
        return yaml.compose(text, Loader=_NoAliasLoader)
    except RecursionError:  # indentation nesting deep enough to exhaust the stack
        raise DepthError(1) from None


def key_lines(node: yaml.Node | None, prefix: str = "") -> dict[str, int]:
    """Map 'tiers.hot.budget.bytes' -> 1-based line of that key in the document."""
    out: dict[str, int] = {}
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            key = f"{prefix}{key_node.value}"
            out[key] = key_node.start_mark.line + 1
            out.update(key_lines(value_node, key + "."))
    return out
