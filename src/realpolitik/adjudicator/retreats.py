"""Retreats: where a dislodged unit may go, and the retreat phase itself."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from realpolitik.adjudicator.results import OrderResult, Outcome, Resolution
from realpolitik.maps.model import GameMap
from realpolitik.orders import Disband, Move, Order, Retreat, UnitRef
from realpolitik.phase import Phase
from realpolitik.position import Dislodged, Position
from realpolitik.rules import Rules, WrongUnitType
from realpolitik.vocab import (
    ARMY,
    PROVINCE,
    Location,
    Power,
    Province,
    Unit,
)

_RETREAT_ORDERS = (Retreat, Move, Disband)


def retreat_options(
    game_map: GameMap,
    unit: Unit,
    occupied: Collection[Province],
    contested: Collection[Province],
    attacker_from: Province | None,
) -> tuple[Location, ...]:
    """Locations the unit may retreat to: adjacent, empty, not contested by a standoff, not
    where the attack came from (pass ``None`` when that is allowed: DATC 4.A.5)."""
    if unit.type is ARMY:
        candidates = game_map.army_adjacency.get(unit.location, frozenset())
    else:
        candidates = game_map.fleet_adjacency.get(unit.location, frozenset())
    out = [
        loc
        for loc in candidates
        if (prov := PROVINCE[loc]) not in occupied
        and prov not in contested
        and prov != attacker_from
    ]
    out.sort()
    return tuple(out)


def adjudicate_retreats(
    game_map: GameMap,
    position: Position,
    orders: Mapping[Power, Sequence[Order]],
    rules: Rules,
    phase: Phase,
) -> Resolution:
    """Resolve a retreat phase: retreats to one province bounce; no order means disband."""
    # each order judged on its own; the first legal one for a unit is its order
    judged: list[tuple[Power, Order, OrderResult | None, str, Unit | None, Location | None]] = []
    chosen: dict[Province, Location | None] = {}  # dislodged province -> dest (None: disband)
    for power, power_orders in orders.items():
        for order in power_orders:
            verdict, reason, unit, dest = _judge(game_map, position, power, order, rules)
            if unit is not None:
                here = PROVINCE[unit.location]
                if here in chosen:
                    verdict, reason, unit = OrderResult.ILLEGAL, "the unit has another order", None
                else:
                    chosen[here] = dest
            judged.append((power, order, verdict, reason, unit, dest))
    bounced = _bounces(chosen.values()) if len(chosen) > 1 else ()

    units: dict[Province, Unit] | None = None  # a copy, made when a unit moves
    removed: list[Unit] = []
    outcomes: list[Outcome] = []
    for power, order, verdict, reason, unit, dest in judged:
        if unit is not None:
            if dest is None:
                verdict = OrderResult.SUCCEEDS
                removed.append(unit)
            elif (prov := PROVINCE[dest]) in bounced:
                verdict, reason = OrderResult.FAILS, f"bounced in {prov}: disbanded"
                removed.append(unit)
            else:
                verdict = OrderResult.SUCCEEDS
                if units is None:
                    units = dict(position.units)
                units[prov] = Unit(unit.power, unit.type, dest)
        assert verdict is not None
        outcomes.append(Outcome(power, order, verdict, reason, None, False))
    if len(chosen) < len(position.dislodged):
        for prov, d in sorted(position.dislodged.items()):
            if prov not in chosen:
                removed.append(d.unit)
                ref = UnitRef(d.unit.type, d.unit.location)
                outcomes.append(
                    Outcome(
                        d.unit.power,
                        Disband(ref),
                        OrderResult.SUCCEEDS,
                        "no retreat order",
                        None,
                        True,
                    )
                )
    new_position = Position(position.units if units is None else units, position.centers)
    return Resolution(phase, tuple(outcomes), new_position, tuple(removed), ())


def _bounces(destinations: Collection[Location | None]) -> set[Province]:
    """The provinces two or more retreats go to."""
    seen: set[Province] = set()
    bounced: set[Province] = set()
    for dest in destinations:
        if dest is not None:
            prov = PROVINCE[dest]
            (bounced if prov in seen else seen).add(prov)
    return bounced


def _judge(
    game_map: GameMap, position: Position, power: Power, order: Order, rules: Rules
) -> tuple[OrderResult | None, str, Unit | None, Location | None]:
    """``(None, "", unit, dest)`` for a legal order of the dislodged ``unit`` (``dest`` where
    it retreats, ``None`` for a disband), else ``(verdict, reason, None, None)``."""
    if not isinstance(order, _RETREAT_ORDERS):
        return (
            OrderResult.ILLEGAL,
            "only retreats and disbands are ordered in a retreat phase",
            None,
            None,
        )
    ref = order.unit
    here = PROVINCE[ref.location]
    d: Dislodged | None = position.dislodged.get(here)
    if d is None:
        return OrderResult.ILLEGAL, f"there is no dislodged unit in {here}", None, None
    unit = d.unit
    if unit.power != power:
        return (
            OrderResult.ILLEGAL,
            f"the dislodged unit in {here} belongs to {unit.power}",
            None,
            None,
        )
    if (
        ref.type is not None
        and ref.type is not unit.type
        and rules.wrong_unit_type is WrongUnitType.ILLEGAL
    ):
        why = f"the dislodged unit is {unit.type.value}, not {ref.type.value}"
        return OrderResult.ILLEGAL, why, None, None
    if isinstance(order, Disband):
        return None, "", unit, None
    if isinstance(order, Move) and order.via_convoy:
        return OrderResult.ILLEGAL, "a retreat cannot be convoyed", None, None
    dest = order.destination
    prov = PROVINCE[dest]
    options = [loc for loc in d.retreats if PROVINCE[loc] == prov]
    if dest != prov and dest in options:  # the coast named ("SPA/NC") is an option
        return None, "", unit, dest
    if len(options) == 1 and (dest == prov or dest[len(prov) + 1 :] not in game_map.coasts(prov)):
        return None, "", unit, options[0]  # the one option there (a coast it does not have)
    if len(options) > 1:
        return OrderResult.ILLEGAL, f"the coast of {prov} must be given", None, None
    return OrderResult.ILLEGAL, f"{unit} cannot retreat to {dest}", None, None
