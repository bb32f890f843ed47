"""One git process through `os.posix_spawnp` and pipes, for the entries whose start-up is their cost
(the hook's isolated entry, recall's fast path) and for git.py's blob reads, which the hook's full
run makes: this module imports only `os`, not `subprocess` (~6-10 ms). Everything else runs git
through tiergit/shell/git.py. POSIX only: callers check `os.posix_spawnp` first."""
from __future__ import annotations

import os


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.setdefault("GIT_PAGER", "cat")
    env["GIT_TERMINAL_PROMPT"] = "0"
    return env


def git_output(args: list[str]) -> tuple[int, bytes]:
    """(exit code, stdout) of `git *args`; stderr discarded (the caller's full path reports errors).
    As git.py's environment: no pager, no prompt. posix_spawn has no cwd: pass `-C DIR` in `args`."""
    read, write = os.pipe()
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        actions = [(os.POSIX_SPAWN_DUP2, write, 1), (os.POSIX_SPAWN_DUP2, devnull, 2),
                   (os.POSIX_SPAWN_CLOSE, read)]
        pid = os.posix_spawnp("git", ["git", *args], _env(), file_actions=actions)
    finally:
        os.close(write)
        os.close(devnull)
    chunks = []
    try:
        while chunk := os.read(read, 65536):
            chunks.append(chunk)
    finally:
        os.close(read)
    _pid, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status), b"".join(chunks)


class CatFile:
    """One `git cat-file --batch` process, asked one object at a time: each answer is read whole
    before the next question is written, so neither pipe can fill while the other waits.
    `close()` waits for the process (its CPU then counts as this process's children's)."""

    def __init__(self, args: list[str]) -> None:
        """`args`: git's arguments before `cat-file --batch` (`-C DIR`: posix_spawn has no cwd)."""
        to_git, self._in = os.pipe()
        self._out, from_git = os.pipe()
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            actions = [(os.POSIX_SPAWN_DUP2, to_git, 0), (os.POSIX_SPAWN_DUP2, from_git, 1),
                       (os.POSIX_SPAWN_DUP2, devnull, 2), (os.POSIX_SPAWN_CLOSE, self._in),
                       (os.POSIX_SPAWN_CLOSE, self._out)]
            self._pid = os.posix_spawnp("git", ["git", *args, "cat-file", "--batch"], _env(), file_actions=actions)
        except OSError:
            os.close(self._in)
            os.close(self._out)
            raise
        finally:
            os.close(to_git)
            os.close(from_git)
            os.close(devnull)
        self._buf = b""

    def get(self, name: str) -> bytes | None:
        """The object's content, or None when git has no such object. OSError when git died."""
        os.write(self._in, name.encode("utf-8", "surrogateescape") + b"\n")
        header = self._take_line().split()
        if len(header) < 3 or header[-1] == b"missing":
            return None
        return self._take(int(header[2]) + 1)[:-1]

    def _fill(self) -> None:
        chunk = os.read(self._out, 65536)
        if not chunk:
            raise OSError("git cat-file --batch ended early")
        self._buf += chunk

    def _take_line(self) -> bytes:
        while b"\n" not in self._buf:
            self._fill()
        line, self._buf = self._buf.split(b"\n", 1)
        return line

    def _take(self, size: int) -> bytes:
        parts, have = [self._buf], len(self._buf)
        while have < size:
            chunk = os.read(self._out, max(65536, size - have))
            if not chunk:
                raise OSError("git cat-file --batch ended early")
            parts.append(chunk)
            have += len(chunk)
        data = b"".join(parts)
        self._buf = data[size:]
        return data[:size]

    def close(self) -> int:
        """Ends git's input, waits for it; its exit code."""
        os.close(self._in)
        os.close(self._out)
        return os.waitstatus_to_exitcode(os.waitpid(self._pid, 0)[1])
