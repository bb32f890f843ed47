"""The parsed-config cache (`.git/tiergit/config-parsed-v1.json`): a config text seen before is read
without PyYAML, and the cache never changes what a config means or how a bad one is reported."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tiergit.errors import TiergitError
from tiergit.shell import config

CACHE = Path(".git/tiergit") / config.PARSED_CACHE
OVERRIDE = "version: 1\npreset: squad\ntiers:\n  hot: {budget: {bytes: 5000, tokens: 1200}}\n"


def _fresh_process_load(repo: Path) -> dict:
    code = ("import sys, json; from pathlib import Path; from tiergit.shell import config; "
            "cfg = config.load(Path('.')); "
            "print(json.dumps({'hot': cfg.tiers['hot'].budget['bytes'].max, 'yaml': 'yaml' in sys.modules}))")
    proc = subprocess.run([sys.executable, "-c", code], cwd=repo, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_a_config_seen_before_loads_without_pyyaml(repo: Path) -> None:
    (repo / ".tiergit.yml").write_text(OVERRIDE)
    assert _fresh_process_load(repo) == {"hot": 5000, "yaml": True}     # first: parsed, then cached
    assert (repo / CACHE).is_file()
    assert _fresh_process_load(repo) == {"hot": 5000, "yaml": False}    # the same text: from the cache
    (repo / ".tiergit.yml").write_text(OVERRIDE.replace("5000", "6000"))
    assert _fresh_process_load(repo) == {"hot": 6000, "yaml": True}     # another text: parsed again


def test_cached_and_parsed_configs_are_the_same(repo: Path) -> None:
    (repo / ".tiergit.yml").write_text(OVERRIDE)
    first = config.load(repo)
    second = config.load(repo)          # from the cache, after build() ran on the first copy
    assert first.tiers == second.tiers and first.data == second.data


def test_a_bad_config_is_reported_the_same_from_the_cache(repo: Path) -> None:
    (repo / ".tiergit.yml").write_text("version: 1\npreset: squad\ntiers:\n  hot: {budget: {bytes: -4}}\n")
    errors = []
    for _ in range(2):
        with pytest.raises(TiergitError) as caught:
            config.load(repo)
        errors.append(str(caught.value))
    assert errors[0] == errors[1] and ".tiergit.yml:4" in errors[0]


def test_a_broken_cache_is_an_empty_one(repo: Path) -> None:
    (repo / ".tiergit.yml").write_text(OVERRIDE)
    config.load(repo)
    (repo / CACHE).write_text("{not json")
    assert config.load(repo).tiers["hot"].budget["bytes"].max == 5000
    key = next(iter(json.loads((repo / CACHE).read_text())["docs"]))
    (repo / CACHE).write_text(json.dumps({"version": 1, "docs": {key: "[1, 2]"}}))
    assert config.load(repo).tiers["hot"].budget["bytes"].max == 5000


def test_data_json_cannot_hold_is_never_cached(repo: Path, tmp_path: Path) -> None:
    # A date value (YAML gives a datetime.date) does not survive JSON: parsed every time, never cached.
    text = OVERRIDE + "# a note\nsince: 2026-05-01\n"
    data, _lines = config.ParsedCache(repo / ".tiergit.yml").parse(text, repo / ".tiergit.yml")
    assert str(data["since"]) == "2026-05-01"
    cache = config.ParsedCache(repo / ".tiergit.yml")
    cache.parse(text, repo / ".tiergit.yml")
    assert not cache.dirty
    outside = config.ParsedCache(tmp_path / "no-repo" / ".tiergit.yml")   # no git dir: nothing kept
    outside.parse(OVERRIDE, tmp_path / ".tiergit.yml")
    assert outside.path is None and not outside.dirty
