"""The shipped learned reading (templates/models/risk.bin, written by benchmarks/train_riskmodel.py),
decoded once per process. Cost: one ~1 MB read and ~50 ms to decode, only when the promotion gate or
`propose` first asks; the hooks never do."""
from __future__ import annotations

from functools import lru_cache

from tiergit.core import riskmodel
from tiergit.shell import resources


@lru_cache(maxsize=1)
def model() -> riskmodel.Model:
    return riskmodel.decode(resources.read_bytes("models", "risk.bin"))
