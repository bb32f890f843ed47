"""Sizes of every tier and memory file at every commit that touched the store, from git objects.

One `git log --raw` walk along the first-parent line gives each commit's changed blobs;
one `git cat-file --batch` reads each distinct blob once. Nothing is checked out, and
the output depends only on the repository (the same repo gives the same bytes).
Legacy files (config `legacy`, e.g. Squad's `history.md`) are tracked beside the tiers
so that the before/after of adopting tiergit is visible.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timezone

from tiergit.core.config import PATH_PLACEHOLDER_RE, Config, path_regex
from tiergit.errors import TiergitError
from tiergit.features.budget import line_count
from tiergit.shell import git, progress
from tiergit.shell.tokens import TokenCache, estimate

LEGACY = "legacy"
METRICS = ("bytes", "lines", "tokens")


@dataclass(frozen=True)
class Tracked:
    """What a path is to history: a tier file, a legacy file, or both (openclaw's MEMORY.md)."""
    tier: str | None
    agent: str | None
    legacy: bool


@dataclass(frozen=True)
class FileSize:
    bytes: int
    lines: int
    tokens: int
    exact: bool

    def as_dict(self) -> dict:
        return {"bytes": self.bytes, "lines": self.lines, "tokens": self.tokens, "tokens_exact": self.exact}


def _full(config: Config, pattern: str) -> str:
    return pattern.lstrip("/") if pattern.startswith("/") else config.repo_path(pattern)


def pathspecs(config: Config) -> list[str]:
    """Git pathspecs covering the store, repo-level tier files and the legacy files."""
    specs = [f"{config.root.rstrip('/')}/" if config.root not in (".", "") else "."]
    patterns = [t.path for t in config.tiers.values() if t.path.startswith("/")]
    patterns += ["/" + p.lstrip("/") for p in config.legacy]
    for pattern in patterns:
        glob = PATH_PLACEHOLDER_RE.sub("*", _full(config, pattern))
        specs.append(f":(glob){glob}")
    return sorted(set(specs))


def legacy_regexes(config: Config) -> list[re.Pattern[str]]:
    return [path_regex(p.lstrip("/")) for p in config.legacy]


def classify(config: Config, legacy: list[re.Pattern[str]], rel: str) -> Tracked | None:
    match = config.tier_for(rel)
    agent = match[1].get("agent") if match else None
    is_legacy = False
    for rx in legacy:
        m = rx.match(rel)
        if m:
            is_legacy = True
            agent = agent or m.groupdict().get("agent")
    if match is None and not is_legacy:
        return None
    return Tracked(tier=match[0].name if match else None, agent=agent, legacy=is_legacy)


def parse_since(value: str | None) -> int | None:
    """DATE (YYYY-MM-DD, or an ISO time) -> unix seconds, UTC."""
    if not value:
        return None
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        raise TiergitError(f"--since {value!r}: not a date", "use YYYY-MM-DD, e.g. --since 2026-05-01") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return int(moment.timestamp())


def iso(ts: int) -> str:
    return datetime.fromtimestamp(ts, tz=timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def blob_size(data: bytes, blob: str, cache: TokenCache, exact: bool) -> FileSize:
    text = data.decode("utf-8", "replace")
    known = cache.get(blob)
    if known is not None:
        tokens, is_exact = known, True
    elif exact:
        count = cache.count(text, blob)
        tokens, is_exact = count.tokens, count.exact
    else:
        tokens, is_exact = estimate(text), False
    return FileSize(bytes=len(data), lines=line_count(text), tokens=tokens, exact=is_exact)


def collect(store, since: str | None = None, agent: str | None = None, exact: bool = False,
            rev: str = "HEAD") -> dict:
    """The history model (plain data, the --json output). Oldest commit first."""
    config = store.config
    since_ts = parse_since(since)
    legacy = legacy_regexes(config)
    commits = git.log_changes(store.repo, pathspecs(config), rev)
    tracked: dict[str, Tracked] = {}
    for commit in commits:
        for change in commit.changes:
            if change.path not in tracked:
                kind = classify(config, legacy, change.path)
                if kind is not None and (agent is None or kind.agent == agent):
                    tracked[change.path] = kind
    regular = {c.blob for commit in commits for c in commit.changes
               if c.path in tracked and c.status != "D" and c.mode.startswith("100")}
    cache = store.token_cache
    # each version is measured as it is read and let go (the store's whole history is never held)
    with progress.bar(len(regular), "history: measuring versions") as shown:
        sizes = {}
        for blob, data in git.iter_blobs(store.repo, sorted(regular)):
            if data is not None:
                sizes[blob] = blob_size(data, blob, cache, exact)
            shown.update(1)
    if exact:
        cache.save()
    totals = Totals(config, tracked)
    points = []
    for commit in progress.iterate(commits, "history: replaying commits"):
        changed = []
        for change in commit.changes:
            if change.path not in tracked:
                continue
            changed.append(change.path)
            totals.set(change.path, None if change.status == "D" else sizes.get(change.blob))
        if not changed or (since_ts is not None and commit.time < since_ts):
            continue
        points.append(_point(commit, sorted(set(changed)), totals))
    return {
        "root": config.root,
        "tokenizer": config.tokenizer,
        "agent": agent,
        "since": since,
        "tiers": {name: {"load": t.load, "budget": {k: {"warn": round(v.warn, 1), "max": round(v.max, 1)}
                                                    for k, v in t.budget.items()}}
                  for name, t in config.tiers.items()},
        "files": {p: {"tier": k.tier, "agent": k.agent, "legacy": k.legacy} for p, k in sorted(tracked.items())},
        "commits": points,
        "latest": {p: size.as_dict() for p, size in sorted(totals.files.items())},
        "tokens_exact": all(s.exact for s in sizes.values()),
    }


class Totals:
    """Each file's current size and running sums per tier and for legacy files: a commit's
    point costs its own changes, not the whole store (history stays linear in changes)."""

    def __init__(self, config: Config, tracked: dict[str, Tracked]) -> None:
        self.tracked = tracked
        self.files: dict[str, FileSize] = {}
        self.sums: dict[str, list[int]] = {name: [0, 0, 0, 0, 0] for name in [*config.tiers, LEGACY]}

    def set(self, path: str, size: FileSize | None) -> None:
        old = self.files.pop(path, None)
        if old is not None:
            self._add(path, old, -1)
        if size is not None:
            self.files[path] = size
            self._add(path, size, 1)

    def _add(self, path: str, size: FileSize, sign: int) -> None:
        kind = self.tracked[path]
        for key in ([kind.tier] if kind.tier else []) + ([LEGACY] if kind.legacy else []):
            acc = self.sums[key]
            acc[0] += sign
            acc[1] += sign * size.bytes
            acc[2] += sign * size.lines
            acc[3] += sign * size.tokens
            acc[4] += sign * (not size.exact)

    def summary(self, key: str) -> dict:
        n, b, lines, tokens, inexact = self.sums[key]
        return {"files": n, "bytes": b, "lines": lines, "tokens": tokens, "tokens_exact": inexact == 0}


def _point(commit: git.LogCommit, changed: list[str], totals: Totals) -> dict:
    """One commit: its tier and legacy totals, and the new size of each file it changed
    (None: deleted). Files it did not change keep their size from earlier points."""
    return {
        "commit": commit.commit,
        "date": iso(commit.time),
        "subject": commit.subject,
        "changed": changed,
        "tiers": {name: totals.summary(name) for name in totals.sums if name != LEGACY},
        LEGACY: totals.summary(LEGACY),
        "files": {p: (totals.files[p].as_dict() if p in totals.files else None) for p in changed},
    }


def file_state(model: dict, index: int = -1) -> dict[str, dict]:
    """Every file's size after commit `index` of the model (points carry changes only)."""
    state: dict[str, dict] = {}
    points = model["commits"]
    for point in points[: (index % len(points)) + 1] if points else []:
        for path, size in point["files"].items():
            if size is None:
                state.pop(path, None)
            else:
                state[path] = size
    return state


def series(model: dict, key: str, metric: str = "bytes") -> list[int]:
    """One value per commit: a tier name, "legacy", or a file path."""
    out = []
    current = 0   # a file's size carries over the commits that did not change it
    for point in model["commits"]:
        if key in point["tiers"]:
            out.append(point["tiers"][key][metric])
        elif key == LEGACY:
            out.append(point[LEGACY][metric])
        else:
            if key in point["files"]:
                size = point["files"][key]
                current = size[metric] if size else 0
            out.append(current)
    return out


def file_sparks(store, last: int = 20, scan: int = 400) -> dict[str, list[int]]:
    """Byte size of each memory file after each of its last `last` committed versions, oldest
    first: one bounded `git log` (the newest `scan` store commits) + one `cat-file --batch-check`.
    Cheap enough for `tiergit status`."""
    config = store.config
    legacy = legacy_regexes(config)
    commits = git.log_changes(store.repo, pathspecs(config), max_count=scan, oldest_first=False)
    versions: dict[str, list[str]] = {}
    for commit in commits:
        for change in commit.changes:
            if change.status == "D" or not change.mode.startswith("100"):
                continue
            if change.path not in versions and classify(config, legacy, change.path) is None:
                continue
            blobs = versions.setdefault(change.path, [])
            if len(blobs) < last:
                blobs.append(change.blob)
    sizes = git.blob_sizes(store.repo, [b for blobs in versions.values() for b in blobs])
    return {p: [sizes[b] for b in reversed(blobs) if b in sizes] for p, blobs in sorted(versions.items())}
