"""tiergit: tiered, git-versioned memory for AI agent teams."""

__version__ = "0.1.0"
