"""The write journal: a plan's changes become durable as one unit.

`apply_changes` runs under the store lock: it checks every target (no link, FIFO,
device, nothing outside the work tree) and that no file changed since the plan read
it, writes the whole plan to <git dir>/tiergit/journal.json (fsynced), then applies
the changes - files that receive text first, files that lose text after, deletions
last - records the operation in operations.jsonl and removes the journal.

A process killed at any point leaves either no journal (nothing was written) or a
complete one: the next command that takes the store lock calls `recover`, which
rolls the journal forward (a file already at its new content is skipped, one still
at its old content is written, one changed by hand since is left alone and named).
Cost: one extra fsynced write of the changed texts per apply.
"""
from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from tiergit.errors import TiergitError
from tiergit.shell import clock, statedir
from tiergit.shell.fsutil import atomic_write, check_target, safe_unlink


def _norm(data: bytes | str | None) -> str | None:
    """Text as `Path.read_text` gives it (universal newlines), to compare plans with disk."""
    if data is None:
        return None
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _sha(text: str | None) -> str | None:
    return None if text is None else hashlib.sha256(text.encode("utf-8")).hexdigest()


def _current(path: Path) -> str | None:
    try:
        return _norm(path.read_bytes())
    except FileNotFoundError:
        return None
    except IsADirectoryError:
        return "\0folder"


def order(changes: list) -> list:
    """Receivers first (new files, growing files), then shrinking rewrites, deletions last."""
    def rank(c) -> int:
        if c.new is None:
            return 3
        if c.old is None:
            return 0
        return 1 if len(c.new) >= len(c.old) else 2
    return sorted(changes, key=rank)


def journal_path(repo: Path) -> Path:
    return statedir.local(Path(repo)) / "journal.json"


def _write_one(repo: Path, rel: str, new: str | None, mode: int | None) -> None:
    target = repo / rel
    if new is None:
        safe_unlink(target, repo)
        return
    atomic_write(target, new, root=repo)
    if mode is not None:
        target.chmod(mode)


def _record(repo: Path, title: str, paths: list[str], recovered: bool = False) -> None:
    """The operation log: what each apply changed, in the git dir (never committed)."""
    line = json.dumps({"ts": clock.now().isoformat(timespec="seconds"), "op": title,
                       "paths": paths, **({"recovered": True} if recovered else {})}, ensure_ascii=False)
    path = statedir.local(Path(repo)) / "operations.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(line + "\n")


def _journal_pieces(title: str, entries: list[dict]):
    """The journal's JSON an entry at a time: as one string, a 50k-file archive's was ~250 MB
    (json's C encoder also gathers every piece before it returns any)."""
    yield '{"title": ' + json.dumps(title, ensure_ascii=False) + ', "changes": ['
    for n, e in enumerate(entries):
        yield (", " if n else "") + json.dumps(e, ensure_ascii=False)
    yield "]}"


def apply_changes(repo: Path, title: str, changes: list) -> list[str]:
    """Apply a plan's effective changes as one journaled unit; the paths written.
    Raises TiergitError, touching nothing, when a target is unsafe or changed meanwhile."""
    from tiergit.shell.fsutil import store_lock

    repo = Path(repo)
    with store_lock(repo):
        for c in changes:
            check_target(repo / c.path, repo)
            if _current(repo / c.path) != _norm(c.old):
                raise TiergitError(f"{c.path}: changed while `{title}` was planning; nothing was written",
                                   "run the command again")
        if not changes:
            return []
        entries = [{"path": c.path, "new": c.new, "old_sha": _sha(_norm(c.old)),
                    "new_sha": _sha(_norm(c.new)), "mode": c.mode} for c in order(changes)]
        jpath = journal_path(repo)
        atomic_write(jpath, lambda: _journal_pieces(title, entries))
        for e in entries:
            _write_one(repo, e["path"], e["new"], e["mode"])
        _record(repo, title, [e["path"] for e in entries])
        jpath.unlink()
    return [c.path for c in changes]


def recover(repo: Path) -> list[str]:
    """Roll an interrupted apply forward (caller holds the store lock); messages for the user."""
    jpath = journal_path(repo)
    if not jpath.is_file():
        return []
    try:
        data = json.loads(jpath.read_text(encoding="utf-8"))
        entries, title = data["changes"], data["title"]
    except (ValueError, KeyError, TypeError, OSError):
        bad = jpath.with_name("journal.unreadable.json")
        os.replace(jpath, bad)
        return [f"an unreadable write journal was set aside as {bad}; check `git status`"]
    done, skipped = [], []
    for e in entries:
        cur = _sha(_current(repo / e["path"]))
        if cur == e["new_sha"]:
            continue
        if cur != e["old_sha"]:
            skipped.append(e["path"])
            continue
        _write_one(repo, e["path"], e["new"], e["mode"])
        done.append(e["path"])
    _record(repo, title, done, recovered=True)
    jpath.unlink()
    msgs = [f"completed an interrupted `{title}`: {len(done)} file(s) written"]
    msgs += [f"{p}: changed since the interrupted `{title}`; left as it is" for p in skipped]
    return msgs
