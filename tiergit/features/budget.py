"""Sizes of a file (bytes, tokens, lines) against its tier's budget -> health."""
from __future__ import annotations

from tiergit.core.config import Limit, Tier
from tiergit.core.record import Factory, record_class
from tiergit.shell.tokens import Count, TokenCache

HEALTH_ORDER = {"healthy": 0, "warning": 1, "critical": 2}


@record_class
class Measure:
    """A file's size in every budget metric."""
    bytes: int
    lines: int
    tokens: int
    tokens_exact: bool

    def get(self, metric: str) -> int:
        return getattr(self, metric)

    def as_dict(self) -> dict:
        return {"bytes": self.bytes, "lines": self.lines, "tokens": self.tokens,
                "tokens_exact": self.tokens_exact}


@record_class
class BudgetVerdict:
    """One metric of a file against its tier's limit."""
    metric: str
    value: int
    limit: Limit
    health: str

    @property
    def percent(self) -> float:
        return 100.0 * self.value / self.limit.max if self.limit.max else 0.0


@record_class
class FileHealth:
    """A file's verdicts against every metric of its tier's budget."""
    path: str
    tier: str
    measure: Measure
    verdicts: list[BudgetVerdict] = Factory(list)

    @property
    def health(self) -> str:
        return worst(v.health for v in self.verdicts)

    @property
    def percent(self) -> float:
        return max((v.percent for v in self.verdicts), default=0.0)


def worst(healths) -> str:
    best = "healthy"
    for h in healths:
        if HEALTH_ORDER[h] > HEALTH_ORDER[best]:
            best = h
    return best


def line_count(text: str) -> int:
    return text.count("\n") + (1 if text and not text.endswith("\n") else 0)


def measure(text: str, data: bytes, tier: Tier | None, cache: TokenCache, blob: str | None = None,
            force_tokens: bool = False, more: int = 0, base: tuple[str, str] | None = None) -> Measure:
    """Count what the budget needs. Tokens <= bytes always (a token covers >= 1 byte),
    so a file whose byte size is under its token warn level needs no tokenizer. `more`:
    characters the caller expects to count after this file (it picks the counter, see tokens);
    `base`: (blob id, text) of the version HEAD holds (TokenCache.count counts what changed)."""
    token_budget = tier.budget.get("tokens") if tier else None
    need = force_tokens or (token_budget is not None and len(data) > token_budget.warn)
    if need:
        count = cache.count(text, blob, more, base)
    elif (known := cache.get(blob)) is not None:
        count = Count(known, True)
    else:
        count = Count(min(len(data), (len(text) + 3) // 4), exact=False)
    return Measure(bytes=len(data), lines=line_count(text), tokens=count.tokens, tokens_exact=count.exact)


def metric_value(text: str, metric: str, encoding: str) -> int:
    """`text` measured in one budget metric (bytes, lines or tokens; a token count costs a BPE pass)."""
    if metric == "bytes":
        return len(text.encode("utf-8"))
    if metric == "lines":
        return line_count(text)
    from tiergit.shell.tokens import count_text

    return count_text(text, encoding).tokens


def over(text: str, tier: Tier, encoding: str, level: str = "max") -> bool:
    """Is `text` at or above the tier's warn level (level="warn"), or over a hard max
    (level="max"), in any budget metric? Stops at the first metric over, so a token count
    is paid only when bytes and lines are within."""
    for metric, limit in tier.budget.items():
        value = metric_value(text, metric, encoding)
        if (value >= limit.warn) if level == "warn" else (value > limit.max and limit.hard):
            return True
    return False


def level(value: float, limit: Limit) -> str:
    """OpenClaw's levels: below warn healthy, from warn up to max a warning, above max critical
    ({warn: 200, max: 300} lines: 199 ok, 200 and 300 warning, 301 critical). A warn-only
    limit (`hard=False`) never reaches critical."""
    if value > limit.max and limit.hard:
        return "critical"
    return "warning" if value >= limit.warn else "healthy"


def judge(path: str, tier: Tier, m: Measure) -> FileHealth:
    fh = FileHealth(path=path, tier=tier.name, measure=m)
    for metric, limit in tier.budget.items():
        value = m.get(metric)
        health = level(value, limit)
        fh.verdicts.append(BudgetVerdict(metric, value, limit, health))
    return fh
