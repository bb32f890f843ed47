"""Files the secret scan covers beyond the tier files: every text file under the store root
(`wiki/Auth.md`, `cold/sub/x.md`, OpenClaw's `memory/YYYY-MM-DD-HHMM.md`) and the preset's legacy
files (`.squad/agents/*/history.md`, OpenClaw's `MEMORY.md`). Those get the secret check only.

Pure path matching (fnmatch), no parsing: cheap enough for the pre-commit hook.
"""
from __future__ import annotations

import re
from fnmatch import fnmatchcase

from tiergit.core import secrets
from tiergit.core.diagnostics import Finding

PLACEHOLDER = re.compile(r"\{[a-z]+\}")


def legacy_globs(config) -> list[str]:
    """Glob patterns (repo-relative) of the preset's legacy files."""
    out = []
    for item in config.legacy:
        glob = PLACEHOLDER.sub("*", str(item))
        out += [glob.lstrip("/"), config.repo_path(glob)]
    return out


def in_scope(config, rel: str) -> bool:
    """A repo-relative path the secret scan reads although no tier claims it."""
    root = str(config.root).strip("/")
    if root not in ("", ".") and rel.startswith(root + "/"):
        return True
    return any(fnmatchcase(rel, pattern) for pattern in legacy_globs(config))


def findings(rel: str, data: bytes) -> list[Finding]:
    """SEC001 for each credential in a text file (binary files are skipped)."""
    if b"\0" in data[:8192]:
        return []
    text = data.decode("utf-8", "replace")
    return [Finding(rel, hit.line, "SEC001", "critical", f"possible {hit.kind} in memory (column {hit.column})",
                    "remove the credential (rotate it if it was real); memory is committed and shared. "
                    f"A false positive: add `{secrets.ALLOW_MARK}` at the end of the line")
            for hit in secrets.scan(text)]


def extra_files(store) -> list[str]:
    """Work-tree files in scope that no tier claims (for `check --all`)."""
    import os
    from pathlib import Path

    found = set()
    base = store.root
    if base.is_dir() and base.resolve() != store.repo.resolve():
        for dirpath, dirnames, filenames in os.walk(base):
            dirnames[:] = [d for d in dirnames if d != ".git"]
            for name in filenames:
                found.add(Path(dirpath, name).relative_to(store.repo).as_posix())
    for pattern in legacy_globs(store.config):
        found.update(p.relative_to(store.repo).as_posix() for p in store.repo.glob(pattern) if p.is_file())
    return sorted(rel for rel in found if store.config.tier_for(rel) is None)
