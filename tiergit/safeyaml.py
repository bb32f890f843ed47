"""YAML loading that refuses aliases (no billion-laughs) and keeps line numbers."""
from __future__ import annotations

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


def has_alias(text: str) -> bool:
    # '*' followed by a name char outside quotes is rare in memory frontmatter; the
    # scanner confirms, so a false positive here only costs a slower re-parse.
    return "*" in text or "&" in text


def load(text: str) -> Any:
    """yaml.safe_load without aliases. Raises AliasError or yaml.YAMLError."""
    if has_alias(text):
        return yaml.load(text, Loader=_NoAliasLoader)  # noqa: S506 - SafeLoader subclass
    return yaml.load(text, Loader=_Base)  # noqa: S506


def compose(text: str) -> yaml.Node | None:
    """The node tree (for line numbers), with aliases refused."""
    return yaml.compose(text, Loader=_NoAliasLoader)


def key_lines(node: yaml.Node | None, prefix: str = "") -> dict[str, int]:
    """Map 'tiers.hot.budget.bytes' -> 1-based line of that key in the document."""
    out: dict[str, int] = {}
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            key = f"{prefix}{key_node.value}"
            out[key] = key_node.start_mark.line + 1
            out.update(key_lines(value_node, key + "."))
    return out
