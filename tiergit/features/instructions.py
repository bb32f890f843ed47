"""The snippet that tells an agent how to use its tiers (for a charter, AGENTS.md or CLAUDE.md)."""
from __future__ import annotations

from tiergit.core import kinds
from tiergit.core.config import Config
from tiergit.features import session

KIND_HELP = {
    "decision": "what was decided, and why",
    "correction": "the owner corrected you: what was wrong and what is right",
    "permission": "something you were allowed or refused",
    "error": "a failure, its root cause and the fix",
    "open": "a blocker or todo still open (carried into the next session)",
    "rule": "a convention or lesson to follow from now on",
    "fact": "a stable fact about the project",
}


def kinds_list(labels: dict | None) -> str:
    """One line per kind: its `[prefix]` labels (configurable) and what it is for."""
    table = {k: list(v) for k, v in kinds.DEFAULT_LABELS.items()}
    table.update({k: list(v) for k, v in (labels or {}).items()})
    lines = []
    for kind, help_text in KIND_HELP.items():
        prefixes = [p for p in table.get(kind, []) if p.startswith("[") or p.startswith("- [")]
        if not prefixes:
            continue
        shown = ", ".join(f"`{p}`" for p in prefixes)
        lines.append(f"- {shown} — {help_text}")
    return "\n".join(lines)


def budget_text(tier) -> str:
    parts = [f"{int(limit.max)} {metric}" for metric, limit in tier.budget.items()]
    return ", ".join(parts) if parts else "no budget set"


def render(cfg: Config, agent: str | None) -> dict:
    paths = session.resolve(cfg, agent)
    text = session.template_text(cfg, "agent-instructions.md")
    if "{agent}" not in paths.hot_tier.path and "{agent}" not in paths.cold_tier.path:
        text = text.replace(" --agent {agent}", "")   # one hot file (openclaw): no --agent needed
    values = {
        "{agent}": paths.agent,
        "{hot_path}": paths.hot,
        "{cold_path}": paths.cold,
        "{hot_budget}": budget_text(paths.hot_tier),
        "{kinds}": kinds_list(cfg.labels),
    }
    for key, value in values.items():
        text = text.replace(key, value)
    return {"agent": paths.agent, "hot": paths.hot, "cold": paths.cold, "text": text,
            "known_agent": known_agent(cfg, paths), "agents": known_agents(cfg)}


def known_agents(cfg: Config) -> list[str]:
    """Agents with a hot or cold file, or a legacy file (Squad's agents/<name>/history.md)."""
    from tiergit.shell.store import Store

    try:
        return sorted(set(Store.open(cfg.repo_root).agents()))
    except Exception:  # noqa: BLE001 - a store that cannot list agents just gives no warning
        return []


def known_agent(cfg: Config, paths) -> bool:
    """Whether this agent has any memory yet: a hot or cold file, or a legacy file."""
    if (cfg.repo_root / paths.hot).is_file() or (cfg.repo_root / paths.cold).is_file():
        return True
    legacy = [p.lstrip("/").replace("{agent}", paths.agent) for p in cfg.legacy if "{agent}" in p]
    return any((cfg.repo_root / rel).is_file() for rel in legacy) or paths.agent in known_agents(cfg)
