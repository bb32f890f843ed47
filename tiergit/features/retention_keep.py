"""What retention keeps: archive months leave the tree only when git holds them unchanged,
and aged durable items are staged for review rather than only archived.

Both are called from `retention.plan_archive` and only add to its Plan (pure over the
files they read; the caller applies under the store lock).
"""
from __future__ import annotations

import calendar
import re
from datetime import date, timedelta

from tiergit.core import parse
from tiergit.features.plan import Plan

MONTH_RE = re.compile(r"^(\d{4})-(\d{2})$")


def _month_end(folder: str) -> date | None:
    m = MONTH_RE.match(folder)
    if not m or not 1 <= int(m[2]) <= 12:
        return None
    year, month = int(m[1]), int(m[2])
    return date(year, month, calendar.monthrange(year, month)[1])


def _committed_blobs(store, base: str) -> dict[str, str]:
    """path -> blob id of what HEAD holds under `base` (empty before the first commit)."""
    from tiergit.shell import git

    if git.rev_parse(store.repo, "HEAD") is None:
        return {}
    return {e.path: e.blob for e in git.tree_entries(store.repo, "HEAD", [base])}


def old_months_out(plan: Plan, store, today: date, delete_after: int) -> None:
    """Archive months older than `delete_after` days leave the tree - only files HEAD holds
    byte for byte: anything uncommitted (a first run's output, a hand edit) stays."""
    from tiergit.shell.tokens import blob_id

    archive = store.config.repo_path(store.config.archive).rstrip("/")
    base = store.repo / archive
    if not base.is_dir():
        return
    committed: dict[str, str] | None = None
    kept = 0
    for folder in sorted(p for p in base.iterdir() if p.is_dir() and not p.is_symlink()):
        end = _month_end(folder.name)
        if end is None or end >= today - timedelta(days=delete_after):
            continue
        for f in sorted(folder.rglob("*")):
            if not f.is_file() or f.is_symlink():
                continue
            frel = f.relative_to(store.repo).as_posix()
            if any(c.path == frel for c in plan.changes):
                continue
            if committed is None:
                committed = _committed_blobs(store, archive)
            data = f.read_bytes()
            if committed.get(frel) != blob_id(data):
                kept += 1
                continue
            plan.add(frel, None, data.decode("utf-8", "replace"),
                     reason=f"archive older than {delete_after} days (committed; `tiergit recall` still "
                            f"finds it, `tiergit restore {frel}` brings it back)")
    if kept:
        plan.notes.append(f"kept {kept} old archive file(s) that git does not hold unchanged: "
                          "commit them, and a later run moves them out of the tree")


def stages_durable(cfg, tier) -> bool:
    """Squad preset: cold moves to the wiki after its ttl, through review (the Squad design)."""
    nxt = cfg.tiers.get(tier.next or "")
    return bool(nxt and nxt.reviewed and cfg.data.get("preset", "squad") == "squad")


def durable_in(doc: parse.MemoryDoc, rel: str, cuts: list) -> list:
    """Durable items (decision, rule, fact, correction) inside the cut spans, as staged candidates."""
    from tiergit.features.importing import staged

    out = []
    for sec in doc.sections:
        for item in sec.items:
            if item.durable and any(c.start <= item.line <= c.end for c in cuts):
                out.append(staged.Staged(item.id, item.kind, item.clean, rel, sec.heading))
    return out


def stage(plan: Plan, store, items: list) -> None:
    """Aged durable items become promotion candidates in the staging file: they stay in the
    tree until a review settles them, whatever the archive does later."""
    from tiergit.features.importing import staged

    if not items:
        return
    rel = staged.staging_path(store.config)
    path = store.repo / rel
    old = path.read_text(encoding="utf-8") if path.is_file() else None
    new = staged.render(old, items)
    if new != (old or ""):
        plan.add(rel, new, old, reason=f"{len(items)} aged durable item(s) staged as wiki candidates")
