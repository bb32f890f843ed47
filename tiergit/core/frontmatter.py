"""A memory file's YAML frontmatter -> (exact text, metadata, body). Its own module so the
pre-commit hook checks frontmatter without importing the parser (tiergit.core.parse, which
re-exports split_frontmatter for its callers)."""
from __future__ import annotations

from tiergit.core.rawtext import split_lines
from tiergit.errors import InputError


def split_frontmatter(text: str, path: str = "<text>") -> tuple[str, dict, str]:
    """(exact frontmatter text, metadata, body). Raises InputError on invalid YAML."""
    if not (text.startswith("---\n") or text.startswith("---\r\n")):
        return "", {}, text
    lines = split_lines(text)
    if len(lines) > 1 and not lines[1].strip():
        # `---` then a blank line is a markdown thematic break (OpenClaw's session notes open
        # with one), never frontmatter, which starts with its first key.
        return "", {}, text
    for idx in range(1, len(lines)):
        if lines[idx].rstrip("\r\n") in ("---", "..."):
            fm = "".join(lines[: idx + 1])
            yaml_text = "".join(lines[1:idx])
            from tiergit.core import (
                safeyaml,  # PyYAML costs ~25 ms: only files with frontmatter pay it
            )

            try:
                meta = safeyaml.load(yaml_text) if yaml_text.strip() else {}
            except safeyaml.AliasError as exc:
                raise InputError(path, exc.line + 1, "FM001", "frontmatter uses a YAML alias",
                                 "write the value out in full") from None
            except Exception as exc:  # noqa: BLE001 - any YAML error
                mark = getattr(exc, "problem_mark", None)
                line = (mark.line + 2) if mark is not None else 1
                problem = getattr(exc, "problem", None) or "invalid YAML"
                raise InputError(path, line, "FM001", f"invalid frontmatter: {problem}",
                                 "fix the YAML between the --- lines, or remove it") from None
            if meta is None:
                meta = {}
            if not isinstance(meta, dict):
                raise InputError(path, 2, "FM001", "frontmatter must be a YAML mapping (key: value lines)",
                                 "use `key: value` lines between the --- delimiters")
            return fm, meta, "".join(lines[idx + 1:])
    raise InputError(path, 1, "FM001", "frontmatter is not closed",
                     "add a closing --- line after the metadata, or remove the opening ---")
