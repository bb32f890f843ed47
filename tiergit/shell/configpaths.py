"""Every path a config names, checked against the disk the same way: no symlink as any of its
folders or as a fixed file, no absolute path, nothing that resolves outside the work tree.
A tier that pointed elsewhere would drop out of `check` and the hook silently (its files are
simply not found), so a bad path is a config error naming the key, before anything runs.
Cost: one lstat per path component (a dozen for a preset), no file is read."""
from __future__ import annotations

import os
import stat
from pathlib import Path

from tiergit.core.config import PATH_PLACEHOLDER_RE, Config

_HINT_LINK = "replace the link with the real folder (or file) inside the repository, or point the key at it"
_HINT_OUT = "remove the symlink or choose a path inside the repository"


def configured_paths(cfg: Config) -> list[tuple[str, str, str]]:
    """(key, value as written, repo-relative path) of every path the config names."""
    out = [("root", cfg.root, cfg.root)]
    out += [(f"tiers.{t.name}.path", t.path, cfg.repo_path(t.path)) for t in cfg.tiers.values()]
    out += [(key, value, cfg.repo_path(value)) for key, value in
            (("archive", cfg.archive), ("logs", cfg.logs), ("staging", cfg.staging)) if value]
    out += [("legacy", item, item.lstrip("/")) for item in cfg.legacy]
    return out


def _fixed_parts(rel: str) -> list[str]:
    """The components of `rel` before the first placeholder (a `{agent}.md` file is not fixed)."""
    parts = [p for p in rel.replace("\\", "/").split("/") if p not in ("", ".")]
    fixed = []
    for part in parts:
        if PATH_PLACEHOLDER_RE.search(part) or "*" in part:
            break
        fixed.append(part)
    return fixed


def _absolute(value: str, repo: Path) -> bool:
    """A leading `/` means "from the repository root" in tiergit's config; it is an absolute
    path when its first folder is not in the repository but is at the file system's root
    (`/tmp/…`, `/home/…`, the repository's own absolute path)."""
    if not value.startswith("/"):
        return False
    first = _fixed_parts(value)[:1]
    if not first:
        return False
    return not os.path.lexists(repo / first[0]) and os.path.lexists(os.sep + first[0])


def check(cfg: Config, err) -> None:
    """Raise `err(key, …)` (a TiergitError naming the file, the key and its line) for the first
    configured path that is absolute, goes through a symlink or resolves outside the tree."""
    repo = Path(os.path.abspath(cfg.repo_root))
    inside = repo.resolve()
    for key, value, rel in configured_paths(cfg):
        if _absolute(value, repo):
            raise err(key, f"path {value!r} is an absolute path outside the work tree",
                      "write it relative to `root` (a leading `/` means the repository root)")
        cur = repo
        for part in _fixed_parts(rel):
            cur = cur / part
            try:
                st = os.lstat(cur)
            except OSError:
                break
            if stat.S_ISLNK(st.st_mode):
                target = os.readlink(cur)
                shown = cur.relative_to(repo).as_posix()
                if not _is_inside(cur.resolve(), inside):
                    raise err(key, f"path {value!r} resolves outside the work tree ({shown} is a symlink "
                              f"to {target})", _HINT_OUT)
                raise err(key, f"path {value!r} goes through a symlink ({shown} -> {target})", _HINT_LINK)
        probe = (repo / PATH_PLACEHOLDER_RE.sub("x", rel).lstrip("/")).resolve()
        if not _is_inside(probe, inside):
            raise err(key, f"path {value!r} resolves outside the work tree ({probe})", _HINT_OUT)


def _is_inside(path: Path, inside: Path) -> bool:
    try:
        path.relative_to(inside)
        return True
    except ValueError:
        return False
