"""Every `.tiergit.yml` key in one table: its type, its range, and what to write instead.

`validate(data, err)` walks the merged config (preset + overrides) and refuses the
first key the table does not know and the first value of the wrong type or out of
range, by its dotted name, so `_Errors` can name the line. `*` in a key matches
any name at that place (a tier name, a budget metric). Adding a key is one line here.
Cost: one walk over the config's keys (a few dozen); no imports beyond the stdlib.
"""
from __future__ import annotations

import re

from tiergit.core.record import record_class
from tiergit.errors import TiergitError

TYPE_CHECKING = False   # typing's own flag without importing typing (~5 ms of the hook's start)
if TYPE_CHECKING:
    from typing import Any, Callable

CONFIG_NAME = ".tiergit.yml"
PRESETS = ("squad", "openclaw", "custom")
SLUG = re.compile(r"^[a-z0-9][a-z0-9._-]*\Z")  # \Z: `$` would accept "name\n"


def check_slug(name: str, value: str) -> str:
    if not isinstance(value, str) or not SLUG.match(value):
        raise TiergitError(
            f"invalid {name} name {value!r}: must match [a-z0-9][a-z0-9._-]*",
            "use a plain lowercase name such as 'picard', not a path",
        )
    if ".." in value:
        raise TiergitError(f"invalid {name} name {value!r}: '..' is not allowed",
                           "use a plain lowercase name such as 'picard'")
    return value

KINDS = ("decision", "rule", "fact", "correction", "permission", "error", "open", "context", "log")
SIGNALS = ("relevance", "frequency", "diversity", "recency", "consolidation", "conceptual")
# tiktoken's own encodings; any other name must be one a tiktoken plugin registers.
ENCODINGS = ("cl100k_base", "o200k_base", "o200k_harmony", "p50k_base", "p50k_edit", "r50k_base", "gpt2")


@record_class(frozen=True)
class Field:
    """What one config key accepts: its type, bounds and allowed values."""
    type: str                       # int | number | str | bool | map | list | limit | any
    lo: float | None = None         # inclusive minimum
    hi: float | None = None         # inclusive maximum
    above: float | None = None      # exclusive minimum
    choices: tuple = ()             # allowed values
    names: tuple = ()               # for a `*` key: the names it allows (else any name)
    null: bool = False              # null allowed (removes a preset value)
    hint: str = ""


SCHEMA: dict[str, Field] = {
    "version": Field("int", choices=(1,)),
    "preset": Field("str", choices=("squad", "openclaw", "custom")),
    "root": Field("str"),
    "tokenizer": Field("str", hint="a tiktoken encoding such as cl100k_base or o200k_base"),
    "tiers": Field("map"),
    "tiers.*": Field("map", null=True),
    "tiers.*.path": Field("str"),
    "tiers.*.load": Field("str", choices=("always", "on-demand", "selective", "never")),
    "tiers.*.lifetime": Field("str", null=True, hint="e.g. lifetime: session"),
    "tiers.*.ttl_days": Field("int", lo=0, null=True),
    "tiers.*.delete_after_days": Field("int", lo=0, null=True),
    "tiers.*.keep_last": Field("int", lo=0, null=True, hint="how many newest entries retention always keeps, e.g. 3"),
    "tiers.*.next": Field("str", null=True),
    "tiers.*.review": Field("str", choices=("pull-request", "none"), null=True),
    "tiers.*.budget": Field("map", null=True),
    "tiers.*.budget.*": Field("limit", names=("bytes", "tokens", "lines")),
    "tiers.*.durable": Field("bool"),
    "tiers.*.raw": Field("bool"),
    "tiers.*.in_place": Field("bool", hint="true for a framework's own files tiergit reads but never rewrites"),
    "archive": Field("str"),
    "logs": Field("str"),
    "staging": Field("str", null=True),
    "legacy": Field("list", null=True),
    "gate": Field("map", null=True),
    "gate.min_score": Field("number", lo=0, hi=1, hint="a score between 0 and 1, e.g. 0.70"),
    "gate.min_recalls": Field("int", lo=0),
    "gate.min_age_days": Field("int", lo=0),
    "gate.duplicate_ratio": Field("number", lo=0, hi=100, hint="percent similarity, e.g. 85"),
    "gate.stale_days": Field("int", lo=0),
    "gate.min_confidence": Field("number", lo=0, hi=1, hint="a Dreaming confidence between 0 and 1, e.g. 0.60"),
    "scoring": Field("map", null=True),
    "scoring.weights": Field("map"),
    "scoring.weights.*": Field("number", lo=0, hi=1, names=SIGNALS),
    "scoring.recency_half_life_days": Field("number", above=0),
    "limits": Field("map", null=True),
    "limits.max_file_bytes": Field("int", lo=1, hi=64 * 1024 * 1024,
                                   hint="the hook reads at most this much per file; keep it in megabytes"),
    "limits.lock_wait_seconds": Field("number", above=0, hi=86400,
                                      hint="how long a writing command waits for the store lock, e.g. 1800"),
    "labels": Field("map", null=True),
    "labels.*": Field("list", names=KINDS, hint="example: labels: {rule: ['**Tip:**']}"),
    "compact": Field("map", null=True),
    "compact.command": Field("str", null=True, hint="example: compact: {command: 'llm -m gpt-4o-mini'}"),
    "compact.timeout": Field("number", above=0, hint="seconds, e.g. 60"),
    "compact.ratio": Field("number", above=0, hi=1, hint="a fraction of the notes to keep, e.g. 0.10"),
    "schedule": Field("any", null=True),
    "spawn": Field("map", null=True),
    "spawn.escalation": Field("any", null=True),   # {situation: name}; configcheck._check_spawn checks it
    "spawn.recent_actions": Field("int", lo=1),
    "spawn.knowledge_tokens": Field("int", lo=0),
    "spawn.max_items": Field("int", lo=0),
    "spawn.min_score": Field("number", lo=0, hi=1),
    "spawn.min_relevance": Field("number", lo=0, hi=1),
    "spawn.stale": Field("str", choices=("omit", "mark"), hint="omit (default) leaves stale items out of the "
                         "spawn; mark serves them with the reason"),
}

TYPES: dict[str, tuple[Callable[[Any], bool], str]] = {
    "int": (lambda v: isinstance(v, int) and not isinstance(v, bool), "a whole number"),
    "number": (lambda v: isinstance(v, (int, float)) and not isinstance(v, bool), "a number"),
    "str": (lambda v: isinstance(v, str) and v.strip() != "", "a non-empty string"),
    "bool": (lambda v: isinstance(v, bool), "true or false"),
    "map": (lambda v: isinstance(v, dict), "a mapping (key: value)"),
    "list": (lambda v: isinstance(v, list) and all(isinstance(x, str) and x.strip() for x in v),
             "a list of strings"),
    "limit": (lambda v: True, ""),   # a number or {warn, max}: configcheck._limit checks it
    "any": (lambda v: True, ""),
}


def field_for(key: str) -> tuple[str, Field] | None:
    """The table entry for a dotted key (its pattern and field), trying `*` per level."""
    patterns = [""]
    for part in key.split("."):
        patterns = [f"{p}.{x}" if p else x for p in patterns for x in (part, "*")]
    for pattern in patterns:
        if pattern in SCHEMA:
            return pattern, SCHEMA[pattern]
    return None


def children(pattern: str) -> list[str]:
    prefix = pattern + "."
    return sorted(k[len(prefix):] for k in SCHEMA if k.startswith(prefix) and "." not in k[len(prefix):])


def problem(key: str, fld: Field, value: Any) -> tuple[str, str] | None:
    """(message, hint) when `value` does not fit `fld`, else None."""
    if value is None:
        return None if fld.null else ("must not be empty", fld.hint or f"give {TYPES[fld.type][1]}")
    check, what = TYPES[fld.type]
    hint = fld.hint or f"{key} takes {what}; every key: docs/foundation.md"
    if not check(value):
        return f"must be {what}, not {value!r}"[:200], hint
    if fld.choices and value not in fld.choices:
        return f"{value!r} is not one of {', '.join(map(str, fld.choices))}", hint
    if fld.type in ("int", "number"):
        if (fld.lo is not None and value < fld.lo) or (fld.hi is not None and value > fld.hi) \
                or (fld.above is not None and value <= fld.above):
            low = f"> {fld.above}" if fld.above is not None else f">= {fld.lo}" if fld.lo is not None else ""
            high = f"<= {fld.hi}" if fld.hi is not None else ""
            return f"{value!r} is out of range (must be {' and '.join(x for x in (low, high) if x)})", hint
    return None


def validate(data: dict[str, Any], err, prefix: str = "") -> None:
    """Raise err(key, message, hint) for the first unknown key or bad value under `data`."""
    for name, value in data.items():
        key = f"{prefix}{name}"
        found = field_for(key)
        if found is None or (found[1].names and str(name) not in found[1].names):
            if found is not None:
                known = list(found[1].names)
            else:
                parent = field_for(prefix[:-1]) if prefix else None
                known = children(parent[0] if parent else "")
            raise err(key, "unknown key", f"known: {', '.join(k for k in known if k != '*') or 'none'}")
        fld = found[1]
        bad = problem(key, fld, value)
        if bad:
            raise err(key, bad[0], bad[1] or None)
        if fld.type == "map" and isinstance(value, dict):
            validate(value, err, key + ".")
    if not prefix:
        check_tokenizer(data.get("tokenizer"), err)


def check_tokenizer(name: Any, err) -> None:
    if not isinstance(name, str) or name in ENCODINGS:
        return
    try:  # a tiktoken plugin may register more encodings (rare: only then is tiktoken imported)
        import tiktoken

        if name in tiktoken.list_encoding_names():
            return
    except Exception:  # noqa: BLE001 - no tiktoken: only the built-in names are known
        pass
    raise err("tokenizer", f"unknown tokenizer {name!r}", f"use a tiktoken encoding: {', '.join(ENCODINGS)}")


def next_cycle(nexts: dict[str, str | None]) -> list[str] | None:
    """The first cycle in the tiers' `next` chain (['hot', 'cold', 'hot']), or None."""
    for start in nexts:
        seen, name = [start], nexts.get(start)
        while name is not None and name in nexts:
            if name in seen:
                return seen[seen.index(name):] + [name]
            seen.append(name)
            name = nexts.get(name)
    return None
