"""An encoding's BPE ranks, read from tiktoken's verified source file and cached per user.

tiktoken's plugins call `load_tiktoken_bpe(path, expected_hash)`; here that call checks the
file's sha256 exactly as tiktoken does and returns a RankSource, which reads the ranks only
when a counter asks: the whole table for tiktoken's Rust encoder (a marshal cache: parsing
the 1.7 MB base64 file is about half of the encoder's load), or a rank index for the
pure-Python counter of a hook (tiergit.core.rankindex: no 100,000-entry dict to build).
Each cache file starts with its payload's CRC-32 and is rebuilt when that does not match: the
check finds a damaged file, which is all a checksum of a file in the user's own cache can do (the
source it was built from is checked by its sha256 before any cache is read or written). CRC-32
comes with `zlib`, which the rank index loads anyway; `hashlib` loads OpenSSL (~6 ms) and its
sha256 of the 2.5 MB index took ~3 ms more, on every hook that counts.
tiktoken and hashlib are imported inside the functions that need them: the hook's import budget.
"""
from __future__ import annotations

import json
import marshal
import os
import sys
from pathlib import Path
from zlib import crc32

from tiergit.core import rankindex
from tiergit.core.sha1 import sha1


def construct_params(name: str) -> dict:
    """tiktoken's constructor parameters for `name`, with the BPE ranks as a RankSource: the
    plugin's own `load_tiktoken_bpe` call is routed through `rank_source`; the ranks (and so
    every count) are identical."""
    from tiktoken import registry

    registry.list_encoding_names()  # imports the tiktoken_ext plugins
    ctor = (registry.ENCODING_CONSTRUCTORS or {})[name]
    namespace = getattr(ctor, "__globals__", {})
    # the plugin's and tiktoken's own source files (a saved pattern and rank file hold while they are unchanged)
    code = getattr(ctor, "__code__", None)
    spec = getattr(sys.modules.get("tiktoken"), "__spec__", None)
    _SOURCES[name] = [f for f in (getattr(code, "co_filename", None), getattr(spec, "origin", None)) if f]
    original = namespace.get("load_tiktoken_bpe")
    if original is None:
        return ctor()
    namespace["load_tiktoken_bpe"] = lambda path, expected_hash=None: rank_source(original, path, expected_hash)
    try:
        return ctor()
    finally:
        namespace["load_tiktoken_bpe"] = original


# In every cache file's name: ".c32" since its first line is a CRC-32 (a sha256 before).
CACHE_FORMAT = ".c32"
# encoding -> the files its constructor parameters came from (the plugin, tiktoken's own): saved
# parameters stay valid while none of them changed.
_SOURCES: dict[str, list[str]] = {}
PARAMS_VERSION = 1


def _params_file(name: str) -> Path:
    return rank_cache_dir() / f"params-{name}.v{PARAMS_VERSION}.json"


def _stamps(files: list[str]) -> list[list]:
    return [[f, st.st_size, st.st_mtime_ns] for f in files for st in [os.stat(f)]]


def save_params(name: str, built: str, params: dict) -> None:
    """Remember what the pure-Python counter needs from `params` (built by construct_params(built)
    for the encoding `name`): its name, pattern and verified rank file, beside the size and
    mtime of every file they came from. A rank table without a local file is not saved."""
    ranks = params.get("mergeable_ranks")
    if not isinstance(ranks, RankSource) or not _SOURCES.get(built):
        return
    try:
        stamps = _stamps([*_SOURCES[built], ranks.path])
        text = json.dumps({"name": params["name"], "pat_str": params["pat_str"], "path": ranks.path,
                           "hash": ranks.expected_hash, "files": stamps})
        if _writable(_params_file(name).parent):
            tmp = _params_file(name).with_suffix(f".{os.getpid()}.tmp")
            tmp.write_text(text, encoding="utf-8")
            os.replace(tmp, _params_file(name))
    except OSError:
        pass  # a read-only home only costs speed


def saved_params(name: str) -> dict | None:
    """{name, pat_str, mergeable_ranks} for the pure-Python counter as save_params kept them,
    while every file they came from is unchanged; None otherwise. tiktoken is not imported
    (~50-140 ms of a hook); its loader runs only if the rank index must be rebuilt."""
    try:
        data = json.loads(_params_file(name).read_text(encoding="utf-8"))
        if _stamps([f for f, _size, _mtime in data["files"]]) != data["files"]:
            return None
        ranks = RankSource(_load_bpe, data["path"], data["hash"])
        return {"name": data["name"], "pat_str": data["pat_str"], "mergeable_ranks": ranks}
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _load_bpe(path: str, expected_hash: str | None = None) -> dict[bytes, int]:
    from tiktoken.load import load_tiktoken_bpe

    return load_tiktoken_bpe(path, expected_hash=expected_hash)


def rank_cache_dir() -> Path:
    base = os.environ.get("TIERGIT_CACHE_DIR")
    if base:
        return Path(base)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "tiergit"


class RankSource:
    """An encoding's BPE ranks from a source file whose sha256 was checked, read when a counter
    asks: tiktoken's encoder takes the whole table (`table`, from the marshal cache), the
    pure-Python counter a `lookup` that reads only the keys a text needs (the index cache:
    building the 100,000-entry dict costs a hook 25-40 ms it never uses)."""

    def __init__(self, load, path: str, expected_hash: str) -> None:
        self.load, self.path, self.expected_hash = load, path, expected_hash
        self._table: dict[bytes, int] | None = None

    def table(self) -> dict[bytes, int]:
        if self._table is None:
            self._table = cached_ranks(self.load, self.path, self.expected_hash)
        return self._table

    def lookup(self):
        """A RankIndex from the verified index cache, else the table (writing the index)."""
        cache = rank_cache_dir() / f"bpe-{self.expected_hash}.{rankindex.MAGIC[5:6].decode()}{CACHE_FORMAT}.index"
        payload = read_verified(cache)
        if payload is not None:
            try:
                return rankindex.RankIndex(payload)
            except ValueError:
                pass  # damaged or foreign: rebuilt below
        table = self.table()
        if _writable(cache.parent):   # building it costs ~60 ms: never for a cache that cannot be kept
            write_verified(cache, rankindex.build(table))
        return table


def _writable(folder: Path) -> bool:
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return False
    return os.access(folder, os.W_OK)


def rank_source(load, path: str, expected_hash: str | None):
    """What the plugin's `load_tiktoken_bpe` returns here: a RankSource for a local file with a
    known hash (checked now, as tiktoken does), else tiktoken's own load."""
    if "://" in path or not expected_hash:
        return load(path, expected_hash=expected_hash)
    check_source(path, expected_hash)
    return RankSource(load, path, expected_hash)


def check_source(path: str, expected_hash: str) -> None:
    import hashlib  # here: a hook that reads the rank index never checks the source

    with open(path, "rb") as fh:
        raw = fh.read()
    if hashlib.sha256(raw).hexdigest() != expected_hash:
        raise ValueError(f"hash mismatch for {path} (expected {expected_hash})")


def read_verified(cache: Path) -> bytes | None:
    """A cache file's payload when its CRC-32 line matches it, else None."""
    try:
        blob = cache.read_bytes()
        digest, payload = int(blob[:8], 16), blob[9:]
    except (OSError, ValueError):
        return None
    return payload if blob[8:9] == b"\n" and crc32(payload) == digest else None


def write_verified(cache: Path, payload: bytes) -> None:
    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
        tmp = cache.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_bytes(b"%08x\n" % crc32(payload) + payload)
        os.replace(tmp, cache)
        # the same cache in the format before (a sha256 line): nothing reads it any more
        cache.with_name(cache.name.replace(CACHE_FORMAT, "")).unlink(missing_ok=True)
    except OSError:
        pass  # a read-only home only costs speed


def cached_ranks(load, path: str, expected_hash: str | None) -> dict[bytes, int]:
    if "://" in path or not expected_hash:
        return load(path, expected_hash=expected_hash)
    check_source(path, expected_hash)
    cache = rank_cache_dir() / f"bpe-{expected_hash}{CACHE_FORMAT}.marshal"
    payload = read_verified(cache)
    if payload is not None:
        try:
            ranks = marshal.loads(payload)
            if isinstance(ranks, dict):
                return ranks
        except (ValueError, EOFError, TypeError):
            pass  # a damaged cache: rebuilt below
    ranks = load(path, expected_hash=expected_hash)
    write_verified(cache, marshal.dumps(ranks))
    return ranks


def cached_by_tiktoken(name: str) -> bool:
    """True if tiktoken can load `name` without a download (its own cache, or a plugin file)."""
    try:
        import tiktoken.load as tl
        from tiktoken_ext import openai_public  # type: ignore[import-not-found]
    except ImportError:
        return False
    ctor = getattr(openai_public, "ENCODING_CONSTRUCTORS", {}).get(name)
    if ctor is None:
        return True  # a third-party plugin: let it try
    cache_dir = os.environ.get("TIKTOKEN_CACHE_DIR") or os.environ.get("DATA_GYM_CACHE_DIR")
    if not cache_dir:
        import tempfile
        cache_dir = os.path.join(tempfile.gettempdir(), "data-gym-cache")
    urls = {
        "r50k_base": "https://openaipublic.blob.core.windows.net/encodings/r50k_base.tiktoken",
        "p50k_base": "https://openaipublic.blob.core.windows.net/encodings/p50k_base.tiktoken",
        "cl100k_base": "https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken",
        "o200k_base": "https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken",
    }
    url = urls.get(name)
    if url is None:
        return False
    key = sha1(url.encode()).hexdigest()
    return os.path.exists(os.path.join(cache_dir, key)) and hasattr(tl, "load_tiktoken_bpe")
