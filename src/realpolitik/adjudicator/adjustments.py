"""Adjustments: builds, waives, removals, and the civil-disorder removal rule (DATC 4.D.8)."""

from __future__ import annotations

from collections import deque
from collections.abc import Collection, Mapping, Sequence

from realpolitik.adjudicator.reasons import Reason
from realpolitik.adjudicator.results import OrderResult, Outcome, Resolution
from realpolitik.errors import refuse_text
from realpolitik.maps.model import GameMap, ProvinceType
from realpolitik.orders import Build, Disband, Order, UnitRef, Waive
from realpolitik.phase import Phase
from realpolitik.position import Position
from realpolitik.rules import (
    Adjustments,
    CivilDisorderRemoval,
    FleetBuildInland,
    Rules,
    TooManyBuilds,
    TooManyDisbands,
    Waiving,
)
from realpolitik.vocab import (
    ARMY,
    FLEET,
    PROVINCE,
    Location,
    Power,
    Province,
    Unit,
    coast_of,
    province_of,
)

_FAR = 1_000
# bound once (reading ``OrderResult.SUCCEEDS`` runs Enum's __getattr__ hook): 3.1% of a phase
_SUCCEEDS = OrderResult.SUCCEEDS
_FAILS = OrderResult.FAILS
_ILLEGAL = OrderResult.ILLEGAL
_COASTAL = ProvinceType.COASTAL
_REINFORCEMENTS = Adjustments.REINFORCEMENTS
_LEGAL: tuple[OrderResult, Reason | None] = (_SUCCEEDS, None)


def builds_due(
    game_map: GameMap, position: Position, rules: Rules | None = None
) -> dict[Power, int]:
    """Builds (positive) or removals (negative) due per power; zero entries omitted.

    Builds are capped by the free owned home centres, as only those can take a build."""
    out: dict[Power, int] = {}
    for power, delta in sorted(net_upkeep(game_map, position, rules).items()):
        if delta > 0:
            delta = min(delta, len(free_homes(game_map, position, power)))
        if delta:
            out[power] = delta
    return out


def net_upkeep_of(
    game_map: GameMap, position: Position, power: Power, rules: Rules | None = None
) -> int:
    """Owned centres minus units (``Adjustments.UPKEEP``), or, for reinforcements (conquista),
    the owned centres outside the home country capped by the free homes."""
    if rules is not None and rules.adjustments is _REINFORCEMENTS:
        owned = position.centers_of(power)
        foreign = sum(1 for c in owned if game_map.provinces[c].home != power)
        return min(foreign, len(free_homes(game_map, position, power)))
    owners = list(position.centers.values())
    return owners.count(power) - [u.power for u in position.units.values()].count(power)


def net_upkeep(
    game_map: GameMap, position: Position, rules: Rules | None = None
) -> dict[Power, int]:
    """:func:`net_upkeep_of` of every power of the map or the position, in one pass."""
    if rules is not None and rules.adjustments is _REINFORCEMENTS:
        powers = set(game_map.powers) | set(position.powers())
        return {power: net_upkeep_of(game_map, position, power, rules) for power in powers}
    try:  # the map's powers first, then any other
        due = _upkeep(dict.fromkeys(game_map.powers, 0), position)
    except KeyError:  # a power the map does not declare
        units = position.units.values()
        every = [*game_map.powers, *position.centers.values(), *(u.power for u in units)]
        due = _upkeep(dict.fromkeys(every, 0), position)
    if position.dislodged:
        for d in position.dislodged.values():
            due.setdefault(d.unit.power, 0)
    return due


def _upkeep(due: dict[Power, int], position: Position) -> dict[Power, int]:
    """Add each power's owned centres to ``due`` and take its units away; a power not in
    ``due`` is a KeyError (``due[power] += 1`` rather than ``due.get``: 4% of listing an
    adjustment phase's legal orders, 2.4% of adjudicating it, callgrind on make
    bench-instructions' phases)."""
    for owner in position.centers.values():
        due[owner] += 1
    for unit in position.units.values():
        due[unit.power] -= 1
    return due


def free_homes(game_map: GameMap, position: Position, power: Power) -> list[Province]:
    """Home centres of ``power`` that it owns and that are empty."""
    return [
        p
        for p in game_map.homes.get(power, ())
        if position.centers.get(p) == power and p not in position.units
    ]


def adjudicate_adjustments(
    game_map: GameMap,
    position: Position,
    orders: Mapping[Power, Sequence[Order]],
    rules: Rules,
    phase: Phase,
) -> Resolution:
    """Resolve an adjustment phase. Missing removals follow the civil-disorder rule.

    The powers are taken alphabetically: those with orders, and those that owe removals (who
    may have given none: civil disorder)."""
    dues = net_upkeep(game_map, position, rules)
    powers = list(orders)
    for power, due in dues.items():
        if due < 0 and power not in orders:
            powers.append(power)
    powers.sort()
    units = dict(position.units)
    outcomes: list[Outcome] = []
    removed: list[Unit] = []
    civil: list[Unit] = []
    for power in powers:
        due = dues.get(power, 0)
        disbanded = 0
        # the power's orders, each judged on its own, then together (DATC 4.D.4 - 4.D.6)
        judged: list[Outcome] = []
        for order in orders.get(power, ()):
            result, reason = _judge(game_map, position, power, order, due, rules)
            judged.append(Outcome(power, order, result, reason, None, False))
        if len(judged) > 1:  # one order can neither share its province nor exceed what is due
            _one_order_per_place(judged, rules)
            _as_many_as_due(judged, due, rules)
        outcomes += judged
        for outcome in judged:
            if outcome.result is not _SUCCEEDS:
                continue
            order = outcome.order
            if isinstance(order, Build):
                unit = _built(game_map, power, order.unit, rules)
                units[PROVINCE[unit.location]] = unit
            elif isinstance(order, Disband):
                removed.append(units.pop(PROVINCE[order.unit.location]))
                disbanded += 1
        missing = -due - disbanded
        if missing > 0:
            left = [u for u in units.values() if u.power == power]
            for unit in removal_order(game_map, position, power, left, rules)[:missing]:
                del units[unit.province]
                civil.append(unit)
                ref = UnitRef(unit.type, unit.location)
                outcomes.append(
                    Outcome(power, Disband(ref), _SUCCEEDS, Reason("civil_disorder"), None, True)
                )
    # the centre owners do not change in an adjustment phase: the new position shares them
    new_position = Position(units, position.centers)
    return Resolution(phase, tuple(outcomes), new_position, tuple(removed + civil), tuple(civil))


def _built(game_map: GameMap, power: Power, ref: UnitRef, rules: Rules) -> Unit:
    """The unit a legal build makes: an army when the type is not given; where the edition
    allows a fleet build inland (DATC 4.D.3 b), an army in the province for a unit that
    cannot stand where it was ordered."""
    utype = ref.type or ARMY
    location = ref.location
    if not game_map.is_valid_location(utype, location) and (
        rules.fleet_build_inland is FleetBuildInland.ARMY_BUILT
    ):
        utype, location = ARMY, PROVINCE[location]
    return Unit(power, utype, location)


def _one_order_per_place(judged: list[Outcome], rules: Rules) -> None:
    """Two legal orders for one province: keep the first, the last or neither (for builds,
    DATC 4.D.5; removals keep the first)."""
    by_place: dict[Province, list[int]] = {}  # province -> the legal orders there
    for k, outcome in enumerate(judged):
        order = outcome.order
        if outcome.result is _SUCCEEDS and not isinstance(order, Waive):
            by_place.setdefault(PROVINCE[order.unit.location], []).append(k)
    for prov, ks in by_place.items():
        if len(ks) < 2:
            continue
        choice = rules.double_build if isinstance(judged[ks[0]].order, Build) else "b"
        keep = {"a": None, "b": ks[0], "c": ks[-1]}[choice]
        for k in ks:
            if k != keep:
                why = Reason("another_adjustment", prov)
                judged[k] = judged[k]._replace(result=_ILLEGAL, reason=why)


def _as_many_as_due(judged: list[Outcome], due: int, rules: Rules) -> None:
    """More legal adjustments than due: keep the first ones, the last ones or none
    (DATC 4.D.4 for builds, 4.D.6 for removals)."""
    legal = [k for k, outcome in enumerate(judged) if outcome.result is _SUCCEEDS]
    allowed = abs(due)
    if len(legal) <= allowed:
        return
    choice = rules.too_many_builds if due > 0 else rules.too_many_disbands
    if choice in (TooManyBuilds.ALL_FAIL, TooManyDisbands.CIVIL_DISORDER):
        keep_list: list[int] = []
    elif choice in (TooManyBuilds.LAST, TooManyDisbands.LAST):
        keep_list = legal[len(legal) - allowed :]
    else:
        keep_list = legal[:allowed]
    for k in legal:
        if k not in keep_list:
            judged[k] = judged[k]._replace(
                result=_ILLEGAL, reason=Reason("too_many", number=allowed)
            )


def _judge(
    game_map: GameMap, position: Position, power: Power, order: Order, due: int, rules: Rules
) -> tuple[OrderResult, Reason | None]:
    """The verdict on one order taken on its own: ``(SUCCEEDS, None)`` if it is legal."""
    if isinstance(order, Build):
        if due <= 0:
            return _ILLEGAL, Reason("no_build_due", power=power)
        return _judge_build(game_map, position, power, order.unit, rules)
    if isinstance(order, Disband):
        if due >= 0:
            return _ILLEGAL, Reason("no_removal_due", power=power)
        prov = PROVINCE[order.unit.location]
        unit = position.units.get(prov)
        if unit is None:
            return _ILLEGAL, Reason("no_unit", prov)
        if unit.power != power:
            return _ILLEGAL, Reason("not_own_unit", prov, power=unit.power)
        return _LEGAL
    if isinstance(order, Waive):
        if due <= 0:
            return _ILLEGAL, Reason("no_build_due", power=power)
        return _LEGAL if rules.waive is Waiving.ALLOWED else (_ILLEGAL, Reason("no_waive"))
    refuse_text(power, (), order)  # (the power's list is not at hand here)
    return _ILLEGAL, Reason("not_adjustment")


def _judge_build(
    game_map: GameMap, position: Position, power: Power, ref: UnitRef, rules: Rules
) -> tuple[OrderResult, Reason | None]:
    prov = PROVINCE[ref.location]
    info = game_map.provinces.get(prov)
    if info is None or info.home != power:
        return _ILLEGAL, Reason("not_home_centre", prov, power=power)
    if position.centers.get(prov) != power:
        return _ILLEGAL, Reason("not_owned", prov, power=power)
    if prov in position.units:
        return _ILLEGAL, Reason("occupied", prov)
    utype = ref.type
    if utype is None:
        if info.type is _COASTAL:
            return _ILLEGAL, Reason("build_type", prov)
        utype = ARMY
    if utype is ARMY:
        return _LEGAL
    if info.type is not _COASTAL:
        if rules.fleet_build_inland is FleetBuildInland.ARMY_BUILT:
            return _LEGAL
        return _ILLEGAL, Reason("fleet_build_inland", prov)
    coast = coast_of(ref.location)
    if info.coasts and coast not in info.coasts:
        return _FAILS, Reason("omitted_coast", prov)
    return _LEGAL


# --- civil disorder (DATC 4.D.8) ------------------------------------------------------------
def removal_order(
    game_map: GameMap, position: Position, power: Power, units: Collection[Unit], rules: Rules
) -> list[Unit]:
    """``units`` in the order the edition's civil-disorder rule removes them."""
    choice = rules.civil_disorder_removal
    off_centre_first = choice is CivilDisorderRemoval.OFF_CENTRE_FIRST
    if off_centre_first:
        targets = set(position.centers_of(power))
    elif choice is CivilDisorderRemoval.FROM_HOME_COUNTRY:
        targets = {p for p, i in game_map.provinces.items() if i.country == power}
    else:
        targets = set(game_map.homes.get(power, ()))
    if not targets:
        targets = set(game_map.homes.get(power, ()))

    def key(unit: Unit) -> tuple[bool, int, int, str]:
        name = game_map.name_of(unit.province)
        fleet_first = 0 if unit.type is FLEET else 1
        if off_centre_first:
            on_center = unit.province in game_map.centers
            dist = _distance(game_map.any_adjacency, unit.province, targets)
            return (on_center, -dist, fleet_first, name)
        return (False, -_travel(game_map, unit, targets), fleet_first, name)

    return sorted(units, key=key)


def _distance(
    graph: Mapping[Province, Collection[Province]], start: Province, targets: Collection[Province]
) -> int:
    if start in targets:
        return 0
    seen = {start}
    queue = deque([(start, 0)])
    while queue:
        here, dist = queue.popleft()
        for nxt in graph.get(here, ()):
            if nxt in targets:
                return dist + 1
            if nxt not in seen:
                seen.add(nxt)
                queue.append((nxt, dist + 1))
    return _FAR


def _travel(game_map: GameMap, unit: Unit, targets: Collection[Province]) -> int:
    """Moves to reach a target: fleets sail, armies may also cross water (as if convoyed)."""
    if unit.type is ARMY:
        return _distance(game_map.any_adjacency, unit.province, targets)
    start: Location = unit.location
    if province_of(start) in targets:
        return 0
    seen = {start}
    queue = deque([(start, 0)])
    while queue:
        here, dist = queue.popleft()
        for nxt in game_map.fleet_adjacency.get(here, ()):
            if province_of(nxt) in targets:
                return dist + 1
            if nxt not in seen:
                seen.add(nxt)
                queue.append((nxt, dist + 1))
    return _distance(game_map.any_adjacency, unit.province, targets)
