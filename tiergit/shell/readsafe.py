"""Reading a file that should be a regular file, without ever blocking on it.

`open()` on a FIFO blocks until a writer appears, and reading a character device
(/dev/zero) never ends, so a FIFO or device in place of a memory file hung check,
status and recall. Here the file is opened with O_NONBLOCK (which does not block on a
FIFO), checked with fstat on that same descriptor (no race with a swap after a stat),
and read only when it is a regular file. Cost: one open + fstat + read.
"""
from __future__ import annotations

import os
import stat
from pathlib import Path

from tiergit.errors import InputError

KINDS = ((stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a character device"),
         (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"), (stat.S_ISDIR, "a folder"))


def kind_of(mode: int) -> str:
    for test, name in KINDS:
        if test(mode):
            return name
    return "not a regular file"


def not_regular(rel: str, mode: int) -> InputError:
    return InputError(rel, 1, "TG006", f"is {kind_of(mode)}, not a regular file",
                      "memory files are plain markdown files: remove it and write a regular file there")


def read_regular(path: Path, rel: str | None = None, max_bytes: int | None = None) -> bytes:
    """The bytes of `path`; InputError TG006 when it is a FIFO, device, socket or folder,
    TG003 when it is larger than `max_bytes` (checked before reading it)."""
    rel = rel or str(path)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags)
    except IsADirectoryError:
        raise not_regular(rel, stat.S_IFDIR) from None
    except OSError:  # a socket cannot be opened at all (ENXIO): say what it is
        mode = os.stat(path).st_mode
        if stat.S_ISREG(mode):
            raise
        raise not_regular(rel, mode) from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise not_regular(rel, st.st_mode)
        if max_bytes is not None and st.st_size > max_bytes:
            raise InputError(rel, 1, "TG003", f"file is {st.st_size} bytes, over the {max_bytes}-byte limit",
                             "split it, or raise limits.max_file_bytes in .tiergit.yml")
        chunks = []
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)
