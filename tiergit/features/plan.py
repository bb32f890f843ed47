"""A plan: the file changes a command would make, printable as a preview, applied on --apply."""
from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Change:
    path: str                   # repo-relative
    new: str | None             # None deletes the file
    old: str | None = None      # None when the file is new
    reason: str = ""
    mode: int | None = None     # e.g. 0o755 for hook scripts

    @property
    def action(self) -> str:
        if self.new is None:
            return "delete"
        return "create" if self.old is None else ("unchanged" if self.old == self.new else "update")


@dataclass
class Plan:
    title: str
    changes: list[Change] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def add(self, path: str, new: str | None, old: str | None = None, reason: str = "", mode: int | None = None) -> None:
        self.changes.append(Change(path, new, old, reason, mode))

    @property
    def effective(self) -> list[Change]:
        return [c for c in self.changes if c.action != "unchanged"]

    def preview(self, diff: bool = False) -> str:
        lines = [f"{self.title}:"]
        if not self.effective:
            lines.append("  nothing to do")
        for c in self.effective:
            lines.append(f"  {c.action:<7} {c.path}" + (f"  ({c.reason})" if c.reason else ""))
            if diff and c.action == "update":
                for d in difflib.unified_diff((c.old or "").splitlines(), (c.new or "").splitlines(),
                                              c.path, c.path, lineterm="", n=1):
                    lines.append("    " + d)
        lines.extend(f"  {n}" for n in self.notes)
        return "\n".join(lines)

    def as_dict(self) -> dict:
        return {"title": self.title, "notes": self.notes,
                "changes": [{"path": c.path, "action": c.action, "reason": c.reason} for c in self.effective]}

    def apply(self, repo: Path) -> list[str]:
        """Write every change as one journaled unit under the store lock (tiergit.shell.journal):
        receivers first, sources after, a rerun after a kill completes it; the paths written."""
        from tiergit.shell import journal

        return journal.apply_changes(repo, self.title, self.effective)


def locked(repo: Path, do_apply: bool):
    """The store lock for a run that writes (`--apply`); a preview takes none. A command decides
    and applies inside it, so two writers never interleave (tiergit.shell.fsutil.store_lock_if)."""
    from tiergit.shell.fsutil import store_lock_if

    return store_lock_if(repo, do_apply)
