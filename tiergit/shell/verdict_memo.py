"""The gate's text-only verdicts, kept in the git dir between runs (beside the parse cache).

A warm promotion plan spent about half its time judging texts it had judged the night before
(the safeguard, injection, junk and ephemeral patterns over every candidate); those checks read
the candidate's text and nothing else (tiergit.features.promotion.gate.TEXT_STEPS), so their
first failure is kept by a digest of what they read. The memo is valid for one build of
tiergit: its signature is a digest of every tiergit source file and the shipped model, so an upgrade or an edited
check starts it empty. A missing, foreign or broken memo is an empty one (only a slower run);
saving is best effort and keeps only what this run asked for (it never grows past one plan).
"""
from __future__ import annotations

import pickle
import sys
from pathlib import Path

import tiergit
from tiergit.core.sha1 import sha1
from tiergit.errors import TiergitError
from tiergit.shell import fsutil, statedir

MEMO_NAME = "gate-memo-v1.pickle"
_signature: str | None = None


def code_signature() -> str:
    """A digest of the Python version (its `re` and Unicode tables) and every tiergit source file
    (~200 files, a few ms; once a process)."""
    global _signature
    if _signature is None:
        digest = sha1(sys.version.encode() + b"\0" + tiergit.__version__.encode() + b"\0")
        # the package's folders as the import system found them (a zip import has none: the version alone)
        for folder in map(Path, tiergit.__spec__.submodule_search_locations or []):
            # the shipped learned model is code too (templates/models)
            for path in sorted([*folder.rglob("*.py"), *folder.glob("templates/models/*")]) if folder.is_dir() else ():
                digest.update(path.relative_to(folder).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
        _signature = digest.hexdigest()
    return _signature


class VerdictMemo:
    """digest -> the first failing text check, as (name, reason), or None when every one passed."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.signature = code_signature()
        self.stored: dict[bytes, tuple[str, str] | None] = {}
        self.used: dict[bytes, tuple[str, str] | None] = {}
        self.added = 0
        if path is not None and path.is_file():
            try:
                data = pickle.loads(path.read_bytes())
                if isinstance(data, dict) and data.get("signature") == self.signature:
                    self.stored = data["verdicts"]
            except Exception:  # noqa: BLE001 - a broken memo is an empty one
                self.stored = {}

    @classmethod
    def for_store(cls, store) -> "VerdictMemo":
        try:
            return cls(statedir.state_dir(store.repo) / MEMO_NAME)
        except TiergitError:
            return cls(None)

    def lookup(self, key: bytes) -> tuple[bool, tuple[str, str] | None]:
        """(known, the kept verdict): known is False when this digest was never judged. A verdict moves
        from `stored` to `used` (one digest object kept per candidate, not two: 11 MB at 50k files)."""
        if key in self.used:
            return True, self.used[key]
        if key not in self.stored:
            return False, None
        verdict = self.used[key] = self.stored.pop(key)
        return True, verdict

    def put(self, key: bytes, verdict: tuple[str, str] | None) -> None:
        self.used[key] = verdict
        self.added += 1

    def save(self) -> None:
        """Keep this run's verdicts when any is new or an old one went unused (best effort)."""
        if self.path is None or (not self.added and not self.stored):
            return
        try:
            fsutil.atomic_write(self.path, pickle.dumps({"signature": self.signature, "verdicts": self.used},
                                                         pickle.HIGHEST_PROTOCOL))
        except (OSError, TiergitError):
            pass   # an unwritable or linked state folder: the next run judges again
