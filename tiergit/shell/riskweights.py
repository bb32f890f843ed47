"""The shipped learned reading (templates/models/risk.bin, written by benchmarks/train_riskmodel.py),
decoded once per process. Cost: one ~210 KB read and ~65 ms to decode, only when the promotion gate or
`propose` first asks; the hooks never do."""
from __future__ import annotations

import struct
import zlib
from functools import lru_cache

from tiergit.core import riskmodel
from tiergit.errors import TiergitError
from tiergit.shell import resources


@lru_cache(maxsize=1)
def model() -> riskmodel.Model:
    try:
        return riskmodel.decode(resources.read_bytes("models", "risk.bin"))
    except (OSError, ValueError, zlib.error, struct.error) as e:
        raise TiergitError(f"tiergit's packaged model templates/models/risk.bin cannot be read ({e})",
                           "reinstall tiergit (pip install --force-reinstall tiergit)") from None
