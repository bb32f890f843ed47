"""The package's shape, read from its source (no import runs): modules a reader can hold in
mind, functions that fit on a screen.

- A module over MODULE_LINES lines is listed in LONG_MODULES with the reason it stays whole;
  the list may only shrink (a listed module that got short fails until it is removed).
- A function whose body (docstring aside) is over FUNCTION_LINES lines carries a
  `# long: why` comment in that body.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "tiergit"
MODULE_LINES = 300
FUNCTION_LINES = 50
LONG_MODULES: dict[str, str] = {
    "shell/git.py": "every git call in one module: one place to read what tiergit runs and what it costs",
    "core/sentence_judge.py": "the one judgement of noise for hot files, transcripts and imports (issue 21 asks "
                              "for one module); its shapes are read together, each beside its look-alike",
    "core/judge.py": "an item's kind from plain language: each marker pattern beside the words that wake it "
                     "(the prefilter), so a pattern and its prefilter change together",
}
WHY = re.compile(r"#\s*long:\s*\S")


def _modules() -> dict[str, Path]:
    return {p.relative_to(PACKAGE).as_posix(): p for p in sorted(PACKAGE.rglob("*.py"))}


def long_modules() -> dict[str, int]:
    out = {}
    for rel, path in _modules().items():
        n = len(path.read_text(encoding="utf-8").splitlines())
        if n > MODULE_LINES:
            out[rel] = n
    return out


def long_functions() -> list[str]:
    """`path:line name (N lines)` for every function over the limit without a `# long:` why."""
    found = []
    for rel, path in _modules().items():
        source = path.read_text(encoding="utf-8")
        lines = source.splitlines()
        for node in ast.walk(ast.parse(source)):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                    and isinstance(body[0].value.value, str):
                body = body[1:]
            if not body:
                continue
            n = body[-1].end_lineno - body[0].lineno + 1
            if n > FUNCTION_LINES and not any(WHY.search(x) for x in lines[node.lineno - 1: node.end_lineno]):
                found.append(f"tiergit/{rel}:{node.lineno} {node.name} ({n} lines)")
    return found


def test_no_module_over_the_limit_without_a_reason() -> None:
    found = long_modules()
    unlisted = sorted(f"tiergit/{rel} ({n} lines)" for rel, n in found.items() if rel not in LONG_MODULES)
    assert unlisted == [], (f"modules over {MODULE_LINES} lines: split them by what they hold, "
                            "or list one in LONG_MODULES with why it stays whole:\n" + "\n".join(unlisted))
    shrunk = sorted(rel for rel in LONG_MODULES if rel not in found)
    assert shrunk == [], f"these are {MODULE_LINES} lines or fewer now: remove them from LONG_MODULES: {shrunk}"


def test_no_long_function_without_a_why() -> None:
    found = long_functions()
    assert found == [], (f"functions over {FUNCTION_LINES} lines: split them into named steps, or say why "
                         "they stay whole in a `# long: ...` comment:\n" + "\n".join(found))


def test_the_shape_check_counts_what_it_should(tmp_path: Path, monkeypatch) -> None:
    """A 60-line body is long, a docstring does not count, and `# long:` excuses it (a function only)."""
    import test_code_shape as shape

    body = "\n".join(f"    x{i} = {i}" for i in range(60))
    (tmp_path / "a.py").write_text(f'def f():\n    """Doc."""\n{body}\n')
    (tmp_path / "b.py").write_text(f'def g():\n    # long: one table, row by row\n{body}\n')
    (tmp_path / "c.py").write_text('def h():\n    """' + "doc\n" * 80 + '"""\n    return 1\n')
    monkeypatch.setattr(shape, "PACKAGE", tmp_path)
    monkeypatch.setattr(shape, "MODULE_LINES", 61)
    assert [f.split(":")[0] for f in shape.long_functions()] == ["tiergit/a.py"]
    # A module counts every line: a docstring or a `# long:` why does not make a module shorter.
    assert shape.long_modules() == {"a.py": 62, "b.py": 62, "c.py": 83}
