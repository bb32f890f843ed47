"""`.tiergit.yml` from disk: read it safely, parse the YAML, merge it over its packaged preset,
validate it into a `Config` (tiergit.core.config) and check every configured path on disk
(tiergit.shell.configpaths: no symlink, no absolute path, nothing outside the work tree).
Cost: one small read, and one YAML parse the first time a config text is seen: the parsed
data is kept in `<git dir>/tiergit/config-parsed-v1.json` under the text's sha1, so later runs
(every commit's hook among them) neither import PyYAML nor compile its patterns (~40 ms)."""
from __future__ import annotations

import json
import os
from pathlib import Path

from tiergit.core.config import Config
from tiergit.core.configcheck import KeyErrors, build
from tiergit.core.configschema import CONFIG_NAME, PRESETS
from tiergit.errors import TiergitError
from tiergit.shell import configpaths, lockwait, resources

TYPE_CHECKING = False   # typing's own flag without importing typing (~5 ms of the hook's start)
if TYPE_CHECKING:
    from typing import Any

MAX_CONFIG_BYTES = 256 * 1024


PARSED_CACHE = "config-parsed-v1.json"
PARSED_CACHE_MAX = 16     # config texts and presets remembered (a branch switch brings another config)


class ParsedCache:
    """sha1 of a YAML text -> its parsed data and key lines, in `<git dir>/tiergit/` (none outside a repo).
    Only texts whose data survive a JSON round trip unchanged are kept; a broken file is an empty cache."""

    def __init__(self, near: Path) -> None:
        from tiergit.shell import statedir

        state = statedir.near(near)
        self.path = state / PARSED_CACHE if state is not None else None
        self.docs: dict[str, str] = {}   # sha1 -> the JSON of {"data", "lines"}: each hit is a fresh copy
        self.dirty = False
        if self.path is not None:
            try:
                raw = json.loads(self.path.read_text(encoding="utf-8"))
                self.docs = raw["docs"] if raw.get("version") == 1 and isinstance(raw.get("docs"), dict) else {}
            except (OSError, ValueError, KeyError, AttributeError, TypeError):
                self.docs = {}

    def parse(self, text: str, path: Path) -> tuple[Any, dict[str, int]]:
        from tiergit.core.sha1 import sha1   # here: only a config that is parsed needs it

        key = sha1(text.encode("utf-8", "surrogatepass")).hexdigest()
        try:
            doc = json.loads(self.docs[key])
            if isinstance(doc, dict) and isinstance(doc.get("lines"), dict) and "data" in doc:
                return doc["data"], doc["lines"]
        except (KeyError, TypeError, ValueError):
            pass
        data, lines = _parse_yaml(text, path)
        try:
            dumped = json.dumps({"data": data, "lines": lines}, separators=(",", ":"))
            fits = json.loads(dumped) == {"data": data, "lines": lines}
        except (TypeError, ValueError):
            fits = False
        if fits and self.path is not None:
            self.docs.pop(key, None)
            self.docs[key] = dumped
            self.docs = dict(list(self.docs.items())[-PARSED_CACHE_MAX:])
            self.dirty = True
        return data, lines

    def save(self) -> None:
        """Best effort, temp + rename: a cache that cannot be written costs only speed."""
        if not self.dirty or self.path is None:
            return
        tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp.write_text(json.dumps({"version": 1, "docs": self.docs}, separators=(",", ":")), encoding="utf-8")
            os.replace(tmp, self.path)
            self.dirty = False
        except OSError:
            tmp.unlink(missing_ok=True)


def _parse_yaml(text: str, path: Path) -> tuple[Any, dict[str, int]]:
    """(data, key -> line) of a YAML text; a clear error for bad syntax or an alias."""
    import yaml

    from tiergit.core import safeyaml

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
    return data, lines


def preset_data(name: str, cache: ParsedCache | None = None) -> dict[str, Any]:
    """A packaged preset (templates/presets/NAME.yml) as data."""
    text = resources.read("presets", f"{name}.yml")
    if cache is not None:
        return cache.parse(text, Path(f"{name}.yml"))[0]
    from tiergit.core import safeyaml

    return safeyaml.load(text)


def parse_text(text: str, path: Path, repo_root: Path) -> Config:
    cache = ParsedCache(path)
    data, lines = cache.parse(text, path)
    cfg = build(data if data is not None else {}, path, repo_root, lines, lambda name: preset_data(name, cache))
    configpaths.check(cfg, KeyErrors(path, lines))
    lockwait.configure(cfg.limits.get("lock_wait_seconds"))
    cache.save()   # only a config that loads: a refused one touches nothing
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
