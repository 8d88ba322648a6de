"""One word per idea (issue 16): "board" once meant the map, the units, the adjudicator's
table and the parse context. A map is a ``game_map``, the units are ``position.units``, the
adjudicator's table is a ``MovementProblem``, the parse context a ``ParseContext``: no
variable, parameter or attribute of the source is named ``board`` (``BOARDS``, the names of
the shipped maps, stays). Read from the source (an AST walk)."""

from __future__ import annotations

import ast

from tests.test_imports import SRC, _modules

_RETIRED = {"board", "adjustment_counts", "adjustment_due", "adjustment_dues"}


def _bound_names(tree: ast.AST) -> list[tuple[str, int]]:
    """Every name the code binds: assignment and loop targets, parameters, attributes
    assigned, functions and classes."""
    found: list[tuple[str, int]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            found.append((node.id, node.lineno))
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            found.append((node.attr, node.lineno))
        elif isinstance(node, ast.arg):
            found.append((node.arg, node.lineno))
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            found.append((node.name, node.lineno))
    return found


def test_no_name_in_the_source_means_several_things() -> None:
    retired = []
    for module, path in _modules(SRC).items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        retired += [(module, n, line) for n, line in _bound_names(tree) if n in _RETIRED]
    assert retired == []


# Names the server defines as the library does, for the same idea: name -> why.
_SERVER_SAME_IDEA = {
    "format_order": "an order in a language's notation, as the notation's (English if none)",
}


def _public_names(modules: dict[str, ast.Module]) -> dict[str, str]:
    """The names the library's packages export (``__all__``), each with its package."""
    found: dict[str, str] = {}
    for module, tree in modules.items():
        for node in tree.body:
            if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
            ):
                assert isinstance(node.value, ast.List | ast.Tuple)
                for item in node.value.elts:
                    assert isinstance(item, ast.Constant) and isinstance(item.value, str)
                    found.setdefault(item.value, module)
    return found


def test_the_server_names_nothing_as_the_library_names_something_else() -> None:
    """The server's ``engine.bot_orders`` (a bot of a kind, made and asked, its orders as
    text) was not the public ``realpolitik.bots.bot_orders`` (a bot's orders, its failures
    as ``BotError``): a reader of either took one for the other."""
    trees = {m: ast.parse(p.read_text(encoding="utf-8")) for m, p in _modules(SRC).items()}
    library = {
        name: package
        for name, package in _public_names(trees).items()
        if not package.startswith("realpolitik.server")
    }
    shared = [
        f"{module}.{node.name} (also {library[node.name]}.{node.name})"
        for module, tree in trees.items()
        if module.startswith("realpolitik.server")
        for node in tree.body
        if isinstance(node, ast.FunctionDef | ast.ClassDef)
        and node.name in library
        and node.name not in _SERVER_SAME_IDEA
    ]
    assert shared == []
