"""Step one of a movement phase: match orders to units, judge their legality, link them.

The result, :class:`MovementProblem`, is the flat, indexed form the resolver works on: one slot per
unit, its effective order kind, destinations, the supports and convoys that match it. Every
submitted order also gets its preliminary verdict (illegal / invalid, with a reason).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from functools import lru_cache
from operator import attrgetter
from typing import Any

from realpolitik.adjudicator.convoy import Routes, has_route, minimal_routes
from realpolitik.adjudicator.legality import (
    MoveRule,
    Reason,
    SupportRule,
    convoy_rule,
    move_rule,
    support_rule,
    unit_rule,
)
from realpolitik.errors import IllegalOrderError
from realpolitik.maps.model import GameMap, ProvinceType
from realpolitik.orders import Convoy, Hold, Move, Order, SupportHold, SupportMove, UnitRef
from realpolitik.position import Position
from realpolitik.rules import (
    AdjacentConvoy,
    DisorderHoldSupport,
    DuplicateOrders,
    ForeignSupport,
    MissingNationality,
    Rules,
    SupportCoast,
    WrongNationality,
)
from realpolitik.vocab import (
    ARMY,
    FLEET,
    PROVINCE,
    Location,
    Power,
    Province,
    Unit,
    UnitType,
    coast_of,
)

HOLD, MOVE, SUPPORT, CONVOY = 0, 1, 2, 3
# the choices where a move to an adjacent province by convoy falls back on the land route
_FALLBACK = (AdjacentConvoy.ONLY_TO_SWAP, AdjacentConvoy.OWN_FLEET_OR_VIA_WITH_FALLBACK)
_NOWHERE: tuple[frozenset[Province], frozenset[Province]] = (frozenset(), frozenset())


class MovementProblem:
    """The indexed movement problem. Most lists are indexed by unit number (units sorted by
    location); each starts as "no order": holding, no destination, no target. The orders
    submitted are numbered in the order given: ``orders``, ``order_power`` and
    ``order_unit`` (the unit it is for, or -1) are indexed by that number, and ``illegal``,
    ``invalid`` and ``fails`` hold the verdicts of the orders that get one, with the reason.
    """

    __slots__ = (
        "accepted",
        "at",
        "attackers",
        "by_sea",
        "convoyed",
        "convoys",
        "dest",
        "dest_loc",
        "disorder",
        "facts",
        "fails",
        "fallback",
        "fleet_seas",
        "fleets",
        "game_map",
        "hold_supports",
        "illegal",
        "index",
        "invalid",
        "kind",
        "move_supports",
        "movers",
        "no_route",
        "order_of",
        "order_power",
        "order_unit",
        "orders",
        "owner",
        "prov",
        "rules",
        "supports",
        "target",
        "target_coast",
        "target_dest",
        "twice",
        "units",
        "via",
    )
    # (``facts``: the map-and-rules facts; ``fleet_seas``: the seas holding a fleet, where
    # convoys are possible, found when a convoy route is first asked for)

    def __init__(
        self,
        game_map: GameMap,
        rules: Rules,
        units: list[Unit],
        disorder: frozenset[Power] = frozenset(),
        accepted: frozenset[tuple[Power, Province]] = frozenset(),
    ) -> None:
        n = len(units)
        self.game_map = game_map
        self.rules = rules
        self.units = units
        self.prov: list[Province] = list(map(PROVINCE.__getitem__, map(_by_location, units)))
        self.index: dict[Province, int] = dict(zip(self.prov, range(n), strict=True))
        self.at: dict[Location, int] = dict(zip(map(_by_location, units), range(n), strict=True))
        self.owner: list[Power] = list(map(_by_power, units))
        self.orders: list[Order] = []
        self.order_power: list[Power] = []
        self.order_unit: list[int] = []
        self.illegal: dict[int, str] = {}
        self.invalid: dict[int, str] = {}  # legal, but matching no other order
        self.fails: dict[int, str] = {}  # legal, but it cannot succeed (DATC 4.B.5)
        self.kind: list[int] = [HOLD] * n
        self.order_of: list[int] = [-1] * n  # number of the unit's order, or -1
        self.dest: list[Province | None] = [None] * n
        self.dest_loc: list[Location | None] = [None] * n
        self.via: list[bool] = [False] * n
        self.convoyed: list[bool] = [False] * n
        self.fallback: list[bool] = [False] * n  # takes the land route if disrupted
        self.no_route: list[bool] = [False] * n
        self.target: list[int] = [-1] * n  # supported / convoyed unit
        self.target_dest: list[Province | None] = [None] * n
        self.target_coast: list[str | None] = [None] * n
        # the supports and convoying fleets each unit gets (only units that get any are keys)
        self.hold_supports: dict[int, list[int]] = {}
        self.move_supports: dict[int, list[int]] = {}
        self.fleets: dict[int, list[int]] = {}  # convoying fleets of a move
        self.attackers: dict[Province, list[int]] = {}  # units moving into each province
        # the units ordered to move, support, convoy (in the order they got their orders)
        self.movers: list[int] = []
        self.by_sea: list[int] = []  # the movers ordered via convoy or with no land route
        self.supports: list[int] = []
        self.convoys: list[int] = []
        self.twice: list[int] = []  # units given two different legal orders
        self.facts = _facts(game_map, rules)
        self.fleet_seas: frozenset[Province] | None = None
        self.disorder = disorder  # powers in civil disorder (DATC 4.D.9)
        self.accepted = accepted  # accepted foreign supporters

    @property
    def size(self) -> int:
        return len(self.units)

    def seas_with_fleets(self) -> frozenset[Province]:
        """The seas holding a fleet: where convoys are possible."""
        if self.fleet_seas is None:
            occupied = self.facts.seas.intersection(self.prov)
            units, index = self.units, self.index
            self.fleet_seas = frozenset([p for p in occupied if units[index[p]].type is FLEET])
        return self.fleet_seas


def build_problem(
    game_map: GameMap,
    position: Position,
    orders: Mapping[Power, Sequence[Order]],
    rules: Rules,
    *,
    disorder: Collection[Power] = (),
    accepted: Collection[tuple[Power, Province]] = (),
) -> MovementProblem:
    """Judge every order on the board alone and give each unit its order (DATC 4.D.3: one
    order per unit), then link supports and convoys to moves."""
    units = sorted(position.units.values(), key=_by_location)
    problem = MovementProblem(game_map, rules, units, frozenset(disorder), frozenset(accepted))
    judge = _Judge(problem)
    judge.judge_all(orders)
    if problem.twice:
        _duplicates(judge)
    _link(problem)
    return problem


_by_location = attrgetter("location")
_by_power = attrgetter("power")


# --- what the map and rules say about an order, whatever else is on the board ---------------
class _Facts:
    """The map-and-rules half of the legality checks, memoised per map and rules: a move's
    exact destination (or why it is illegal), and why a support or convoy is illegal for
    its own unit and the places it names (or ``""``). What depends on the other units (the
    supported unit, convoy routes through the fleets at sea) is checked on the board.

    Threads share the memos: each verdict is an immutable value made whole, then published
    by one dictionary assignment, so a reader finds it complete or not at all."""

    def __init__(self, game_map: GameMap, rules: Rules) -> None:
        self.game_map = game_map
        self.rules = rules
        provinces = game_map.provinces
        self.seas = frozenset(p for p, info in provinces.items() if info.is_sea)
        self.coastal = frozenset(
            p for p, info in provinces.items() if info.type is ProvinceType.COASTAL
        )
        # the provinces a unit could move into, by unit type and location
        self.reach: dict[UnitType, Mapping[Location, Collection[Province]]] = {
            ARMY: game_map.army_adjacency,
            FLEET: game_map.fleet_reach,
        }
        self.wrong_nationality = rules.wrong_nationality is WrongNationality.ILLEGAL
        self.missing_nationality = rules.missing_nationality is MissingNationality.ILLEGAL
        self.moves: dict[tuple[UnitType, Location, Location, bool], MoveRule] = {}
        self.supports: dict[SupportKey, SupportRule] = {}
        self.convoys: dict[tuple[UnitType, Location, Location, Location], Reason | None] = {}

    def move(self, utype: UnitType, location: Location, dest: Location, via: bool) -> MoveRule:
        key = (utype, location, dest, via)
        found = self.moves.get(key)
        if found is None:
            if len(self.moves) > 100_000:  # only ever the map's orders, unless orders are odd
                self.moves.clear()
            found = self.moves[key] = move_rule(self.game_map, self.rules, *key)
        return found

    def support(self, key: SupportKey) -> SupportRule:
        found = self.supports.get(key)
        if found is None:
            if len(self.supports) > 100_000:  # only ever the map's orders, unless orders are odd
                self.supports.clear()
            found = self.supports[key] = support_rule(self.game_map, self.rules, *key)
        return found

    def convoy(
        self, utype: UnitType, location: Location, army: Location, dest: Location
    ) -> Reason | None:
        key = (utype, location, army, dest)
        found = self.convoys.get(key)
        if found is None:
            if len(self.convoys) > 100_000:  # only ever the map's orders, unless orders are odd
                self.convoys.clear()
            found = self.convoys[key] = convoy_rule(self.game_map, *key)
        return found


@lru_cache(maxsize=16)  # every shipped board under one rules preset, or one board under several
def _facts(game_map: GameMap, rules: Rules) -> _Facts:
    """The facts of this map and rules (made whole: the memos start empty)."""
    return _Facts(game_map, rules)


# A support, as the supporter's type and location, the supported unit's type (or None) and
# location as named, and the destination (None: a hold)
SupportKey = tuple[UnitType, Location, UnitType | None, Location, Location | None]


# --- legality on the board ------------------------------------------------------------------
class _Judge:
    """Judges each order on the board: the unit is there and is the power's, and the order
    is legal for it (:class:`_Facts`) and for the units and fleets it involves; an order
    naming the wrong coast of its fleet's province only fails (DATC 4.B.5). The first legal
    order of a unit is its order: judging it also gives it to the unit."""

    def __init__(self, problem: MovementProblem) -> None:
        self.problem = problem
        self.facts = problem.facts
        self.routes: dict[tuple[Province, Province, Province | None], bool] = {}
        self.minimal: dict[Province, Routes] = {}  # the minimal convoy routes, by army's province

    def judge_all(self, orders: Mapping[Power, Sequence[Order]]) -> None:
        """Number and judge every order, power by power."""
        problem = self.problem
        at, units, illegal, order_of = problem.at, problem.units, problem.illegal, problem.order_of
        numbered, order_unit, twice = problem.orders, problem.order_unit, problem.twice
        checks = _CHECKS
        for power, power_orders in orders.items():
            start = len(numbered)
            numbered += power_orders
            problem.order_power += [power] * len(power_orders)
            for k, order in enumerate(power_orders, start):
                check = checks.get(type(order), _refuse)
                try:  # the unit is there, and is the power's
                    if check is _refuse:
                        _refuse(self, k, -1, None, order, False)
                    ref = order.unit  # type: ignore[union-attr]  # a movement order
                    i = at.get(ref.location, -1)
                    if i < 0 or (unit := units[i]).power != power or ref.type is not unit.type:
                        i = self._unit_of(power, ref)
                        unit = units[i]
                except IllegalOrderError as exc:
                    order_unit.append(-1)
                    illegal[k] = str(exc)
                    continue
                order_unit.append(i)
                first = order_of[i] < 0
                if check is not None:
                    try:  # the order is legal for it
                        check(self, k, i, unit, order, first)
                    except IllegalOrderError as exc:
                        illegal[k] = str(exc)
                        continue
                if first:
                    order_of[i] = k
                elif order != numbered[order_of[i]] and i not in twice:
                    twice.append(i)

    def _unit_of(self, power: Power, ref: UnitRef) -> int:
        """The number of the unit ``ref`` names, if it is ``power``'s and named well enough
        (see :func:`_check_ref`)."""
        problem = self.problem
        i = problem.at.get(ref.location, -1)
        exact = i >= 0
        if not exact:  # the unit in the province, if any (another coast)
            i = self._unit_in(ref.location)
        unit = problem.units[i]
        if unit.power != power:
            raise IllegalOrderError(f"the unit in {unit.province} belongs to {unit.power}")
        if not exact or ref.type is not unit.type:
            _check_ref(problem, ref, unit)
        return i

    def _unit_in(self, location: Location) -> int:
        """The number of the unit in the province of ``location`` (an order may name a
        unit without its coast, or with another)."""
        prov = PROVINCE[location]
        i = self.problem.index.get(prov, -1)
        if i < 0:
            raise IllegalOrderError(f"there is no unit in {prov}")
        return i

    def route(self, src: Province, dest: Province, exclude: Province | None = None) -> bool:
        """Could an army go from ``src`` to ``dest`` by convoy through the fleets at sea
        (other than the one in ``exclude``)?"""
        key = (src, dest, exclude)
        found = self.routes.get(key)
        if found is None:
            seas = self.problem.seas_with_fleets()
            if exclude is not None:
                seas = seas - {exclude}
            found = self.routes[key] = has_route(self.problem.game_map, src, dest, seas)
        return found

    # Each check judges order number ``k`` for unit ``i``, raising :class:`IllegalOrderError`; if
    # ``give``, the order is the unit's and the problem records it.
    def _move(self, k: int, i: int, unit: Unit, order: Move, give: bool) -> None:
        """A legal move goes to its exact destination, by convoy or not, and must go by
        convoy when there is no land route."""
        key = (unit.type, unit.location, order.destination, order.via_convoy)
        rule = self.facts.moves.get(key) or self.facts.move(*key)
        reason, loc, prov, by_convoy, overseas = rule
        problem = self.problem
        if overseas and self.route(problem.prov[i], prov):
            reason = None
        if reason is not None:
            if unit.location != order.unit.location and coast_of(order.unit.location):
                # the order names another coast (ignored, DATC 4.B.5): it simply fails
                problem.fails[k] = f"{reason}; the fleet is at {unit.location}"
                return
            raise IllegalOrderError(str(reason))
        if give:
            problem.kind[i] = MOVE
            problem.dest_loc[i] = loc
            problem.dest[i] = prov
            problem.via[i] = by_convoy
            problem.convoyed[i] = overseas  # no land route: by convoy or not at all
            problem.movers.append(i)
            if by_convoy or overseas:
                problem.by_sea.append(i)
            found = problem.attackers.get(prov)
            if found is None:
                problem.attackers[prov] = [i]
            else:
                found.append(i)

    def _support(
        self, k: int, i: int, unit: Unit, order: SupportHold | SupportMove, give: bool
    ) -> None:
        dest = order.destination if type(order) is SupportMove else None
        supported = order.supported
        key = (unit.type, unit.location, supported.type, supported.location, dest)
        facts = self.facts
        reason, into, coast, near, _ = facts.supports.get(key) or facts.support(key)
        if reason is not None:
            raise IllegalOrderError(str(reason))
        problem = self.problem
        # the supported unit: named exactly, without nationality (as a rule), or else
        # matched by _target
        t = problem.at.get(supported.location, -1)
        if (
            t < 0
            or problem.units[t].type is not supported.type
            or supported.power is not None
            or facts.missing_nationality
        ):
            t = self._target(unit, supported)
            target = problem.units[t]
            if dest is not None and (
                target.type is not supported.type or target.location != supported.location
            ):
                near = into in facts.reach[target.type].get(target.location, ())
        if not near and not self._by_convoy(problem.units[t], into, exclude=problem.prov[i]):
            raise IllegalOrderError(
                str(Reason("target_cannot_move", into, unit=str(problem.units[t])))
            )
        if give:
            problem.kind[i] = SUPPORT
            problem.target[i] = t
            if dest is not None:
                problem.target_dest[i] = into
                problem.target_coast[i] = coast
            problem.supports.append(i)

    def _by_convoy(self, unit: Unit, into: Province, exclude: Province) -> bool:
        """Could ``unit`` move to ``into`` by convoy through fleets other than the one in
        ``exclude``?"""
        here = PROVINCE[unit.location]
        coastal = self.facts.coastal
        if unit.type is FLEET or here not in coastal or into not in coastal:
            return False
        return self.route(here, into, exclude)

    def _convoy(self, k: int, i: int, unit: Unit, order: Convoy, give: bool) -> None:
        army = order.convoyed
        reason = self.facts.convoy(unit.type, unit.location, army.location, order.destination)
        if reason is not None:
            raise IllegalOrderError(str(reason))
        problem = self.problem
        t = self._target(unit, army)
        if problem.units[t].type is not ARMY:
            raise IllegalOrderError(str(Reason("convoy_army")))
        origin, dest = problem.prov[t], PROVINCE[order.destination]
        routes = self.minimal.get(origin)
        if routes is None:
            routes = self.minimal[origin] = minimal_routes(
                problem.game_map, origin, problem.seas_with_fleets()
            )
        if problem.prov[i] not in routes.get(dest, _NOWHERE)[0]:
            raise IllegalOrderError(str(Reason("convoy_off_route", dest, origin, unit=str(unit))))
        if give:
            problem.kind[i] = CONVOY
            problem.target[i] = t
            problem.target_dest[i] = dest
            problem.convoys.append(i)

    def _target(self, unit: Unit, ref: UnitRef) -> int:
        """The number of the unit a support or convoy names, checked against the reference."""
        problem = self.problem
        t = problem.at.get(ref.location, -1)
        if t < 0:
            t = self._unit_in(ref.location)
        target = problem.units[t]
        if ref.type is not target.type or ref.location != target.location:
            _check_ref(problem, ref, target)
        facts = self.facts
        if ref.power is None:
            if facts.missing_nationality and target.power != unit.power:
                raise IllegalOrderError(
                    f"the nationality of the unit in {problem.prov[t]} is missing"
                )
        elif facts.wrong_nationality and ref.power != target.power:
            raise IllegalOrderError(f"the unit in {problem.prov[t]} is not {ref.power}'s")
        return t


def _refuse(judge: _Judge, k: int, i: int, unit: Unit | None, order: Order, give: bool) -> None:
    """The check of an order that is not a movement order: it is illegal."""
    raise IllegalOrderError(
        f"{type(order).__name__.lower()} orders are not given in a movement phase"
    )


# the check of each kind of movement order beyond its unit (a hold needs none); any other
# kind of order is refused
_CHECKS: dict[type, Callable[[_Judge, int, int, Any, Any, bool], None] | None] = {
    Hold: None,
    Move: _Judge._move,
    SupportHold: _Judge._support,
    SupportMove: _Judge._support,
    Convoy: _Judge._convoy,
}


def _check_ref(problem: MovementProblem, ref: UnitRef, unit: Unit) -> None:
    reason = unit_rule(problem.rules, ref, unit)
    if reason is not None:
        raise IllegalOrderError(str(reason))


# --- one order per unit (DATC 4.D.3) -------------------------------------------------------
def _duplicates(judge: _Judge) -> None:
    """Units with different orders: keep the first (choice a), the last (b), or none (c);
    the others are illegal. Then every unit is given its order again, in the order the
    units first got one."""
    problem = judge.problem
    choice = problem.rules.duplicate_orders
    illegal = problem.illegal
    legal = [(k, i) for k, i in enumerate(problem.order_unit) if k not in illegal]
    ordered = list(dict.fromkeys(i for _, i in legal))
    for i in problem.twice:
        ks = [k for k, unit in legal if unit == i]
        if choice is DuplicateOrders.FIRST:
            keep = ks[0]
        else:
            keep = ks[-1] if choice is DuplicateOrders.LAST else -1
        for k in ks:
            if k != keep:
                illegal[k] = "the unit has another order"
        problem.order_of[i] = keep
    n = problem.size
    problem.kind[:] = [HOLD] * n
    for column in (problem.dest, problem.dest_loc, problem.target_dest, problem.target_coast):
        column[:] = [None] * n
    problem.via[:] = problem.convoyed[:] = [False] * n
    problem.target[:] = [-1] * n
    problem.attackers.clear()
    del problem.movers[:], problem.by_sea[:], problem.supports[:], problem.convoys[:]
    for i in ordered:
        k = problem.order_of[i]
        check = _CHECKS.get(type(problem.orders[k])) if k >= 0 and k not in problem.fails else None
        if check is not None:
            check(judge, k, i, problem.units[i], problem.orders[k], True)


# --- matching supports and convoys; convoy or land route (DATC 4.A.3) ------------------------
def _link(problem: MovementProblem) -> None:
    """Match convoys and supports to the moves they name, and settle which army moves go by
    convoy (units are taken in board order)."""
    game_map, rules = problem.game_map, problem.rules
    kind, dest, target, invalid, order_of = (
        problem.kind,
        problem.dest,
        problem.target,
        problem.invalid,
        problem.order_of,
    )
    fleets = problem.fleets
    for i in sorted(problem.convoys):
        t = target[i]
        if kind[t] == MOVE and dest[t] == problem.target_dest[i]:
            fleets.setdefault(t, []).append(i)
        else:
            invalid[order_of[i]] = "the army is not ordered to make that move"
    units, via, convoyed = problem.units, problem.via, problem.convoyed
    for i in sorted({*problem.by_sea, *fleets}):  # the moves that may go by convoy
        if units[i].type is not ARMY or not (convoyed[i] or via[i] or i in fleets):
            continue  # a move by land
        src, dst = problem.prov[i], dest[i] or ""
        carriers = fleets.get(i, ())
        route = bool(carriers) and has_route(
            game_map, src, dst, {problem.prov[f] for f in carriers}
        )
        if not convoyed[i]:  # a land route too: by convoy only if asked (DATC 4.A.3)
            convoyed[i] = _adjacent_by_convoy(problem, i, route)
            problem.fallback[i] = convoyed[i] and rules.adjacent_convoy in _FALLBACK
        if convoyed[i] and not route:
            problem.no_route[i] = True
    support_coast = rules.support_coast
    vetoes = rules.foreign_support is ForeignSupport.ACKNOWLEDGED or bool(
        problem.disorder
    )  # see _refused
    owner, target_dest = problem.owner, problem.target_dest
    for i in sorted(problem.supports):
        t = target[i]
        k = order_of[i]
        want = target_dest[i]
        if vetoes and owner[t] != owner[i] and (refused := _refused(problem, i, t, want is None)):
            invalid[k] = refused
        elif want is None:
            if kind[t] == MOVE:
                invalid[k] = f"{units[t]} is ordered to move, not to hold"
            else:
                problem.hold_supports.setdefault(t, []).append(i)
        elif kind[t] != MOVE or dest[t] != want:
            invalid[k] = f"{units[t]} is not ordered to move to {want}"
        elif problem.target_coast[i] is None and (
            support_coast is not SupportCoast.ALLY_NAMES_IT or owner[t] == owner[i]
        ):
            problem.move_supports.setdefault(t, []).append(i)
        elif (
            problem.target_coast[i] is not None
            and support_coast is not SupportCoast.IGNORED
            and problem.target_coast[i] in game_map.provinces[want].coasts
            and problem.dest_loc[t] != f"{want}/{problem.target_coast[i]}"
        ):
            invalid[k] = f"{units[t]} is ordered to another coast of {want}"
        elif (
            support_coast is SupportCoast.ALLY_NAMES_IT
            and problem.target_coast[i] is None
            and game_map.provinces[want].coasts
            and owner[t] != owner[i]
        ):
            # Calhamer's reading: allies name the coast; only one's own move may omit it
            invalid[k] = f"the support must name the coast {problem.dest_loc[t]} of an ally"
        else:
            problem.move_supports.setdefault(t, []).append(i)


def _refused(problem: MovementProblem, i: int, t: int, hold: bool) -> str:
    """Why a support of another power's unit does not count, if it does not: that power did
    not accept it (``rules.foreign_support``), or is in civil disorder (DATC 4.D.9 a)."""
    other = problem.owner[t]
    if other == problem.owner[i]:
        return ""
    rules = problem.rules
    if (
        rules.foreign_support is ForeignSupport.ACKNOWLEDGED
        and (other, problem.prov[i]) not in problem.accepted
    ):
        return f"{other} did not accept the support of {problem.units[i]}"
    if (
        hold
        and rules.civil_disorder_hold_support is DisorderHoldSupport.FAILS
        and other in problem.disorder
    ):
        return f"{other} is in civil disorder"
    return ""


def _adjacent_by_convoy(problem: MovementProblem, i: int, route: bool) -> bool:
    """Does an army's move to an adjacent province go by convoy (DATC 4.A.3)?"""
    choice = problem.rules.adjacent_convoy
    power = problem.owner[i]
    if choice is AdjacentConvoy.ONLY_TO_SWAP:  # and only while the convoy holds (fallback)
        t = problem.index.get(problem.dest[i] or "")
        swap = t is not None and problem.kind[t] == MOVE and problem.dest[t] == problem.prov[i]
        return swap and route
    if not problem.via[i] and not any(problem.owner[f] == power for f in problem.fleets.get(i, ())):
        return False  # neither ordered "via convoy" nor convoyed by its own fleet
    return choice is AdjacentConvoy.OWN_FLEET_OR_VIA or route
