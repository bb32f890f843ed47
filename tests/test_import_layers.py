"""The import-layer contract, read from the AST of every module under tiergit/ (no import runs).

- Only the entry (`tiergit/cli.py`, `tiergit/__main__.py`) and `tiergit/commands/` import
  `tiergit.commands`: lower layers never reach up into a command.
- No import cycle between tiergit modules through module-level imports. Imports inside
  functions (lazy) are reported separately: cycles through them are listed in
  KNOWN_LAZY_CYCLES, which may only shrink.
- The hook entry path (what `python -m tiergit hook …` / `merge-driver` reach before any
  real work) never imports click, tiktoken, yaml or markdown_it at module level.
"""
from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "tiergit"
ENTRY = {"tiergit.cli", "tiergit.__main__"}
HOOK_ENTRY = ("tiergit.features.hookrun", "tiergit.shell.hookgate", "tiergit.shell.git", "tiergit.shell.statedir", "tiergit.features.driverrun")
HEAVY = ("click", "tiktoken", "yaml", "markdown_it")
# Cycles that close only through an import inside a function. Each is a debt: remove the
# entry when the cycle is gone; a new one fails the test.
KNOWN_LAZY_CYCLES: set[frozenset[str]] = {
    # The store lock completes a half-done journaled write on entry; the journal writes under it.
    frozenset({"tiergit.shell.fsutil", "tiergit.shell.journal"}),
    # The spawn prompt renders knowledge, which reads files with context's tier helpers.
    frozenset({"tiergit.features.context", "tiergit.features.knowledge"}),
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
