"""Incremental `import squad`: what Scribe appended to a legacy history since the last import.

Squad keeps appending to `.squad/agents/<agent>/history.md` after adoption. A rerun of
`import squad` compares the legacy items with every item the store already holds for
the agent (cold, hot, its archive files) by content (item ids are hashes of the
normalized text, so an item moved to the archive keeps its id) and appends only the new
ones to cold, under their legacy heading; the budget is then kept by archiving cold's
oldest entries in the same plan. `--retire-legacy` removes a legacy file only when every
one of its items is found in the store - planned, and checked again on disk after the
writes (`missing_after_write`). Cost: one parse of each legacy file and of the agent's
store files.
"""
from __future__ import annotations

from pathlib import Path

from tiergit.core import parse
from tiergit.errors import TiergitError
from tiergit.features.plan import Plan


def agent_files(store, agent: str) -> list[str]:
    """The agent's cold and hot files and every archive file named after it (any month)."""
    cfg = store.config
    rels = [cfg.repo_path(cfg.tiers[t].path.replace("{agent}", agent)) for t in ("cold", "hot") if t in cfg.tiers]
    base = store.repo / cfg.repo_path(cfg.archive)
    if base.is_dir():
        rels += [p.relative_to(store.repo).as_posix() for p in sorted(base.rglob(f"{agent}.md"))]
    return rels


def held_ids(store, rels: list[str], pending: dict[str, str | None] | None = None) -> set[str]:
    """Item ids in `rels` - as `pending` (a plan's new texts) has them, else as on disk."""
    ids: set[str] = set()
    for rel in rels:
        if pending is not None and rel in pending:
            text = pending[rel]
        else:
            path = store.repo / rel
            text = path.read_text(encoding="utf-8", errors="replace") if path.is_file() else None
        if text:
            ids.update(i.id for i in parse.parse(text, rel, store.config.labels).items)
    return ids


def new_text(doc: parse.MemoryDoc, have: set[str]) -> tuple[str, int]:
    """Legacy items not in `have`, verbatim under their section heading; (text, item count)."""
    chunks, count = [], 0
    for sec in doc.sections:
        fresh = [i for i in sec.items if i.id not in have]
        if not fresh:
            continue
        count += len(fresh)
        head = f"{'#' * sec.level} {sec.heading}\n\n" if sec.level and sec.heading else ""
        chunks.append(head + "\n".join(i.text.rstrip("\n") for i in fresh) + "\n")
    return "\n".join(chunks), count


def plan_agent(store, plan: Plan, agent: str, source: str, cold_rel: str, legacy: str) -> int:
    """Append what the legacy file gained since the import to cold; the number of new items."""
    from tiergit.features.retention import plan_fit_file

    doc = parse.parse(legacy, source, store.config.labels)
    text, count = new_text(doc, held_ids(store, agent_files(store, agent)))
    if not count:
        return 0
    path = store.repo / cold_rel
    old = path.read_text(encoding="utf-8") if path.is_file() else None
    new = (old or "").rstrip("\n") + "\n\n" + text
    moved = plan_fit_file(plan, store, cold_rel, old, new, store.config.tiers["cold"])
    plan.changes[-1].reason = (f"{count} new item(s) from {source} since the last import"
                               + (f"; {moved} oldest entries archived to stay in budget" if moved else ""))
    return count


def missing(store, agent: str, legacy: str, source: str, pending: dict[str, str | None] | None = None) -> int:
    """How many legacy items the store (with `pending` applied) does not hold."""
    doc = parse.parse(legacy, source, store.config.labels)
    rels = agent_files(store, agent) + [r for r in (pending or {}) if r.endswith(f"/{agent}.md")]
    have = held_ids(store, sorted(set(rels)), pending)
    return sum(1 for i in doc.items if i.id not in have)


RETIRED = "legacy, every item now in the store"


def plan_retire(store, plan: Plan, retire: list[tuple[str, str, str]]) -> None:
    """Delete a legacy history only when the planned store holds every one of its items."""
    pending = {c.path: c.new for c in plan.changes}
    for agent, source, legacy in retire:
        short = missing(store, agent, legacy, source, pending)
        if short:
            plan.notes.append(f"{source}: kept, {short} of its items are not in the store")
        else:
            plan.add(source, None, legacy, reason=RETIRED)


def apply_squad(store, plan: Plan) -> list[str]:
    """Write everything but the legacy deletions, re-read what was written, then delete each
    legacy file whose every item (decisions.md: whose verbatim copy) is on disk.
    The caller holds the store lock."""
    deletes = [c for c in plan.effective if c.new is None and c.reason == RETIRED]
    writes = Plan(plan.title, [c for c in plan.effective if c not in deletes])
    written = writes.apply(store.repo)
    cfg = store.config
    for c in deletes:
        name = Path(c.path).name
        if name == "decisions.md":
            copy = store.repo / f"{cfg.repo_path(cfg.archive).rstrip('/')}/legacy/decisions.md"
            short = 0 if copy.is_file() and copy.read_bytes().decode("utf-8", "replace") == c.old else 1
        else:
            from tiergit.features.importing.squad_compat import (
                agent_slug,  # `Rai/history.md` lives on as `rai`
            )

            short = missing(store, agent_slug(Path(c.path).parent.name) or "", c.old or "", c.path)
        if short:
            raise TiergitError(f"{c.path}: not removed: {short} of its items are not found in the store after writing",
                               "nothing was deleted; check `git status` and run the import again")
    return written + Plan(plan.title, deletes).apply(store.repo)
