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
