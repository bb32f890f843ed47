"""The store: a repo, its config, and the memory files it holds (in the tree or the index)."""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from tiergit.core.config import Config, Tier
from tiergit.errors import TiergitError
from tiergit.shell import config as config_mod
from tiergit.shell import git
from tiergit.shell.tokens import TokenCache, blob_id


@dataclass
class Store:
    """An opened store: the repository and its config."""
    repo: Path
    config: Config
    _cache: TokenCache | None = field(default=None, repr=False)

    @classmethod
    def open(cls, start: Path | str | None = None) -> "Store":
        repo = git.work_root(Path(start or os.getcwd()))
        return cls(repo=repo, config=config_mod.load(repo))

    @property
    def root(self) -> Path:
        return self.config.store_dir

    @property
    def token_cache(self) -> TokenCache:
        if self._cache is None:
            try:
                gd = git.git_dir(self.repo)
            except TiergitError:
                gd = None
            self._cache = TokenCache.for_repo(gd, self.config.tokenizer)
        return self._cache

    def rel(self, path: Path | str) -> str:
        """Repo-relative posix path; refuses paths (or symlinks) that leave the work tree."""
        p = Path(path)
        if not p.is_absolute():
            p = Path(os.getcwd()) / p
        # Resolve the folder, not the file: a symlinked memory file keeps its own path so
        # that `check` can report it (TG004) instead of silently reading its target.
        resolved = p.parent.resolve() / p.name if p.is_symlink() else p.resolve()
        try:
            return resolved.relative_to(self.repo.resolve()).as_posix()
        except ValueError:
            raise TiergitError(f"{path}: outside the repository {self.repo}",
                               "name a file inside the work tree (symlinks out of it are refused)") from None

    def abs(self, rel: str) -> Path:
        return self.repo / rel

    def tier_of(self, rel: str) -> tuple[Tier, dict[str, str]] | None:
        return self.config.tier_for(rel)

    def memory_files(self, under: list[str] | None = None) -> list[str]:
        """Repo-relative paths of every memory file in the work tree, sorted; `under`: only those in
        these repo-relative folders (a walk of them alone)."""
        found: set[str] = set()
        tier_for = self.config.tier_for
        bases = {self.root} if under is None else {self.repo / folder for folder in under}
        for tier in self.config.tiers.values() if under is None else ():
            if tier.path.startswith("/"):
                bases.add(self.repo / Path(tier.path.lstrip("/")).parent)
        for base in bases:
            if not base.is_dir():
                continue
            for dirpath, dirnames, filenames in os.walk(base):
                dirnames[:] = [d for d in dirnames if d != ".git"]
                # one relative folder a folder, not three Path objects a file (~30 ms at 1k files)
                folder = Path(dirpath).relative_to(self.repo).as_posix()
                head = "" if folder == "." else folder + "/"
                for name in filenames:
                    rel = head + name
                    if tier_for(rel):
                        found.add(rel)
        return sorted(found)

    def tier_files(self, tier_name: str) -> list[str]:
        return [p for p in self.memory_files() if self.config.tier_for(p)[0].name == tier_name]  # type: ignore[index]

    def read_bytes(self, rel: str) -> bytes:
        path = self.abs(rel)
        if path.is_symlink():
            target = path.resolve()
            try:
                target.relative_to(self.repo.resolve())
            except ValueError:
                raise TiergitError(f"{rel}: symlink points outside the repository ({target})",
                                   "replace the link with a regular file inside the store") from None
        from tiergit.shell.readsafe import (
            read_regular,  # a FIFO or device is an error, never a hang
        )

        return read_regular(path, rel)

    def working_blob(self, data: bytes) -> str:
        return blob_id(data)

    def agents(self) -> list[str]:
        """Agent names that have any file in an {agent} tier."""
        names = set()
        for rel in self.memory_files():
            match = self.config.tier_for(rel)
            if match and "agent" in match[1]:
                names.add(match[1]["agent"])
        return sorted(names)
