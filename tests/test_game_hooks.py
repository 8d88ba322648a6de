"""The adjudicator's edition hooks, called directly: rule data, not scattered ifs."""

from __future__ import annotations

from realpolitik import Phase, Position, Reason, adjudicate, load_map, parse_order, rules_for
from realpolitik.adjudicator import builds_due

BOARD = load_map("standard")
SPRING = Phase.parse("S1915M")


def _position(units: dict[str, list[str]], centers: dict[str, list[str]] | None = None) -> Position:
    return Position.from_json({"units": units, "centers": centers or {}}, BOARD)


def _orders(**orders: list[str]) -> dict[str, list]:  # type: ignore[type-arg]
    return {
        power: [parse_order(o, game_map=BOARD) for o in texts] for power, texts in orders.items()
    }


def test_dislodged_units_destroyed() -> None:
    position = _position({"FRANCE": ["A BUR"], "GERMANY": ["A MUN", "A RUH"]})
    orders = _orders(GERMANY=["A MUN - BUR", "A RUH S A MUN - BUR"])
    classic = adjudicate(BOARD, position, orders, rules_for("classic"), SPRING)
    assert "BUR" in classic.position.dislodged and classic.removed == ()
    rules = rules_for("conquista", dislodged="destroyed")
    result = adjudicate(BOARD, position, orders, rules, SPRING)
    assert result.position.dislodged == {} and [str(u) for u in result.removed] == ["A BUR"]
    hold = next(o for o in result.outcomes if str(o.order) == "A BUR H")
    assert hold.result.value == "destroyed"


def test_foreign_support_counts_when_accepted() -> None:
    position = _position({"TURKEY": ["A RUM"], "AUSTRIA": ["A SER"], "RUSSIA": ["A UKR", "A SEV"]})
    orders = _orders(AUSTRIA=["A SER S A RUM"], RUSSIA=["A UKR - RUM", "A SEV S A UKR - RUM"])
    rules = rules_for("conquista", foreign_support="acknowledged")
    refused = adjudicate(BOARD, position, orders, rules, SPRING)
    support = refused.outcome_of(parse_order("A SER S A RUM", game_map=BOARD))
    assert support.result.value == "invalid"
    assert support.reason == Reason("not_accepted", power="TURKEY", unit="A SER")
    assert str(support.reason) == "TURKEY did not accept the support of A SER"
    assert refused.position.units["RUM"].power == "RUSSIA"
    accepted = adjudicate(BOARD, position, orders, rules, SPRING, accepted=[("TURKEY", "SER")])
    assert accepted.position.units["RUM"].power == "TURKEY"
    free = adjudicate(BOARD, position, orders, rules_for("classic"), SPRING)
    assert free.position.units["RUM"].power == "TURKEY"


def test_hold_support_for_a_power_in_civil_disorder() -> None:
    position = _position({"ITALY": ["A VEN"], "AUSTRIA": ["A TRI", "A TYR"], "FRANCE": ["A PIE"]})
    orders = _orders(AUSTRIA=["A TRI - VEN", "A TYR S A TRI - VEN"], FRANCE=["A PIE S A VEN"])
    fails = rules_for("classic").with_choice("4.D.9", "a")
    result = adjudicate(BOARD, position, orders, fails, SPRING, disorder=["ITALY"])
    reason = result.outcome_of(parse_order("A PIE S A VEN", game_map=BOARD)).reason
    assert str(reason) == "ITALY is in civil disorder"
    assert "VEN" in result.position.dislodged
    result = adjudicate(BOARD, position, orders, fails, SPRING)  # not in disorder: it counts
    assert "VEN" not in result.position.dislodged
    result = adjudicate(BOARD, position, orders, rules_for("classic"), SPRING, disorder=["ITALY"])
    assert "VEN" not in result.position.dislodged  # 4.D.9 b


def test_reinforcements_count() -> None:
    german = ["A HOL", "A BEL", "F KIE", "F DEN", "A SWE", "A RUH"]
    position = _position(
        {"GERMANY": german, "FRANCE": ["A PAR", "A MAR", "A BUR", "A PIC"]},
        {"GERMANY": ["KIE", "BER", "MUN", "HOL", "BEL", "DEN", "SWE"], "FRANCE": ["PAR", "MAR"]},
    )
    assert builds_due(BOARD, position) == {"FRANCE": -2, "GERMANY": 1}  # upkeep
    rules = rules_for("conquista", adjustments="reinforcements")
    # four foreign centres, two free home centres (BER, MUN); France: none, and no upkeep
    assert builds_due(BOARD, position, rules) == {"GERMANY": 2}
    phase = Phase.parse("S1916A")
    orders = _orders(GERMANY=["A BER B", "A MUN B"])
    result = adjudicate(BOARD, position, orders, rules, phase)
    assert result.position.units["BER"].power == "GERMANY" and "MUN" in result.position.units
    assert len(result.position.units_of("FRANCE")) == 4  # nothing removed
