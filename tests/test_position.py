"""Positions are immutable: read-only mappings, never shared with their input; positions
may share them with each other, as nothing can change them."""

from __future__ import annotations

from typing import Any

import pytest

from realpolitik import (
    ARMY,
    Disband,
    Phase,
    Position,
    UnitRef,
    adjudicate,
    load_map,
    parse_order,
    rules_for,
)
from realpolitik.position import Dislodged
from realpolitik.vocab import Unit

STANDARD = load_map("standard")


def test_a_position_copies_what_it_is_built_from() -> None:
    units = {"PAR": Unit("FRANCE", ARMY, "PAR")}
    centers = {"PAR": "FRANCE"}
    position = Position(units, centers)
    units["BUR"] = Unit("FRANCE", ARMY, "BUR")
    centers["BUR"] = "FRANCE"
    assert list(position.units) == ["PAR"] and list(position.centers) == ["PAR"]
    with pytest.raises(TypeError):
        position.units["BUR"] = Unit("FRANCE", ARMY, "BUR")  # type: ignore[index]
    with pytest.raises(TypeError):
        position.centers["BUR"] = "FRANCE"  # type: ignore[index]
    with pytest.raises(TypeError):
        position.dislodged["BUR"] = None  # type: ignore[index]


def test_a_retreat_phase_result_shares_nothing_with_its_input() -> None:
    start = Position.initial(STANDARD)
    units = dict(start.units)
    units["BUR"] = Unit("GERMANY", ARMY, "BUR")
    moved = Unit("FRANCE", ARMY, "PAR")
    del units["PAR"]
    before = Position(
        units, start.centers, {"PAR": Dislodged(moved, "BUR", ("PIC", "GAS"))}, frozenset()
    )
    orders = {"FRANCE": [Disband(UnitRef(ARMY, "PAR"))]}
    after = adjudicate(STANDARD, before, orders, rules_for("classic"), Phase.parse("S1901R"))
    assert dict(after.position.units) == dict(before.units)
    units["BOH"] = Unit("GERMANY", ARMY, "BOH")  # the dict it was built from changes...
    assert "BOH" not in before.units and "BOH" not in after.position.units  # ...not they
    assert not after.position.dislodged
    with pytest.raises(TypeError):
        after.position.units["PAR"] = moved  # type: ignore[index]
    assert "PAR" not in before.units


def test_every_change_to_a_positions_mapping_is_refused() -> None:
    position = Position.initial(STANDARD)
    unit = Unit("FRANCE", ARMY, "BUR")
    units: Any = position.units
    changes: list[tuple[str, tuple[Any, ...]]] = [
        ("__setitem__", ("BUR", unit)),
        ("__delitem__", ("PAR",)),
        ("update", ({"BUR": unit},)),
        ("pop", ("PAR",)),
        ("popitem", ()),
        ("setdefault", ("BUR", unit)),
        ("clear", ()),
    ]
    for method, args in changes:
        with pytest.raises(TypeError):
            getattr(units, method)(*args)
    assert len(position.units) == 22 and "BUR" not in position.units
    moved = Position(position.units, position.centers)  # shares the read-only mappings
    assert moved.units is position.units and moved == position


def test_positions_are_hashable_values() -> None:
    """A position is a frozen value: equal positions hash alike, so they can key a dict or
    fill a set (a bot's table of positions seen), whatever dicts they were built from."""
    start = Position.initial(STANDARD)
    again = Position(dict(start.units), dict(start.centers))
    assert again == start and hash(again) == hash(start)
    moved = adjudicate(
        STANDARD,
        start,
        {"FRANCE": [parse_order("A PAR - BUR", game_map=STANDARD)]},
        rules_for("classic"),
        Phase.parse("S1901M"),
    ).position
    assert moved != start and len({start, again, moved}) == 2
    dislodged = Position(start.units, {}, {"PAR": Dislodged(start.units["PAR"], "BUR", ("PIC",))})
    assert hash(dislodged) == hash(Position(dict(start.units), {}, dict(dislodged.dislodged)))
    assert {start: "seen"}[again] == "seen"


@pytest.mark.parametrize("data", [None, [], "units"])
def test_a_position_that_is_not_an_object_is_named(data: Any) -> None:
    with pytest.raises(ValueError, match="a position is an object of units and centers, not"):
        Position.from_json(data, STANDARD)


def test_a_unit_of_letters_is_refused_when_made() -> None:
    """``Unit("FRANCE", "A", "PAR")`` was made, a position built of it, and the game made
    from that position failed with an ``AttributeError`` ('str' object has no attribute
    '_value_') when asked its legal orders; it is refused when made, naming the value."""
    with pytest.raises(TypeError, match=r"a unit's type is ARMY or FLEET, not 'A'"):
        Unit("FRANCE", "A", "PAR")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="a unit's power is a power's name, not None"):
        Unit(None, ARMY, "PAR")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="a unit's location is a text such as 'PAR', not 7"):
        Unit("FRANCE", ARMY, 7)  # type: ignore[arg-type]
    assert str(Unit("FRANCE", ARMY, "PAR")) == "A PAR"
