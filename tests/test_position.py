"""Positions are immutable: read-only mappings, never shared with their input or with the
position an adjudication started from."""

from __future__ import annotations

import pytest

from realpolitik import ARMY, Disband, Phase, Position, UnitRef, adjudicate, load_map, rules_for
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
    assert after.position.units is not before.units
    assert not after.position.dislodged
    with pytest.raises(TypeError):
        after.position.units["PAR"] = moved  # type: ignore[index]
    assert "PAR" not in before.units
