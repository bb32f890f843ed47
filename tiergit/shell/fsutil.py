"""Safe writes and the store lock: the only way tiergit writes memory files.

Every write checks its target first (`check_target`: no symlink, FIFO, device or folder
in the way, real path inside the work tree), goes to a temp file outside the store
folders (the git dir's tiergit/tmp when it is on the same filesystem), is fsynced and
renamed into place. The store lock (`store_lock`) serializes every mutating command.
"""
from __future__ import annotations

import errno
import os
import stat
import sys
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterable, Iterator

from tiergit.errors import TiergitError
from tiergit.shell import statedir



def check_target(path: Path, root: Path | None) -> None:
    """Refuse a write target that is a link, FIFO, device or folder, or whose real path
    (every parent resolved) leaves `root`. Cost: one lstat per path component."""
    hint = "replace it with a regular file (or folder) inside the work tree"
    if root is not None:
        real_root = root.resolve()
        try:
            rel = Path(os.path.abspath(path)).relative_to(os.path.abspath(root))
        except ValueError:
            raise TiergitError(f"{path}: outside the work tree {root}", hint) from None
        cur = Path(os.path.abspath(root))
        for part in rel.parts:
            cur = cur / part
            try:
                st = os.lstat(cur)
            except FileNotFoundError:
                break
            if stat.S_ISLNK(st.st_mode):
                raise TiergitError(f"{cur}: is a symlink; tiergit never writes through links", hint)
            if cur != Path(os.path.abspath(path)) and not stat.S_ISDIR(st.st_mode):
                raise TiergitError(f"{cur}: is not a folder", hint)
        try:
            cur.resolve().relative_to(real_root)
        except ValueError:
            raise TiergitError(f"{path}: resolves outside the work tree {root}", hint) from None
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return
    if not stat.S_ISREG(st.st_mode):
        kind = ("a symlink" if stat.S_ISLNK(st.st_mode) else "a folder" if stat.S_ISDIR(st.st_mode)
                else "a FIFO" if stat.S_ISFIFO(st.st_mode) else "a device or socket")
        raise TiergitError(f"{path}: is {kind}, not a regular file; tiergit writes only regular files", hint)


def _tmp_dir(path: Path) -> Path:
    """Temps live in the git dir (never in a store folder a `git add -A` would pick up)."""
    base = statedir.near(path)
    return base / "tmp" if base is not None else path.parent


def _write_synced(path: Path, data: bytes | Callable[[], Iterable[str]]) -> None:
    with open(path, "wb") as fh:
        if isinstance(data, bytes):
            fh.write(data)
        else:
            for piece in data():
                fh.write(piece.encode("utf-8"))
        fh.flush()
        os.fsync(fh.fileno())


def atomic_write(path: Path, data: bytes | str | Callable[[], Iterable[str]], root: Path | None = None) -> None:
    """Check the target, write a temp (fsync), rename into place. Cost: one write + fsync.
    `data` may be a function giving the text in pieces (the write journal: a 50k-file
    archive's journal as one string was ~250 MB), called again if the temp must move."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    check_target(path, root)
    path.parent.mkdir(parents=True, exist_ok=True)
    check_target(path, root)  # mkdir may have raced a link into place
    tmp_dir = _tmp_dir(path)
    tmp_dir.mkdir(parents=True, exist_ok=True)
    tmp = tmp_dir / f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp"
    try:
        _write_synced(tmp, data)
        mode = path.stat().st_mode & 0o7777 if path.exists() else None
        if mode is not None:
            os.chmod(tmp, mode)
        try:
            os.replace(tmp, path)
        except OSError as exc:
            if exc.errno != errno.EXDEV:
                raise
            # git dir on another filesystem: fall back to a temp beside the target
            local = path.with_name(f".{path.name}.{os.getpid()}.tmp")
            _write_synced(local, data)
            if mode is not None:
                os.chmod(local, mode)
            os.replace(local, path)
        _fsync_dir(path.parent)
    finally:
        if tmp.exists():
            tmp.unlink()


def safe_unlink(path: Path, root: Path | None = None) -> None:
    check_target(path, root)
    if path.exists():
        path.unlink()
        _fsync_dir(path.parent)


def remove_empty_parents(paths: list[Path], stop: Path) -> list[Path]:
    """Remove the now-empty folders holding `paths`, walking up to (never including) `stop`;
    only folders inside `stop`, never through a symlink. The folders removed."""
    top = stop.resolve()
    removed: list[Path] = []
    for path in paths:
        folder = path.parent
        while folder.is_dir() and not folder.is_symlink() and top in folder.resolve().parents:
            if any(folder.iterdir()):
                break
            folder.rmdir()
            removed.append(folder)
            folder = folder.parent
    return removed


def _fsync_dir(folder: Path) -> None:
    """Make the rename durable (POSIX); a no-op where folders cannot be opened (Windows)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


_locks: dict[str, object] = {}
_depth: dict[str, int] = {}
_guard = threading.RLock()


@contextmanager
def lock(path: Path, timeout: float | None = None) -> Iterator[bool]:
    """An exclusive lock file (flock on POSIX, filelock elsewhere), re-entrant within a process, that
    waits like git waits for its index: a line on stderr every few seconds naming the holder,
    up to `timeout` (default: lockwait.limit()) seconds, then exit 2 saying how to retry.
    Yields True on the outermost entry. The lock is imported only here, so read paths (the
    pre-commit hook) never load it."""
    from tiergit.shell import lockwait

    path.parent.mkdir(parents=True, exist_ok=True)
    key = str(path)
    with _guard:
        fl = _locks.get(key)
        if fl is None:
            fl = _locks[key] = _new_lock(key)
    outermost = _depth.get(key, 0) == 0
    lockwait.acquire(fl, path, lockwait.limit(path) if timeout is None else timeout)
    _depth[key] = _depth.get(key, 0) + 1
    if outermost:
        lockwait.claim(path)
    try:
        yield _depth[key] == 1
    finally:
        _depth[key] -= 1
        if _depth[key] == 0:
            lockwait.unclaim(path)
        fl.release()  # type: ignore[attr-defined]


def _new_lock(key: str):
    """flock on POSIX (tiergit.shell.flock: the same lock as filelock's, without its ~38 ms import);
    filelock elsewhere."""
    if os.name == "posix":
        from tiergit.shell.flock import FlockLock

        return FlockLock(key)
    from filelock import FileLock

    return FileLock(key, thread_local=False)


def store_lock_path(repo: Path) -> Path:
    """One lock per work tree, in its git dir (never committed, never in `git status`)."""
    return statedir.local(Path(repo)) / "locks" / "store.lock"


@contextmanager
def store_lock(repo: Path, timeout: float | None = None) -> Iterator[list[str]]:
    """The store lock every mutating command holds while it plans and writes. On the
    outermost entry it first completes a write an earlier run left half done
    (tiergit.shell.journal); yields what that recovery did (usually nothing)."""
    with lock(store_lock_path(repo), timeout) as outermost:
        done: list[str] = []
        if outermost:
            from tiergit.shell import journal

            done = journal.recover(Path(repo))
            for msg in done:  # stderr: --json output on stdout stays parseable
                print(f"tiergit: {msg}", file=sys.stderr)
        yield done


@contextmanager
def store_lock_if(repo: Path, wanted: bool) -> Iterator[None]:
    """The store lock when a command will write (--apply), nothing for a preview."""
    if not wanted:
        yield
        return
    with store_lock(repo):
        yield
