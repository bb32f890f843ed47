"""The config model: `Config`, its tiers and their budget limits, and the path rules they share.
Pure. Validation (`.tiergit.yml` data in, a `Config` out) is core/configcheck.py; reading the
file and the packaged presets, and the symlink check, live in the shell."""
from __future__ import annotations

import re
from pathlib import Path, PurePosixPath

from tiergit.core.configschema import check_slug
from tiergit.core.record import Factory, record_class
from tiergit.errors import TiergitError

TYPE_CHECKING = False   # typing's own flag without importing typing (~5 ms of the hook's start)
if TYPE_CHECKING:
    from typing import Any

PLACEHOLDERS = {"agent", "topic", "date"}
PATH_PLACEHOLDER_RE = re.compile(r"\{([^{}]*)\}")
LOAD_POLICIES = ("always", "on-demand", "selective", "never")
METRICS = ("bytes", "tokens", "lines")


DEFAULT_WEIGHTS: dict[str, float] = {
    "relevance": 0.30, "frequency": 0.24, "diversity": 0.15,
    "recency": 0.15, "consolidation": 0.10, "conceptual": 0.06,
}


@record_class(frozen=True)
class GateSettings:
    """`gate:` — what a candidate needs to graduate (the preset's values, then the team's)."""
    min_score: float = 0.70
    min_recalls: int = 2
    min_age_days: int = 30
    duplicate_ratio: float = 85.0
    min_confidence: float = 0.60   # a staged Dreaming candidate below it never passes
    stale_days: int = 180                    # audit: a dated fact or context item older than this


@record_class(frozen=True)
class ScoringSettings:
    """`scoring:` — the six signals' weights and how fast recency decays."""
    weights: dict[str, float] = Factory(lambda: dict(DEFAULT_WEIGHTS))
    recency_half_life_days: float = 14.0


@record_class(frozen=True)
class CompactSettings:
    """`compact:` — session end's summarizer command (optional) and how much of the notes to keep."""
    command: str | None = None
    timeout: float = 60.0
    ratio: float = 0.10


@record_class(frozen=True)
class Limit:
    """A budget metric's warn level and max (hard: over max blocks a commit)."""
    warn: float
    max: float
    # False for a warn-only budget ({warn: N} without max): over it is a warning, never a block.
    hard: bool = True


@record_class
class Tier:
    """One memory tier: where its files live, its budget and how long they keep."""
    name: str
    path: str
    load: str = "on-demand"
    lifetime: str | None = None
    ttl_days: int | None = None
    delete_after_days: int | None = None
    keep_last: int = 3          # newest dated entries retention never moves out (any age)
    next: str | None = None
    review: str | None = None
    budget: dict[str, Limit] = Factory(dict)
    durable: bool = False
    raw: bool = False
    in_place: bool = False      # a framework's own files: read, recalled, checked; never rewritten
    regex: re.Pattern[str] | None = None

    @property
    def reviewed(self) -> bool:
        return self.review == "pull-request"


@record_class
class Config:
    """A store's settings, read from .tiergit.yml over its preset."""
    repo_root: Path
    path: Path
    data: dict[str, Any]
    root: str
    tokenizer: str
    tiers: dict[str, Tier]
    archive: str
    logs: str
    staging: str | None
    legacy: list[str]
    gate: GateSettings
    scoring: ScoringSettings
    limits: dict[str, Any]
    labels: dict[str, list[str]]
    compact: CompactSettings
    schedule: Any = None

    @property
    def store_dir(self) -> Path:
        return self.repo_root / self.root

    def repo_path(self, pattern_path: str) -> str:
        """A config path (relative to root, or to the repo when it starts with '/')."""
        if pattern_path.startswith("/"):
            return pattern_path.lstrip("/")
        return str(PurePosixPath(self.root) / pattern_path)

    def tier_for(self, repo_relpath: str) -> tuple[Tier, dict[str, str]] | None:
        """Which tier a repo-relative path belongs to, with its placeholder values."""
        for tier in self.tiers.values():
            assert tier.regex is not None
            match = tier.regex.match(repo_relpath)
            if match:
                return tier, match.groupdict()
        return None

    def tier_file(self, tier_name: str, **values: str) -> Path:
        """The absolute path of a tier file; every placeholder value must be a slug."""
        tier = self.tiers.get(tier_name)
        if tier is None:
            raise TiergitError(f"{self.path.name}: no tier named {tier_name!r}",
                               f"tiers are: {', '.join(self.tiers)}")
        for name, value in values.items():
            check_slug(name, value)
        try:
            rel = tier.path.format(**values)
        except KeyError as exc:
            raise TiergitError(f"tier {tier_name!r} needs a value for {{{exc.args[0]}}}") from None
        return self.repo_root / self.repo_path(rel)


def path_regex(rel: str) -> re.Pattern[str]:
    parts = PATH_PLACEHOLDER_RE.split(rel)
    out = []
    for i, part in enumerate(parts):
        if i % 2 == 0:
            out.append(re.escape(part))
        elif part == "date":
            # OpenClaw writes several notes a day: YYYY-MM-DD-HHMM.md, YYYY-MM-DD-<slug>.md.
            out.append(r"(?P<date>\d{4}-\d{2}-\d{2})(?:-[A-Za-z0-9][A-Za-z0-9._-]*)?")
        else:
            out.append(rf"(?P<{part}>[a-z0-9][a-z0-9._-]*)")
    return re.compile("^" + "".join(out) + r"\Z")


