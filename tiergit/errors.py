"""The one exception type the CLI turns into a short message and exit 2."""
from __future__ import annotations


class TiergitError(Exception):
    """A usage, config or input error: `message` names the file, `hint` says what to do."""

    exit_code = 2

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return self.message if not self.hint else f"{self.message}\n  hint: {self.hint}"


class InputError(TiergitError):
    """A file tiergit was asked to read is malformed (frontmatter, encoding, size)."""

    def __init__(self, path: str, line: int, code: str, detail: str, hint: str | None = None) -> None:
        super().__init__(f"{path}:{line}: {code} {detail}", hint)
        self.path, self.line, self.code, self.detail = path, line, code, detail
