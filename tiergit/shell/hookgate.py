"""The pre-commit hook's first step: is any memory file staged at all? Decided before the
config (PyYAML), the checks or the tokenizer are imported.

One `git diff-index` lists what the commit changes; the tier path patterns come from a
small JSON cache in `<git-dir>/tiergit/` keyed by the sha1 of `.tiergit.yml`, written by
the full hook run. Cost when nothing memory is staged: the interpreter, this module and
`tiergit.shell.git` (stdlib only), and two git processes (`work_root`, `git.staged_changes`).
The staged entries found here are handed to the full run, so it does not list them again.
"""
from __future__ import annotations

import json
import os
import re
from pathlib import Path

from tiergit.core.sha1 import sha1   # not hashlib: a commit with no memory file staged pays one hash

CONFIG_NAME = ".tiergit.yml"
CACHE_NAME = "gate-patterns-v2.json"   # v2: store folders and legacy files too
PREFIX_CACHE_NAME = "gate-prefixes-v1.txt"   # read by tiergit/hookentry.py (its PREFIX_CACHE), which imports no tiergit module


def _cache_path(git_dir: Path) -> Path:
    from tiergit.shell import statedir  # stdlib-only module: the hook stays lean

    return statedir.under(git_dir) / CACHE_NAME


def _config_bytes(repo: Path) -> bytes | None:
    """The work-tree config when it is a regular file (a FIFO there must not hang the hook)."""
    import stat

    path = repo / CONFIG_NAME
    try:
        if not stat.S_ISREG(os.lstat(path).st_mode):
            return None
        return path.read_bytes()
    except OSError:
        return None


def _config_hash(repo: Path) -> str | None:
    data = _config_bytes(repo)
    return sha1(data).hexdigest() if data is not None else None


def cached_patterns(repo: Path, git_dir: Path | None) -> list[re.Pattern[str]] | None:
    """The tier path regexes saved for the current `.tiergit.yml`, or None."""
    if git_dir is None:
        return None
    try:
        data = json.loads(_cache_path(git_dir).read_text())
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("config") != _config_hash(repo):
        return None
    try:
        return [re.compile(p) for p in data["patterns"]]
    except (KeyError, TypeError, re.error):
        return None


def save_patterns(repo: Path, git_dir: Path, patterns: list[str], index_config: bytes | None) -> None:
    """Remember the tier regexes, only when the work-tree config is the one the index holds
    (the hook checks the commit's config: a cache keyed by an unstaged edit would lie).
    Beside them, the literal start of each (tiergit/hookentry.py's cache, read without `re`
    or `json`); none when a pattern has no literal start, so every commit runs the full hook."""
    work = _config_bytes(repo)
    if work is None or (index_config is not None and index_config != work):
        return
    digest = sha1(work).hexdigest()
    starts = [literal_start(p) for p in patterns]
    _write_cache(_cache_path(git_dir), json.dumps({"config": digest, "patterns": patterns}))
    prefix_path = _cache_path(git_dir).with_name(PREFIX_CACHE_NAME)
    if all(s and "\n" not in s for s in starts):
        _write_cache(prefix_path, digest + "\n" + "".join(s + "\n" for s in sorted(set(starts))))
    else:
        prefix_path.unlink(missing_ok=True)


def _write_cache(path: Path, text: str) -> None:
    # A cache file, not memory: a plain temp + rename (the write path's lock library stays off the hook).
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(text, encoding="utf-8", newline="\n")
        os.replace(tmp, path)
    except OSError:
        tmp.unlink(missing_ok=True)   # no cache: the next commit loads the config again


def literal_start(pattern: str) -> str:
    """The text every match of the regex `pattern` (as `re.match` applies it) starts with: its
    leading literal characters ("" when it has an alternative or starts with a group). Reads
    the shapes tiergit writes: `^` + escaped text (core.config.path_regex) and fnmatch's `(?s:…)`."""
    if "|" in pattern:
        return ""
    text = pattern.removeprefix("^")
    text = text[4:] if text.startswith("(?s:") else text
    out: list[str] = []
    i = 0
    while i < len(text):
        char = text[i]
        if char == "\\" and i + 1 < len(text) and not text[i + 1].isalnum():
            out.append(text[i + 1])
            i += 2
            continue
        if char in ".^$*+?{}[]()|\\":
            if char in "*?{" and out:
                out.pop()   # a quantifier: the character before it may be absent
            break
        out.append(char)
        i += 1
    return "".join(out)


def nothing_to_check(repo: Path, git_dir: Path | None,
                     staged: list | None) -> bool:
    """True when the commit stages no memory file and no config change (the hook may exit)."""
    if staged is None:
        return False
    if not staged:
        return True
    if any(e.path == CONFIG_NAME for e in staged):
        return False
    patterns = cached_patterns(repo, git_dir)
    if patterns is None:
        return False
    return not any(p.match(e.path) for e in staged for p in patterns)


def git_dir_of(repo: Path) -> Path | None:
    """The git dir without a git process: $GIT_DIR in a hook, else .git (a folder, or a
    `gitdir:` file in a linked worktree)."""
    env = os.environ.get("GIT_DIR")
    if env:
        path = Path(env)
        return path if path.is_absolute() else (repo / path).resolve()
    dot = repo / ".git"
    if dot.is_dir():
        return dot
    try:
        line = dot.read_text().strip()
    except OSError:
        return None
    if line.startswith("gitdir:"):
        path = Path(line[7:].strip())
        return path if path.is_absolute() else (repo / path).resolve()
    return None
