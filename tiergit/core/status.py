"""The status model's records: each memory file, each tier and the store in total, measured
against their budgets. Built by tiergit.features.statusmodel; read by `status`, the charts,
the HTML report, the MCP server and the post-merge hook. `as_dict()` is the `--json` shape,
used only where JSON is written."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

OPTIONAL = ("budget", "entries", "pinned", "items", "error", "spark", "spark_bytes")


def tokens_text(tokens: int, exact: bool) -> str:
    """A token count as printed everywhere: exact, or `~N` for an estimate."""
    return str(tokens) if exact else f"~{tokens}"


@dataclass
class FileStatus:
    path: str
    tier: str
    health: str                        # healthy | warning | critical
    bytes: int = 0
    lines: int = 0
    tokens: int = 0
    tokens_exact: bool = False
    percent: float | None = None       # of the fullest budget metric; None without a budget
    budget: dict[str, dict[str, float]] | None = None   # metric -> {warn, max}
    error: str | None = None           # why the file could not be measured or parsed
    entries: int | None = None         # --deep: parsed counts
    pinned: int | None = None
    items: int | None = None
    spark: str | None = None           # status: size over its last commits, as a sparkline
    spark_bytes: list[int] | None = None

    @property
    def tokens_text(self) -> str:
        return tokens_text(self.tokens, self.tokens_exact)

    def as_dict(self) -> dict[str, Any]:
        out = {"path": self.path, "tier": self.tier, "bytes": self.bytes, "lines": self.lines,
               "tokens": self.tokens, "tokens_exact": self.tokens_exact, "percent": self.percent,
               "health": self.health}
        out.update({k: getattr(self, k) for k in OPTIONAL if getattr(self, k) is not None})
        return out


@dataclass
class TierStatus:
    tier: str
    load: str
    files: int
    bytes: int
    tokens: int
    lines: int
    health: str

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class TotalStatus:
    files: int
    bytes: int
    tokens: int
    lines: int
    tokens_exact: bool
    health: str

    @property
    def tokens_text(self) -> str:
        return tokens_text(self.tokens, self.tokens_exact)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class StatusModel:
    root: str
    tiers: list[TierStatus]
    files: list[FileStatus]
    total: TotalStatus
    notes: list[str] = field(default_factory=list)
    promotion: dict[str, Any] | None = None    # promotion and Dreaming health (`status` only)
    places: list[dict[str, Any]] | None = None  # archive and staging (`status` only)

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"root": self.root, "tiers": [t.as_dict() for t in self.tiers],
                               "files": [f.as_dict() for f in self.files], "total": self.total.as_dict()}
        if self.promotion is not None:
            out["promotion"] = self.promotion
        if self.places is not None:
            out["places"] = self.places
        if self.notes:
            out["notes"] = self.notes
        return out
