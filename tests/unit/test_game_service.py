"""The game service is the one place a game begins: no module but
``door/games/kinds.py`` builds a :class:`~door.play.table.Table`, and the
caller's flows take their session (a ``Side``), not the door's context,
which only the sessions' constructors receive."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
KINDS = ROOT / "door" / "games" / "kinds.py"


def _calls_to(tree: ast.AST, name: str) -> list[int]:
    return [node.lineno for node in ast.walk(tree) if isinstance(node, ast.Call)
            and ((isinstance(node.func, ast.Name) and node.func.id == name)
                 or (isinstance(node.func, ast.Attribute) and node.func.attr == name))]


def test_only_the_game_service_builds_a_table() -> None:
    builders = {}
    for path in sorted((ROOT / "door").rglob("*.py")):
        lines = _calls_to(ast.parse(path.read_text(), str(path)), "Table")
        if lines:
            builders[str(path.relative_to(ROOT))] = lines
    assert set(builders) == {str(KINDS.relative_to(ROOT))}, builders


def test_the_game_service_builds_one_table_per_kind_of_game() -> None:
    tree = ast.parse(KINDS.read_text())
    kinds = [f for f in tree.body if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)) and not f.name.startswith("_")]
    assert {f.name for f in kinds} >= {"computer_game", "sysop_game", "caller_match", "club_game", "exhibition"}
    for f in kinds:
        assert len(_calls_to(f, "Table")) == 1, f.name


def test_no_flow_of_the_caller_takes_the_door_context() -> None:
    takers = []
    for path in sorted((ROOT / "door" / "caller").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name != "__init__":
                for arg in node.args.args + node.args.kwonlyargs:
                    if arg.annotation is not None and "DoorContext" in ast.unparse(arg.annotation):
                        takers.append(f"{path.name}:{node.name}")
    assert takers == []
