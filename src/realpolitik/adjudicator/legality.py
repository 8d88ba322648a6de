"""Order legality: the one home of the rules that say which orders may be given.

Each rule answers for one kind of order, on the map and under the rules, and gives a
:class:`~realpolitik.adjudicator.reasons.Reason` when the order is illegal: a key and the
places or units it names. The adjudicator writes the reason in English in its results
(``str(reason)``), the notation reader says it in the player's language, and
:func:`realpolitik.legal.legal_orders` lists exactly the orders these rules allow (the
tests check both ways). What depends on the other units (the unit an order names, convoy
routes through the fleets at sea) is judged on the board, with these rules' reasons.

* :data:`ORDERS_OF`: the kinds of order each kind of phase takes;
* :func:`move_rule`: where a move goes, by convoy or not, or why it cannot;
* :func:`support_rule`: why a support is illegal for its supporter, and whether the
  supported unit could make the move; :func:`support_reach`: the provinces a unit may
  support into;
* :func:`convoy_rule`: why a convoy is illegal for its fleet and the places it names;
* :func:`unit_rule`: whether an order names its unit well enough (DATC 4.B.5, 4.C.1,
  4.C.2).

>>> from realpolitik import load_map, rules_for
>>> rule = move_rule(load_map("standard"), rules_for("classic"), FLEET, "MAO", "SPA", False)
>>> str(rule.reason)
'the coast of SPA must be given (NC, SC)'
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import NamedTuple

from realpolitik.adjudicator.reasons import Reason
from realpolitik.maps.model import GameMap, ProvinceType
from realpolitik.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Retreat,
    SupportHold,
    SupportMove,
    UnitRef,
    Waive,
)
from realpolitik.phase import PhaseKind
from realpolitik.rules import (
    ImpossibleCoast,
    MissingUnitType,
    OmittedCoast,
    Rules,
    SupportReach,
    UnknownCoast,
    WrongUnitCoast,
    WrongUnitType,
)
from realpolitik.vocab import ARMY, FLEET, PROVINCE, Location, Province, Unit, UnitType, coast_of

ORDERS_OF: Mapping[PhaseKind, tuple[type, ...]] = {
    PhaseKind.MOVEMENT: (Hold, Move, SupportHold, SupportMove, Convoy),
    PhaseKind.RETREATS: (Retreat, Disband),
    PhaseKind.ADJUSTMENTS: (Build, Disband, Waive),
}
"""The kinds of order each kind of phase takes (a move in a retreat phase is read as the
retreat)."""


class MoveRule(NamedTuple):
    """A move's verdict on the map: why it is illegal (``None`` if it is not), the exact
    destination and its province, whether it goes by convoy, and whether it needs a route
    through the fleets at sea (``overseas``: then ``reason`` says why it is illegal
    without one)."""

    reason: Reason | None
    exact: Location
    province: Province
    by_convoy: bool
    overseas: bool


class SupportRule(NamedTuple):
    """A support's verdict for its supporter and the places it names: why it is illegal
    (``None`` if it is not), the province it supports into, the coast it names there, and
    whether the supported unit, as named, could move there by land (``near``; for a hold,
    True) or else only by convoy (``overseas``: an army from a coast to a coast)."""

    reason: Reason | None
    into: Province
    coast: str | None
    near: bool
    overseas: bool


def _cut_off_from(game_map: GameMap, here: Province, prov: Province) -> bool:
    """Is ``prov`` cut off from the part of the board ``here`` is in (neutral Italy: "no se
    puede entrar en su territorio")?"""
    return prov in game_map.cut_off and here not in game_map.cut_off


def move_rule(
    game_map: GameMap, rules: Rules, utype: UnitType, location: Location, dest: Location, via: bool
) -> MoveRule:
    """Where a unit of type ``utype`` at ``location`` ordered to ``dest`` (``via``: "via
    convoy") goes, or why it cannot (DATC 4.B.2, 4.B.3, 4.B.6 decide what a coast named,
    omitted or impossible means)."""
    prov = PROVINCE[dest]
    coast = coast_of(dest)
    info = game_map.provinces.get(prov)
    if info is None or not info.passable:
        return _no_move(Reason("impassable", prov))
    here = PROVINCE[location]
    if prov == here:
        return _no_move(Reason("own_province"))
    if utype is ARMY:
        if coast is not None and rules.unknown_coast is UnknownCoast.ILLEGAL:
            return _no_move(Reason("army_coast"))
        if not info.is_land:
            return _no_move(Reason("army_to_sea", prov, name=info.name))
        if game_map.can_move(ARMY, location, prov):
            return MoveRule(None, prov, prov, via, False)
        if _cut_off_from(game_map, here, prov):
            return _no_move(Reason("impassable", prov))
        overseas = coastal(game_map, here) and coastal(game_map, prov)
        return MoveRule(Reason("not_adjacent", prov, here), prov, prov, True, overseas)
    if via:
        return _no_move(Reason("fleet_via"))
    if info.type is ProvinceType.INLAND:
        return _no_move(Reason("fleet_inland", prov, location))
    options = game_map.fleet_destinations(location, prov)
    if not options:
        if _cut_off_from(game_map, here, prov):
            return _no_move(Reason("impassable", prov))
        return _no_move(Reason("fleet_not_adjacent", prov, location))
    if coast is not None:
        if coast in info.coasts:
            if f"{prov}/{coast}" in options:
                return MoveRule(None, f"{prov}/{coast}", prov, False, False)
            if rules.impossible_coast is ImpossibleCoast.ILLEGAL:
                return _no_move(Reason("unreachable_coast", prov, location, coast))
        elif rules.unknown_coast is UnknownCoast.ILLEGAL:
            return _no_move(Reason("no_such_coast", prov, coast=coast))
    if len(options) > 1:
        return _no_move(Reason("missing_coast", prov, coasts=info.coasts))
    if info.coasts and rules.omitted_coast is OmittedCoast.FAILS:
        return _no_move(Reason("omitted_coast", prov))
    return MoveRule(None, options[0], prov, False, False)


def _no_move(reason: Reason) -> MoveRule:
    return MoveRule(reason, "", "", False, False)


def support_reach(
    game_map: GameMap, reach: SupportReach, utype: UnitType, location: Location
) -> Collection[Province]:
    """The provinces a ``utype`` at ``location`` may support into (its own aside): those it
    could move to, or (the conquista book's reading, an option) those its province borders
    by any army or fleet edge, so a fleet on a coast supports into what its province
    borders."""
    if reach is SupportReach.BORDERS:
        return game_map.any_adjacency.get(PROVINCE[location], frozenset())
    if utype is ARMY:
        return game_map.army_adjacency.get(location, frozenset())
    return game_map.fleet_reach.get(location, frozenset())


def support_rule(
    game_map: GameMap,
    rules: Rules,
    utype: UnitType,
    location: Location,
    target_type: UnitType | None,
    target: Location,
    dest: Location | None,
) -> SupportRule:
    """The verdict on the support by a ``utype`` at ``location`` of the unit of type
    ``target_type`` (``None``: not named) at ``target``, holding (``dest`` None) or moving
    to ``dest``: the supporter must reach where it supports (:func:`support_reach`, as the
    rules decide), the supported unit move there, by land (``near``) or by convoy
    (``overseas``: the board decides)."""
    target_prov = PROVINCE[target]
    here = PROVINCE[location]
    into = target_prov if dest is None else PROVINCE[dest]
    reason = None
    if target_prov == here:
        reason = Reason("support_self")
    elif into not in game_map.provinces:
        reason = Reason("unknown_province", into)
    elif dest is not None and into == target_prov:
        reason = Reason("target_stays", into)
    elif into == here:
        reason = Reason("support_into_own", into)
    elif rules.support_reach is SupportReach.CAN_MOVE:  # support_reach's test, as the listing's
        if not game_map.can_reach(utype, location, into):
            reason = Reason("cannot_support", into, unit=f"{utype.value} {location}")
    elif into not in game_map.any_adjacency.get(here, ()):
        reason = Reason("not_bordering", into, unit=f"{utype.value} {location}")
    if dest is None:
        return SupportRule(reason, into, None, True, False)
    near = target_type is not None and game_map.can_reach(target_type, target, into)
    overseas = (
        not near
        and target_type is not FLEET
        and coastal(game_map, target_prov)
        and coastal(game_map, into)
    )
    return SupportRule(reason, into, coast_of(dest), near, overseas)


def convoy_rule(
    game_map: GameMap, utype: UnitType, location: Location, army: Location, dest: Location
) -> Reason | None:
    """Why the convoy by a ``utype`` at ``location`` of the army at ``army`` to ``dest`` is
    illegal for the fleet alone and the provinces it names (``None``: it is not)."""
    here = PROVINCE[location]
    if utype is not FLEET or not game_map.provinces[here].is_sea:
        return Reason("convoy_at_sea")
    origin, to = PROVINCE[army], PROVINCE[dest]
    if to not in game_map.provinces:
        return Reason("unknown_province", to)
    if not coastal(game_map, origin) or not coastal(game_map, to) or origin == to:
        return Reason("convoy_coastal")
    return None


def unit_rule(rules: Rules, ref: UnitRef, unit: Unit) -> Reason | None:
    """Why ``ref``, as an order names its unit, does not name ``unit`` well enough (``None``:
    it does): a missing or wrong unit type, a fleet's wrong coast, as the rules decide."""
    if ref.type is unit.type and ref.location == unit.location:
        return None  # named exactly
    if ref.type is None and rules.missing_unit_type is MissingUnitType.ILLEGAL:
        return Reason("missing_unit_type", location=ref.location)
    if (
        ref.type is not None
        and ref.type is not unit.type
        and rules.wrong_unit_type is WrongUnitType.ILLEGAL
    ):
        return Reason("wrong_unit_type", unit.province, unit=unit.type.value, name=ref.type.value)
    if (
        coast_of(ref.location) is not None
        and unit.location != ref.location
        and unit.type is FLEET
        and rules.wrong_unit_coast is WrongUnitCoast.ILLEGAL
    ):
        return Reason("wrong_unit_coast", location=unit.location, name=ref.location)
    return None


def coastal(game_map: GameMap, prov: Province) -> bool:
    """Is ``prov`` a coastal province (where an army may be convoyed from or to)?"""
    info = game_map.provinces.get(prov)
    return info is not None and info.type is ProvinceType.COASTAL
