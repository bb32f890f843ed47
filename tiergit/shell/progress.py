"""Progress bars for long work (an index build, an import of many files, history over thousands
of commits): drawn on stderr with click's progressbar, only when stderr is a terminal.

Silent in hooks and the merge driver (git sets GIT_INDEX_FILE / GIT_EXEC_PATH for them), in
CI (CI is set), under --json, and with TIERGIT_PROGRESS=0. Cost when silent: one check.
Short jobs (under MIN_ITEMS steps, or the caller's `minimum` when each step is slow, as an
imported file is) draw nothing either.
"""
from __future__ import annotations

import os
import sys
from contextlib import contextmanager
from typing import Iterator

MIN_ITEMS = 200


def enabled() -> bool:
    env = os.environ
    if env.get("TIERGIT_PROGRESS") == "0" or env.get("CI") or "GIT_INDEX_FILE" in env or "GIT_EXEC_PATH" in env:
        return False
    if not (hasattr(sys.stderr, "isatty") and sys.stderr.isatty()):
        return False
    return not _json_requested()


def _json_requested() -> bool:
    """True inside a click command given --json (machine output stays clean)."""
    if "click" not in sys.modules:
        return False
    import click

    ctx = click.get_current_context(silent=True)
    while ctx is not None:
        if ctx.params.get("as_json"):
            return True
        ctx = ctx.parent
    return False


class _Silent:
    def update(self, n: int = 1) -> None:
        pass


@contextmanager
def bar(total: int, label: str, minimum: int = MIN_ITEMS) -> Iterator:
    """`with bar(n, "indexing") as b: ... b.update(1)` -- a no-op unless `enabled()`."""
    if total < max(minimum, 1) or not enabled():
        yield _Silent()
        return
    import click

    with click.progressbar(length=total, label=label, file=sys.stderr) as pb:
        yield pb


def iterate(items: list, label: str, show: bool = True, minimum: int = MIN_ITEMS) -> Iterator:
    """Yield `items`, drawing a bar as they go (only when `show`, `enabled()` and at least
    `minimum` items)."""
    with bar(len(items) if show else 0, label, minimum) as shown:
        for item in items:
            yield item
            shown.update(1)
