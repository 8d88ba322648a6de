"""The package's shape: every import of a realpolitik module is at the top of its module
(none hidden inside a function to break a cycle), the module-level imports have no cycle,
and no layer imports one above it (the core never imports the game, the game never its
file formats). Read from the source (an AST walk), not by importing it."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"

# Function-level imports allowed, each for an optional dependency the importing module
# must not need to be imported: (module, imported module) -> why.
ALLOWED_LAZY = {
    ("realpolitik.server", "realpolitik.server.app"): "FastAPI, the 'server' extra",
    ("realpolitik.commands.serve", "realpolitik.server.settings"): "the 'server' extra",
    ("realpolitik.commands.serve", "realpolitik.server.db"): "SQLAlchemy, the 'server' extra",
    (
        "realpolitik.commands.serve",
        "realpolitik.server.logs",
    ): "uvicorn's logging, the 'server' extra",
    ("realpolitik.commands.serve", "realpolitik.server.dbcopy"): "SQLAlchemy, the 'server' extra",
}


def _modules(src: Path) -> dict[str, Path]:
    """Every module of the package under ``src``, by its dotted name."""
    found = {}
    for path in sorted((src / "realpolitik").rglob("*.py")):
        parts = list(path.relative_to(src).with_suffix("").parts)
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def _imported(
    node: ast.Import | ast.ImportFrom, here: str, is_package: bool, modules: dict[str, Path]
) -> list[str]:
    """The realpolitik modules an import statement names (``from P import m``: ``P.m``
    when that is a module, else ``P``)."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names if a.name.split(".")[0] == "realpolitik"]
    base = node.module or ""
    if node.level:
        parts = here.split(".")[: len(here.split(".")) - node.level + (1 if is_package else 0)]
        base = ".".join([*parts, base] if base else parts)
    if base.split(".")[0] != "realpolitik":
        return []
    found = [f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in modules]
    return found if len(found) == len(node.names) else [*found, base]


def _in_functions(tree: ast.Module) -> Iterator[ast.Import | ast.ImportFrom]:
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            for sub in ast.walk(node):
                if isinstance(sub, ast.Import | ast.ImportFrom):
                    yield sub


def _at_top(tree: ast.Module) -> Iterator[ast.Import | ast.ImportFrom]:
    """The module-level imports that run when the module is imported (not those under
    ``if TYPE_CHECKING:``)."""
    for node in tree.body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        elif isinstance(node, ast.If | ast.Try):
            test = getattr(node, "test", None)
            if isinstance(test, ast.Name) and test.id == "TYPE_CHECKING":
                continue
            for sub in ast.walk(node):
                if isinstance(sub, ast.Import | ast.ImportFrom):
                    yield sub


def lazy_imports(src: Path = SRC) -> list[tuple[str, str, int]]:
    """(module, imported realpolitik module, line) of every function-level import."""
    found = []
    modules = _modules(src)
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in _in_functions(tree):
            for target in _imported(node, name, path.name == "__init__.py", modules):
                found.append((name, target, node.lineno))
    return found


def import_cycle(src: Path = SRC) -> list[str] | None:
    """A cycle among the module-level imports, if there is one (as the list of modules)."""
    graph: dict[str, set[str]] = {}
    modules = _modules(src)
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        is_package = path.name == "__init__.py"
        graph[name] = {
            t for n in _at_top(tree) for t in _imported(n, name, is_package, modules)
        } - {name}
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    trail: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        trail.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*trail[trail.index(nxt) :], nxt]
            if nxt not in state and (cycle := visit(nxt)) is not None:
                return cycle
        trail.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state and (cycle := visit(start)) is not None:
            return cycle
    return None


def test_no_function_level_imports_of_the_package() -> None:
    hidden = [
        f"{module}:{line} imports {target} inside a function"
        for module, target, line in lazy_imports()
        if (module, target) not in ALLOWED_LAZY
    ]
    assert hidden == []


def test_allowed_lazy_imports_are_still_needed() -> None:
    # an exception nobody uses any more is taken off the list
    used = {(module, target) for module, target, _ in lazy_imports()}
    assert set(ALLOWED_LAZY) <= used


def test_no_import_cycles() -> None:
    assert import_cycle() is None


# The layers, lowest first: a module imports its own layer and those below, never above.
# The rules core is the top-level modules and adjudicator/, maps/, notation/.
LAYERS = {
    "game": 1,
    "formats": 2,
    "bots": 3,
    "env": 3,
    "render": 3,
    "commands": 4,
    "server": 4,
    "cli": 5,
    "__main__": 6,  # python -m realpolitik: the command
}


def _layer(module: str) -> int:
    parts = module.split(".")
    return LAYERS.get(parts[1], 0) if len(parts) > 1 else 6  # the package: the public face


def test_each_layer_imports_only_itself_and_below() -> None:
    modules = _modules(SRC)
    upward = []
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in _at_top(tree):
            for target in _imported(node, name, path.name == "__init__.py", modules):
                if _layer(target) > _layer(name):
                    upward.append(f"{name} imports {target}")
    assert upward == []


def test_the_checks_see_a_hidden_cycle_and_a_plain_one(tmp_path: Path) -> None:
    # a made-up package: a -> b at the top, b -> a inside a function (a hidden cycle);
    # c <-> d.e at the top, one of them relative and one under TYPE_CHECKING (not counted)
    files = {
        "__init__.py": "",
        "a.py": "from realpolitik.b import f\n",
        "b.py": "def f():\n    from realpolitik.a import g\n    return g\n",
        "c.py": "from . import d\nfrom .d.e import x\n",
        "d/__init__.py": (
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import realpolitik.a\n"
        ),
        "d/e.py": "import realpolitik.c\nx = 1\n",
    }
    for name, text in files.items():
        path = tmp_path / "realpolitik" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    assert lazy_imports(tmp_path) == [("realpolitik.b", "realpolitik.a", 2)]
    assert import_cycle(tmp_path) == ["realpolitik.c", "realpolitik.d.e", "realpolitik.c"]
    (tmp_path / "realpolitik" / "d" / "e.py").write_text("x = 1\n")
    assert import_cycle(tmp_path) is None
