"""`import openclaw`: adopt MEMORY.md, memory/YYYY-MM-DD*.md and tiergit's hot and warm files.

- Daily notes `memory/YYYY-MM-DD*.md` already in the daily tier (the preset keeps
  them where OpenClaw writes them) stay in place; under another layout they are
  copied verbatim to the daily tier, or, when older than its ttl_days, to
  `<archive>/YYYY-MM/`. Their durable items are staged as candidates (the
  config's `staging`, `.tiergit/candidates.md` in the preset).
- HOT_MEMORY.md, WARM_MEMORY.md and MEMORY.md already sit where the preset
  looks; they are checked against their budgets, never rewritten. A missing
  hot file is created from the template.
- The original notes stay unless `retire_legacy`.
"""
from __future__ import annotations

import re
from datetime import date, timedelta

from tiergit.core import parse
from tiergit.errors import TiergitError
from tiergit.features import budget
from tiergit.features.importing import staged
from tiergit.features.importing.importer import (
    IMPORT_BAR_MIN,
    durable_items,
    hot_template,
    read_text,
)
from tiergit.features.plan import Plan
from tiergit.shell import clock, progress

DAILY_RE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})(?:-[A-Za-z0-9][A-Za-z0-9._-]*)?\.md$")


def plan_openclaw(store, retire_legacy: bool = False, today: date | None = None) -> Plan:
    cfg = store.config
    today = today or clock.today()
    daily = next((t for t in cfg.tiers.values() if "{date}" in t.path), None)
    if daily is None or "hot" not in cfg.tiers:
        raise TiergitError(f"{cfg.path.name}: import openclaw needs a `hot` tier and a daily tier with {{date}}",
                           "use `tiergit init --preset openclaw`")
    plan = Plan("tiergit import openclaw" + (" --retire-legacy" if retire_legacy else ""))
    mem = store.repo / "memory"
    if not mem.is_dir() and not (store.repo / "MEMORY.md").is_file():
        raise TiergitError(f"{store.repo}: no OpenClaw layout found (MEMORY.md, memory/YYYY-MM-DD.md)",
                           "run `tiergit import openclaw` at the root of an OpenClaw workspace")
    archive = cfg.repo_path(cfg.archive).rstrip("/")
    to_stage = []
    notes = sorted(p for p in mem.iterdir() if p.is_file() and DAILY_RE.match(p.name)) if mem.is_dir() else []
    for path in progress.iterate(notes, "import: daily notes", minimum=IMPORT_BAR_MIN):
        _plan_daily_note(store, plan, path, daily, archive, today, retire_legacy, to_stage)
    hot_rel = store.rel(cfg.tier_file("hot"))
    if not (store.repo / hot_rel).exists():
        plan.add(hot_rel, hot_template(store, "agent"), reason="hot from the template")
    _note_fixed_tiers(store, plan)
    staged.plan_stage(store, plan, to_stage)
    return plan


def _plan_daily_note(store, plan: Plan, path, daily, archive: str, today: date, retire_legacy: bool,
                     to_stage: list) -> None:
    """One `memory/YYYY-MM-DD*.md` note: its durable items staged, and the note copied into the
    daily tier (or the archive past the tier's TTL) unless it already lives there."""
    cfg = store.config
    ttl = daily.ttl_days if daily.ttl_days is not None else 30
    rel = path.relative_to(store.repo).as_posix()
    m = DAILY_RE.match(path.name)
    assert m is not None
    try:
        day = date(int(m[1]), int(m[2]), int(m[3]))
    except ValueError:
        plan.notes.append(f"skipped {rel}: not a real date")
        return
    text = read_text(store, rel)
    in_place = cfg.tier_for(rel)
    if in_place is not None and in_place[0].name == daily.name:
        # The preset's daily tier is where OpenClaw writes: the note is already adopted,
        # and `archive` moves it at its TTL like any other.
        to_stage.extend(durable_items(parse.parse(text, rel, cfg.labels), rel, False))
        return
    if day < today - timedelta(days=ttl):
        target, why = f"{archive}/{day:%Y-%m}/{path.name}", f"daily note older than {ttl} days"
    else:
        target, why = store.rel(cfg.tier_file(daily.name, date=day.isoformat())), "daily note"
    to_stage.extend(durable_items(parse.parse(text, rel, cfg.labels), rel, False))
    if target == rel:
        return
    existing = store.repo / target
    if existing.exists() and existing.read_text(encoding="utf-8", errors="replace") != text:
        plan.notes.append(f"{rel}: {target} exists with other content, skipped")
        return
    if not existing.exists():
        plan.add(target, text, reason=why)
        if target.startswith(archive + "/"):     # tiergit moved it: the purge may take it, in time
            from tiergit.features import archive_record

            archive_record.record(plan, store, [target], today)
    if retire_legacy:
        plan.add(rel, None, text, reason=f"legacy, copied to {target}")


def _note_fixed_tiers(store, plan: Plan) -> None:
    """MEMORY.md and the other fixed-name tiers stay in place: say how full each one is."""
    cfg = store.config
    for name, tier in cfg.tiers.items():
        if "{" in tier.path:
            continue
        rel = store.rel(cfg.tier_file(name))
        if not (store.repo / rel).is_file():
            continue
        data = store.read_bytes(rel)
        text = read_text(store, rel)
        fh = budget.judge(rel, tier, budget.measure(text, data, tier, store.token_cache, force_tokens=True))
        plan.notes.append(f"{name}: {rel} kept in place ({fh.health}"
                          + (f", {fh.percent:.0f}% of budget)" if fh.verdicts else ")"))
        if fh.health == "critical":
            from tiergit.features.checks import fix_hint

            plan.notes.append(f"  hint: {rel} is over its budget: {fix_hint(tier)}")
