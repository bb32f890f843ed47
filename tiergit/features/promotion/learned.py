"""The gate's learned reading (core/riskmodel.py, the shipped model in shell/riskweights.py) as the
gate's and `propose`'s "read carefully" answer. Its bar was fixed on the rounds it was trained on
(leave one round out, benchmarks/train_riskmodel.py --cv) before the blind round 11 was written:
routing to the read-carefully section costs a reviewer a closer look, not an item, so the bar is low.
It never refuses (a junk head that did refused short durable lines the team wrote: docs/promotion.md)."""
from __future__ import annotations

from functools import lru_cache

from tiergit.core import riskmodel
from tiergit.shell import riskweights

LEARNED_WEAKEN = 0.3


@lru_cache(maxsize=65536)
def weaken_probability(raw: str) -> float:
    """How likely an item's whole text weakens a safeguard (cached: the gate and the PR ask twice)."""
    return riskmodel.probability(riskweights.model(), "weaken", riskmodel.features(raw))


def careful(raw: str) -> str | None:
    """Why the learned reading sends an item to the PR's read-carefully section, or None."""
    p = weaken_probability(raw)
    return (f"the learned reading says it may weaken a safeguard (p {p:.2f} >= {LEARNED_WEAKEN}): read carefully"
            if p >= LEARNED_WEAKEN else None)

