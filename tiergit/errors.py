"""The one exception type tiergit turns into a short message and exit 2, and the one place
that formats it (`render`) and catches it (`guarded`): the console script and `python -m
tiergit` (hooks, the merge driver, recall, every click command) and the isolated merge-driver
entry all end in `guarded`. Imports only `sys`: the hook and driver paths load it."""
from __future__ import annotations

import sys


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

    def __reduce__(self):
        # raised as it was across a process boundary (the index build's parse workers)
        return (type(self), (self.path, self.line, self.code, self.detail, self.hint))


def render(exc: TiergitError, where: str = "error") -> str:
    """`tiergit: error: MESSAGE` and, when there is one, `  hint: WHAT TO DO` (newline-ended).
    `where` names a step that never fails (`post-merge`) in place of "error"."""
    return f"tiergit: {where}: {exc.message}\n" + (f"  hint: {exc.hint}\n" if exc.hint else "")


def guarded(run, args: list[str], debug: bool = False) -> int | None:
    """`run(args)`'s exit code; a TiergitError becomes its two lines on stderr and its exit
    code (2). `--debug` lets it through with its traceback. (post-merge never blocks: its
    report's errors are caught and printed, with `render`, inside the hook.)"""
    try:
        return run(args)
    except TiergitError as exc:
        if debug:
            raise
        sys.stderr.write(render(exc))
        return exc.exit_code
    except KeyboardInterrupt:
        return 130
