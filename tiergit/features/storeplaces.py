"""The places of a store that are no tier but hold its memory: the archive (what retention
moved, how much of it tiergit recorded moving, how much is due for the purge) and the
staging file (promotion candidates waiting). `status` shows them as their own rows.
"""
from __future__ import annotations

import os
from datetime import date, timedelta

from tiergit.features import archive_record


def archive_place(store, today: date) -> dict:
    """The archive folder: files and bytes (every .md under it), how many tiergit recorded
    moving, and how many of those the next `archive --apply` takes out of the tree."""
    rel = store.config.repo_path(store.config.archive).rstrip("/")
    base = store.repo / rel
    files, size = [], 0
    if base.is_dir() and not base.is_symlink():
        for dirpath, _dirs, names in os.walk(base):
            for name in names:
                if name.endswith(".md"):
                    path = os.path.join(dirpath, name)
                    files.append(os.path.relpath(path, store.repo).replace(os.sep, "/"))
                    size += os.path.getsize(path)
    record = archive_record.recorded(store)
    limit = today - timedelta(days=archive_record.delete_after_days(store.config))
    present = set(files)
    ours = [p for p in record if p in present]
    return {"place": "archive", "path": rel + "/", "files": len(files), "bytes": size,
            "recorded": len(ours), "due": sum(1 for p in ours if record[p] < limit)}


def staging_place(store) -> dict:
    """The staging file: candidates waiting for a review (None without a staging file)."""
    from tiergit.features.importing import staged

    rel = staged.staging_path(store.config)
    path = store.repo / rel
    if not path.is_file() or path.is_symlink():
        return {"place": "staging", "path": rel, "files": 0, "bytes": 0, "candidates": 0}
    text = path.read_text(encoding="utf-8", errors="replace")
    return {"place": "staging", "path": rel, "files": 1, "bytes": len(text.encode("utf-8")),
            "candidates": len(staged.read(text, rel, store.config.labels))}


def places(store, today: date | None = None) -> list[dict]:
    if today is None:
        from tiergit.shell import clock

        today = clock.today()
    return [archive_place(store, today), staging_place(store)]


def render(rows: list[dict]) -> list[str]:
    out = []
    for r in rows:
        if r["place"] == "archive":
            what = (f"{r['files']} file(s), {r['bytes']} bytes ({r['recorded']} moved by tiergit, "
                    f"{r['due']} due to leave the tree at the next `tiergit archive --apply`)")
        else:
            what = f"{r['candidates']} candidate(s) waiting for review ({r['bytes']} bytes)"
        out.append(f"{r['place']:<8} {r['path']}: {what}")
    return out
