"""Frontmatter values derived from the file itself, recomputed by the merge, never conflicted.

The hot file's `tiergit: {body: <hash>}` is the hash of the body as tiergit last wrote
it: its being equal to the body's hash means "no unfinished notes". Merged key by key, two
sides that each wrote a new hash conflicted, and keeping either hash beside a merged
body made the next `session start` see an unfinished session that was none. Here the
merged value is decided from what each side meant: when every side's hash matched its
own body (nothing unfinished anywhere), the merged body is just as clean and gets its
own hash; when a side had unfinished notes, those notes are in the merged body, so the
hash stays one that does not match (that side's), and `session end` picks them up.
Cost: one sha1 of the merged body, only for files that carry the key.
"""
from __future__ import annotations

from collections.abc import Callable   # not typing: ~3 ms of every merged file

from tiergit.core.sha1 import sha1   # not hashlib: its OpenSSL load is ~3 ms of every merged file


def body_hash(body: str) -> str:
    """Must equal hotfile.body_hash (tests/features/test_merge_hostile.py checks it)."""
    return sha1(body.encode("utf-8")).hexdigest()[:12]


# (parent key, key) of every derived value, and how it is computed from the body.
DERIVED: dict[tuple[str, str], Callable[[str], str]] = {("tiergit", "body"): body_hash}


def _stored(meta: dict, parent: str, key: str) -> object:
    value = meta.get(parent) if isinstance(meta, dict) else None
    return value.get(key) if isinstance(value, dict) else None


def values(metas: tuple[dict, dict], bodies: tuple[str, str], merged_body: str) -> dict[tuple[str, str], str]:
    """The derived values the merged file must carry: {(parent, key): value}."""
    out = {}
    for (parent, key), compute in DERIVED.items():
        stored = [_stored(m, parent, key) for m in metas]
        if all(s is None for s in stored):
            continue
        unclean = [s for s, body in zip(stored, bodies) if s is not None and s != compute(body)]
        merged = compute(merged_body)
        if not unclean:
            out[(parent, key)] = merged
        else:
            out[(parent, key)] = unclean[0] if unclean[0] != merged else "0" * 12
    return out


def apply(meta: dict, fixed: dict[tuple[str, str], str]) -> dict:
    """A copy of `meta` with the derived values set where their parent mapping exists."""
    out = dict(meta)
    for (parent, key), value in fixed.items():
        if isinstance(out.get(parent), dict):
            out[parent] = {**out[parent], key: value}
    return out


def fits(meta: dict, fixed: dict[tuple[str, str], str]) -> bool:
    """True when `meta` already carries every derived value (its text can be kept verbatim)."""
    return all(_stored(meta, p, k) in (None, v) for (p, k), v in fixed.items())
