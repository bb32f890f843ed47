"""Waiting for the store lock the way git waits for a lock, but saying so: a line on stderr
every few seconds naming the process that holds it, up to a limit long enough for CI
(`TIERGIT_LOCK_TIMEOUT`, else `limits.lock_wait_seconds`, else 10 minutes), then exit 2 with
the command to rerun. The holder writes who it is beside the lock (`store.lock.holder`), so
a waiting process can name it; the lock itself is a flock (tiergit.shell.flock; filelock on Windows),
released by the OS when its holder dies, so a killed tiergit never leaves the store locked."""
from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

from tiergit.errors import TiergitError

DEFAULT_WAIT = 600.0     # seconds: a nightly archive or a slow CI runner finishes well within it
FIRST_NOTICE = 1.0       # a short wait stays silent
NOTICE_EVERY = 5.0
ENV = "TIERGIT_LOCK_TIMEOUT"
_configured: list[float] = []   # limits.lock_wait_seconds of the config this process loaded


class LockBusy(TiergitError):
    """The store lock stayed busy for the whole wait: nothing was written."""


def configure(seconds: float | None) -> None:
    """The config's `limits.lock_wait_seconds` (called when a config is loaded)."""
    _configured[:] = [float(seconds)] if seconds else []


def limit(path: Path) -> float:
    raw = os.environ.get(ENV)
    if raw:
        try:
            value = float(raw)
        except ValueError:
            value = -1.0
        if not value > 0:
            raise TiergitError(f"{ENV}={raw!r}: not a number of seconds",
                               f"set it to how long to wait for {path.name}, e.g. {ENV}=1800")
        return value
    return _configured[0] if _configured else DEFAULT_WAIT


def own_command() -> str:
    """How this process was started, as a user would retype it."""
    import shlex   # only for a message: off the hook's import budget

    argv = sys.argv or [""]
    name = os.path.basename(argv[0])
    if name in ("tiergit", "tiergit.exe", "__main__.py", "-m"):
        return shlex.join(["tiergit", *argv[1:]])
    return shlex.join([name, *argv[1:]]) if name else f"pid {os.getpid()}"


def _holder_path(path: Path) -> Path:
    return path.with_name(path.name + ".holder")


def claim(path: Path) -> None:
    """Say who holds the lock (a temp and a rename: a reader never sees half a line)."""
    target = _holder_path(path)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        tmp.write_text(json.dumps({"pid": os.getpid(), "command": own_command(), "since": time.time()}))
        os.replace(tmp, target)
    except OSError:
        tmp.unlink(missing_ok=True)   # no name to show: waiters say "another tiergit"


def unclaim(path: Path) -> None:
    target = _holder_path(path)
    try:
        if json.loads(target.read_text()).get("pid") == os.getpid():
            target.unlink()
    except (OSError, ValueError, AttributeError):
        pass


def holder(path: Path) -> str:
    """`pid 4242 (tiergit archive --apply, for 12s)`, or `another tiergit process`."""
    try:
        data = json.loads(_holder_path(path).read_text())
        pid, command, since = int(data["pid"]), str(data["command"]), float(data["since"])
    except (OSError, ValueError, KeyError, TypeError):
        return "another tiergit process"
    return f"pid {pid} (`{command}`, for {max(0, time.time() - since):.0f}s)"


def acquire(fl, path: Path, wait: float) -> None:
    """Take `fl` (tiergit.shell.flock's lock, or a filelock), waiting up to `wait` seconds with a
    notice every few seconds."""
    # The lock names what it raises (tiergit.shell.flock imports fcntl: not on Windows)
    Timeout = getattr(fl, "timeout_error", None)   # noqa: N806 - the class each lock raises, under one name
    if Timeout is None:
        from filelock import Timeout
    start = time.monotonic()
    notice_at = FIRST_NOTICE
    while True:
        waited = time.monotonic() - start
        try:
            fl.acquire(timeout=max(0.0, min(notice_at, wait) - waited))
            return
        except Timeout:
            waited = time.monotonic() - start
            if waited >= wait:
                raise LockBusy(f"{path}: still locked after {waited:.0f}s by {holder(path)}; nothing was changed",
                               f"rerun `{own_command()}` when it has finished, or wait longer: "
                               f"{ENV}=SECONDS or limits.lock_wait_seconds in .tiergit.yml") from None
            sys.stderr.write(f"tiergit: waiting for the store lock, held by {holder(path)}: "
                             f"{waited:.0f}s of {wait:.0f}s ({path})\n")
            sys.stderr.flush()
            notice_at = waited + NOTICE_EVERY
