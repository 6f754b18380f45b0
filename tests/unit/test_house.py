"""The sizes the code keeps (docs/architecture.md): no file in ``door/``
or ``engine/`` over 500 lines, and no function there with more than 8
parameters (``self`` and ``cls`` not counted): what travels together is a
frozen dataclass, and a file that grows past the limit is split along its
seams."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

MAX_LINES = 500
MAX_PARAMETERS = 8


def _sources() -> list[Path]:
    return sorted(p for top in ("door", "engine") for p in (ROOT / top).rglob("*.py"))


def parameters(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """How many parameters ``node`` takes, ``*args`` and ``**kwargs``
    each counted once, ``self`` and ``cls`` not at all."""
    a = node.args
    count = len(a.posonlyargs) + len(a.args) + len(a.kwonlyargs) + bool(a.vararg) + bool(a.kwarg)
    first = (a.posonlyargs + a.args)[:1]
    if first and first[0].arg in ("self", "cls"):
        count -= 1
    return count


def test_no_file_is_over_500_lines() -> None:
    long = {str(p.relative_to(ROOT)): n for p in _sources() if (n := len(p.read_text().splitlines())) > MAX_LINES}
    assert long == {}


def test_no_function_takes_more_than_8_parameters() -> None:
    many = []
    for path in _sources():
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and parameters(node) > MAX_PARAMETERS:
                many.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name} ({parameters(node)})")
    assert many == []


def test_the_count_of_parameters() -> None:
    tree = ast.parse("def f(self, a, /, b, *c, d, **e): pass\nasync def g(x, y=1): pass")
    f, g = tree.body
    assert isinstance(f, ast.FunctionDef) and isinstance(g, ast.AsyncFunctionDef)
    assert (parameters(f), parameters(g)) == (5, 2)
