"""Legal orders: every order the adjudicator accepts as legal in the current phase.

``legal_orders(game_map, position, phase, rules, power=None)`` returns, per power, a dict
from a key to the list of that key's legal orders::

    >>> from realpolitik import Phase, Position, load_map, rules_for
    >>> game_map = load_map("standard")
    >>> orders = legal_orders(game_map, Position.initial(game_map), Phase.parse("S1901M"),
    ...                       rules_for("classic"), "ENGLAND")
    >>> [str(o) for o in orders["ENGLAND"]["LVP"]][:3]
    ['A LVP H', 'A LVP - CLY', 'A LVP - EDI']

Keys are a unit's location (movement, retreats), or in an adjustment phase the province of
a possible build, the location of a unit that may be removed, and ``"WAIVE"``.

Each order is listed once, in one canonical spelling: unit types always given, a fleet's
destination with its coast where the province has several, supports and convoys naming the
destination province (any coast: DATC 4.B.4), and every move that goes by convoy marked
``VIA`` (an army's move to a non-adjacent province needs no ``VIA``, but means the same).
A move ``VIA`` to an adjacent province is listed when a convoy route exists on the board.
An army built as ``F`` in an inland province (DATC 4.C.4 b) is the army build's spelling.

A convoy is listed for a fleet at sea on a route of fleets at sea that none of its fleets
could leave (DATC 6.G.19); a support for a move the supported unit could make, by land or
by a convoy of fleets other than the supporter: exactly what
:func:`realpolitik.adjudicator.adjudicate` judges legal (the tests check both ways).

In a movement phase a unit's list is its hold, its moves by land, its moves by convoy (each
by destination), then for each province it could support into (in order) the support of
the unit there and of the units that could move there by land, then only by convoy (each
group by location), and last, for a fleet at sea, its convoys (by army, then destination).

The lists are made by :mod:`realpolitik.legal.listing` (plain tables and lookups: the
specification); a movement phase on a map whose units fit the masks of
:mod:`realpolitik.legal._fast` is listed there instead, in C where it can (987 k
instructions a movement phase listed plainly, 723 k by masks); the tests check that both
give the same lists.
"""

from __future__ import annotations

from realpolitik.adjudicator import builds_due, check_arguments
from realpolitik.legal import _fast
from realpolitik.legal.listing import (
    WAIVE,
    LegalOrders,
    adjustment_orders,
    movement_orders,
    retreat_orders,
)
from realpolitik.maps.model import GameMap
from realpolitik.orders import Order
from realpolitik.phase import Phase, PhaseKind
from realpolitik.position import Position
from realpolitik.rules import Rules
from realpolitik.vocab import Location, Power, province_of

__all__ = ["WAIVE", "LegalOrders", "builds_due", "legal_orders", "unit_orders"]

# read once: reading an enum member runs Enum's lookup in Python (8% of retreat listing)
_MOVEMENT, _RETREATS = PhaseKind.MOVEMENT, PhaseKind.RETREATS


def legal_orders(
    game_map: GameMap, position: Position, phase: Phase, rules: Rules, power: Power | None = None
) -> LegalOrders:
    """Every legal order of ``power`` (or of every power with something to order), by key.

    With ``power`` given, the result has that one entry (empty if it has nothing to order;
    a ``ValueError`` if the board has no such power, as ``"france"``). Powers and keys
    come in sorted order; each key's list starts with the default (the hold of a unit in
    a movement phase, the disband of a dislodged unit)."""
    try:
        if phase.kind is _MOVEMENT:
            out = _fast.movement_orders(game_map, position, rules, power)
            if out is None:  # a map or a position the masks do not cover
                out = movement_orders(game_map, position, rules, power)
        elif phase.kind is _RETREATS:
            out = retreat_orders(game_map, position, power)
        else:
            out = adjustment_orders(game_map, position, rules, power)
    except (AttributeError, TypeError):  # an argument of the wrong kind? (checked only now)
        check_arguments(game_map, position, phase, rules)
        raise
    if power is not None:
        found = out.get(power)
        if found is None:  # nothing to order, or no such power
            if power not in game_map.powers:
                known = ", ".join(game_map.powers)
                raise ValueError(f"unknown power {power!r} on {game_map.name}; powers: {known}")
            found = {}
        return {power: found}
    return out


def unit_orders(
    game_map: GameMap, position: Position, phase: Phase, rules: Rules, location: Location
) -> list[Order]:
    """The legal orders of the unit at ``location`` (its province is enough), or of the
    dislodged unit there in a retreat phase; in an adjustment phase, the builds in that
    province or the removal of the unit there. Empty if there is none."""
    prov = province_of(location)
    if phase.kind is _MOVEMENT:
        unit = position.units.get(prov)
        if unit is None:
            return []
        return movement_orders(game_map, position, rules, unit.power, unit.location)[unit.power][
            unit.location
        ]
    if phase.kind is _RETREATS:
        d = position.dislodged.get(prov)
        if d is None:
            return []
        return retreat_orders(game_map, position, d.unit.power)[d.unit.power][d.unit.location]
    for keyed in adjustment_orders(game_map, position, rules, None).values():
        for key, orders in keyed.items():
            if key != WAIVE and province_of(key) == prov:
                return orders
    return []
