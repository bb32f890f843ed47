"""The content findings of `check` (encoding, frontmatter, conflict markers, secrets, raw
transcript lines) by what they depend on: the file's blob, its path, whether its tier is
durable, the size limit, and the source of the modules that judge them. Kept in
`<git-dir>/tiergit/check-content-v1.json`; a warm `check --all` then scans no file whose blob
it already judged (the secret scan was half its time). Budget findings are not cached (they
come from the token cache, and depend on the config's budgets). The hook never uses it: it
checks staged blobs once each. A missing or broken cache is only a slower run.
"""
from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from tiergit.core.diagnostics import Finding
from tiergit.errors import TiergitError
from tiergit.shell import fsutil, statedir

CACHE_NAME = "check-content-v1.json"


def code_key(judges: tuple) -> str:
    """A hash of the source of the modules that judge content (the caller names them): a
    change to any of them is a new key for every file."""
    h = hashlib.sha1()
    for module in judges:
        with open(module.__spec__.origin, "rb") as fh:   # the source file the module was loaded from
            h.update(fh.read())
    return h.hexdigest()


class CheckCache:
    def __init__(self, path: Path | None, code: str) -> None:
        self.path, self.code = path, code
        self.stored: dict[str, list] = {}
        self.used: dict[str, list] = {}
        self.changed = False
        if path is not None and path.is_file():
            try:
                data = json.loads(path.read_text("utf-8"))
                if isinstance(data, dict) and isinstance(data.get("rows"), dict):
                    self.stored = data["rows"]
            except (OSError, ValueError):
                self.stored = {}

    @classmethod
    def for_repo(cls, repo: Path, judges: tuple) -> "CheckCache":
        try:
            return cls(statedir.state_dir(repo) / CACHE_NAME, code_key(judges))
        except TiergitError:
            return cls(None, "")

    def key(self, path: str, blob: str, rules, max_bytes: int) -> str:
        """`rules`: which rules apply (a durable tier's, a plain tier's, or "secrets only")."""
        return hashlib.sha1(f"{self.code}\0{path}\0{blob}\0{rules}\0{max_bytes}".encode(
            "utf-8", "surrogateescape")).hexdigest()

    def get(self, key: str) -> list[Finding] | None:
        rows = self.stored.get(key)
        if rows is None:
            return None
        self.used[key] = rows
        return [Finding(*row) for row in rows]

    def put(self, key: str, found: list[Finding]) -> None:
        self.used[key] = [[f.path, f.line, f.code, f.severity, f.message, f.hint] for f in found]
        self.changed = True

    def save(self) -> None:
        """Keep the rows this run used (a file's older blobs drop out); best effort."""
        if self.path is None or (not self.changed and len(self.used) == len(self.stored)):
            return
        try:
            os.makedirs(self.path.parent, exist_ok=True)
            fsutil.atomic_write(self.path, json.dumps({"rows": self.used}, separators=(",", ":")))
        except (OSError, TiergitError):
            pass
