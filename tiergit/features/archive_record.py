"""The archive record: which archive files tiergit itself wrote, and on which day.

Every command that moves text into the archive (`archive`, `check --fix`, `session end`,
`import`, `audit`) adds one line per archive file it wrote to `<logs>/archived.jsonl`
(JSON Lines, merge=union) in the same plan. The purge reads it back: a file leaves the
tree only when tiergit recorded moving it there more than `delete_after_days` ago and git
holds it unchanged, so an owner's own file in a shared folder (OpenClaw's
`memory/archive/`) is never touched, and a note archived today stays where OpenClaw
indexes it for the whole grace period.
"""
from __future__ import annotations

import json
from datetime import date, timedelta
from pathlib import PurePosixPath

from tiergit.features.plan import Plan

RECORD = "archived.jsonl"
DELETE_AFTER_DAYS = 90   # the purge age when no tier sets `delete_after_days`


def delete_after_days(cfg) -> int:
    """Days an archived file stays in the tree: the longest any tier asks for."""
    return max([t.delete_after_days for t in cfg.tiers.values() if t.delete_after_days] or [DELETE_AFTER_DAYS])


def record_rel(store) -> str:
    return str(PurePosixPath(store.config.repo_path(store.config.logs)) / RECORD)


def _line(path: str, day: date, by: str) -> str:
    return json.dumps({"by": by, "day": day.isoformat(), "path": path}, sort_keys=True, separators=(",", ":"))


def record(plan: Plan, store, paths: list[str], day: date) -> None:
    """Add lines for `paths` to the plan's change of the record (one change per plan, however
    many callers add to it)."""
    if not paths:
        return
    rel = record_rel(store)
    change = next((c for c in plan.changes if c.path == rel), None)
    if change is None:
        disk = store.repo / rel
        old = disk.read_text(encoding="utf-8") if disk.is_file() else None
        plan.add(rel, old or "", old, reason="what tiergit archived, for the purge")
        change = plan.changes[-1]
    base = change.new or ""
    if base and not base.endswith("\n"):
        base += "\n"
    by = plan.title.split(" --", 1)[0]
    change.new = base + "".join(_line(p, day, by) + "\n" for p in sorted(set(paths)))


def recorded(store) -> dict[str, date]:
    """path -> the newest day tiergit recorded writing it (malformed lines are skipped)."""
    path = store.repo / record_rel(store)
    out: dict[str, date] = {}
    if not path.is_file():
        return out
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        try:
            ev = json.loads(line)
            day = date.fromisoformat(ev["day"])
            rel = str(ev["path"])
        except (ValueError, KeyError, TypeError):
            continue
        if rel not in out or day > out[rel]:
            out[rel] = day
    return out


def _committed_blobs(store, base: str) -> dict[str, str]:
    """path -> blob id of what HEAD holds under `base` (empty before the first commit)."""
    from tiergit.shell import git

    if git.rev_parse(store.repo, "HEAD") is None:
        return {}
    return {e.path: e.blob for e in git.tree_entries(store.repo, "HEAD", [base])}


def plan_purge(plan: Plan, store, today: date, delete_after: int) -> None:
    """Archive files tiergit recorded moving more than `delete_after` days ago leave the tree -
    only when HEAD holds them byte for byte. Files it never recorded are never deleted."""
    from tiergit.shell.tokens import blob_id

    archive = store.config.repo_path(store.config.archive).rstrip("/")
    limit = today - timedelta(days=delete_after)
    due = {p: d for p, d in recorded(store).items()
           if d < limit and p.startswith(archive + "/") and not any(c.path == p for c in plan.changes)}
    committed: dict[str, str] | None = None
    kept = 0
    for frel in sorted(due):
        f = store.repo / frel
        if not f.is_file() or f.is_symlink():
            continue
        if committed is None:
            committed = _committed_blobs(store, archive)
        data = f.read_bytes()
        if committed.get(frel) != blob_id(data):
            kept += 1
            continue
        plan.add(frel, None, data.decode("utf-8", "replace"),
                 reason=f"archived by tiergit on {due[frel]}, over {delete_after} days ago (committed; "
                        f"`tiergit recall` still finds it, `tiergit restore {frel}` brings it back)")
    if kept:
        plan.notes.append(f"kept {kept} old archive file(s) that git does not hold unchanged: "
                          "commit them, and a later run moves them out of the tree")


def prune_empty_folders(store, written: list[str]) -> list[str]:
    """Folders under the archive left empty by a purge are removed; the folders removed."""
    from tiergit.shell.fsutil import remove_empty_parents

    archive = store.repo / store.config.repo_path(store.config.archive)
    return [p.relative_to(store.repo).as_posix()
            for p in remove_empty_parents([store.repo / rel for rel in sorted(set(written))], archive)]
