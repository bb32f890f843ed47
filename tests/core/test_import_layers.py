"""The import-layer contract, read from the AST of every module under tiergit/ (no import runs).

- The folder is the layer, and imports point down (module-level and lazy alike):
  entry (`cli.py`, `__main__.py`, `outfile.py`) → `commands/` → `features/` → `core/`;
  `shell/` (the world: git, files, locks, caches, clock, GitHub) is imported only by
  `features/` and the entry, and itself imports only `core/`; `errors.py` is for everyone.
- `core/` is pure: no os, subprocess, files, sqlite, pickle or clock — text, config and
  dataclasses in, plans, findings and dataclasses out.
- No import cycle between tiergit modules through module-level imports. Imports inside
  functions (lazy) are reported separately: cycles through them are listed in
  KNOWN_LAZY_CYCLES, which may only shrink.
- The hook entry path (what `python -m tiergit hook …` / `merge-driver` reach before any
  real work) never imports click, tiktoken, yaml or markdown_it at module level.
"""
from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "tiergit"
ENTRY = {"tiergit.cli", "tiergit.__main__", "tiergit.outfile", "tiergit.mergeentry", "tiergit.hookentry"}
BASE = {"tiergit", "tiergit.errors"}
# What each layer may import (besides itself and BASE).
MAY_IMPORT = {
    "entry": {"entry", "commands", "features", "shell", "core"},
    "commands": {"commands", "features", "core", "entry"},
    "features": {"features", "shell", "core"},
    "shell": {"shell", "core"},
    "core": {"core"},
}
# The standard library's doors to the world, closed to core/ (json and datetime's types are fine).
# (pathlib is allowed for path values; what touches the disk is caught by FILE_CALLS.)
WORLD = {"os", "subprocess", "shutil", "sqlite3", "tempfile", "fcntl", "signal", "socket", "pickle", "time",
         "glob", "io", "urllib", "http", "importlib"}
FILE_CALLS = {"read_text", "read_bytes", "write_text", "write_bytes", "exists", "is_file", "is_dir", "iterdir",
              "glob", "rglob", "stat", "lstat", "mkdir", "unlink", "resolve", "touch", "rmdir", "samefile"}
HOOK_ENTRY = ("tiergit.features.hookrun", "tiergit.shell.hookgate", "tiergit.shell.git", "tiergit.shell.statedir",
              "tiergit.features.driverrun", "tiergit.mergeentry", "tiergit.shell.mergefast", "tiergit.hookentry")
HEAVY = ("click", "tiktoken", "yaml", "markdown_it")
# Cycles that close only through an import inside a function. Each is a debt: remove the
# entry when the cycle is gone; a new one fails the test.
KNOWN_LAZY_CYCLES: set[frozenset[str]] = {
    # The store lock completes a half-done journaled write on entry; the journal writes under it.
    frozenset({"tiergit.shell.fsutil", "tiergit.shell.journal"}),
}


def module_name(path: Path) -> str:
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _in_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imports_of(path: Path, known: set[str]) -> tuple[set[str], set[str]]:
    """(module-level, lazy) imported names: tiergit modules resolved to the module, others
    to their top-level package. TYPE_CHECKING blocks are not imports at run time."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    top: set[str] = set()
    lazy: set[str] = set()

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _in_type_checking(child):
                for sub in child.orelse:
                    visit(sub, in_function)
                continue
            inner = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            found: list[str] = []
            if isinstance(child, ast.Import):
                found = [a.name for a in child.names]
            elif isinstance(child, ast.ImportFrom) and child.level == 0 and child.module:
                found = [f"{child.module}.{a.name}" if f"{child.module}.{a.name}" in known else child.module
                         for a in child.names]
            for name in found:
                target = name if name.startswith("tiergit") else name.split(".")[0]
                while target.startswith("tiergit") and target not in known and "." in target:
                    target = target.rsplit(".", 1)[0]
                (lazy if in_function else top).add(target)
            visit(child, inner)

    visit(tree, False)
    return top, lazy


def graph() -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    mods = modules()
    known = set(mods)
    top: dict[str, set[str]] = {}
    lazy: dict[str, set[str]] = {}
    for name, path in mods.items():
        t, z = imports_of(path, known)
        top[name], lazy[name] = t, z - t
    return top, lazy


def cycles(edges: dict[str, set[str]]) -> list[frozenset[str]]:
    """Strongly connected components of more than one module (Tarjan), tiergit modules only."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[frozenset[str]] = []

    def strong(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in edges or w == v:
                continue
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = set()
            while True:
                w = stack.pop()
                on.discard(w)
                comp.add(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(frozenset(comp))

    for v in sorted(edges):
        if v not in index:
            strong(v)
    return out


def closure(edges: dict[str, set[str]], roots: tuple[str, ...]) -> set[str]:
    seen: set[str] = set()
    todo = list(roots)
    while todo:
        m = todo.pop()
        if m in seen:
            continue
        seen.add(m)
        todo.extend(edges.get(m, ()))
    return seen


def _is_package_init(name: str) -> bool:
    # `import tiergit.x` also runs tiergit/__init__.py; a package __init__ is not a layer.
    return name == "tiergit" or name == "tiergit.commands"


def test_only_the_entry_and_commands_import_commands() -> None:
    top, lazy = graph()
    offenders = sorted(f"{m} -> {t}" for m in top if m not in ENTRY and not m.startswith("tiergit.commands")
                       for t in top[m] | lazy[m] if t.startswith("tiergit.commands"))
    assert offenders == [], "lower layers import a command module:\n" + "\n".join(offenders)


def test_no_module_level_import_cycle() -> None:
    top, _ = graph()
    edges = {m: {t for t in ts if not _is_package_init(t)} for m, ts in top.items()}
    found = sorted(sorted(c) for c in cycles(edges))
    assert found == [], f"module-level import cycles: {found}"


def test_lazy_import_cycles_only_shrink() -> None:
    top, lazy = graph()
    edges = {m: {t for t in top[m] | lazy[m] if not _is_package_init(t)} for m in top}
    found = set(cycles(edges))
    new = sorted(sorted(c) for c in found - KNOWN_LAZY_CYCLES)
    gone = sorted(sorted(c) for c in KNOWN_LAZY_CYCLES - found)
    assert new == [], f"new cycles through imports inside functions: {new}"
    assert gone == [], f"these cycles are gone: remove them from KNOWN_LAZY_CYCLES: {gone}"


def test_hook_entry_path_imports_nothing_heavy() -> None:
    top, _ = graph()
    reached = closure(top, HOOK_ENTRY)
    heavy = sorted(m for m in reached if m in HEAVY)
    assert heavy == [], f"the hook entry path imports {heavy} at module level"
    assert "tiergit.cli" not in reached and not any(m.startswith("tiergit.commands") for m in reached)


def test_the_graph_reader_sees_every_kind_of_import(tmp_path: Path) -> None:
    """The contract is only as good as the reader: module-level, lazy, `from tiergit import x`,
    `from tiergit.x import y` and TYPE_CHECKING-only imports are each classified."""
    src = tmp_path / "probe.py"
    src.write_text("from __future__ import annotations\nimport yaml.constructor\nfrom tiergit.shell import git\n"
                   "from tiergit.core.parse import parse\nfrom typing import TYPE_CHECKING\n"
                   "if TYPE_CHECKING:\n    from tiergit.shell import store\n"
                   "def f():\n    from tiergit.commands import status\n    import click\n")
    known = set(modules())
    top, lazy = imports_of(src, known)
    assert {"yaml", "tiergit.shell.git", "tiergit.core.parse"} <= top and "tiergit.shell.store" not in top | lazy
    assert {"tiergit.commands.status", "click"} <= lazy
    assert cycles({"a": {"b"}, "b": {"a"}, "c": {"a"}}) == [frozenset({"a", "b"})]


def test_the_single_homes_are_stdlib_leaves() -> None:
    """clock, statedir, resources and patterns are read by every layer, the hook included:
    at module level they import no tiergit module and nothing outside the standard library."""
    import sys

    top, _ = graph()
    for name in ("tiergit.shell.clock", "tiergit.shell.statedir", "tiergit.shell.resources", "tiergit.core.patterns"):
        outside = sorted(t for t in top[name] if t.startswith("tiergit") or t not in sys.stdlib_module_names)
        assert outside == [], f"{name} imports {outside}"


def layer_of(name: str) -> str | None:
    if name in ENTRY:
        return "entry"
    if name in BASE or name.startswith("tiergit.templates"):
        return None
    for layer in ("commands", "features", "shell", "core"):
        if name == f"tiergit.{layer}" or name.startswith(f"tiergit.{layer}."):
            return layer
    raise AssertionError(f"{name}: not in a layer folder (core/, shell/, features/, commands/) or the entry")


def test_every_module_lives_in_a_layer() -> None:
    for name in modules():
        layer_of(name)


def test_imports_point_down_the_layers() -> None:
    top, lazy = graph()
    offenders = []
    for m in sorted(top):
        here = layer_of(m)
        if here is None:
            continue
        for t in sorted(top[m] | lazy[m]):
            if not t.startswith("tiergit"):
                continue
            there = layer_of(t)
            if there is not None and there != here and there not in MAY_IMPORT[here]:
                offenders.append(f"{m} ({here}) -> {t} ({there})")
    assert offenders == [], "imports against the layers:\n" + "\n".join(offenders)


def test_core_never_touches_the_world() -> None:
    """core/ imports no os/subprocess/files/sqlite/pickle/clock, and never asks for today."""
    top, lazy = graph()
    offenders = [f"{m} imports {t}" for m in sorted(top) if layer_of(m) == "core"
                 for t in sorted(top[m] | lazy[m]) if t in WORLD]
    for name, path in modules().items():
        if layer_of(name) != "core":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                    node.func.attr in ("today", "now", "utcnow", "getenv") and \
                    isinstance(node.func.value, ast.Name) and node.func.value.id in ("date", "datetime", "os"):
                offenders.append(f"{name}:{node.lineno} calls {node.func.value.id}.{node.func.attr}()")
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "open":
                offenders.append(f"{name}:{node.lineno} calls open()")
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in FILE_CALLS:
                offenders.append(f"{name}:{node.lineno} calls .{node.func.attr}() (a file-system call)")
    assert offenders == [], "core/ touches the world:\n" + "\n".join(offenders)


def test_the_layer_check_sees_a_wrong_way_import(tmp_path: Path) -> None:
    """A core module importing shell, and a command importing shell, are both reported."""
    assert "shell" not in MAY_IMPORT["core"] and "shell" not in MAY_IMPORT["commands"]
    assert layer_of("tiergit.core.parse") == "core" and layer_of("tiergit.features.promotion.gate") == "features"
    assert layer_of("tiergit.outfile") == "entry" and layer_of("tiergit.errors") is None

