"""`.tiergit.yml` validated: the config data (already parsed, merged over its preset by
tiergit.shell.config) in, a typed `Config` (core/config.py) out, every error naming file,
key and line. Pure."""
from __future__ import annotations

import re
from pathlib import Path, PurePosixPath

from tiergit.core import configschema
from tiergit.core.config import (
    DEFAULT_WEIGHTS,
    LOAD_POLICIES,
    METRICS,
    PATH_PLACEHOLDER_RE,
    PLACEHOLDERS,
    CompactSettings,
    Config,
    GateSettings,
    Limit,
    ScoringSettings,
    Tier,
    path_regex,
)
from tiergit.core.configschema import PRESETS, SLUG
from tiergit.errors import TiergitError

TYPE_CHECKING = False   # typing's own flag without importing typing (~5 ms of the hook's start)
if TYPE_CHECKING:
    from typing import Any, Callable

TOP_KEYS = {
    "version", "preset", "root", "tokenizer", "tiers", "archive", "logs", "staging",
    "legacy", "gate", "scoring", "limits", "labels", "compact", "schedule", "spawn",
}
TIER_KEYS = {
    "path", "load", "lifetime", "ttl_days", "delete_after_days", "keep_last", "next", "review",
    "budget", "durable", "raw", "in_place",
}
LIMIT_KEYS = {"max_file_bytes", "lock_wait_seconds"}
KEEP_LAST = 3   # retention keeps each file's newest dated entries whatever their age (DESIGN)


def _merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = value
    return out


class KeyErrors:
    """Raises a TiergitError that names the file, the key and its line."""

    def __init__(self, path: Path, lines: dict[str, int]) -> None:
        self.path, self.lines = path, lines

    def __call__(self, key: str, message: str, hint: str | None = None) -> TiergitError:
        # A key the file does not spell out (it comes from the preset) is reported at
        # the line of its nearest parent that the file does have, under its full name.
        probe, line = key, self.lines.get(key)
        while line is None and "." in probe:
            probe = probe.rsplit(".", 1)[0]
            line = self.lines.get(probe)
        where = f"{self.path.name}:{line}" if line else self.path.name
        return TiergitError(f"{where}: {key}: {message}" if key else f"{where}: {message}", hint)


def _limit(value: Any, err: KeyErrors, key: str) -> Limit:
    if isinstance(value, bool) or value is None:
        raise err(key, "must be a number or {warn: N, max: N}")
    if isinstance(value, (int, float)):
        if value <= 0:
            raise err(key, "must be positive")
        return Limit(warn=value * 0.8, max=float(value))
    if isinstance(value, dict):
        unknown = set(value) - {"warn", "max"}
        if unknown or not value:
            raise err(key, "a budget mapping takes `warn`, `max` or both",
                      "example: lines: {warn: 200, max: 300}; {warn: N} alone warns and never blocks")
        if "max" not in value:
            warn = value["warn"]
            if isinstance(warn, bool) or not isinstance(warn, (int, float)) or warn <= 0:
                raise err(key, "warn must be a positive number")
            return Limit(warn=float(warn), max=float(warn), hard=False)
        mx, warn = value["max"], value.get("warn", value["max"] * 0.8)
        for v in (mx, warn):
            if isinstance(v, bool) or not isinstance(v, (int, float)) or v <= 0:
                raise err(key, "warn and max must be positive numbers")
        if warn > mx:
            raise err(key, f"warn ({warn}) is above max ({mx})")
        return Limit(warn=float(warn), max=float(mx))
    raise err(key, "must be a number or {warn: N, max: N}")


def _check_path(value: Any, err: KeyErrors, key: str, allow_placeholders: bool) -> str:
    if not isinstance(value, str) or not value.strip():
        raise err(key, "must be a non-empty path string")
    for name in PATH_PLACEHOLDER_RE.findall(value):
        if not allow_placeholders or name not in PLACEHOLDERS:
            raise err(key, f"unknown placeholder {{{name}}}", "placeholders are {agent}, {topic}, {date}")
    if value.startswith(("~", "//")) or re.match(r"[A-Za-z]:", value):
        # a home folder, a UNC share or a drive: absolute paths the shell would not expand here
        raise err(key, f"path {value!r} is an absolute path outside the work tree",
                  "write it relative to `root` (a leading `/` means the repository root)")
    parts = PurePosixPath(PATH_PLACEHOLDER_RE.sub("x", value).lstrip("/")).parts
    if ".." in parts or "\\" in value:
        raise err(key, f"path {value!r} escapes the repository", "use a path inside the work tree")
    return value


def build(data: dict[str, Any], path: Path, repo_root: Path, lines: dict[str, int],
          presets: Callable[[str], dict[str, Any]]) -> Config:
    """A validated Config from parsed `.tiergit.yml` data; `presets(name)` gives a preset's data."""
    err = KeyErrors(path, lines)
    if not isinstance(data, dict):
        raise err("", "the file must be a YAML mapping")
    unknown = set(data) - TOP_KEYS
    if unknown:
        key = sorted(unknown)[0]
        raise err(key, "unknown key", f"known keys: {', '.join(sorted(TOP_KEYS))}")
    version = data.get("version", 1)
    if version != 1:
        raise err("version", f"unsupported version {version!r}", "use version: 1")
    preset = data.get("preset", "squad")
    if preset not in PRESETS:
        raise err("preset", f"unknown preset {preset!r}", f"choose one of: {', '.join(PRESETS)}")
    merged = _merge(presets(preset), data) if preset != "custom" else dict(data)
    if preset != "custom" and isinstance(data.get("tiers"), dict):
        # A tier set to null in the override removes the preset's tier.
        merged["tiers"] = {k: v for k, v in merged["tiers"].items() if v is not None}
    root = _check_path(merged.get("root"), err, "root", False).strip("/") or "."
    tokenizer = merged.get("tokenizer", "cl100k_base")
    if not isinstance(tokenizer, str) or not re.match(r"^[a-z0-9_]+$", tokenizer):
        raise err("tokenizer", f"invalid tokenizer {tokenizer!r}", "use a tiktoken encoding name such as cl100k_base")
    tiers = _tiers(merged, root, err)
    staging, legacy, limits, labels, compact = _sections(merged, err)
    # Every other key and value, by the one table in configschema (unknown keys, types, ranges).
    configschema.validate(merged, err)
    cycle = configschema.next_cycle({name: tier.next for name, tier in tiers.items()})
    if cycle:
        raise err(f"tiers.{cycle[0]}.next", f"tiers form a cycle ({' -> '.join(cycle)})",
                  "content must flow one way: end the chain with a tier that has no `next`")
    return Config(
        repo_root=repo_root, path=path, data=merged, root=root, tokenizer=tokenizer, tiers=tiers,
        archive=str(merged.get("archive", "archive/")), logs=str(merged.get("logs", "logs/")),
        staging=staging, legacy=[str(x) for x in legacy], gate=gate_settings(merged.get("gate") or {}),
        scoring=scoring_settings(merged.get("scoring") or {}), limits=limits, labels=labels,
        compact=compact_settings(compact, err), schedule=merged.get("schedule"),
    )


def gate_settings(gate: dict[str, Any]) -> GateSettings:
    """`gate:` over the defaults (keys and ranges already checked by configschema)."""
    known = GateSettings._fields
    return GateSettings(**{k: v for k, v in gate.items() if k in known})


def scoring_settings(scoring: dict[str, Any]) -> ScoringSettings:
    """`scoring:` over the defaults: configured weights replace the default of their signal."""
    weights = dict(DEFAULT_WEIGHTS)
    for name, value in (scoring.get("weights") or {}).items():
        if name in weights and isinstance(value, (int, float)) and not isinstance(value, bool):
            weights[name] = float(value)
    return ScoringSettings(weights, float(scoring.get("recency_half_life_days") or 14.0))


def compact_settings(compact: dict[str, Any], err: KeyErrors) -> CompactSettings:
    """`compact:` (types and ranges checked by configschema; a blank command is refused here)."""
    command = compact.get("command")
    if command is not None and not command.strip():
        raise err("compact.command", "must be a command line string",
                  "example: compact: {command: 'llm -m gpt-4o-mini -s \"Summarize\"', timeout: 60}")
    return CompactSettings(command, float(compact.get("timeout", 60.0)), float(compact.get("ratio", 0.10)))


def _tiers(merged: dict[str, Any], root: str, err: KeyErrors) -> dict[str, Tier]:
    """`tiers:` as Tier records, each key checked, `next` naming a tier."""
    raw_tiers = merged.get("tiers")
    if not isinstance(raw_tiers, dict) or not raw_tiers:
        raise err("tiers", "must be a mapping of tier names to settings")
    tiers: dict[str, Tier] = {}
    for name, spec in raw_tiers.items():
        key = f"tiers.{name}"
        if not isinstance(name, str) or not SLUG.match(name):
            raise err(key, "tier names are lowercase slugs")
        if not isinstance(spec, dict):
            raise err(key, "must be a mapping with at least `path`")
        unknown = set(spec) - TIER_KEYS
        if unknown:
            raise err(f"{key}.{sorted(unknown)[0]}", "unknown tier key", f"known: {', '.join(sorted(TIER_KEYS))}")
        tpath = _check_path(spec.get("path"), err, f"{key}.path", True)
        load = spec.get("load", "on-demand")
        if load not in LOAD_POLICIES:
            raise err(f"{key}.load", f"unknown load policy {load!r}", f"one of: {', '.join(LOAD_POLICIES)}")
        budget_spec = spec.get("budget") or {}
        if not isinstance(budget_spec, dict):
            raise err(f"{key}.budget", "must be a mapping such as {bytes: 4096, tokens: 1000}")
        budget = {}
        for metric, value in budget_spec.items():
            if metric not in METRICS:
                raise err(f"{key}.budget.{metric}", "unknown budget metric", "use bytes, tokens or lines")
            budget[metric] = _limit(value, err, f"{key}.budget.{metric}")
        for int_key in ("ttl_days", "delete_after_days", "keep_last"):
            v = spec.get(int_key)
            if v is not None and (isinstance(v, bool) or not isinstance(v, int) or v < 0):
                raise err(f"{key}.{int_key}", "must be a whole number" + (" of days" if "days" in int_key else ""))
        review = spec.get("review")
        if review not in (None, "pull-request", "none"):
            raise err(f"{key}.review", f"unknown review mode {review!r}", "use pull-request or none")
        full = tpath.lstrip("/") if tpath.startswith("/") else str(PurePosixPath(root) / tpath)
        tiers[name] = Tier(
            name=name, path=tpath, load=load, lifetime=spec.get("lifetime"),
            ttl_days=spec.get("ttl_days"), delete_after_days=spec.get("delete_after_days"),
            keep_last=KEEP_LAST if spec.get("keep_last") is None else spec["keep_last"],
            next=spec.get("next"), review=review, budget=budget,
            durable=bool(spec.get("durable", review == "pull-request")), raw=bool(spec.get("raw", False)),
            in_place=bool(spec.get("in_place", False)),
            regex=path_regex(full),
        )
    for name, tier in tiers.items():
        if tier.next is not None and tier.next not in tiers:
            raise err(f"tiers.{name}.next", f"names no tier ({tier.next!r})", f"tiers are: {', '.join(tiers)}")
    return tiers


def _sections(merged: dict[str, Any], err: KeyErrors) -> tuple[str | None, list, dict, dict, dict]:
    """archive, logs, staging, legacy, limits, labels, compact, gate, scoring and spawn, checked:
    (staging, legacy, limits, labels, compact)."""
    for key in ("archive", "logs"):
        _check_path(merged.get(key, f"{key}/"), err, key, False)
    staging = merged.get("staging")
    if staging is not None:
        _check_path(staging, err, "staging", False)
    legacy = merged.get("legacy") or []
    if not isinstance(legacy, list):
        raise err("legacy", "must be a list of paths")
    for i, item in enumerate(legacy):
        _check_path(item, err, "legacy", True)
    if not isinstance(merged.get("limits") or {}, dict):
        raise err("limits", "must be a mapping such as {max_file_bytes: 262144}")
    limits = {"max_file_bytes": 262144, **(merged.get("limits") or {})}
    unknown = set(limits) - LIMIT_KEYS
    if unknown:
        raise err(f"limits.{sorted(unknown)[0]}", "unknown limit", f"known: {', '.join(sorted(LIMIT_KEYS))}")
    mfb = limits["max_file_bytes"]
    if isinstance(mfb, bool) or not isinstance(mfb, int) or mfb <= 0:
        raise err("limits.max_file_bytes", "must be a positive number of bytes")
    labels = merged.get("labels") or {}
    if not isinstance(labels, dict) or not all(isinstance(v, list) for v in labels.values()):
        raise err("labels", "must map a kind to a list of labels", "example: labels: {rule: ['**Tip:**']}")
    compact = merged.get("compact") or {}
    if not isinstance(compact, dict):
        raise err("compact", "must be a mapping such as {command: 'llm -m gpt-4o-mini', timeout: 60}")
    for key in ("gate", "scoring"):
        if not isinstance(merged.get(key, {}), dict):
            raise err(key, "must be a mapping")
    _check_spawn(merged.get("spawn"), err)
    return staging, legacy, limits, labels, compact


def _check_spawn(spawn: Any, err: KeyErrors) -> None:
    """`spawn: {escalation: {situation: name}, recent_actions: N}` (used by spawn_template)."""
    if spawn is None:
        return
    # knowledge_tokens, min_score, min_relevance and max_items are checked by tiergit/features/knowledge.py.
    known = {"escalation", "recent_actions", "knowledge_tokens", "min_score", "min_relevance", "max_items", "stale"}
    if not isinstance(spawn, dict) or set(spawn) - known:
        raise err("spawn", f"takes {', '.join(f'`{k}`' for k in sorted(known))}",
                  "example: spawn: {escalation: {blocked: Picard, risk: the owner}, recent_actions: 5}")
    esc = spawn.get("escalation")
    if esc is not None and (not isinstance(esc, dict) or not all(isinstance(v, str) for v in esc.values())):
        raise err("spawn.escalation", "must map a situation to a name",
                  "situations: blocked, decision, risk (or your own); a name such as 'Picard' or '' to leave one out")
    n = spawn.get("recent_actions")
    if n is not None and (isinstance(n, bool) or not isinstance(n, int) or n < 1):
        raise err("spawn.recent_actions", "must be a whole number of actions, at least 1",
                  "Squad's hot template keeps the last 3-5 actions")
