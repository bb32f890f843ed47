"""`.tiergit.yml` from disk: read it safely, parse the YAML, merge it over its packaged preset,
validate it into a `Config` (tiergit.core.config) and check every configured path on disk
(tiergit.shell.configpaths: no symlink, no absolute path, nothing outside the work tree).
Cost: one small read, one YAML parse."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from tiergit.core import safeyaml
from tiergit.core.config import Config
from tiergit.core.configcheck import KeyErrors, build
from tiergit.core.configschema import CONFIG_NAME, PRESETS
from tiergit.errors import TiergitError
from tiergit.shell import configpaths, lockwait, resources

MAX_CONFIG_BYTES = 256 * 1024


def preset_data(name: str) -> dict[str, Any]:
    """A packaged preset (templates/presets/NAME.yml) as data."""
    return safeyaml.load(resources.read("presets", f"{name}.yml"))


def parse_text(text: str, path: Path, repo_root: Path) -> Config:
    try:
        node = safeyaml.compose(text)
        lines = safeyaml.key_lines(node)
        data = safeyaml.load(text) if node is not None else {}
    except safeyaml.AliasError as exc:
        raise TiergitError(f"{path.name}:{exc.line}: YAML aliases are not allowed in tiergit config",
                           "write the values out in full instead of using &anchor / *alias") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = f":{mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise TiergitError(f"{path.name}{line}: invalid YAML: {problem}",
                           "fix the syntax; `tiergit init --preset squad` shows a valid file") from None
    cfg = build(data if data is not None else {}, path, repo_root, lines, preset_data)
    configpaths.check(cfg, KeyErrors(path, lines))
    lockwait.configure(cfg.limits.get("lock_wait_seconds"))
    return cfg


def load(repo_root: Path) -> Config:
    path = repo_root / CONFIG_NAME
    if path.is_dir():
        raise TiergitError(f"{CONFIG_NAME}: is a folder in {repo_root}, not a file",
                           "remove it, then `tiergit init --preset squad` writes the config")
    if not path.exists():
        raise TiergitError(f"{CONFIG_NAME}: not found in {repo_root}",
                           "run `tiergit init --preset squad` to create it")
    from tiergit.shell.readsafe import (
        read_regular,  # a FIFO or device there is an error, never a hang
    )

    return from_bytes(read_regular(path, CONFIG_NAME), repo_root)


def from_bytes(raw: bytes, repo_root: Path) -> Config:
    """A config from the bytes of a `.tiergit.yml` (the work-tree file, or the staged blob)."""
    path = repo_root / CONFIG_NAME
    if len(raw) > MAX_CONFIG_BYTES:
        raise TiergitError(f"{CONFIG_NAME}: {len(raw)} bytes is too large for a config file",
                           f"keep it under {MAX_CONFIG_BYTES} bytes")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise TiergitError(f"{CONFIG_NAME}: not valid UTF-8 (byte {exc.start})", "save the file as UTF-8") from None
    return parse_text(text, path, repo_root)


def preset_text(preset: str) -> str:
    """The `.tiergit.yml` that `init --preset` writes: a short file that names the preset."""
    if preset not in PRESETS:
        raise TiergitError(f"unknown preset {preset!r}", f"choose one of: {', '.join(PRESETS)}")
    if preset == "custom":
        body = resources.read("presets", "squad.yml")
        return "version: 1\npreset: custom\n" + body.split("\n", 1)[1]
    return (
        "# tiergit configuration: every key is described in tiergit's docs/foundation.md\n"
        f"version: 1\npreset: {preset}\n"
        "# Override any preset key below, for example:\n"
        "# tiers:\n#   hot: {budget: {bytes: 4096, tokens: 1000}}\n"
    )
