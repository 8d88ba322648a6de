"""Step one of a movement phase: match orders to units, judge their legality, link them.

The result, :class:`MovementProblem`, is what the resolver works on: a :class:`Slot` per unit
(the order it follows, where it moves, the unit it supports or convoys, the supports and
convoying fleets it gets), the orders as given, and the verdict of each order that
gets one before resolution (illegal, invalid, or failing at once, with the reason).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from functools import lru_cache
from operator import attrgetter
from typing import Literal

from realpolitik.adjudicator.convoy import Routes, has_route, minimal_routes
from realpolitik.adjudicator.legality import (
    MoveRule,
    SupportRule,
    convoy_rule,
    move_rule,
    support_rule,
    unit_rule,
)
from realpolitik.adjudicator.reasons import Reason
from realpolitik.adjudicator.results import OrderResult
from realpolitik.errors import refuse_text
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

# the choices where a move to an adjacent province by convoy falls back on the land route
_FALLBACK = (AdjacentConvoy.ONLY_TO_SWAP, AdjacentConvoy.OWN_FLEET_OR_VIA_WITH_FALLBACK)
_NOWHERE: tuple[frozenset[Province], frozenset[Province]] = (frozenset(), frozenset())

Kind = type[Hold] | type[Move] | type[SupportHold] | type[SupportMove] | type[Convoy]
"""The kind of order a unit follows in the resolution: the order's class."""


# plain tuples, not NamedTuples: building those costs 9% of a movement phase (callgrind)
Given = tuple[Power, Order, "Slot | None"]
"""An order as given: the power giving it, the order, and the unit it is for (``None`` when
the power has no such unit)."""


Verdict = tuple[OrderResult, Reason]
"""An order's result before resolution, and the reason: ``ILLEGAL`` (the unit holds),
``INVALID`` (legal, but matching no other order) or ``FAILS`` (legal, but it cannot succeed:
DATC 4.B.5)."""


class Slot:
    """A unit on the board and the order it follows (``order_number``: its number among the
    orders given; -1, and the unit holds, when it has no legal order).

    A move goes to ``dest`` (its province; ``dest_location``, the exact location), by sea
    when it may (``sea``: ``None`` for a move by land). A support or convoy names its
    ``target`` unit and, for a support of a move or a convoy, ``target_dest`` (a support
    of a hold: ``None``) and the coast named there. Linking gives each unit the
    ``supports`` its order gets (of its hold, or of its move).

    ``decision``: the resolver's decision on its order (does its move succeed, is its
    support given); ``None`` when there is nothing to decide: a hold, an invalid support, a
    support nobody attacks (it is given), a move by land into an empty province nobody else
    enters (it succeeds).
    """

    __slots__ = (
        "decision",
        "dest",
        "dest_location",
        "kind",
        "number",
        "order_number",
        "power",
        "province",
        "sea",
        "supports",
        "target",
        "target_coast",
        "target_dest",
        "unit",
    )

    def __init__(self, number: int, unit: Unit) -> None:
        self.number = number  # in board order (units sorted by location)
        self.unit = unit
        self.province: Province = PROVINCE[unit.location]
        self.power: Power = unit.power
        self.order_number = -1
        self.kind: Kind = Hold  # (as :meth:`clear` leaves it)
        self.dest: Province = ""  # "" unless it moves
        self.dest_location: Location = ""
        self.sea: SeaRoute | None = None
        self.target: Slot | None = None
        self.target_dest: Province | None = None
        self.target_coast: str | None = None
        self.supports: tuple[Slot, ...] = ()
        self.decision: Decision | None = None

    def clear(self) -> None:
        """No order yet: the unit holds."""
        self.kind = Hold
        self.dest = ""
        self.dest_location = ""
        self.sea = None
        self.target = None
        self.target_dest = None
        self.target_coast = None

    def __repr__(self) -> str:
        return f"<Slot {self.number}: {self.unit} {self.kind.__name__}>"


class SeaRoute:
    """How a move that may go by sea goes: ``via`` when ordered "via convoy", ``convoyed``
    when it goes by convoy (always, with no land route), ``fallback`` when it takes the land
    route if the convoy is disrupted, ``no_route`` when no convoy route is ordered for it;
    ``fleets``, the fleets convoying it; ``path_decision``, the resolver's decision whether
    its convoy path holds (``None``: not asked)."""

    __slots__ = ("convoyed", "fallback", "fleets", "no_route", "path_decision", "via")

    def __init__(self, via: bool, convoyed: bool) -> None:
        self.via = via
        self.convoyed = convoyed
        self.fallback = self.no_route = False
        self.fleets: tuple[Slot, ...] = ()
        self.path_decision: Decision | None = None


DecisionKind = Literal["move", "support", "path"]
"""The questions of the DATC's "math of adjudication" about a unit: does its move succeed,
is its support given, does the convoy path of its move hold."""


class Decision:
    """A yes/no question the resolver answers about one unit: its ``kind`` (the rule that
    computes it from the others), and its state: ``settled`` (``value`` is final),
    ``guessing`` (``value`` is the current guess, ``waits`` the start of the oldest guess it
    hangs on), or neither (not worked out yet)."""

    __slots__ = ("guessing", "kind", "settled", "slot", "value", "waits")

    def __init__(self, kind: DecisionKind, slot: Slot) -> None:
        self.kind = kind
        self.slot = slot
        self.settled = False
        self.guessing = False
        self.value = False
        self.waits = 0

    def __repr__(self) -> str:
        return f"<Decision {self.kind} {self.slot.unit}: {self.value}>"


class MovementProblem:
    """The movement problem: ``slots``, one per unit in board order (units sorted by
    location), found by location (``at``) or province (``in_province``); ``orders``, the
    orders as given, numbered in that order; ``verdicts``, by number, those of the orders
    that get one before resolution; and the slots by what their orders do."""

    __slots__ = (
        "accepted",
        "at",
        "attackers",
        "by_sea",
        "convoys",
        "disorder",
        "facts",
        "fleet_seas",
        "game_map",
        "in_province",
        "movers",
        "orders",
        "rules",
        "slots",
        "supports",
        "twice",
        "verdicts",
    )

    def __init__(
        self,
        game_map: GameMap,
        rules: Rules,
        units: list[Unit],
        disorder: frozenset[Power] = frozenset(),
        accepted: frozenset[tuple[Power, Province]] = frozenset(),
    ) -> None:
        self.game_map = game_map
        self.rules = rules
        self.slots = [Slot(number, unit) for number, unit in enumerate(units)]
        self.in_province: dict[Province, Slot] = {s.province: s for s in self.slots}
        self.at: dict[Location, Slot] = {s.unit.location: s for s in self.slots}
        self.orders: list[Given] = []
        self.verdicts: dict[int, Verdict] = {}
        self.attackers: dict[Province, list[Slot]] = {}  # the units moving into each province
        # the units ordered to move, support, convoy (in the order they got their orders)
        self.movers: list[Slot] = []
        self.by_sea: list[Slot] = []  # the movers ordered via convoy or with no land route
        self.supports: list[Slot] = []
        self.convoys: list[Slot] = []
        self.twice: list[Slot] = []  # units given two different legal orders
        self.facts = _facts(game_map, rules)  # what the map and rules say of each order
        self.fleet_seas: frozenset[Province] | None = None  # see seas_with_fleets
        self.disorder = disorder  # powers in civil disorder (DATC 4.D.9)
        self.accepted = accepted  # accepted foreign supporters

    def unlink(self) -> None:
        """Break the cycles between slots, their targets and decisions: reference counting
        then frees the problem at once (left to the cycle collector, they cost 7% of a
        movement phase's instructions)."""
        for slot in self.slots:
            slot.target = None
            slot.decision = slot.sea = None
            slot.supports = ()  # two units supporting each other

    @property
    def illegal(self) -> dict[int, Reason]:
        """The reasons of the illegal orders, by number."""
        return {
            n: why for n, (result, why) in self.verdicts.items() if result is OrderResult.ILLEGAL
        }

    def seas_with_fleets(self) -> frozenset[Province]:
        """The seas holding a fleet: where convoys are possible."""
        if self.fleet_seas is None:
            occupied = self.facts.seas.intersection(self.in_province)
            slots = self.in_province
            self.fleet_seas = frozenset([p for p in occupied if slots[p].unit.type is FLEET])
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
_by_number = attrgetter("number")


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
        try:  # (None for a legal convoy: remembered too)
            return self.convoys[key]
        except KeyError:
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
        at, given, verdicts, twice = problem.at, problem.orders, problem.verdicts, problem.twice
        for power, power_orders in orders.items():
            for order in power_orders:
                number = len(given)
                try:  # a movement order, for a unit of the power's
                    if type(order) not in _MOVEMENT_ORDERS:
                        refuse_text(power, power_orders, order)
                        raise _Illegal(Reason("not_movement", name=type(order).__name__.lower()))
                    ref = order.unit  # type: ignore[union-attr]  # a movement order
                    slot = at.get(ref.location)
                    if slot is None or slot.power != power or ref.type is not slot.unit.type:
                        slot = self._unit_of(power, ref)
                except _Illegal as exc:
                    given.append((power, order, None))
                    verdicts[number] = (OrderResult.ILLEGAL, exc.reason)
                    continue
                given.append((power, order, slot))
                first = slot.order_number < 0
                try:  # the order is legal for it
                    self.judge(number, order, slot, first)
                except _Illegal as exc:
                    verdicts[number] = (OrderResult.ILLEGAL, exc.reason)
                    continue
                if first:
                    slot.order_number = number
                    continue
                _, earlier, _ = given[slot.order_number]
                if order != earlier and slot not in twice:
                    twice.append(slot)

    def judge(self, number: int, order: Order, slot: Slot, give: bool) -> None:
        """Judge order ``number`` for its unit, raising :class:`_Illegal`; if
        ``give``, the unit follows the order and its slot says what it does."""
        if type(order) is Move:
            self._move(number, slot, order, give)
        elif type(order) is SupportHold or type(order) is SupportMove:
            self._support(slot, order, give)
        elif type(order) is Convoy:
            self._convoy(slot, order, give)
        # a hold needs no check: the unit holds as it does without an order

    def _unit_of(self, power: Power, ref: UnitRef) -> Slot:
        """The unit ``ref`` names, if it is ``power``'s and named well enough (see
        :func:`_check_ref`)."""
        slot = self.problem.at.get(ref.location)
        exact = slot is not None
        if slot is None:  # the unit in the province, if any (another coast)
            slot = self._unit_in(ref.location)
        if slot.power != power:
            raise _Illegal(Reason("not_own_unit", slot.province, power=slot.power))
        if not exact or ref.type is not slot.unit.type:
            _check_ref(self.problem.rules, ref, slot.unit)
        return slot

    def _unit_in(self, location: Location) -> Slot:
        """The unit in the province of ``location`` (an order may name a unit without its
        coast, or with another)."""
        prov = PROVINCE[location]
        slot = self.problem.in_province.get(prov)
        if slot is None:
            raise _Illegal(Reason("no_unit", prov))
        return slot

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

    def _move(self, number: int, slot: Slot, order: Move, give: bool) -> None:
        """A legal move goes to its exact destination, by convoy or not, and must go by
        convoy when there is no land route."""
        unit = slot.unit
        key = (unit.type, unit.location, order.destination, order.via_convoy)
        rule = self.facts.moves.get(key) or self.facts.move(*key)
        reason = rule.reason
        if rule.overseas and self.route(slot.province, rule.province):
            reason = None
        if reason is not None:
            if unit.location != order.unit.location and coast_of(order.unit.location):
                # the order names another coast (ignored, DATC 4.B.5): it simply fails
                why = Reason("fleet_elsewhere", location=unit.location, name=str(reason))
                self.problem.verdicts[number] = (OrderResult.FAILS, why)
                return
            raise _Illegal(reason)
        if give:
            problem = self.problem
            slot.kind = Move
            slot.dest = dest = rule.province
            slot.dest_location = rule.exact
            problem.movers.append(slot)
            if rule.by_convoy or rule.overseas:  # no land route: by convoy or not at all
                slot.sea = SeaRoute(rule.by_convoy, rule.overseas)
                problem.by_sea.append(slot)
            found = problem.attackers.get(dest)
            if found is None:
                problem.attackers[dest] = [slot]
            else:
                found.append(slot)

    def _support(self, slot: Slot, order: SupportHold | SupportMove, give: bool) -> None:
        dest = order.destination if type(order) is SupportMove else None
        supported = order.supported
        unit = slot.unit
        key = (unit.type, unit.location, supported.type, supported.location, dest)
        facts = self.facts
        rule = facts.supports.get(key) or facts.support(key)
        if rule.reason is not None:
            raise _Illegal(rule.reason)
        into, near = rule.into, rule.near
        # the supported unit: named exactly, without nationality (as a rule), or else
        # matched by _target
        target = self.problem.at.get(supported.location)
        if (
            target is None
            or target.unit.type is not supported.type
            or supported.power is not None
            or facts.missing_nationality
        ):
            target = self._target(slot, supported)
            there = target.unit
            if dest is not None and (
                there.type is not supported.type or there.location != supported.location
            ):
                near = into in facts.reach[there.type].get(there.location, ())
        if not near and not self._by_convoy(target.unit, into, exclude=slot.province):
            raise _Illegal(Reason("target_cannot_move", into, unit=str(target.unit)))
        if give:
            slot.kind = type(order)
            slot.target = target
            if dest is not None:
                slot.target_dest = into
                slot.target_coast = rule.coast
            self.problem.supports.append(slot)

    def _by_convoy(self, unit: Unit, into: Province, exclude: Province) -> bool:
        """Could ``unit`` move to ``into`` by convoy through fleets other than the one in
        ``exclude``?"""
        here = PROVINCE[unit.location]
        coastal = self.facts.coastal
        if unit.type is FLEET or here not in coastal or into not in coastal:
            return False
        return self.route(here, into, exclude)

    def _convoy(self, slot: Slot, order: Convoy, give: bool) -> None:
        army = order.convoyed
        unit = slot.unit
        reason = self.facts.convoy(unit.type, unit.location, army.location, order.destination)
        if reason is not None:
            raise _Illegal(reason)
        problem = self.problem
        target = self._target(slot, army)
        if target.unit.type is not ARMY:
            raise _Illegal(Reason("convoy_army"))
        origin, dest = target.province, PROVINCE[order.destination]
        routes = self.minimal.get(origin)
        if routes is None:
            routes = self.minimal[origin] = minimal_routes(
                problem.game_map, origin, problem.seas_with_fleets()
            )
        if slot.province not in routes.get(dest, _NOWHERE)[0]:
            raise _Illegal(Reason("convoy_off_route", dest, origin, unit=str(unit)))
        if give:
            slot.kind = Convoy
            slot.target = target
            slot.target_dest = dest
            problem.convoys.append(slot)

    def _target(self, slot: Slot, ref: UnitRef) -> Slot:
        """The unit a support or convoy names, checked against the reference."""
        target = self.problem.at.get(ref.location)
        if target is None:
            target = self._unit_in(ref.location)
        if ref.type is not target.unit.type or ref.location != target.unit.location:
            _check_ref(self.problem.rules, ref, target.unit)
        facts = self.facts
        if ref.power is None:
            if facts.missing_nationality and target.power != slot.power:
                raise _Illegal(Reason("missing_nationality", target.province))
        elif facts.wrong_nationality and ref.power != target.power:
            raise _Illegal(Reason("wrong_nationality", target.province, power=ref.power))
        return target


class _Illegal(Exception):
    """An order the rules forbid, and why (raised and caught while judging)."""

    def __init__(self, reason: Reason) -> None:
        super().__init__(str(reason))
        self.reason = reason


_MOVEMENT_ORDERS = frozenset((Hold, Move, SupportHold, SupportMove, Convoy))


def _check_ref(rules: Rules, ref: UnitRef, unit: Unit) -> None:
    reason = unit_rule(rules, ref, unit)
    if reason is not None:
        raise _Illegal(reason)


# --- one order per unit (DATC 4.D.3) -------------------------------------------------------
def _duplicates(judge: _Judge) -> None:
    """Units with different orders: keep the first (choice a), the last (b), or none (c);
    the others are illegal. Then every unit is given its order again, in the order the
    units first got one."""
    problem = judge.problem
    choice = problem.rules.duplicate_orders
    orders, verdicts, illegal = problem.orders, problem.verdicts, problem.illegal
    legal = {number: slot for number, (_, _, slot) in enumerate(orders) if number not in illegal}
    ordered = list(dict.fromkeys(legal.values()))
    for slot in problem.twice:
        given = [number for number, unit in legal.items() if unit is slot]
        if choice is DuplicateOrders.FIRST:
            keep = given[0]
        else:
            keep = given[-1] if choice is DuplicateOrders.LAST else -1
        for number in given:
            if number != keep and number not in verdicts:  # (one that fails says so)
                verdicts[number] = (OrderResult.ILLEGAL, Reason("another_order"))
        slot.order_number = keep
    problem.attackers.clear()
    del problem.movers[:], problem.by_sea[:], problem.supports[:], problem.convoys[:]
    for slot in problem.slots:
        slot.clear()
    for again in ordered:
        if again is not None and again.order_number >= 0 and again.order_number not in verdicts:
            _, order, _ = orders[again.order_number]
            judge.judge(again.order_number, order, again, True)


# --- matching supports and convoys; convoy or land route (DATC 4.A.3) ------------------------
def _link(problem: MovementProblem) -> None:
    """Match convoys and supports to the moves they name, and settle which army moves go by
    convoy (units are taken in board order)."""
    game_map, rules = problem.game_map, problem.rules
    invalid = OrderResult.INVALID  # (legal, but matching no other order)
    by_sea = {s.number: s for s in problem.by_sea}  # the moves that may go by convoy
    for fleet in sorted(problem.convoys, key=_by_number):
        army = fleet.target
        assert army is not None
        if army.kind is Move and army.dest == fleet.target_dest:
            if army.sea is None:
                army.sea = SeaRoute(False, False)
            army.sea.fleets += (fleet,)
            by_sea[army.number] = army
        else:
            why = Reason("convoy_unmatched")
            problem.verdicts[fleet.order_number] = (invalid, why)
    for _, slot in sorted(by_sea.items()):
        sea = slot.sea
        if sea is None or slot.unit.type is not ARMY:
            continue  # a move by land
        route = bool(sea.fleets) and has_route(
            game_map, slot.province, slot.dest, {f.province for f in sea.fleets}
        )
        if not sea.convoyed:  # a land route too: by convoy only if asked (DATC 4.A.3)
            sea.convoyed = _adjacent_by_convoy(problem, slot, sea, route)
            sea.fallback = sea.convoyed and rules.adjacent_convoy in _FALLBACK
        if sea.convoyed and not route:
            sea.no_route = True
    vetoes = rules.foreign_support is ForeignSupport.ACKNOWLEDGED or bool(
        problem.disorder
    )  # see _refused
    for supporter in sorted(problem.supports, key=_by_number):
        target = supporter.target
        assert target is not None
        unmatched = _unmatched(problem, supporter, target, vetoes)
        if unmatched is not None:
            problem.verdicts[supporter.order_number] = (invalid, unmatched)
        else:
            target.supports += (supporter,)


def _unmatched(
    problem: MovementProblem, supporter: Slot, target: Slot, vetoes: bool
) -> Reason | None:
    """Why a legal support matches no order of the unit it supports, if it does not (or is
    refused: see :func:`_refused`, asked only when ``vetoes``)."""
    want, coast = supporter.target_dest, supporter.target_coast
    ally = target.power != supporter.power
    if vetoes and ally and (refused := _refused(problem, supporter, target, want is None)):
        return refused
    if want is None:
        return Reason("moves_not_holds", unit=str(target.unit)) if target.kind is Move else None
    if target.kind is not Move or target.dest != want:
        return Reason("not_moving_there", want, unit=str(target.unit))
    support_coast = problem.rules.support_coast
    coasts = problem.game_map.provinces[want].coasts
    if coast is None:
        if support_coast is SupportCoast.ALLY_NAMES_IT and ally and coasts:
            # Calhamer's reading: allies name the coast; only one's own move may omit it
            return Reason("ally_coast", location=target.dest_location)
        return None
    if (
        support_coast is not SupportCoast.IGNORED
        and coast in coasts
        and target.dest_location != f"{want}/{coast}"
    ):
        return Reason("other_coast", want, unit=str(target.unit))
    return None


def _refused(problem: MovementProblem, supporter: Slot, target: Slot, hold: bool) -> Reason | None:
    """Why a support of another power's unit does not count, if it does not: that power did
    not accept it (``rules.foreign_support``), or is in civil disorder (DATC 4.D.9 a)."""
    other = target.power
    if other == supporter.power:
        return None
    rules = problem.rules
    if (
        rules.foreign_support is ForeignSupport.ACKNOWLEDGED
        and (other, supporter.province) not in problem.accepted
    ):
        return Reason("not_accepted", power=other, unit=str(supporter.unit))
    if (
        hold
        and rules.civil_disorder_hold_support is DisorderHoldSupport.FAILS
        and other in problem.disorder
    ):
        return Reason("in_disorder", power=other)
    return None


def _adjacent_by_convoy(problem: MovementProblem, slot: Slot, sea: SeaRoute, route: bool) -> bool:
    """Does an army's move to an adjacent province go by convoy (DATC 4.A.3)?"""
    choice = problem.rules.adjacent_convoy
    if choice is AdjacentConvoy.ONLY_TO_SWAP:  # and only while the convoy holds (fallback)
        other = problem.in_province.get(slot.dest)
        swap = other is not None and other.kind is Move and other.dest == slot.province
        return swap and route
    if not sea.via and not any(f.power == slot.power for f in sea.fleets):
        return False  # neither ordered "via convoy" nor convoyed by its own fleet
    return choice is AdjacentConvoy.OWN_FLEET_OR_VIA or route
