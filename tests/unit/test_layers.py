"""The import rules of the code layout (docs/architecture.md): ``engine``
imports nothing from ``door`` nor any I/O module; inside ``door`` a layer
imports only the layers below it, and no two modules import each other,
directly or round a longer loop.

Every import counts, including those under ``TYPE_CHECKING`` and inside
functions: a lazy import still ties two modules together."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

LAYERS: list[tuple[str, ...]] = [
    ("engine",),
    ("door.net",),
    ("door.ui",),
    ("door.records",),
    ("door.play",),
    ("door.config",),
    ("door.games",),
    ("door.sysop",),
    ("door.context",),
    ("door.caller",),
    ("door.server", "door.connections", "door.service", "door.sorry_mode", "door.door_mode", "door.workers", "door.cli", "door"),
]
"""Lowest first.  ``door.config`` (plain values read from door.toml) sits
above ``play`` because its caller defaults are the game options; the
game service (``door.games``, where every table is built) above the
configuration it reads and below the sysop's lobby, which it knows only
as a registry of running tables; the context (what every session shares: store, lobby, throttle) above the
sysop's lobby; the caller's flow above both."""

IO_MODULES = {"asyncio", "socket", "sqlite3", "time", "os", "io", "pathlib", "subprocess", "threading",
              "telnetlib3", "asyncssh", "selectors", "logging", "secrets"}
"""What the engine may not import (STYLE.md: a pure core)."""


def layer_of(module: str) -> int:
    """The index in :data:`LAYERS` of ``module`` (its longest matching prefix)."""
    best, rank = -1, -1
    for i, names in enumerate(LAYERS):
        for name in names:
            if (module == name or module.startswith(name + ".")) and len(name) > best:
                best, rank = len(name), i
    if rank < 0:
        raise AssertionError(f"{module} is in no layer: add it to LAYERS")
    return rank


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path) -> set[str]:
    """Every module ``path`` imports (absolute names; ``from x import y``
    counts ``x.y`` when that is a module of ours)."""
    tree = ast.parse(path.read_text(), str(path))
    me = module_name(path)
    package = me if path.name == "__init__.py" else me.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[:len(anchor) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            found.add(base)
            for alias in node.names:
                found.add(f"{base}.{alias.name}")
    return found


def our_modules() -> dict[str, Path]:
    return {module_name(p): p for top in ("engine", "door") for p in (ROOT / top).rglob("*.py")}


def resolve(name: str, modules: dict[str, Path]) -> str | None:
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def graph() -> dict[str, set[str]]:
    modules = our_modules()
    edges: dict[str, set[str]] = {}
    for name, path in modules.items():
        targets = {resolve(i, modules) for i in imports_of(path)}
        edges[name] = {t for t in targets if t is not None and t != name}
    return edges


def test_engine_imports_no_door_and_no_io() -> None:
    for name, path in our_modules().items():
        if not name.startswith("engine"):
            continue
        bad = {i for i in imports_of(path) if i.startswith("door") or i.split(".")[0] in IO_MODULES}
        assert not bad, f"{name} imports {sorted(bad)}"


def test_no_layer_imports_a_higher_one() -> None:
    upward = []
    for source, targets in graph().items():
        for target in targets:
            if layer_of(target) > layer_of(source) and not (source == "door" or target == "door"):
                upward.append(f"{source} -> {target}")
    assert not upward, "upward imports:\n" + "\n".join(sorted(upward))


def test_no_import_cycles() -> None:
    edges = graph()
    state: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                cycles.append(" -> ".join(stack[stack.index(nxt):] + [nxt]))
            elif nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 2

    for node in sorted(edges):
        if node not in state:
            visit(node)
    assert not cycles, "import cycles:\n" + "\n".join(cycles)


def test_the_rules_catch_what_they_should() -> None:
    """The checker itself: a relative import resolves, and the layers order."""
    assert layer_of("door.net.keys") < layer_of("door.ui.renderer") < layer_of("door.records.store")
    assert layer_of("door.play.table") < layer_of("door.sysop.lobby") < layer_of("door.caller.session")
    assert layer_of("door.server") == len(LAYERS) - 1
    assert resolve("door.net.keys.KeyName", our_modules()) == "door.net.keys"
