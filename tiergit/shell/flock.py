"""The store's lock file on POSIX: `fcntl.flock` on a file that stays in place, as filelock's
native Unix lock takes it, so a process of either kind excludes the other. filelock 4 costs
~38 ms of CPU to import (its settings, registry and soft-lock fallback), a quarter of a logged
`tiergit recall`; this costs nothing to import. Windows keeps filelock (tiergit.shell.fsutil).
The OS releases a flock when its holder dies: a killed tiergit never leaves the store locked.
A file system that refuses flock (some NFS mounts) gets filelock's soft lock (a file created
exclusively beside it, removed on release).
"""
from __future__ import annotations

import fcntl
import os
import time

from tiergit.errors import TiergitError

POLL = 0.05   # seconds between tries while another process holds the lock


class LockTimeout(Exception):
    """The lock stayed held by another process for the whole timeout."""


class FlockLock:
    """One lock file, re-entrant within a process (a count, as filelock counts)."""

    timeout_error = LockTimeout   # what acquire raises when the wait runs out (read by tiergit.shell.lockwait)

    def __init__(self, path: str) -> None:
        self.path = path
        self._fd: int | None = None
        self._count = 0
        self._fallback = None   # filelock's SoftFileLock, where flock is refused (ENOLCK, EOPNOTSUPP)

    def acquire(self, timeout: float) -> None:
        if self._count:
            self._count += 1
            return
        if self._fallback is not None:
            self._acquire_fallback(timeout)
            return
        deadline = time.monotonic() + timeout
        while True:
            # O_NOFOLLOW: a symlink planted at the lock's path is never followed (nor written through)
            try:
                fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
            except OSError as exc:   # a symlink (ELOOP), a folder, no permission: nothing was changed
                raise TiergitError(f"{self.path}: cannot open the store lock ({exc.strerror}); nothing was changed",
                                   "remove it (tiergit recreates it as a plain file) and rerun") from None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                if time.monotonic() >= deadline:
                    raise LockTimeout(self.path) from None
                time.sleep(min(POLL, max(0.0, deadline - time.monotonic())))
                continue
            except OSError:   # no flock on this file system (some NFS mounts): filelock's soft lock
                os.close(fd)
                from filelock import SoftFileLock

                self._fallback = SoftFileLock(self.path + ".soft", thread_local=False)
                self._acquire_fallback(max(0.0, deadline - time.monotonic()))
                return
            except BaseException:
                os.close(fd)
                raise
            self._fd, self._count = fd, 1
            return

    def _acquire_fallback(self, timeout: float) -> None:
        from filelock import Timeout

        try:
            self._fallback.acquire(timeout=timeout)
        except Timeout:
            raise LockTimeout(self.path) from None
        self._count = 1

    def release(self) -> None:
        if self._count == 0:
            return
        self._count -= 1
        if self._count == 0 and self._fallback is not None:
            self._fallback.release()
        elif self._count == 0 and self._fd is not None:
            fd, self._fd = self._fd, None
            try:
                fcntl.flock(fd, fcntl.LOCK_UN)
            finally:
                os.close(fd)
