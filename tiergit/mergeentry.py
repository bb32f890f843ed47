"""The merge driver command `tiergit install` registers: `python -I -S -c '…mergeentry.run()' %O %A %B %P`
(`run` is `main` left through `_exit`; an install made before calls `main`, which still works).

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
import sys

from tiergit.shell import mergefast


def main(args: list[str] | None = None) -> int:
    """`%O %A %B [%P]`: settle the file here when the fast path can; else run the full driver."""
    args = sys.argv[1:] if args is None else args
    settled = _settle(args)
    return 0 if settled else _declined(args, settled)


def run() -> None:
    """What the registered command calls: `main`, then out through `_exit` once stdout and stderr
    are flushed. The driver writes only %A (temp, fsync, rename, done before `main` returns) and
    registers nothing to run at exit, so the interpreter's teardown is pure cost: ~1 ms of the
    ~7 ms process a settled file takes, ~2.5 ms of the ~23 ms one the entry merge takes."""
    code = main()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):   # a closed or broken pipe: leave as usual, which reports it
        sys.exit(code)
    mergefast.sysos._exit(code)


def _declined(args: list[str], settled: bool | None) -> int:
    """The full driver, here for three regular files (settled False) when its packages are
    found, else in `python -m tiergit merge-driver` (which prints the usual messages)."""
    if settled is False:   # three regular files that need the entry merge
        code = _full_here(args)
        if code is not None:
            return code
    cmd = [sys.executable, "-m", "tiergit", "merge-driver", *args]
    if not mergefast.POSIX:   # exec on Windows returns to git before the child is done
        import subprocess

        return subprocess.call(cmd)
    mergefast.sysos.execv(sys.executable, cmd)
    return 2   # not reached


def _settle(args: list[str]) -> bool | None:
    """True when the fast path settled the file (and wrote %A when ours is not the answer);
    False for three regular files it leaves to the entry merge; None for odd arguments or
    inputs, or with the fast path turned off."""
    if len(args) not in (3, 4) or any(a.startswith("-") for a in args) or not mergefast.enabled():
        return None
    data = [mergefast.read_regular(p) for p in args[:3]]
    if any(d is None for d in data):
        return None
    out = mergefast.settle(*data)
    if out is None:
        return False
    if out is not data[1]:
        mergefast.write(args[1], out)
    return True


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
