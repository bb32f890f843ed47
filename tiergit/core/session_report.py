"""The `session end` report as one typed model: built by features/session.py, printed by
commands/session.py, its `as_dict()` the documented `--json` shape (docs/session.md). Pure."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field


@dataclass
class EndReport:
    agent: str
    session: str
    task: str
    hot: str                      # the hot file (store-relative)
    cold: str                     # the tier the entry goes to
    already_written: bool = False  # an earlier, interrupted run wrote the entry: nothing written again
    entry_written: bool = False
    kept: int = 0                 # items (or their non-noise sentences) written verbatim
    condensed: int = 0            # items whose noise sentences were condensed
    condensed_lines: int = 0
    dropped: int = 0              # logs, tool output, transcript lines, groups past the budget
    duplicates: int = 0           # already in cold, or repeats of what the entry keeps
    readded: list[str] = field(default_factory=list)   # kept items a summarizer left out, re-added
    summarizer: str | None = None                       # what the summarizer run said, if one ran
    tokens_in: int = 0            # the notes at session end (hot plus --notes files)
    tokens_verbatim: int = 0      # of the kept items
    tokens_kept: int = 0          # of the whole entry (heading, marker, kept, condensed)
    ratio: float = 0.0            # tokens_kept / tokens_in
    entry: str | None = None      # the entry's text, when one is written
    carried: int = 0              # open items carried into the reset hot file
    hot_after: dict = field(default_factory=dict)       # the reset hot file's size and health

    def as_dict(self) -> dict:
        return asdict(self)

    # Read access by key, as the dict this model replaces was read (benchmarks, older callers).
    def __getitem__(self, key: str):
        return getattr(self, key)

    def get(self, key: str, default=None):
        """Like the old dict, which had no `entry` or `summarizer` until they were set."""
        value = getattr(self, key, None)
        return default if value is None else value
