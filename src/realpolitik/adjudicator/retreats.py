"""Retreats: where a dislodged unit may go, and the retreat phase itself."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import NamedTuple

from realpolitik.adjudicator.legality import move_rule
from realpolitik.adjudicator.reasons import Reason
from realpolitik.adjudicator.results import OrderResult, Outcome, Resolution
from realpolitik.errors import refuse_text
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
_COAST_REFUSED = frozenset({"army_coast", "no_such_coast"})
"""The move rule's refusals of a coast itself (DATC 4.B.6 a), which a retreat's are too."""


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


class _Retreating(NamedTuple):
    """A legal retreat-phase order, waiting for the others (two retreats to one province
    bounce): the dislodged unit and where it goes (``None``: it is disbanded)."""

    power: Power
    order: Order
    unit: Unit
    dest: Location | None


def adjudicate_retreats(
    game_map: GameMap,
    position: Position,
    orders: Mapping[Power, Sequence[Order]],
    rules: Rules,
    phase: Phase,
) -> Resolution:
    """Resolve a retreat phase: retreats to one province bounce; no order means disband."""
    # each order judged on its own: an illegal one has its outcome at once, a legal one
    # waits for the others; a unit's first legal order is its order
    judged: list[Outcome | _Retreating] = []
    chosen: dict[Province, Location | None] = {}  # dislodged province -> dest (None: disband)
    for power, power_orders in orders.items():
        for order in power_orders:
            verdict = _judge(game_map, position, power, order, rules)
            if isinstance(verdict, Reason):
                refuse_text(power, power_orders, order)
                judged.append(Outcome(power, order, OrderResult.ILLEGAL, verdict))
            elif (here := PROVINCE[verdict.unit.location]) in chosen:
                judged.append(Outcome(power, order, OrderResult.ILLEGAL, Reason("another_order")))
            else:
                chosen[here] = verdict.dest
                judged.append(verdict)
    bounced = _bounces(chosen.values()) if len(chosen) > 1 else ()

    units: dict[Province, Unit] | None = None  # a copy, made when a unit moves
    removed: list[Unit] = []
    outcomes: list[Outcome] = []
    for entry in judged:
        if isinstance(entry, Outcome):
            outcomes.append(entry)
            continue
        unit, dest = entry.unit, entry.dest
        if dest is None:
            outcomes.append(Outcome(entry.power, entry.order, OrderResult.SUCCEEDS))
            removed.append(unit)
        elif (prov := PROVINCE[dest]) in bounced:
            why = Reason("retreats_bounced", prov)
            outcomes.append(Outcome(entry.power, entry.order, OrderResult.FAILS, why))
            removed.append(unit)
        else:
            outcomes.append(Outcome(entry.power, entry.order, OrderResult.SUCCEEDS))
            if units is None:
                units = dict(position.units)
            units[prov] = Unit(unit.power, unit.type, dest)
    if len(chosen) < len(position.dislodged):
        for prov, d in sorted(position.dislodged.items()):
            if prov not in chosen:
                removed.append(d.unit)
                order = Disband(UnitRef(d.unit.type, d.unit.location))
                # no order, or none possible (RULES: "No legal retreat: disbanded")
                why = Reason("no_retreat" if d.retreats else "nowhere_to_retreat")
                outcomes.append(Outcome(d.unit.power, order, OrderResult.SUCCEEDS, why, None, True))
    new_position = Position(position.units if units is None else units, position.centers)
    return Resolution(phase, tuple(outcomes), new_position, tuple(removed))


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
) -> _Retreating | Reason:
    """The legal order of a dislodged unit, with where it goes, or why it is illegal."""
    if not isinstance(order, _RETREAT_ORDERS):
        return Reason("not_retreat")
    ref = order.unit
    here = PROVINCE[ref.location]
    d: Dislodged | None = position.dislodged.get(here)
    if d is None:
        return Reason("not_dislodged", here)
    unit = d.unit
    if unit.power != power:
        return Reason("dislodged_not_own", here, power=unit.power)
    if (
        ref.type is not None
        and ref.type is not unit.type
        and rules.wrong_unit_type is WrongUnitType.ILLEGAL
    ):
        return Reason("dislodged_type", unit=unit.type.value, name=ref.type.value)
    if isinstance(order, Disband):
        return _Retreating(power, order, unit, None)
    if isinstance(order, Move) and order.via_convoy:
        return Reason("retreat_convoyed")
    dest = order.destination
    prov = PROVINCE[dest]
    if dest != prov:  # a coast named: read as in a move (DATC 4.B.3, 4.B.6), by the move rule
        rule = move_rule(game_map, rules, unit.type, unit.location, dest, False)
        if rule.reason is None:
            dest = rule.exact  # an army's coast ignored; a fleet's, or the one it reaches
        elif rule.reason.key in _COAST_REFUSED:
            return rule.reason
    options = [loc for loc in d.retreats if PROVINCE[loc] == prov]
    if dest != prov and dest in options:  # the coast named ("SPA/NC") is an option
        return _Retreating(power, order, unit, dest)
    if len(options) == 1 and (dest == prov or dest[len(prov) + 1 :] not in game_map.coasts(prov)):
        # the one option there (a coast it does not have)
        return _Retreating(power, order, unit, options[0])
    if len(options) > 1:
        return Reason("omitted_coast", prov)
    return Reason("cannot_retreat", unit=str(unit), location=dest)
