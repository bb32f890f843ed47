"""Where a command's output document goes: a file given on the command line, or stdout for `-`.

`report --html FILE` and `promote --pr-body FILE` write a document the user names, usually
outside the store. `-` means stdout (as for most CLIs; `./-` still names a file called
"-"). A file target is checked before any work (`check_output`): a symlink, FIFO,
device, socket or folder there is refused, exit 2, nothing written - opening a FIFO
would hang and replacing a device or a link's target would write where the user did not
ask. The file itself is written by fsutil.atomic_write (temp, fsync, rename). Cost: one
lstat, then one write.
"""
from __future__ import annotations

import sys
from pathlib import Path

from tiergit.errors import TiergitError
from tiergit.shell.fsutil import atomic_write, check_target

STDOUT = "-"


def is_stdout(path: Path | None) -> bool:
    """Did the user ask for stdout (`-` exactly)?"""
    return path is not None and str(path) == STDOUT


def check_output(path: Path | None, option: str, json_too: bool = False) -> None:
    """Refuse a target that cannot take the document, before any work. `json_too`: --json
    also prints to stdout, so `-` would mix two documents."""
    if path is None:
        return
    if str(path).startswith("-") and not is_stdout(path):
        raise TiergitError(f"{option} takes a FILE, and {str(path)!r} is an option: nothing written",
                           f"give {option} a file name (`./{path}` for a file that really starts with '-'), "
                           "or see the command's --help")
    if is_stdout(path):
        if json_too:
            raise TiergitError(f"{option} - and --json both write to stdout",
                               f"give {option} a FILE, or drop --json")
        return
    check_target(path, None)
    if not path.parent.is_dir():
        raise TiergitError(f"{path}: folder {path.parent} does not exist", "create it or choose another path")


def write_output(path: Path, text: str) -> None:
    """The document to stdout for `-`, else to the file (checked again: it may have changed)."""
    if is_stdout(path):
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    atomic_write(path, text)


def append_output(path: Path, text: str) -> None:
    """Add `text` to the end of the document (`-`: print it alone)."""
    if is_stdout(path):
        write_output(path, text)
        return
    old = path.read_text(encoding="utf-8") if path.is_file() else ""
    write_output(path, old + text)
