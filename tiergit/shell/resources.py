"""The packaged templates (presets, hook shims, workflows, store files), via importlib.resources.

One home for "where the package keeps its data", so an installed wheel, a zip import or an
editable checkout all resolve the same way. Cost: no I/O until a file is read.
"""
from __future__ import annotations

from pathlib import Path

TYPE_CHECKING = False   # typing's own flag without importing typing (~5 ms of the hook's start)
if TYPE_CHECKING:   # importlib.resources.abc is 3.11+; the annotation only needs it for checkers
    from importlib.abc import Traversable


def templates() -> Traversable:
    """The root of `tiergit/templates`: the package folder itself when tiergit is installed as
    files (wheel, editable), else importlib.resources' view of it (a zip import)."""
    import tiergit

    # importlib.resources costs ~5 ms to import (tempfile, zipfile), and the pre-commit hook
    # reads a preset through here on every full run: take the folder from the import spec
    # when there is one on disk, the same folder importlib.resources would return.
    for location in tiergit.__spec__.submodule_search_locations or []:
        root = Path(location) / "templates"
        if root.is_dir():
            return root
    from importlib import resources

    return resources.files("tiergit") / "templates"


def template(*parts: str) -> Traversable:
    """One packaged template file or folder, e.g. template("presets", "squad.yml")."""
    node = templates()
    for part in parts:
        node = node / part
    return node


def read(*parts: str) -> str:
    """The text of one packaged template. Cost: one file read."""
    return template(*parts).read_text(encoding="utf-8")


def read_bytes(*parts: str) -> bytes:
    """The bytes of one packaged data file. Cost: one file read."""
    return template(*parts).read_bytes()
