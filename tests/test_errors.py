"""Every error the library raises is a class of :mod:`realpolitik.errors` (issue 16: "errors
live in one module"). Read from the source (an AST walk): an exception class defined
anywhere else in the library is found, whatever it derives from. The server's HTTP errors
(``realpolitik.server``) are the web layer's own, and a private exception used only inside
its module (``_Illegal``) never reaches a caller."""

from __future__ import annotations

import ast
import builtins
import re
from collections.abc import Callable

import pytest

import realpolitik.errors
from tests.test_imports import SRC, _modules

_BUILTIN = {
    n for n, v in vars(builtins).items() if isinstance(v, type) and issubclass(v, BaseException)
}


def _base_names(node: ast.ClassDef) -> set[str]:
    names = set()
    for base in node.bases:
        if isinstance(base, ast.Name):
            names.add(base.id)
        elif isinstance(base, ast.Attribute):
            names.add(base.attr)
    return names


def exception_classes_outside_errors() -> list[str]:
    """``module.Class`` of every public exception class of the library not in ``errors``."""
    classes: list[tuple[str, ast.ClassDef]] = []
    for name, path in _modules(SRC).items():
        if name == "realpolitik.server" or name.startswith("realpolitik.server."):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        classes += [(name, n) for n in ast.walk(tree) if isinstance(n, ast.ClassDef)]
    exceptions = set(_BUILTIN) | {
        n for n, v in vars(realpolitik.errors).items() if isinstance(v, type)
    }
    while True:  # classes deriving from an exception class, to the end of the chain
        more = {c.name for _, c in classes if _base_names(c) & exceptions} - exceptions
        if not more:
            break
        exceptions |= more
    return sorted(
        f"{module}.{c.name}"
        for module, c in classes
        if module != "realpolitik.errors"
        and not c.name.startswith("_")
        and _base_names(c) & exceptions
    )


def test_every_error_class_is_in_the_errors_module() -> None:
    assert exception_classes_outside_errors() == []


def test_every_error_is_a_value_error_exported_at_the_top() -> None:
    for name, value in vars(realpolitik.errors).items():
        if isinstance(value, type) and issubclass(value, Exception):
            assert issubclass(value, ValueError), name
            assert getattr(realpolitik, name) is value, name


def test_the_core_names_an_argument_of_the_wrong_kind() -> None:
    """JSON or text where the core takes a value (a position as a dict, a phase as text)
    is named with how one is made: it was an AttributeError from deep inside ('str' object
    has no attribute 'kind')."""
    from realpolitik import Position, adjudicate, legal_orders, load_map, parse_order, rules_for
    from realpolitik.game import Game

    game_map, game = load_map("standard"), Game.new(seed=1)
    position, phase, rules = game.position, game.phase, rules_for("classic")
    wrong: list[tuple[Callable[[], object], str]] = [
        (lambda: adjudicate(game_map, {"units": {}}, {}, rules, phase),  # type: ignore[arg-type]
         "position must be a Position (Position.from_json(data, game_map)), not dict"),
        (lambda: adjudicate(game_map, position, {}, "classic", phase),  # type: ignore[arg-type]
         "rules must be a Rules (rules_for('classic')), not str"),
        (lambda: adjudicate(game_map, position, 5, rules, phase),  # type: ignore[arg-type]
         "orders must be a Mapping (lists of orders by power), not int"),
        (lambda: legal_orders(game_map, position, "S1901M", rules),  # type: ignore[arg-type]
         "phase must be a Phase (Phase.parse('S1901M')), not str"),
        (lambda: legal_orders("standard", position, phase, rules),  # type: ignore[arg-type]
         "game_map must be a GameMap (load_map('standard')), not str"),
        (lambda: parse_order("A PAR - BUR", game_map="standard"),  # type: ignore[arg-type]
         "game_map must be a GameMap (load_map('standard')), not str"),
        (lambda: parse_order("A PAR - BUR", game_map=game_map, position={}),  # type: ignore[arg-type]
         "position must be a Position"),
        (lambda: Position.initial("standard"),  # type: ignore[arg-type]
         "game_map must be a GameMap (load_map('standard')), not str"),  # an AttributeError
        (lambda: Position.from_json(position.to_json(), "standard"),  # type: ignore[arg-type]
         "game_map must be a GameMap (load_map('standard')), not str"),  # an AttributeError
    ]  # fmt: skip
    for call, said in wrong:
        try:
            call()
        except TypeError as exc:
            assert said in str(exc), (said, exc)
        else:
            raise AssertionError(f"no error: {said}")


def test_the_adjudicator_names_text_given_for_orders() -> None:
    """Text where the adjudicator takes order values was judged an illegal order of
    another kind ('str orders are not given in a movement phase'), and one string for a
    power's list was read letter by letter ('A', ' ', 'P'...)."""
    from realpolitik import Phase, adjudicate, load_map, parse_order, rules_for
    from realpolitik.game import Game

    game_map, position, rules = (
        load_map("standard"),
        Game.new(seed=1).position,
        rules_for("classic"),
    )
    for phase, text in (
        ("S1901M", "A PAR - BUR"),
        ("F1901R", "A PAR R BUR"),
        ("W1901A", "A PAR B"),
    ):
        at = Phase.parse(phase)
        with pytest.raises(TypeError, match=re.escape(
            f"orders of FRANCE must be order values, not the text {text!r} "
            "(parse_order(text, game_map=...) reads it)"
        )):  # fmt: skip
            adjudicate(game_map, position, {"FRANCE": [text]}, rules, at)  # type: ignore[list-item]
        with pytest.raises(TypeError, match=re.escape(
            f"orders of FRANCE must be a list of orders, not one string {text!r}"
            if phase != "W1901A"
            else "not the text 'A' (parse_order(text, game_map=...) reads it) (one string for "
            "the list is read letter by letter)"
        )):  # fmt: skip
            adjudicate(game_map, position, {"FRANCE": text}, rules, at)  # type: ignore[dict-item]
    order = parse_order("A PAR - BUR", game_map=game_map)
    result = adjudicate(game_map, position, {"FRANCE": [order]}, rules, Phase.parse("S1901M"))
    assert result.outcome_of(order).result.value == "succeeds"
