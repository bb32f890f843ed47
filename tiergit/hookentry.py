"""The pre-commit hook's entry as `tiergit install` writes it into the shim: `python -I -S -c '…hookentry.main()'`.

Most commits stage no memory file, and git starts the hook on every one of them. So, like the
merge driver (tiergit/mergeentry.py), the interpreter starts isolated and without `site` (no
site-packages scan, no editable-install finder: about half the start-up) and this module
imports only `os` and `sys` (and tiergit/shell/spawn.py, `os` alone): no `subprocess`, `re`,
`pathlib` or `json`. It answers one question, "is there certainly nothing for tiergit to check?",
with two git processes:

- `git rev-parse --show-toplevel --absolute-git-dir` (no `.tiergit.yml` there: not a store);
- `git diff-index --cached` of what the commit adds or changes (the full run reuses it);

and the prefix cache the full hook writes (`<git dir>/tiergit/gate-prefixes-v1.txt`: the
config's sha1, then the literal start of every path the full hook would look at). A staged
path starting with none of them, and no staged `.tiergit.yml`, means nothing to check: exit 0.
Anything else (a memory file staged, no cache, a changed config, an unborn HEAD, a git error,
Windows, extra arguments) runs the full hook: in this process once the environment's
site-packages are on sys.path, else `python -m tiergit hook` with the same arguments.
`TIERGIT_HOOK_FAST=0` turns the early exit off.
"""
from __future__ import annotations

import os
import sys

from tiergit.shell.spawn import git_output   # imports only os

CONFIG_NAME = ".tiergit.yml"
PREFIX_CACHE = "gate-prefixes-v1.txt"   # hookgate.PREFIX_CACHE_NAME, which writes it (no import: this module stays os + sys)
# (toplevel, raw `diff-index --cached -z` output) once read here: the full run in this process
# takes both instead of running the same rev-parse and diff again (git.seen_toplevel,
# git.seen_staged; 15-45 ms with a folder of 6,000 files staged on a 10,000-file store: git
# walks that folder's tree).
SEEN: list = []
# What the full hook imports from the environment (pyproject's dependencies the hook uses).
_NEEDS = ("yaml", "markdown_it", "regex", "tiktoken")


def main(args: list[str] | None = None) -> int:
    args = sys.argv[1:] if args is None else args
    if args == ["pre-commit"] and os.name != "nt" and os.environ.get("TIERGIT_HOOK_FAST", "1") != "0":
        try:
            if nothing_to_check():
                return 0
        except OSError:
            pass   # a git that cannot start, an unreadable file: the full hook says what is wrong
    return _full(args)


def _git(args: list[str]) -> tuple[int, bytes]:
    """(exit code, stdout) of one git process; stderr discarded (the full hook reports errors)."""
    return git_output(args)


def nothing_to_check() -> bool:
    """True only when the full hook would certainly find nothing to check (see the module doc)."""
    code, out = _git(["rev-parse", "--show-toplevel", "--absolute-git-dir"])
    lines = out.decode("utf-8", "surrogateescape").splitlines()
    if code != 0 or len(lines) != 2:
        return False
    top, git_dir = lines
    if os.getcwd() != top and os.path.lexists(CONFIG_NAME):
        return False   # a store in a subfolder (the full hook works there): not decided here
    config = os.path.join(top, CONFIG_NAME)
    if not os.path.lexists(config):
        return True    # not a tiergit store: the full hook returns 0 too
    code, out = _git(["-C", top, "diff-index", "--cached", "--no-renames", "--diff-filter=ACMRT", "-z", "HEAD"])
    if code != 0:
        return False   # before the first commit, or a broken index: the full hook decides
    fields = out.split(b"\0")   # ":<modes> <blobs> <status>", path, ... (git.staged_changes reads it)
    staged = [fields[i + 1].decode("utf-8", "surrogateescape") for i in range(0, len(fields) - 1, 2)]
    SEEN[:] = [top, out]
    if not staged:
        return True
    if CONFIG_NAME in staged:
        return False
    prefixes = cached_prefixes(config, os.path.join(git_dir, "tiergit", PREFIX_CACHE))
    if prefixes is None:
        return False
    return not any(path.startswith(prefix) for path in staged for prefix in prefixes)


def cached_prefixes(config: str, cache: str) -> list[str] | None:
    """The literal path starts saved for this exact config, or None (no cache, another config)."""
    import stat
    from _sha1 import sha1   # CPython's built-in sha1: hashlib would load OpenSSL

    try:
        if not stat.S_ISREG(os.lstat(config).st_mode):
            return None
        with open(config, "rb") as f:
            digest = sha1(f.read()).hexdigest()
        with open(cache, encoding="utf-8", newline="\n") as f:
            lines = f.read().split("\n")
    except (OSError, UnicodeDecodeError):
        return None
    if not lines or lines[0] != digest:
        return None
    return [line for line in lines[1:] if line != ""] if "" not in lines[1:-1] else None


def _prefix() -> str:
    """The environment's prefix as site.main() would set it: a venv's folder when its pyvenv.cfg
    sits beside the interpreter or one folder up (without `site`, sys.prefix is the base's)."""
    exe_dir = os.path.dirname(os.path.abspath(sys.executable))
    venv = os.path.dirname(exe_dir)
    if any(os.path.isfile(os.path.join(d, "pyvenv.cfg")) for d in (exe_dir, venv)):
        return venv
    return sys.prefix


def _full(args: list[str]) -> int:
    """The full hook in this process, once the environment's site-packages are on sys.path (-S
    skipped them); where they are not importable (a --user install, which -I hides) or on
    Windows, `python -m tiergit hook` with the same arguments."""
    if os.name != "nt":
        import site
        from importlib.util import find_spec

        # The environment's site-packages alone, not site.main(): its .pth files (an editable
        # install's finder, setuptools' distutils shim) and sitecustomize cost the hook ~5 ms, and
        # this tiergit is on sys.path already. A dependency found only through them: site.main().
        sys.path.extend(p for p in site.getsitepackages([_prefix()]) if p not in sys.path)
        if not all(find_spec(name) is not None for name in _NEEDS):
            site.main()
        if find_spec("yaml") is not None and find_spec("markdown_it") is not None:
            from tiergit.__main__ import dispatch
            from tiergit.errors import guarded
            from tiergit.shell import git

            if SEEN:
                git.seen_staged(*SEEN)
                git.seen_toplevel(os.getcwd(), SEEN[0])
            return guarded(dispatch, ["hook", *args])
    cmd = [sys.executable, "-m", "tiergit", "hook", *args]
    if os.name == "nt":   # exec on Windows returns to git before the child is done
        import subprocess

        return subprocess.call(cmd)
    os.execv(sys.executable, cmd)
    return 2   # not reached
