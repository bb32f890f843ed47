"""What recall searches, listed once and then re-checked by stat-ing folders, not files.

A folder's mtime changes whenever a file is added to it, removed from it or renamed in it,
so when every folder the last walk saw still has its recorded mtime the file list is the
same and the walk is skipped. Cost: one walk of the store (os.walk + one regex per file)
when something moved; otherwise one stat per folder (a few dozen for a 50k-file store).
Folders changed within RACY_NS before the walk are not trusted (git's "racy" rule: a file added
in the same clock tick would not change the recorded mtime).
"""
from __future__ import annotations

import json
import os
import time
from pathlib import Path

RACY_NS = 2_000_000_000


class Listing:
    """Repo-relative memory, archive and staging files, and the folders walked to find them.
    A plain class: `dataclasses` costs ~15 ms of imports on the warm recall path."""
    __slots__ = ("memory", "archive", "staging", "dirs", "key", "walked_ns")

    def __init__(self, memory: list[str] | None = None, archive: list[str] | None = None,
                 staging: list[str] | None = None, dirs: dict[str, int] | None = None,
                 key: str = "", walked_ns: int = 0) -> None:
        self.memory = [] if memory is None else memory
        self.archive = [] if archive is None else archive
        self.staging = [] if staging is None else staging
        self.dirs = {} if dirs is None else dirs   # repo-relative folder -> mtime_ns
        self.key = key                             # the config the walk was made with
        self.walked_ns = walked_ns                 # when the walk started

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return all(getattr(self, f) == getattr(other, f) for f in self.__slots__)

    __hash__ = None   # type: ignore[assignment]

    def to_json(self) -> str:
        return json.dumps({"memory": self.memory, "archive": self.archive, "staging": self.staging,
                           "dirs": self.dirs, "key": self.key,
                           "walked_ns": self.walked_ns}, separators=(",", ":"))

    @classmethod
    def folders_from_json(cls, text: str) -> "Listing | None":
        """from_json without the file lists (left empty): the dirs, key and walk time, which are all
        the recall fast path checks. to_json writes them last, so only that tail is decoded (the
        lists of a 10k-file store are ~0.3 MB of JSON); `,"dirs":` cannot occur inside a JSON
        string (its quote would be escaped), so its last occurrence starts the tail."""
        at = text.rfind(',"dirs":')
        if at < 0:
            return None
        got = cls.from_json('{"memory":[],"archive":[],"staging":[]' + text[at:])
        return got if got is not None else cls.from_json(text)

    @classmethod
    def from_json(cls, text: str) -> "Listing | None":
        try:
            d = json.loads(text)
            return cls(list(d["memory"]), list(d["archive"]), list(d["staging"]), dict(d["dirs"]), str(d["key"]),
                       int(d["walked_ns"]))
        except (ValueError, KeyError, TypeError):
            return None


def config_key(store) -> str:
    """Changes when the config file (which decides the tier paths) changes."""
    import hashlib

    try:
        data = store.config.path.read_bytes()
    except OSError:
        data = b""
    return hashlib.sha1(data + str(store.config.store_dir).encode()).hexdigest()


def still_valid(store, old: Listing | None) -> bool:
    """True when no folder of the last walk changed (one stat per folder)."""
    if old is None or not old.dirs or old.key != config_key(store):
        return False
    return dirs_unchanged(store.repo, old)


def dirs_unchanged(repo: Path, old: Listing) -> bool:
    """still_valid without the config check (the caller made it): one stat per folder."""
    if not old.dirs:
        return False
    for rel, mtime in old.dirs.items():
        try:
            st = os.stat(repo / rel if rel else repo)
        except OSError:
            if mtime == -1:
                continue   # was missing and still is
            return False
        # A folder changed in the walk's own clock tick may have changed again unseen.
        if st.st_mtime_ns != mtime or old.walked_ns - mtime < RACY_NS:
            return False
    return True


def walk(store) -> Listing:
    """Walk the store once: memory files (as `Store.memory_files`), archive and staging markdown."""
    cfg, repo = store.config, store.repo
    out = Listing(key=config_key(store), walked_ns=time.time_ns())
    bases = {store.root}
    for tier in cfg.tiers.values():
        if tier.path.startswith("/"):
            bases.add(repo / Path(tier.path.lstrip("/")).parent)
    found: set[str] = set()
    for base in bases:
        for rel_dir, names in _walk(repo, base, out.dirs, skip_dot=False):
            for name in names:
                rel = f"{rel_dir}/{name}" if rel_dir else name
                if cfg.tier_for(rel):
                    found.add(rel)
    out.memory = sorted(found)
    out.archive = _markdown(repo, repo / cfg.repo_path(cfg.archive), out.dirs)
    if cfg.staging:
        rel = cfg.repo_path(cfg.staging)
        parent = (repo / rel).parent
        out.dirs.setdefault(_rel(repo, parent), _mtime(parent))
        out.staging = [rel] if (repo / rel).is_file() else []
    else:
        out.staging = _markdown(repo, store.root / "staging", out.dirs)
    return out


def _markdown(repo: Path, folder: Path, dirs: dict[str, int]) -> list[str]:
    found = []
    for rel_dir, names in _walk(repo, folder, dirs, skip_dot=True):
        found.extend(f"{rel_dir}/{n}" if rel_dir else n for n in names if n.endswith(".md"))
    return sorted(found)


def _walk(repo: Path, base: Path, dirs: dict[str, int], skip_dot: bool):
    """(repo-relative folder, file names) under `base`; records every folder's mtime in `dirs`
    (-1 for a missing base, so that creating it later invalidates the listing)."""
    if not base.is_dir():
        # Watch the nearest existing parent: creating `base` changes its mtime.
        parent = base
        while not parent.is_dir() and parent != repo and repo in parent.parents:
            parent = parent.parent
        dirs.setdefault(_rel(repo, parent), _mtime(parent))
        return
    for dirpath, dirnames, filenames in os.walk(base):
        dirnames[:] = sorted(d for d in dirnames if d != ".git" and not (skip_dot and d.startswith(".")))
        rel_dir = _rel(repo, Path(dirpath))
        dirs[rel_dir] = _mtime(Path(dirpath))
        yield rel_dir, sorted(filenames)


def _rel(repo: Path, path: Path) -> str:
    rel = path.relative_to(repo).as_posix()
    return "" if rel == "." else rel


def _mtime(path: Path) -> int:
    try:
        return os.stat(path).st_mtime_ns
    except OSError:
        return -1
