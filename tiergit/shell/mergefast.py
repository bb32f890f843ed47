"""The merge driver's first step, importing only `os` (and tiergit.core.appendmerge, which imports
nothing): read the three versions (regular files only), settle a one-sided or append-only merge
textually (`appendmerge.merge`, byte for byte the entry merge's answer), write %A as
fsutil.atomic_write does. Anything else is left to the full entry merge (`driverrun`)."""
from __future__ import annotations

import os

from tiergit.core.appendmerge import MAX_MERGE_BYTES, merge


def enabled() -> bool:
    """`TIERGIT_MERGE_FAST=0` sends every file to the full entry merge (to compare the two)."""
    return os.environ.get("TIERGIT_MERGE_FAST") != "0"


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
        if os.lstat(path).st_mode & 0o170000 != 0o100000:
            return None
        with open(path, "rb") as fh:
            return fh.read()
    except OSError:
        return None


def write(path: str, data: bytes) -> None:
    """Write %A as fsutil.atomic_write does: a temp beside it (fsync), its mode kept, renamed in."""
    folder, name = os.path.split(path)
    tmp = os.path.join(folder, f".{name}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, os.lstat(path).st_mode & 0o7777)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
