"""The spawn prompt: a template filled with the agent's hot tier, the items relevant to the task
(tiergit/features/knowledge.py), and cold / wiki only when asked.

Which tiers a situation loads (the seed's "when to load each tier" table):
hot always; cold for resume, debug and incident; wiki for spec, onboard and incident.
"Hot" is every `load: always` tier, "cold" every `load: on-demand` tier (for a
`{date}` tier such as daily notes, the two newest files), "wiki" every
`load: selective` tier with a `{topic}` placeholder.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from tiergit.core import rawtext
from tiergit.core.configschema import check_slug
from tiergit.core.prompt_clean import clean as clean_prompt
from tiergit.core.spawn_template import (
    PLACEHOLDERS,
    TEMPLATE_NOTE_RE,
    TEMPLATE_PLACEHOLDER_RE,
    Part,
    block,
    hot_task,
    render,
)
from tiergit.errors import TiergitError
from tiergit.features import budget
from tiergit.features.tierfiles import (
    agent_files,
    legacy_files,
    read_text,
    tier_groups,
    wiki_topics,
)
from tiergit.shell import clock, resources
from tiergit.shell.tokens import count_text

SITUATIONS: dict[str, tuple[str, ...]] = {
    "new": ("hot",), "resume": ("hot", "cold"), "debug": ("hot", "cold"), "spec": ("hot", "wiki"),
    "onboard": ("hot", "wiki"), "incident": ("hot", "cold", "wiki"),
}
AUTO_WIKI_TOPICS = 3      # topics picked by recall for --for without --include-wiki
DEFAULT_WIKI_TOKENS = 4000


@dataclass
class Spawn:
    prompt: str
    sections: dict[str, str]              # task, why, success, hot, cold, wiki, knowledge: the rendered text
    parts: list[Part]
    wiki_topics: list[str]
    notes: list[str] = field(default_factory=list)
    over_budget: list[str] = field(default_factory=list)   # one line per hot file over its budget
    knowledge: object = None              # knowledge.Knowledge: the task-relevant items picked


def load_template(store, template: str | Path | None) -> tuple[str, str]:
    """(name, text): --template FILE, else <root>/templates/spawn.md, else the packaged one."""
    if template is not None:
        path = Path(template)
        if not path.is_file():
            raise TiergitError(f"{template}: template not found", "pass a markdown file with {{task}} / {{hot}} placeholders")
        name = str(template)
    else:
        path = store.root / "templates" / "spawn.md"
        name = path.relative_to(store.repo).as_posix() if path.is_relative_to(store.repo) else str(path)
        if not path.is_file():
            path, name = resources.template("store", "spawn.md"), "spawn.md (packaged)"
    text = TEMPLATE_NOTE_RE.sub("", rawtext.decode(path.read_bytes(), name, 256 * 1024))
    if not text.strip():  # an empty prompt would spawn the agent with no memory at all
        raise TiergitError(f"{name}: template is empty",
                           "pass a markdown file with {{task}} / {{hot}} placeholders")
    unknown = sorted({m for m in TEMPLATE_PLACEHOLDER_RE.findall(text) if m not in PLACEHOLDERS})
    if unknown:
        raise TiergitError(f"{name}: unknown placeholder {{{{{unknown[0]}}}}}",
                           f"placeholders are: {', '.join(PLACEHOLDERS)}")
    return name, text


def pick_wiki(store, topics: dict[str, str], task: str | None, notes: list[str]) -> list[str]:
    """Topics for a --for situation without --include-wiki: by recall on the task, else all within a budget."""
    if not topics:
        notes.append("wiki: the store has no wiki topics yet")
        return []
    if task and task.strip():
        from tiergit.features import recall, recall_index

        db = recall_index.connect(recall_index.index_path(store.repo))
        try:
            recall_index.refresh(store, db)
            try:
                hits = recall.search(db, task, tier_groups(store.config)["wiki"], limit=50, dates=False)
            except TiergitError:
                hits = []
        finally:
            db.close()
        by_path = {v: k for k, v in topics.items()}
        chosen: list[str] = []
        for h in hits:
            topic = by_path.get(h.path)
            if topic and topic not in chosen:
                chosen.append(topic)
            if len(chosen) >= AUTO_WIKI_TOPICS:
                break
        if chosen:
            notes.append(f"wiki: picked {', '.join(chosen)} (best recall matches for the task)")
            return chosen
    limit = DEFAULT_WIKI_TOKENS
    for name in tier_groups(store.config)["wiki"]:
        tb = store.config.tiers[name].budget.get("tokens")
        if tb:
            limit = int(tb.max)
    chosen, used = [], 0
    for topic in sorted(topics):
        tokens = count_text(read_text(store, topics[topic]), store.config.tokenizer).tokens
        if used + tokens > limit:
            continue
        chosen.append(topic)
        used += tokens
    skipped = sorted(set(topics) - set(chosen))
    notes.append(f"wiki: all topics within {limit} tokens: {', '.join(chosen) or 'none'}"
                 + (f" (left out: {', '.join(skipped)})" if skipped else ""))
    return chosen


def _named_topics(store, names: list[str], topics: dict[str, str]) -> list[str]:
    """The wiki topics asked for with --include-wiki, each a slug the store has."""
    for topic in names:
        check_slug("topic", topic)
        if topic not in topics:
            raise TiergitError(f"no wiki topic {topic!r} in {store.config.root}",
                               f"topics are: {', '.join(sorted(topics)) or '(none yet)'}")
    return list(names)


def _check_agent_has_memory(store, agent: str, groups: dict[str, list[str]]) -> None:
    """An agent with no hot file must have cold or legacy memory, else the name is a typo."""
    own_legacy = [p for p in store.config.legacy if "{agent}" in p]
    if not agent_files(store, agent, groups["cold"]) and not any(
            (store.repo / p.lstrip("/").replace("{agent}", agent)).is_file() for p in own_legacy):
        known = sorted(set(store.agents()))
        raise TiergitError(f"no memory for agent {agent!r} in {store.config.root}",
                           f"agents are: {', '.join(known) or '(none yet)'}; "
                           f"`tiergit session start --agent {agent}` creates a hot file")


def _hot_notes(agent: str, trimmed: list, keep: int, has_hot: bool, has_task: bool) -> list[str]:
    """What the prompt left out of hot, or could not find."""
    notes = [f"hot: {p.path}: {n} older action(s) left out (keeping the last {keep}; "
             f"`tiergit session end` condenses them into cold)" for p, _, n in trimmed if n]
    if not has_hot:
        notes.append(f"hot: {agent} has no hot file yet (`tiergit session start --agent {agent}`)")
    if not has_task:
        notes.append("task: none given (pass --task, or write one under the hot file's Current task)")
    return notes


def build(store, agent: str, *, include_cold: bool = False, include_wiki: list[str] | None = None,
          situation: str | None = None, task: str | None = None, why: str | None = None,
          success: str | list[str] | None = None, template: str | Path | None = None,
          today: date | None = None) -> Spawn:
    from tiergit.core import spawn_template

    check_slug("agent", agent)
    shape = spawn_template.settings(store.config)
    if situation is not None and situation not in SITUATIONS:
        raise TiergitError(f"unknown situation {situation!r}", f"choose one of: {', '.join(SITUATIONS)}")
    groups = tier_groups(store.config)
    wants = set(SITUATIONS[situation]) if situation else {"hot"}
    if include_cold:
        wants.add("cold")
    topics = wiki_topics(store)
    notes: list[str] = []
    chosen_topics = _named_topics(store, include_wiki or [], topics)
    hot_parts = [Part(p, t, read_text(store, p)) for p, t in agent_files(store, agent, groups["hot"])]
    trimmed = [(part, *spawn_template.trim_recent(part.text, shape["recent_actions"], part.path))
               for part in hot_parts]
    cold_parts = [Part(p, t, read_text(store, p)) for p, t in agent_files(store, agent, groups["cold"])] \
        if "cold" in wants else []
    if not hot_parts:
        _check_agent_has_memory(store, agent, groups)
    hot_text = next((hot_task(p.text) for p in hot_parts if hot_task(p.text)), None)
    if "wiki" in wants and not chosen_topics:
        chosen_topics = pick_wiki(store, topics, task or hot_text, notes)
    wiki_parts = [Part(topics[t], "wiki", read_text(store, topics[t])) for t in chosen_topics]
    task_text = (task or hot_text or "").strip()
    notes += _hot_notes(agent, trimmed, shape["recent_actions"], bool(hot_parts), bool(task_text))
    over = hot_over_budget(store, hot_parts)
    from tiergit.features import knowledge as knowledge_mod

    known = knowledge_mod.plan(store, agent, task_text, topics=topics, read=lambda rel: read_text(store, rel),
                               skip_paths={p.path for p in cold_parts + wiki_parts}, hot="\n".join(t for _, t, _ in trimmed))
    notes.extend(known.notes)
    sections = {
        "task": task_text,
        "why": (why or "").strip(),
        "success": spawn_template.checklist(success),
        "escalation": spawn_template.escalation(shape["escalation"]),
        # Budgets above judge the hot file as it is; the prompt carries the recent actions only.
        "hot": clean_prompt(block("Hot", [Part(p.path, p.tier, spawn_template.without_task(text, task_text))
                                          for p, text, _ in trimmed]))
        or "### Hot\n\n(empty)\n",
        "cold": block("Cold", cold_parts),
        "wiki": block("Wiki", wiki_parts),
        "knowledge": knowledge_mod.render(known), "recall": knowledge_mod.closing(known, agent),
    }
    prompt = fill(store, template, {**sections, "agent": agent, "date": (today or clock.today()).isoformat(),
                                    "situation": situation or "custom"})
    store.token_cache.save()
    return Spawn(prompt=prompt, sections=sections, parts=hot_parts + cold_parts + wiki_parts,
                 wiki_topics=chosen_topics, notes=notes, over_budget=over, knowledge=known)


def hot_over_budget(store, hot_parts: list[Part]) -> list[str]:
    """One line per hot file over its budget (critical), measured exactly."""
    over = []
    for part in hot_parts:
        tier = store.config.tiers[part.tier]
        data = part.text.encode("utf-8")
        m = budget.measure(part.text, data, tier, store.token_cache, force_tokens=True)
        fh = budget.judge(part.path, tier, m)
        for v in fh.verdicts:
            if v.health == "critical":
                over.append(f"{part.path}: {v.metric} {v.value} over the {part.tier} budget of {v.limit.max:g}")
    return over


def fill(store, template: str | Path | None, values: dict[str, str]) -> str:
    """The template filled in, template noise left out (tiergit/core/prompt_clean.py)."""
    _name, text = load_template(store, template)
    used = TEMPLATE_PLACEHOLDER_RE.findall(text)
    if "knowledge" not in used:   # a store's own older template: knowledge after hot
        values = {**values, "hot": values["hot"] + "\n" + values["knowledge"]}
    if "recall" not in used and "hot" in used:      # ... and the closing at the end
        text = text.rstrip("\n") + "\n\n{{recall}}\n"
    return clean_prompt(render(text, values))


def stats(store, agent: str, spawn: Spawn) -> dict:
    """Bytes and tokens per section and in total, beside loading every tier and the legacy files."""
    enc = store.config.tokenizer

    def size(text: str) -> dict:
        c = count_text(text, enc)
        return {"bytes": len(text.encode("utf-8")), "tokens": c.tokens, "tokens_exact": c.exact}

    rows = {name: size(text) for name, text in spawn.sections.items() if text}
    total = size(spawn.prompt)
    all_tier_files = agent_files(store, agent, [n for g in tier_groups(store.config).values() for n in g])
    all_tier_files += [(p, "wiki") for p in wiki_topics(store).values() if (p, "wiki") not in all_tier_files]
    every_tier = size("".join(read_text(store, p) for p, _ in dict.fromkeys(all_tier_files)))
    legacy = legacy_files(store, agent)
    legacy_size = size("".join(read_text(store, p) for p in legacy)) if legacy else None

    def saving(base: dict | None) -> float | None:
        if not base or not base["tokens"]:
            return None
        return round(100.0 * (1 - total["tokens"] / base["tokens"]), 1)

    return {"sections": rows, "total": total, "every_tier": every_tier, "every_tier_files": len(all_tier_files),
            "legacy": legacy_size, "legacy_files": legacy, "saved_vs_every_tier": saving(every_tier),
            "saved_vs_legacy": saving(legacy_size)}
