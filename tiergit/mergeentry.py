"""The merge driver command `tiergit install` registers: `python -I -S -c '…mergeentry.main()' %O %A %B %P`.

git starts it once per file, so the interpreter starts isolated and without `site` (no site
packages scan, no editable-install finder, neither the cwd nor PYTHON* variables on the path:
about half the start-up) and this module imports only `sys` and `tiergit.shell.mergefast` (which
reads and writes through the built-in `posix`: `os` is ~2.4 ms of a start).
What mergefast settles (one side changed; both only appended) is written here. A file that
needs the entry merge runs the full driver (`driverrun`) in this process, with the packages
installed beside tiergit (else once `site.main()` has added the environment's); where `-I`
hides them (a `--user` install) and for odd arguments or inputs, `python -m tiergit
merge-driver` takes over with the same arguments and prints the usual messages.
"""
from __future__ import annotations

import sys

from tiergit.shell import mergefast


def main(args: list[str] | None = None) -> int:
    """`%O %A %B [%P]`: settle the file here when the fast path can; else run the full driver."""
    args = sys.argv[1:] if args is None else args
    if len(args) in (3, 4) and not any(a.startswith("-") for a in args):
        data = [mergefast.read_regular(p) for p in args[:3]] if mergefast.enabled() else []
        if data and all(d is not None for d in data):
            out = mergefast.settle(*data)
            if out is not None:
                if out is not data[1]:
                    mergefast.write(args[1], out)
                return 0
            code = _full_here(args)   # three regular files that need the entry merge
            if code is not None:
                return code
    cmd = [sys.executable, "-m", "tiergit", "merge-driver", *args]
    if not mergefast.POSIX:   # exec on Windows returns to git before the child is done
        import subprocess

        return subprocess.call(cmd)
    mergefast.sysos.execv(sys.executable, cmd)
    return 2   # not reached


def _full_here(args: list[str]) -> int | None:
    """The full driver in this process, with its packages found beside tiergit or once `site` has
    added the environment's (-S skipped it); None when they are not there (e.g. a --user install,
    which -I hides): then the caller starts `python -m tiergit merge-driver`. Saves a second
    interpreter start per file."""
    from importlib.machinery import PathFinder   # loaded at start-up; importlib.util is not (~4 ms)

    def found() -> bool:
        return all(PathFinder.find_spec(name) is not None for name in ("markdown_it", "yaml"))

    if not found():   # installed beside tiergit (the usual case) needs no `site` (~9 ms of .pth files)
        import site

        site.main()
        if not found():
            return None
    from tiergit.errors import guarded
    from tiergit.features import driverrun

    return guarded(lambda a: driverrun.main(a, fast_declined=True), args)   # settle ran above: not twice
