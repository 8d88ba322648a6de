"""Retreats: where a dislodged unit may go, and the retreat phase itself."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from realpolitik.adjudicator.results import OrderResult, Outcome, Resolution
from realpolitik.maps.model import GameMap
from realpolitik.orders import Disband, Move, Order, Retreat, UnitRef
from realpolitik.phase import Phase
from realpolitik.position import Dislodged, Position
from realpolitik.rules import Rules
from realpolitik.vocab import ARMY, Location, Power, Province, Unit, coast_of, province_of

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
        if (prov := province_of(loc)) not in occupied
        and prov not in contested
        and prov != attacker_from
    ]
    return tuple(sorted(out))


def adjudicate_retreats(
    game_map: GameMap,
    position: Position,
    orders: Mapping[Power, Sequence[Order]],
    rules: Rules,
    phase: Phase,
) -> Resolution:
    """Resolve a retreat phase: retreats to one province bounce; no order means disband."""
    chosen: dict[Province, tuple[int, Location | None]] = {}  # dislodged province -> entry, dest
    verdicts: list[tuple[OrderResult | None, str]] = []
    entries = [(power, order) for power, power_orders in orders.items() for order in power_orders]
    for k, (power, order) in enumerate(entries):
        verdict, reason, dest = _judge(game_map, position, power, order, rules)
        if verdict is None:
            prov = province_of(_unit_ref(order).location)
            if prov in chosen:
                verdict, reason = OrderResult.ILLEGAL, "the unit has another order"
            else:
                chosen[prov] = (k, dest)
        verdicts.append((verdict, reason))
    targets: dict[Province, int] = {}
    for _k, dest in chosen.values():
        if dest is not None:
            targets[province_of(dest)] = targets.get(province_of(dest), 0) + 1

    units = dict(position.units)
    removed: list[Unit] = []
    outcomes: list[Outcome] = []
    results: dict[int, tuple[OrderResult, str]] = {}
    for prov, (k, dest) in chosen.items():
        unit = position.dislodged[prov].unit
        if dest is None:
            results[k] = (OrderResult.SUCCEEDS, "")
            removed.append(unit)
        elif targets[province_of(dest)] > 1:
            results[k] = (OrderResult.FAILS, f"bounced in {province_of(dest)}: disbanded")
            removed.append(unit)
        else:
            results[k] = (OrderResult.SUCCEEDS, "")
            moved = Unit(unit.power, unit.type, dest)
            units[moved.province] = moved
    for k, (power, order) in enumerate(entries):
        verdict, reason = verdicts[k]
        if verdict is None:
            verdict, reason = results[k]
        outcomes.append(Outcome(power, order, verdict, reason))
    for prov, d in sorted(position.dislodged.items()):
        if prov not in chosen:
            removed.append(d.unit)
            ref = UnitRef(d.unit.type, d.unit.location)
            outcomes.append(
                Outcome(
                    d.unit.power, Disband(ref), OrderResult.SUCCEEDS, "no retreat order", None, True
                )
            )
    new_position = Position(units, dict(position.centers))
    return Resolution(phase, tuple(outcomes), new_position, tuple(removed))


def _unit_ref(order: Order) -> UnitRef:
    assert isinstance(order, _RETREAT_ORDERS)
    return order.unit


def _judge(
    game_map: GameMap, position: Position, power: Power, order: Order, rules: Rules
) -> tuple[OrderResult | None, str, Location | None]:
    """``(None, "", dest)`` for a legal retreat (dest ``None``: disband), else the verdict."""
    illegal = OrderResult.ILLEGAL
    if not isinstance(order, _RETREAT_ORDERS):
        return illegal, "only retreats and disbands are ordered in a retreat phase", None
    ref = order.unit
    d: Dislodged | None = position.dislodged.get(ref.province)
    if d is None:
        return illegal, f"there is no dislodged unit in {ref.province}", None
    if d.unit.power != power:
        return illegal, f"the dislodged unit in {ref.province} belongs to {d.unit.power}", None
    if ref.type is not None and ref.type is not d.unit.type and rules.wrong_unit_type == "a":
        return illegal, f"the dislodged unit is {d.unit.type.value}, not {ref.type.value}", None
    if isinstance(order, Disband):
        return None, "", None
    if isinstance(order, Move) and order.via_convoy:
        return illegal, "a retreat cannot be convoyed", None
    prov, coast = province_of(order.destination), coast_of(order.destination)
    options = [loc for loc in d.retreats if province_of(loc) == prov]
    if coast is not None and f"{prov}/{coast}" in options:
        return None, "", f"{prov}/{coast}"
    if len(options) == 1 and (coast is None or coast not in game_map.coasts(prov)):
        return None, "", options[0]
    if len(options) > 1:
        return illegal, f"the coast of {prov} must be given", None
    return illegal, f"{d.unit} cannot retreat to {order.destination}", None
