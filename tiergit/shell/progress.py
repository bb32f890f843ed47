"""Progress bars for long work (an index build, an import of many files, history over thousands
of commits): drawn on stderr with click's progressbar, only when stderr is a terminal.

Silent in hooks and the merge driver (git sets GIT_INDEX_FILE / GIT_EXEC_PATH for them), in
CI (CI is set), under --json, and with TIERGIT_PROGRESS=0. Cost when silent: one check.
A job of MIN_ITEMS steps or more (or the caller's `minimum` when each step is slow, as an
imported file is) draws its bar from the start; a smaller one draws it once it has run for
AFTER_SECONDS, so any step that lasts more than two seconds shows progress from its first
second whatever its count (cost: one clock read per step until then).
TIERGIT_PROGRESS_AFTER=SECONDS changes that delay (0: at the first step).
click is imported inside functions, only when a bar is drawn: the post-merge hook and the index
build load this module, and the hook path never imports click.
"""
from __future__ import annotations

import os
import sys
import time
from contextlib import contextmanager
from typing import Iterator

MIN_ITEMS = 200
AFTER_SECONDS = 1.0


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


class _Deferred:
    """A bar that opens once its job has run for AFTER_SECONDS (showing the steps done so far)."""

    def __init__(self, total: int, label: str, start: float) -> None:
        self.total, self.label, self.start, self.done, self.open = total, label, start, 0, None

    def update(self, n: int = 1) -> None:
        if self.open is not None:
            self.open.update(n)
            return
        self.done += n
        if time.monotonic() - self.start >= _after():
            self.open = _click_bar(self.total, self.label)
            self.open.__enter__()
            self.open.update(self.done)

    def close(self) -> None:
        if self.open is not None:
            self.open.__exit__(None, None, None)


def _after() -> float:
    try:
        return float(os.environ.get("TIERGIT_PROGRESS_AFTER", AFTER_SECONDS))
    except ValueError:
        return AFTER_SECONDS


def _click_bar(total: int, label: str):
    import click

    return click.progressbar(length=total, label=label, file=sys.stderr)


@contextmanager
def bar(total: int, label: str, minimum: int = MIN_ITEMS) -> Iterator:
    """`with bar(n, "indexing") as b: ... b.update(1)` -- a no-op unless `enabled()`; drawn
    from the start for `minimum` steps or more, else once the job has run AFTER_SECONDS."""
    if total < 1 or not enabled():
        yield _Silent()
        return
    if total < max(minimum, 1):
        late = _Deferred(total, label, time.monotonic())
        try:
            yield late
        finally:
            late.close()
        return
    with _click_bar(total, label) as pb:
        yield pb


def iterate(items: list, label: str, show: bool = True, minimum: int = MIN_ITEMS) -> Iterator:
    """Yield `items`, drawing a bar as they go (only when `show` and `enabled()`: from the start
    for `minimum` items or more, else once they have taken AFTER_SECONDS)."""
    with bar(len(items) if show else 0, label, minimum) as shown:
        for item in items:
            yield item
            shown.update(1)
