"""Adjustments: builds, waives, removals, and the civil-disorder removal rule (DATC 4.D.8)."""

from __future__ import annotations

from collections import deque
from collections.abc import Collection, Mapping, Sequence

from realpolitik.adjudicator.results import OrderResult, Outcome, Resolution
from realpolitik.maps.model import GameMap
from realpolitik.orders import Build, Disband, Order, UnitRef, Waive
from realpolitik.phase import Phase
from realpolitik.position import Position
from realpolitik.rules import Rules
from realpolitik.vocab import ARMY, FLEET, Location, Power, Province, Unit, coast_of, province_of

_FAR = 1_000


def adjustment_counts(
    game_map: GameMap, position: Position, rules: Rules | None = None
) -> dict[Power, int]:
    """Builds (positive) or removals (negative) due per power; zero entries omitted.

    Builds are capped by the free owned home centres, as only those can take a build."""
    out: dict[Power, int] = {}
    for power, delta in sorted(adjustment_dues(game_map, position, rules).items()):
        if delta > 0:
            delta = min(delta, len(free_homes(game_map, position, power)))
        if delta:
            out[power] = delta
    return out


def adjustment_due(
    game_map: GameMap, position: Position, power: Power, rules: Rules | None = None
) -> int:
    """Owned centres minus units (``rules.adjustments == "upkeep"``), or, for reinforcements
    (conquista), the owned centres outside the home country capped by the free homes."""
    if rules is not None and rules.adjustments == "reinforcements":
        owned = position.centers_of(power)
        foreign = sum(1 for c in owned if game_map.provinces[c].home != power)
        return min(foreign, len(free_homes(game_map, position, power)))
    owners = list(position.centers.values())
    return owners.count(power) - [u.power for u in position.units.values()].count(power)


def adjustment_dues(
    game_map: GameMap, position: Position, rules: Rules | None = None
) -> dict[Power, int]:
    """:func:`adjustment_due` of every power of the map or the position, in one pass."""
    if rules is not None and rules.adjustments == "reinforcements":
        powers = set(game_map.powers) | set(position.powers())
        return {power: adjustment_due(game_map, position, power, rules) for power in powers}
    due = dict.fromkeys(game_map.powers, 0)
    for owner in position.centers.values():
        due[owner] = due.get(owner, 0) + 1
    for unit in position.units.values():
        due[unit.power] = due.get(unit.power, 0) - 1
    for d in position.dislodged.values():
        due.setdefault(d.unit.power, 0)
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
    """Resolve an adjustment phase. Missing removals follow the civil-disorder rule."""
    units = dict(position.units)
    outcomes: list[Outcome] = []
    removed: list[Unit] = []
    civil: list[Unit] = []
    dues = adjustment_dues(game_map, position, rules)
    for power in sorted(set(orders) | set(position.powers())):
        due = dues.get(power, 0)
        power_orders = list(orders.get(power, ()))
        if not power_orders and due >= 0:
            continue
        verdicts = _judge_all(game_map, position, power, power_orders, due, rules)
        for order, (result, reason) in zip(power_orders, verdicts, strict=True):
            outcomes.append(Outcome(power, order, result, reason))
            if result is OrderResult.SUCCEEDS and isinstance(order, Build):
                unit = Unit(power, order.unit.type or ARMY, order.unit.location)
                if rules.fleet_build_inland == "b" and not game_map.is_valid_location(
                    unit.type, unit.location
                ):
                    unit = Unit(power, ARMY, province_of(unit.location))
                units[unit.province] = unit
            elif result is OrderResult.SUCCEEDS and isinstance(order, Disband):
                removed.append(units.pop(order.unit.province))
        if due < 0:
            done = sum(
                1
                for o, (r, _) in zip(power_orders, verdicts, strict=True)
                if r is OrderResult.SUCCEEDS and isinstance(o, Disband)
            )
            missing = -due - done
            left = [u for u in units.values() if u.power == power] if missing > 0 else []
            for unit in removal_order(game_map, position, power, left, rules)[:missing]:
                del units[unit.province]
                civil.append(unit)
                ref = UnitRef(unit.type, unit.location)
                outcomes.append(
                    Outcome(power, Disband(ref), OrderResult.SUCCEEDS, "civil disorder", None, True)
                )
    new_position = Position(units, dict(position.centers))
    return Resolution(phase, tuple(outcomes), new_position, tuple(removed + civil), tuple(civil))


def _judge_all(
    game_map: GameMap,
    position: Position,
    power: Power,
    orders: list[Order],
    due: int,
    rules: Rules,
) -> list[tuple[OrderResult, str]]:
    """Verdicts for one power's adjustment orders, in order (DATC 4.D.4 - 4.D.6)."""
    verdicts: list[tuple[OrderResult, str]] = []
    legal: list[int] = []
    for order in orders:
        result, reason = _judge(game_map, position, power, order, due, rules)
        verdicts.append((result or OrderResult.SUCCEEDS, reason))
    by_place: dict[Province, list[int]] = {}
    for k, order in enumerate(orders):
        if verdicts[k][0] is OrderResult.SUCCEEDS and not isinstance(order, Waive):
            by_place.setdefault(order.unit.province, []).append(k)
    for prov, ks in by_place.items():
        if len(ks) < 2:
            continue
        choice = rules.double_build if isinstance(orders[ks[0]], Build) else "b"
        keep = {"a": None, "b": ks[0], "c": ks[-1]}[choice]
        for k in ks:
            if k != keep:
                verdicts[k] = (OrderResult.ILLEGAL, f"{prov} has another adjustment order")
    legal = [k for k, (result, _) in enumerate(verdicts) if result is OrderResult.SUCCEEDS]
    allowed = abs(due)
    if len(legal) > allowed:
        choice = rules.too_many_builds if due > 0 else rules.too_many_disbands
        if choice == "a":
            keep_list: list[int] = []
        elif choice == "c":
            keep_list = legal[len(legal) - allowed :]
        else:
            keep_list = legal[:allowed]
        for k in legal:
            if k not in keep_list:
                verdicts[k] = (OrderResult.ILLEGAL, f"only {allowed} adjustment(s) due")
    return verdicts


def _judge(
    game_map: GameMap, position: Position, power: Power, order: Order, due: int, rules: Rules
) -> tuple[OrderResult | None, str]:
    """``(None, "")`` if the order is legal on its own, else the verdict and reason."""
    illegal = OrderResult.ILLEGAL
    if isinstance(order, (Build, Waive)):
        if due <= 0:
            return illegal, f"{power} has no build due"
        if isinstance(order, Waive):
            return (None, "") if rules.waive == "a" else (illegal, "builds cannot be waived")
        return _judge_build(game_map, position, power, order.unit, rules)
    if isinstance(order, Disband):
        if due >= 0:
            return illegal, f"{power} has no removal due"
        unit = position.units.get(order.unit.province)
        if unit is None:
            return illegal, f"there is no unit in {order.unit.province}"
        if unit.power != power:
            return illegal, f"the unit in {order.unit.province} belongs to {unit.power}"
        return None, ""
    return illegal, "only builds, waives and removals are ordered in an adjustment phase"


def _judge_build(
    game_map: GameMap, position: Position, power: Power, ref: UnitRef, rules: Rules
) -> tuple[OrderResult | None, str]:
    illegal = OrderResult.ILLEGAL
    prov = ref.province
    info = game_map.provinces.get(prov)
    if info is None or info.home != power:
        return illegal, f"{prov} is not a home centre of {power}"
    if position.centers.get(prov) != power:
        return illegal, f"{power} does not own {prov}"
    if prov in position.units:
        return illegal, f"{prov} is occupied"
    utype = ref.type
    if utype is None:
        if info.type.value == "coastal":
            return illegal, f"the unit type must be given to build in {prov}"
        utype = ARMY
    if utype is ARMY:
        return None, ""
    if info.type.value != "coastal":
        if rules.fleet_build_inland == "b":
            return None, ""
        return illegal, f"a fleet cannot be built in {prov}"
    coast = coast_of(ref.location)
    if info.coasts and coast not in info.coasts:
        return OrderResult.FAILS, f"the coast of {prov} must be given"
    return None, ""


# --- civil disorder (DATC 4.D.8) ------------------------------------------------------------
def removal_order(
    game_map: GameMap, position: Position, power: Power, units: Collection[Unit], rules: Rules
) -> list[Unit]:
    """``units`` in the order the edition's civil-disorder rule removes them."""
    choice = rules.civil_disorder_removal
    if choice == "c":
        targets = set(position.centers_of(power))
    elif choice == "b":
        targets = {p for p, i in game_map.provinces.items() if i.country == power}
    else:
        targets = set(game_map.homes.get(power, ()))
    if not targets:
        targets = set(game_map.homes.get(power, ()))

    def key(unit: Unit) -> tuple[bool, int, int, str]:
        name = game_map.name_of(unit.province)
        fleet_first = 0 if unit.type is FLEET else 1
        if choice == "c":
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
