"""A JSON Schema for `.tiergit.yml`, made from the one key table (`core/configschema.py`).

Editors read it through the `# yaml-language-server: $schema=…` line `init` writes at the
top of a new config, so they complete keys and flag the mistakes tiergit would refuse:
unknown keys, wrong types, values out of range. The packaged copy
(`templates/tiergit.schema.json`) is this function's output; a test keeps them equal.
Cost: one walk over the table (a few dozen keys). Pure.
"""
from __future__ import annotations

from typing import Any

from tiergit.core.configschema import SCHEMA, Field

SCHEMA_FILE = "tiergit.schema.json"
BASE = {"int": {"type": "integer"}, "number": {"type": "number"}, "str": {"type": "string", "minLength": 1},
        "bool": {"type": "boolean"}, "map": {"type": "object"},
        "list": {"type": "array", "items": {"type": "string", "minLength": 1}}, "any": {}}
LIMIT = {"oneOf": [{"type": "number", "minimum": 0},
                   {"type": "object", "additionalProperties": False, "minProperties": 1,
                    "properties": {"warn": {"type": "number", "minimum": 0}, "max": {"type": "number", "minimum": 0}}}],
         "description": "a maximum (warning at 80 %), or {warn: N, max: N}, or {warn: N} alone"}


def _leaf(fld: Field) -> dict[str, Any]:
    out: dict[str, Any] = dict(LIMIT if fld.type == "limit" else BASE[fld.type])
    if fld.choices:
        out["enum"] = list(fld.choices)
    for key, value in (("minimum", fld.lo), ("maximum", fld.hi), ("exclusiveMinimum", fld.above)):
        if value is not None and fld.type in ("int", "number"):
            out[key] = value
    if fld.hint:
        out["description"] = fld.hint
    if fld.null and "type" in out:
        out["type"] = [out["type"], "null"]
    return out


def _node(pattern: str) -> dict[str, Any]:
    fld = SCHEMA[pattern] if pattern else Field("map")
    out = _leaf(fld)
    prefix = pattern + "." if pattern else ""
    kids = sorted({k[len(prefix):].split(".")[0] for k in SCHEMA if k.startswith(prefix) and k != pattern})
    if fld.type != "map" or not kids:
        return out
    named = [k for k in kids if k != "*"]
    if named:
        out["properties"] = {k: _node(prefix + k) for k in named}
    if "*" in kids:
        star = _node(prefix + "*")
        names = SCHEMA[prefix + "*"].names
        if names:   # a `*` limited to known names: each is a property, nothing else
            out.setdefault("properties", {}).update({n: star for n in names})
            out["additionalProperties"] = False
        else:
            out["additionalProperties"] = star
    else:
        out["additionalProperties"] = False
    return out


def json_schema() -> dict[str, Any]:
    """The whole schema (draft 2020-12), with every key tiergit accepts and nothing else."""
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": ".tiergit.yml",
            "description": "tiergit's configuration (docs/foundation.md); made from tiergit/core/configschema.py",
            **_node("")}
