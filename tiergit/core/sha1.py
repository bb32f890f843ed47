"""sha1 without hashlib: CPython's built-in `_sha1` module. hashlib's import loads OpenSSL (~2-5 ms),
which the hook, the config cache and the recall fast path would pay for one digest each.
tiergit/hookentry.py keeps its own import: it loads no tiergit module."""
from __future__ import annotations

try:
    from _sha1 import sha1
except ImportError:   # pragma: no cover - a Python built without it
    from hashlib import sha1

__all__ = ["sha1"]
