"""What retention keeps: aged durable items are staged for review rather than only archived
(which archive files may leave the tree is `archive_record`).

Called from `retention.plan_archive`; only adds to its Plan (pure over the files it reads;
the caller applies under the store lock).
"""
from __future__ import annotations

from tiergit.core import parse
from tiergit.features.plan import Plan


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
