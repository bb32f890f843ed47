"""Which files each load group holds: tiers grouped as hot / cold / wiki by their load policy,
an agent's files in a group (the newest `{date}` files of a daily tier), the wiki topics, the
legacy files. What the spawn prompt (context.py), the task default (knowledge.py) and
`measure` read."""
from __future__ import annotations

from tiergit.core import rawtext
from tiergit.shell.hookgate import literal_start

DAILY_FILES = 2           # newest `{date}` files a cold load includes (today + yesterday, OpenClaw's habit)


def tier_groups(config) -> dict[str, list[str]]:
    """hot / cold / wiki -> tier names, by load policy."""
    groups: dict[str, list[str]] = {"hot": [], "cold": [], "wiki": []}
    for name, tier in config.tiers.items():
        if tier.load == "always":
            groups["hot"].append(name)
        elif tier.load == "on-demand":
            groups["cold"].append(name)
        elif tier.load == "selective" and "{topic}" in tier.path:
            groups["wiki"].append(name)
    return groups


def agent_files(store, agent: str, tier_names: list[str]) -> list[tuple[str, str]]:
    """(path, tier) of the files of these tiers that belong to `agent` or to no agent."""
    cfg = store.config
    out = []
    for name in tier_names:
        tier = cfg.tiers[name]
        if "{agent}" in tier.path:
            path = cfg.tier_file(name, agent=agent)
            if path.exists():   # a FIFO or folder there is read (and refused), never skipped
                out.append((path.relative_to(store.repo).as_posix(), name))
        elif "{date}" in tier.path:
            dated = sorted(p for p in store.tier_files(name))
            out.extend((p, name) for p in dated[-DAILY_FILES:])
        elif "{" not in tier.path:
            path = store.repo / cfg.repo_path(tier.path)
            if path.exists():
                out.append((path.relative_to(store.repo).as_posix(), name))
    return out


def wiki_topics(store) -> dict[str, str]:
    """topic -> path of every wiki file (tier by tier, each in path order: the last one wins).
    Cost: a walk of the wiki tiers' own folders (the literal start of their paths), not of the store."""
    cfg = store.config
    groups: dict[str, list[tuple[str, str]]] = {name: [] for name in tier_groups(cfg)["wiki"]}
    # only a path with a {topic} names one (an OpenClaw MEMORY.md has none: no walk of the repository)
    folders = {literal_start(cfg.tiers[name].regex.pattern).rpartition("/")[0]
               for name in groups if "{topic}" in cfg.tiers[name].path}
    for rel in store.memory_files(under=sorted(folders)) if folders else ():
        match = cfg.tier_for(rel)
        if match and match[0].name in groups and "topic" in match[1]:
            groups[match[0].name].append((match[1]["topic"], rel))
    return {topic: rel for pairs in groups.values() for topic, rel in pairs}


def legacy_files(store, agent: str) -> list[str]:
    """The legacy files (config `legacy`) that exist for this agent, repo-relative."""
    out = []
    for pattern in store.config.legacy:
        rel = pattern.lstrip("/")
        if "{agent}" in rel:
            rel = rel.replace("{agent}", agent)
        elif "{" in rel:
            continue
        if (store.repo / rel).is_file():
            out.append(rel)
    return out


def read_text(store, rel: str) -> str:
    return rawtext.decode(store.read_bytes(rel), rel, store.config.limits["max_file_bytes"])
