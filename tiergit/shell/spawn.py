"""One git process through `os.posix_spawnp` and a pipe, for the entries whose start-up is their cost
(the hook's isolated entry, recall's fast path): this module imports only `os`, not `subprocess`
(~6 ms). Everything else runs git through tiergit/shell/git.py. POSIX only: callers check
`os.posix_spawnp` first."""
from __future__ import annotations

import os


def git_output(args: list[str]) -> tuple[int, bytes]:
    """(exit code, stdout) of `git *args`; stderr discarded (the caller's full path reports errors).
    As git.py's environment: no pager, no prompt. posix_spawn has no cwd: pass `-C DIR` in `args`."""
    read, write = os.pipe()
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        actions = [(os.POSIX_SPAWN_DUP2, write, 1), (os.POSIX_SPAWN_DUP2, devnull, 2),
                   (os.POSIX_SPAWN_CLOSE, read)]
        env = dict(os.environ)
        env.setdefault("GIT_PAGER", "cat")
        env["GIT_TERMINAL_PROMPT"] = "0"
        pid = os.posix_spawnp("git", ["git", *args], env, file_actions=actions)
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
