"""The merge driver's first step, importing only the built-in `posix` (`os` on other systems) and
tiergit.core.appendmerge, which imports nothing: read the three versions (regular files only),
settle a one-sided or append-only merge textually (`appendmerge.merge`, byte for byte the entry
merge's answer), write %A as fsutil.atomic_write does. Anything else is left to the full entry
merge (`driverrun`)."""
try:
    # Built in and loaded with the interpreter: `os` (posixpath, stat, _collections_abc) costs
    # ~2.4 ms of the ~9 ms an isolated interpreter starts in, and git starts one driver a file.
    import posix as sysos
except ImportError:   # Windows
    import os as sysos

from tiergit.core.appendmerge import MAX_MERGE_BYTES, merge

POSIX = sysos.__name__ == "posix"


def environ(name: str) -> str | None:
    """An environment variable (posix.environ holds bytes)."""
    if not POSIX:
        return sysos.environ.get(name)
    value = sysos.environ.get(name.encode())
    return None if value is None else value.decode("utf-8", "surrogateescape")


def enabled() -> bool:
    """`TIERGIT_MERGE_FAST=0` sends every file to the full entry merge (to compare the two)."""
    return environ("TIERGIT_MERGE_FAST") != "0"


def settle(base: bytes, ours: bytes, theirs: bytes, textual: bool = True) -> bytes | None:
    """The driver's answer for three versions, or None when the full entry merge must run.
    At most one side changed: that side (any three-way merge). Both only appended: `merge`."""
    if ours == theirs or base == theirs:
        return ours
    if base == ours:
        return theirs
    if not textual or max(len(base), len(ours), len(theirs)) > MAX_MERGE_BYTES:
        return None
    try:
        texts = [b.decode("utf-8") for b in (base, ours, theirs)]
    except UnicodeDecodeError:
        return None
    merged = merge(*texts)
    return merged.encode("utf-8") if merged is not None else None


def read_regular(path: str) -> bytes | None:
    """The file's bytes when it is a regular file (no link, FIFO, device, folder), else None."""
    try:
        if sysos.lstat(path).st_mode & 0o170000 != 0o100000:
            return None
        with open(path, "rb") as fh:
            return fh.read()
    except OSError:
        return None


def write(path: str, data: bytes) -> None:
    """Write %A as fsutil.atomic_write does: a temp beside it (fsync), its mode kept, renamed in."""
    if POSIX:
        folder, sep, name = path.rpartition("/")
        tmp = f"{folder}{sep}.{name}.{sysos.getpid()}.tmp"
    else:
        folder, name = sysos.path.split(path)
        tmp = sysos.path.join(folder, f".{name}.{sysos.getpid()}.tmp")
    fd = sysos.open(tmp, sysos.O_WRONLY | sysos.O_CREAT | sysos.O_EXCL | getattr(sysos, "O_BINARY", 0), 0o600)
    try:
        with open(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            sysos.fsync(fh.fileno())
        sysos.chmod(tmp, sysos.lstat(path).st_mode & 0o7777)
        sysos.replace(tmp, path)
    except BaseException:
        try:
            sysos.unlink(tmp)
        except OSError:
            pass
        raise
