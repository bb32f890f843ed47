"""The JSON Schema of `.tiergit.yml` (core/configjson.py): made from the one key table, shipped in the
package, written by `init` with the `yaml-language-server` line, and it accepts what tiergit accepts
and refuses what tiergit refuses."""
from __future__ import annotations

import json

import jsonschema
import pytest
import yaml
from conftest import PROJECT, tiergit, write

from tiergit.core.configjson import SCHEMA_FILE, json_schema

PACKAGED = PROJECT / "tiergit/templates" / SCHEMA_FILE


def validator() -> jsonschema.Draft202012Validator:
    schema = json.loads(PACKAGED.read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def test_the_packaged_schema_is_the_one_the_key_table_makes():
    assert json.loads(PACKAGED.read_text()) == json_schema(), \
        "regenerate it: python -c 'import json; from tiergit.core.configjson import json_schema; " \
        "print(json.dumps(json_schema(), indent=2))' > tiergit/templates/tiergit.schema.json"


def test_every_preset_and_the_example_store_validate():
    check = validator()
    for path in [*sorted((PROJECT / "tiergit/templates/presets").glob("*.yml")), PROJECT / "examples/team/.tiergit.yml"]:
        errors = [e.message for e in check.iter_errors(yaml.safe_load(path.read_text()))]
        assert errors == [], path


@pytest.mark.parametrize("text", [
    "version: 1\nfoo: 1\n",                                  # unknown key
    "version: 1\ngate: {min_score: high}\n",                 # wrong type
    "version: 1\ngate: {min_score: 1.5}\n",                  # out of range
    "version: 1\ncompact: {ratio: 5}\n",
    "version: 2\n",
    "version: 1\ntiers: {hot: {load: sometimes}}\n",
    "version: 1\ntiers: {hot: {budget: {bites: 10}}}\n",
    "version: 1\nscoring: {weights: {luck: 0.5}}\n",
    "version: 1\nlabels: {mood: ['**Mood:**']}\n",
])
def test_what_tiergit_refuses_the_schema_refuses_too(repo, text):
    write(repo / ".tiergit.yml", text)
    assert tiergit(repo, "check").returncode == 2
    assert list(validator().iter_errors(yaml.safe_load(text))), text


def test_init_points_editors_at_the_schema_it_writes(repo):
    assert tiergit(repo, "init", "--preset", "squad", "--no-install").returncode == 0
    first = (repo / ".tiergit.yml").read_text().splitlines()[0]
    assert first == f"# yaml-language-server: $schema=./.squad/memory/templates/{SCHEMA_FILE}"
    written = repo / ".squad/memory/templates" / SCHEMA_FILE
    assert written.read_text() == PACKAGED.read_text()
    assert not list(validator().iter_errors(yaml.safe_load((repo / ".tiergit.yml").read_text())))
    assert tiergit(repo, "check").returncode == 0
