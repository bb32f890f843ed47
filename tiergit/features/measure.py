"""`measure`: what a spawn costs per agent, legacy full load against the tiers, in bytes and tokens.

Columns (an honest version of the seed's table):
- legacy: what the agent loaded before tiergit: its legacy files (config `legacy`,
  e.g. its history.md plus the team's decisions.md). With no legacy file left,
  or only ones that are tiers themselves (openclaw's MEMORY.md), the baseline is
  every tier instead (hot + cold + wiki).
- old noise %: the share of the legacy load in dated entries (or dated log items)
  older than the cold tier's ttl_days, counted from `today`.
- hot (the files, judged against the hot budget), hot + cold, hot + cold + wiki.
- spawn: the prompt agents get (`context`: the template, hot as the prompt carries it, the
  items the task needs, the wiki index) for the agent's default task; `hot_in_spawn` is the
  hot part of it, so the spawn is never smaller than the hot it contains.
- saved %: 1 - spawn / baseline, in tokens (what a spawn really saves); hot + cold saved %:
  1 - (hot + cold) / baseline (an agent that loads its whole history through the tiers).
Each file's tokens are counted once (exact with tiktoken, cached by blob id). No saving is
ever printed that this store did not measure (the seed's savings figure was withdrawn upstream).
"""
from __future__ import annotations

import re
import statistics
from dataclasses import dataclass, field
from datetime import date, timedelta

from tiergit.core import parse
from tiergit.core.configschema import SLUG
from tiergit.core.spawn_template import hot_task as task_of
from tiergit.errors import TiergitError
from tiergit.features import context, knowledge
from tiergit.features.tierfiles import (
    agent_files,
    legacy_files,
    read_text,
    tier_groups,
    wiki_topics,
)
from tiergit.shell import clock
from tiergit.shell.tokens import blob_id


@dataclass
class PromptSize:
    bytes: int = 0
    tokens: int = 0
    files: list[str] = field(default_factory=list)

    def as_dict(self) -> dict:
        return {"bytes": self.bytes, "tokens": self.tokens, "files": self.files}


@dataclass
class AgentMeasure:
    agent: str
    legacy: PromptSize
    hot: PromptSize
    hot_cold: PromptSize
    hot_cold_wiki: PromptSize
    baseline: str             # "legacy" or "every tier"
    old_noise_pct: float | None
    saved_pct: float | None
    hot_budget_tokens: float | None
    hot_budget_bytes: float | None
    spawn: PromptSize | None = None     # the task-aware spawn prompt (tiergit/features/knowledge.py), whole
    spawn_task: str | None = None  # the task it was built for (hot Current task, else newest cold entry)
    hot_in_spawn: int | None = None    # tokens of the hot part as the spawn carries it
    hot_cold_saved_pct: float | None = None

    @property
    def within_hot_budget(self) -> bool:
        ok_tokens = self.hot_budget_tokens is None or self.hot.tokens <= self.hot_budget_tokens
        ok_bytes = self.hot_budget_bytes is None or self.hot.bytes <= self.hot_budget_bytes
        return ok_tokens and ok_bytes

    def as_dict(self) -> dict:
        return {"agent": self.agent, "legacy": self.legacy.as_dict(), "hot": self.hot.as_dict(),
                "hot_cold": self.hot_cold.as_dict(), "hot_cold_wiki": self.hot_cold_wiki.as_dict(),
                "baseline": self.baseline, "old_noise_pct": self.old_noise_pct, "saved_pct": self.saved_pct,
                "hot_budget": {"tokens": self.hot_budget_tokens, "bytes": self.hot_budget_bytes},
                "within_hot_budget": self.within_hot_budget,
                "spawn": self.spawn.as_dict() if self.spawn else None, "spawn_task": self.spawn_task,
                "hot_in_spawn": self.hot_in_spawn, "hot_cold_saved_pct": self.hot_cold_saved_pct}


class Sizer:
    """Bytes and tokens of repo files, each file read and counted once."""

    def __init__(self, store) -> None:
        self.store = store
        self.cache: dict[str, tuple[str, int, int]] = {}

    def text(self, rel: str) -> str:
        return self._get(rel)[0]

    def _get(self, rel: str) -> tuple[str, int, int]:
        if rel not in self.cache:
            data = self.store.read_bytes(rel)
            text = read_text(self.store, rel)
            tokens = self.store.token_cache.count(text, blob_id(data)).tokens
            self.cache[rel] = (text, len(data), tokens)
        return self.cache[rel]

    def size(self, rels: list[str]) -> PromptSize:
        rels = list(dict.fromkeys(rels))
        return PromptSize(bytes=sum(self._get(r)[1] for r in rels), tokens=sum(self._get(r)[2] for r in rels), files=rels)

    def tokens_of(self, text: str) -> int:
        return self.store.token_cache.count(text).tokens


def legacy_agents(store) -> list[str]:
    """Agents named by legacy files on disk (e.g. .squad/agents/*/history.md)."""
    names = set()
    for pattern in store.config.legacy:
        rel = pattern.lstrip("/")
        if "{agent}" not in rel:
            continue
        before, after = rel.split("{agent}", 1)
        rx = re.compile("^" + re.escape(before) + r"([^/]+)" + re.escape(after) + "$")
        base = store.repo / before
        if not base.is_dir():
            continue
        for child in base.iterdir():
            m = rx.match((child.relative_to(store.repo).as_posix()) + after)
            if m and (store.repo / (before + m[1] + after)).is_file() and SLUG.match(m[1]):
                names.add(m[1])
    return sorted(names)


def old_noise(sizer: Sizer, rels: list[str], labels, ttl_days: int, today: date) -> float | None:
    """Share of these files' tokens in dated entries / dated log items older than ttl_days."""
    total = stale = 0
    cutoff = today - timedelta(days=ttl_days)
    for rel in rels:
        text = sizer.text(rel)
        total += sizer._get(rel)[2]
        doc = parse.parse(text, rel, labels)
        for sec in doc.sections:
            if sec.date is not None:
                if sec.date < cutoff:
                    stale += sizer.tokens_of(sec.text)
            elif sec.is_log_section:
                stale += sum(sizer.tokens_of(i.text) for i in sec.items if i.date and i.date < cutoff)
    return round(100.0 * stale / total, 1) if total else None


def measure_agent(store, sizer: Sizer, agent: str, today: date) -> AgentMeasure:
    groups = tier_groups(store.config)
    hot = [p for p, _ in agent_files(store, agent, groups["hot"])]
    cold = [p for p, _ in agent_files(store, agent, groups["cold"])]
    wiki = sorted(wiki_topics(store).values())
    legacy = legacy_files(store, agent)
    # A legacy file that is also a tier (openclaw's MEMORY.md, loaded always) is loaded with or
    # without tiergit: it is no "before", so the saving is measured against every tier instead.
    # Squad's decisions.md, a tier read in place that no spawn loads (load: never), is still "before".
    before = [p for p in legacy if store.tier_of(p) is None or store.tier_of(p)[0].load == "never"]
    hot_size, hc, hcw = sizer.size(hot), sizer.size(hot + cold), sizer.size(hot + cold + wiki)
    legacy_size = sizer.size(legacy)
    baseline = sizer.size(before) if before else hcw
    ttl = next((store.config.tiers[n].ttl_days for n in groups["cold"] if store.config.tiers[n].ttl_days), 30)
    noise = old_noise(sizer, before or hot + cold + wiki, store.config.labels, ttl, today)
    budget_tokens = budget_bytes = None
    for name in groups["hot"]:
        tier = store.config.tiers[name]
        if "{agent}" in tier.path or len(groups["hot"]) == 1:
            if "tokens" in tier.budget:
                budget_tokens = tier.budget["tokens"].max
            if "bytes" in tier.budget:
                budget_bytes = tier.budget["bytes"].max
            break
    spawn, task, hot_in = spawn_size(store, sizer, agent)
    return AgentMeasure(agent=agent, legacy=legacy_size, hot=hot_size, hot_cold=hc, hot_cold_wiki=hcw,
                        baseline="legacy" if before else "every tier", old_noise_pct=noise,
                        saved_pct=_saved(spawn.tokens if spawn else None, baseline.tokens),
                        hot_budget_tokens=budget_tokens, hot_budget_bytes=budget_bytes, spawn=spawn, spawn_task=task,
                        hot_in_spawn=hot_in, hot_cold_saved_pct=_saved(hc.tokens, baseline.tokens))


def _saved(load: int | None, baseline: int) -> float | None:
    return round(100.0 * (1 - load / baseline), 1) if load is not None and baseline else None


def spawn_size(store, sizer: Sizer, agent: str) -> tuple[PromptSize | None, str | None, int | None]:
    """(the task-aware spawn prompt's size, its task, the tokens of the hot part it carries) for
    the agent's default task (None for an agent with no tiers yet).

    Cost: one `context` build (a recall query over the incrementally refreshed index)."""
    hot = [p for p, _ in agent_files(store, agent, tier_groups(store.config)["hot"])]
    hot_task = next((t for t in (task_of(sizer.text(p)) for p in hot) if t), None)
    task, _source = knowledge.default_task(store, agent, hot_task)
    try:
        built = context.build(store, agent, task=task)
    except TiergitError:
        return None, task, None
    prompt, hot_part = built.prompt, built.sections.get("hot", "")
    return (PromptSize(bytes=len(prompt.encode("utf-8")), tokens=sizer.tokens_of(prompt)), task,
            sizer.tokens_of(hot_part) if hot_part else 0)


def measure(store, today: date | None = None) -> list[AgentMeasure]:
    today = today or clock.today()
    sizer = Sizer(store)
    agents = sorted(set(store.agents()) | set(legacy_agents(store)))
    if not agents and not any("{agent}" in t.path for t in store.config.tiers.values()):
        agents = ["all"]  # an agent-less layout (openclaw): one row for the whole store
    rows = [measure_agent(store, sizer, a, today) for a in agents]
    store.token_cache.save()
    return rows


def _median(values: list[float | None]) -> float | None:
    got = [v for v in values if v is not None]
    return round(statistics.median(got), 1) if got else None


def summary(rows: list[AgentMeasure]) -> dict:
    return {"agents": len(rows), "median_saved_pct": _median([r.saved_pct for r in rows]),
            "median_hot_cold_saved_pct": _median([r.hot_cold_saved_pct for r in rows]),
            "legacy_tokens": sum(r.legacy.tokens for r in rows), "hot_tokens": sum(r.hot.tokens for r in rows),
            "spawn_tokens": sum(r.spawn.tokens for r in rows if r.spawn),
            "all_within_hot_budget": all(r.within_hot_budget for r in rows)}


def _pct(value: float | None) -> str:
    return f"{value:.0f}%" if value is not None else "-"


def render(rows: list[AgentMeasure]) -> str:
    head = (f"{'agent':<14} {'legacy':>8} {'noise%':>7} {'hot':>6} {'spawn':>6} {'saved%':>7} "
            f"{'hot+cold':>9} {'saved%':>7} {'+wiki':>7}  hot budget")
    lines = ["tiergit measure: tokens per spawn (legacy full load vs what the tiers load)", "", head, "-" * len(head)]
    for r in rows:
        base = r.legacy.tokens if r.baseline == "legacy" else r.hot_cold_wiki.tokens
        mark = "" if r.baseline == "legacy" else "*"
        budget = "ok" if r.within_hot_budget else "OVER"
        if r.hot_budget_tokens:
            budget += f" ({r.hot.tokens}/{r.hot_budget_tokens:g})"
        hot = r.hot_in_spawn if r.hot_in_spawn is not None else r.hot.tokens
        spawn = str(r.spawn.tokens) if r.spawn else "-"
        lines.append(f"{r.agent:<14} {str(base) + mark:>8} {_pct(r.old_noise_pct):>7} {hot:>6} {spawn:>6} "
                     f"{_pct(r.saved_pct):>7} {r.hot_cold.tokens:>9} {_pct(r.hot_cold_saved_pct):>7} "
                     f"{r.hot_cold_wiki.tokens:>7}  {budget}")
    s = summary(rows)
    lines.append("-" * len(head))
    if s["median_saved_pct"] is not None:
        lines.append(f"median saving per spawn (hot + the task's knowledge): {s['median_saved_pct']}% "
                     f"over {s['agents']} agent(s)")
    if s["median_hot_cold_saved_pct"] is not None:
        lines.append(f"median saving loading hot + cold: {s['median_hot_cold_saved_pct']}%")
    lines.append("legacy = the agent's legacy files (config `legacy`); * = none outside the tiers, so every tier instead.")
    lines.append("noise% = legacy tokens in dated entries older than the cold ttl_days.")
    lines.append("hot = the hot tier as the spawn carries it (its recent actions); the budget column judges the files.")
    lines.append("spawn = the whole spawn prompt agents get (`context`: template, hot, the items relevant to the task, "
                 "wiki index) for the hot file's Current task, else the newest cold entry's title.")
    return "\n".join(lines)
