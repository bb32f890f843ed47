"""The store lock on POSIX is a plain flock (tiergit.shell.flock): the same lock filelock takes,
so an older tiergit (filelock) and this one exclude each other; re-entrant; never through a link."""
from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

pytestmark = pytest.mark.skipif(os.name != "posix", reason="flock is the POSIX lock; Windows keeps filelock")

HOLD = ("import sys, time\n{take}\nprint('held', flush=True)\nsys.stdin.readline()\n")


def _holder(take: str) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-c", HOLD.format(take=take)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "held"
    return proc


def test_a_filelock_holder_excludes_the_flock_and_the_reverse(tmp_path):
    from tiergit.shell.flock import FlockLock, LockTimeout

    path = str(tmp_path / "store.lock")
    other = _holder(f"from filelock import FileLock\nheld = FileLock({path!r})\nheld.acquire()")
    try:
        start = time.monotonic()
        with pytest.raises(LockTimeout):
            FlockLock(path).acquire(timeout=0.3)
        assert time.monotonic() - start >= 0.3
    finally:
        other.communicate("\n")
    mine = FlockLock(path)
    mine.acquire(timeout=1)          # free once the filelock holder ended
    probe = subprocess.run([sys.executable, "-c", "from filelock import FileLock, Timeout\n"
                            f"try:\n    FileLock({path!r}).acquire(timeout=0.3)\nexcept Timeout:\n    print('busy')"],
                           capture_output=True, text=True, check=True)
    assert probe.stdout.strip() == "busy"
    mine.release()


def test_it_is_reentrant_and_released_by_the_outermost_release(tmp_path):
    from tiergit.shell.flock import FlockLock, LockTimeout

    path = str(tmp_path / "store.lock")
    lock = FlockLock(path)
    lock.acquire(timeout=1)
    lock.acquire(timeout=1)
    lock.release()
    with pytest.raises(LockTimeout):
        FlockLock(path).acquire(timeout=0.1)   # another open file description: still held
    lock.release()
    again = FlockLock(path)
    again.acquire(timeout=0.1)
    again.release()


def test_a_killed_holder_leaves_the_lock_free(tmp_path):
    from tiergit.shell.flock import FlockLock

    path = str(tmp_path / "store.lock")
    other = _holder(f"from tiergit.shell.flock import FlockLock\nheld = FlockLock({path!r})\nheld.acquire(timeout=1)")
    other.kill()
    other.wait()
    lock = FlockLock(path)
    lock.acquire(timeout=1)
    lock.release()


def test_a_symlink_at_the_lock_path_is_refused_and_left_alone(tmp_path):
    from tiergit.errors import TiergitError
    from tiergit.shell.flock import FlockLock

    target = tmp_path / "elsewhere"
    target.write_text("keep me\n")
    (tmp_path / "store.lock").symlink_to(target)
    with pytest.raises(TiergitError, match="cannot open the store lock"):
        FlockLock(str(tmp_path / "store.lock")).acquire(timeout=0.1)
    assert target.read_text() == "keep me\n"


def test_a_file_system_without_flock_gets_the_soft_lock(tmp_path, monkeypatch):
    import errno
    import fcntl

    from tiergit.shell import flock

    def refused(fd, op):
        raise OSError(errno.ENOLCK, "No locks available")

    monkeypatch.setattr(fcntl, "flock", refused)
    path = str(tmp_path / "store.lock")
    first = flock.FlockLock(path)
    first.acquire(timeout=1)
    assert (tmp_path / "store.lock.soft").exists()
    with pytest.raises(flock.LockTimeout):
        flock.FlockLock(path).acquire(timeout=0.2)
    first.release()
    assert not (tmp_path / "store.lock.soft").exists()
    again = flock.FlockLock(path)
    again.acquire(timeout=0.2)
    again.release()


def test_the_wait_also_takes_a_filelock_without_loading_flock(tmp_path):
    """Windows' lock (filelock) through the same wait: busy, then LockBusy; tiergit.shell.flock
    (fcntl, POSIX only) is never imported for it."""
    path = tmp_path / "store.lock"
    other = _holder(f"from filelock import FileLock\nheld = FileLock({str(path)!r})\nheld.acquire()")
    try:
        code = ("import sys\nfrom pathlib import Path\nfrom filelock import FileLock\n"
                "from tiergit.shell import lockwait\n"
                f"try:\n    lockwait.acquire(FileLock({str(path)!r}), Path({str(path)!r}), 0.3)\n"
                "except lockwait.LockBusy:\n    print('busy', 'tiergit.shell.flock' in sys.modules)")
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
        assert out.stdout.strip() == "busy False"
    finally:
        other.communicate("\n")
