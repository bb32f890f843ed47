"""This project's own source as a git repository, and its installed dependencies lent to an
offline build (shared by the pre-commit framework test and the release test)."""
from __future__ import annotations

import re
import shutil
from importlib import metadata
from pathlib import Path

from conftest import PROJECT, git

SOURCE_FILES = ("pyproject.toml", "README.md", "LICENSE", "CHANGELOG.md", "action.yml", ".pre-commit-hooks.yaml")


def source_checkout(tmp: Path) -> tuple[Path, str]:
    """This project's current files (committed or not) as a git repository."""
    src = tmp / "tiergit-src"
    src.mkdir()
    for name in SOURCE_FILES:
        shutil.copy2(PROJECT / name, src / name)
    shutil.copytree(PROJECT / "tiergit", src / "tiergit", ignore=shutil.ignore_patterns("__pycache__"))
    git(src, "init", "-q", "-b", "main")
    git(src, "add", "-A")
    git(src, "commit", "-q", "-m", "tiergit source")
    return src, git(src, "rev-parse", "HEAD").stdout.strip()


def lend(target: Path) -> None:
    """Links to every installed distribution tiergit needs to run and build, with their metadata."""
    target.mkdir()
    todo, seen = ["tiergit", "setuptools"], set()
    while todo:
        name = todo.pop()
        key = re.sub(r"[-_.]+", "-", name).lower()
        if key in seen:
            continue
        seen.add(key)
        dist = metadata.distribution(name)
        todo += [re.split(r"[ ;<>=!~\[(]", r, maxsplit=1)[0] for r in dist.requires or [] if "extra ==" not in r]
        if key == "tiergit":
            continue
        base = Path(dist.locate_file(""))
        for top in {Path(str(f)).parts[0] for f in dist.files or [] if not str(f).startswith("..")}:
            if (base / top).exists() and not (target / top).exists():
                (target / top).symlink_to(base / top)
