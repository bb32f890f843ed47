"""`import squad`: adopt `.squad/agents/*/history.md` and `.squad/decisions.md` into tiers.

For each agent's history.md (nothing is lost: cold + archive together hold every line):
- cold tier = the file minus what does not fit its budget (the warn level, so the
  first `session end` has room): dated entries go, oldest first (items of a dated log
  section one by one). Pinned sections (every undated section: title, Core Context,
  Project Context, an undated Learnings block) always stay, even when cold cannot fit:
  the import then reports cold over budget and names the fix (`fixhint.pinned_over_note`).
- archive = what was taken out, in `<root>/<archive>/<yyyy>-<mm>/cold/<agent>.md` by the
  entry's month - by date, never by position (the one layout `archive` and `check --fix`
  write too), recorded as tiergit's in the archive record.
- staging = every durable item (decision, rule, fact, correction) of the history
  files, and every decision of decisions.md, as promotion candidates (see staged.py).
- hot = created from the hot template when the agent has none.
Legacy histories stay as they are unless `retire_legacy`; decisions.md always
stays (Squad needs it). A legacy history is removed only after the written files are
re-read and hold every one of its items (`import_sync.apply_squad`). Agent folder names
map to slugs (`Rai` -> `rai`, see squad_compat.py). An agent whose cold file exists
already gets only what its history gained since (tiergit.features.importing.import_sync): a rerun never
duplicates, and changes nothing when nothing is new.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from tiergit.core import injection, judge, kinds, parse, rawtext
from tiergit.core.fixhint import pinned_over_note
from tiergit.errors import TiergitError
from tiergit.features.importing import import_sync, staged
from tiergit.features.importing.import_fit import Unit, fit_history
from tiergit.features.importing.squad_compat import agent_slug, two_layer_notes
from tiergit.features.plan import Plan
from tiergit.shell import clock, progress
from tiergit.shell.tokens import count_text

# Each imported file is parsed, judged and fitted to the budget (a second or so for a big
# history): a bar from this many files on (progress.py keeps it silent off a terminal, in CI
# and hooks).
IMPORT_BAR_MIN = 10
LEGACY_MAX_BYTES = 4 * 1024 * 1024

DECISION_LABEL_RE = re.compile(r"(?mi)^\s*(?:[-*+]\s+)?\*\*(?:what|decision)\s*:?\*\*")
FALLBACK_HOT = ("# {agent}: hot memory\n\n## Current task\n\n## Active decisions\n\n## Last actions\n\n"
                "## Blockers\n\n## Talking to\n")


@dataclass
class AgentImport:
    agent: str
    source: str
    cold_text: str
    archived: list[Unit]
    archive_texts: dict[str, str]          # archive path -> text to add
    staged: list[staged.Staged]
    cold_tokens: int
    cold_bytes: int
    over_budget: bool
    kept_entries: int
    notes: list[str] = field(default_factory=list)


def _heading_key(heading: str | None) -> str:
    return re.sub(r"[^a-z ]", "", (heading or "").lower()).strip()


def hot_template(store, agent: str) -> str:
    """A fresh (idle) hot file, exactly as `session end` leaves one: the session module renders it."""
    try:
        from tiergit.features import session
    except ImportError:  # the session feature is not installed: a minimal hot file
        return FALLBACK_HOT.format(agent=agent)
    return session.render_hot(store.config, agent, None, [], session.new_session_id(), None)


def read_text(store, rel: str) -> str:
    """A framework's own file (a history, decisions.md, a daily note): read up to the larger of
    `limits.max_file_bytes` and LEGACY_MAX_BYTES - Squad's decisions.md reaches 856 KB on a real
    project, and import must not stop on a file tiergit only reads (its tiers keep their limit)."""
    limit = max(store.config.limits["max_file_bytes"], LEGACY_MAX_BYTES)
    return rawtext.decode(store.read_bytes(rel), rel, limit)


def durable_items(doc: parse.MemoryDoc, source: str, decisions_file: bool) -> list[staged.Staged]:
    out = []
    for sec in doc.sections:
        for item in sec.items:
            kind = item.kind
            if decisions_file and not item.durable and (
                    DECISION_LABEL_RE.search(item.text) or _heading_key(sec.heading).startswith("decision")):
                kind = "decision"
            # Only what the judgement calls knowledge is staged: no bare labels, metadata lines,
            # fragments, paths, code or agent-aimed instructions.
            if kind in kinds.DURABLE_KINDS and not judge.junk(item.clean) and not injection.injection(item.text):
                out.append(staged.Staged(item.id, kind, item.clean, source, sec.heading))
    return out


def import_agent(store, agent: str, source: str, today: date) -> AgentImport:
    cfg = store.config
    text = read_text(store, source)
    doc = parse.parse(text, source, cfg.labels)
    cold_rel = store.rel(cfg.tier_file("cold", agent=agent))
    cold_text, taken, archive_texts = fit_history(store, cold_rel, text, today)
    size = count_text(cold_text, cfg.tokenizer)
    limits = {m: lim.max for m, lim in cfg.tiers["cold"].budget.items()}
    measured = {"bytes": len(cold_text.encode("utf-8")), "tokens": size.tokens, "lines": cold_text.count("\n")}
    over = any(measured.get(m, 0) > lim for m, lim in limits.items())
    kept = sum(1 for s in parse.parse(cold_text, source, cfg.labels).sections if s.date is not None)
    notes = [pinned_over_note(cfg.path.name, "cold", agent, measured, limits)] if over else []
    return AgentImport(agent, source, cold_text, taken, archive_texts, durable_items(doc, source, False),
                       size.tokens, measured["bytes"], over, kept, notes)


def squad_sources(store) -> tuple[list[tuple[str, str]], list[str], str | None]:
    """([(agent, history path)], skipped notes, decisions path) from the .squad layout."""
    base = store.repo / ".squad"
    if not (base / "agents").is_dir() and not (base / "decisions.md").is_file():
        raise TiergitError(f"{store.repo}/.squad: no Squad layout found (agents/*/history.md, decisions.md)",
                           "run `tiergit import squad` at the root of a repository that uses Squad")
    agents, notes = [], []
    for hist in sorted((base / "agents").glob("*/history.md")):
        name = hist.parent.name
        rel = hist.relative_to(store.repo).as_posix()
        slug = agent_slug(name)   # Squad takes any folder name (its default `Rai`): files use a slug
        if slug is None or slug in {a for a, _ in agents}:
            notes.append(f"skipped {rel}: no agent slug can be made from {name!r}, or it is taken")
            continue
        if slug != name:
            notes.append(f"{name}: agent files use the slug {slug!r} ({rel} keeps its name)")
        agents.append((slug, rel))
    notes.extend(two_layer_notes(store.repo))
    dec = base / "decisions.md"
    return agents, notes, dec.relative_to(store.repo).as_posix() if dec.is_file() else None


def plan_squad(store, retire_legacy: bool = False, today: date | None = None) -> tuple[Plan, list[AgentImport]]:
    cfg = store.config
    for needed in ("hot", "cold"):
        if needed not in cfg.tiers or "{agent}" not in cfg.tiers[needed].path:
            raise TiergitError(f"{cfg.path.name}: import squad needs per-agent `hot` and `cold` tiers",
                               "use `tiergit init --preset squad`, or add tiers.hot/cold with {agent} paths")
    today = today or clock.today()
    agents, notes, decisions = squad_sources(store)
    plan = Plan("tiergit import squad" + (" --retire-legacy" if retire_legacy else ""))
    plan.notes.extend(notes)
    results: list[AgentImport] = []
    to_stage: list[staged.Staged] = []
    archive_adds: dict[str, str] = {}
    retire: list[tuple[str, str, str]] = []
    for agent, source in progress.iterate(agents, "import: agents", minimum=IMPORT_BAR_MIN):
        cold_rel = store.rel(cfg.tier_file("cold", agent=agent))
        hot_rel = store.rel(cfg.tier_file("hot", agent=agent))
        if (store.repo / cold_rel).exists():   # imported before: only what is new since
            legacy = read_text(store, source)
            if not import_sync.plan_agent(store, plan, agent, source, cold_rel, legacy):
                plan.notes.append(f"{agent}: nothing new in {source} since the last import")
            to_stage.extend(durable_items(parse.parse(legacy, source, cfg.labels), source, False))
            retire.append((agent, source, legacy))
            continue
        res = import_agent(store, agent, source, today)
        results.append(res)
        plan.add(cold_rel, res.cold_text, reason=f"cold from {source}: {res.kept_entries} "
                                                 f"entr{'y' if res.kept_entries == 1 else 'ies'}, "
                                                 f"{res.cold_tokens} tokens")
        if not (store.repo / hot_rel).exists():
            plan.add(hot_rel, hot_template(store, agent), reason="hot from the template")
        for path, text in res.archive_texts.items():
            archive_adds[path] = archive_adds.get(path, "") + text
        to_stage.extend(res.staged)
        plan.notes.extend(res.notes)
        retire.append((agent, source, read_text(store, source)))
    if decisions:
        dtext = read_text(store, decisions)
        to_stage.extend(durable_items(parse.parse(dtext, decisions, cfg.labels), decisions, True))
        if retire_legacy:
            plan.notes.append(f"{decisions}: kept, Squad reads and writes it (`squad doctor` requires it)")
    from tiergit.features.importing import governed_inbox

    to_stage.extend(governed_inbox.candidates(store, read_text, durable_items))
    _plan_archive_files(store, plan, archive_adds, today)
    staged.plan_stage(store, plan, to_stage)
    if retire_legacy:
        import_sync.plan_retire(store, plan, retire)
    return plan, results


def _plan_archive_files(store, plan: Plan, archive_adds: dict[str, str], today: date) -> None:
    """The legacy entries too old for cold, appended to their archive month files."""
    for path in sorted(archive_adds):
        old = (store.repo / path).read_text(encoding="utf-8") if (store.repo / path).is_file() else None
        body = archive_adds[path]
        new = (old.rstrip("\n") + "\n\n" + body) if old else (
            f"# Archive: {Path(path).stem}\n\n<!-- moved from the legacy history by `tiergit import squad`"
            f" on {today.isoformat()} -->\n\n" + body)
        plan.add(path, new.rstrip("\n") + "\n", old, reason="older entries, out of the cold budget")
    if archive_adds:
        from tiergit.features import archive_record

        archive_record.record(plan, store, list(archive_adds), today)
