"""Closing the review loop after `review sync`: processed candidates leave DREAMS.md, and
prune proposals (`audit --apply` on a reviewed tier) get their outcome.

OpenClaw's review step clears the candidates it has processed, so the next Dreaming run
and the next reviewer see only what is still open. Pure functions return text or events;
`plan_clear` reads the staging files once (cost: one parse per staging file).
"""
from __future__ import annotations

import re
from typing import Any, Iterable, Mapping

from tiergit.core import parse, rawtext
from tiergit.core.cuts import cut_lines
from tiergit.core.idpaths import IdPaths
from tiergit.core.patterns import MANAGED_BEGIN, MANAGED_END
from tiergit.features.plan import Plan

PRUNE_PROPOSED = "prune-proposed"
LISTED_ID_RE = re.compile(r"`(m-[0-9a-f]{8})`")


def decided(events: Iterable[dict[str, Any]]) -> set[str]:
    """Ids whose last review event is an outcome (accepted or rejected): processed."""
    last: dict[str, str] = {}
    for ev in events:
        if isinstance(ev.get("id"), str) and ev.get("action") in ("proposed", "accepted", "rejected"):
            last[ev["id"]] = ev["action"]
    return {iid for iid, action in last.items() if action in ("accepted", "rejected")}


def clear_staging(text: str, rel: str, done: set[str], labels: dict | None = None) -> str:
    """`text` without the items whose id is in `done`, and without their lines in tiergit's
    managed candidate list; everything else (OpenClaw's own sections) stays as it was."""
    doc = parse.parse(text, rel, labels)
    spans = [(it.line, it.end_line) for it in doc.items if it.id in done]
    lines = rawtext.split_lines(text)
    inside = False
    for n, line in enumerate(lines, 1):
        if MANAGED_BEGIN in line:
            inside = True
        elif MANAGED_END in line:
            inside = False
        elif inside and (m := LISTED_ID_RE.search(line)) and m[1] in done:
            spans.append((n, n))
    return cut_lines(text, spans) if spans else text


def plan_clear(store, done: set[str]) -> Plan:
    """Remove processed candidates from every staging file (DREAMS.md in the openclaw preset)."""
    from tiergit.features.promotion.candidates import staging_paths

    plan = Plan("clear processed candidates")
    for rel in staging_paths(store) if done else []:
        if (store.repo / rel).is_symlink():
            plan.notes.append(f"skipped {rel}: a symlink (tiergit never writes through one)")
            continue
        old = rawtext.decode(store.read_bytes(rel), rel, store.config.limits["max_file_bytes"])
        new = clear_staging(old, rel, done, store.config.labels)
        if new != old:
            plan.add(rel, new, old, reason="processed in review")
    return plan


def plan_prune_sync(events: list[dict[str, Any]], reviewed_ids: Mapping[str, str] | IdPaths) -> list[dict[str, Any]]:
    """Outcomes of merged prune proposals (pure): an item gone from its reviewed tier was pruned
    as proposed; an item a reviewer put back (restored the line in the PR) was kept."""
    last: dict[str, dict[str, Any]] = {}
    for ev in events:
        iid = ev.get("id")
        if isinstance(iid, str) and str(ev.get("action", "")).startswith("prune"):
            last[iid] = ev
    out = []
    for iid, ev in sorted(last.items()):
        if ev.get("action") != PRUNE_PROPOSED:
            continue
        base = {"id": iid, "text": ev.get("text", ""), "source": ev.get("source", "")}
        if iid in reviewed_ids:
            out.append({**base, "action": "prune-kept", "reason": f"kept in review: still in {reviewed_ids[iid]}"})
        else:
            out.append({**base, "action": "pruned", "reason": "archived as proposed (merged in review)"})
    return out
