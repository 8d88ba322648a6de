"""Step one of a movement phase: match orders to units, judge their legality, link them.

The result, :class:`Board`, is the flat, indexed form the resolver works on: one slot per
unit, its effective order kind, destinations, the supports and convoys that match it. Every
submitted order also gets its preliminary verdict (illegal / invalid, with a reason).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from operator import attrgetter

from realpolitik.adjudicator.convoy import has_route, on_minimal_route
from realpolitik.maps.model import GameMap, ProvinceType
from realpolitik.orders import Convoy, Hold, Move, Order, SupportHold, SupportMove, UnitRef
from realpolitik.position import Position
from realpolitik.rules import Rules
from realpolitik.vocab import (
    ARMY,
    FLEET,
    Location,
    Power,
    Province,
    Unit,
    UnitType,
    coast_of,
    province_of,
)

HOLD, MOVE, SUPPORT, CONVOY = 0, 1, 2, 3
# isinstance with a tuple (a ``A | B`` union is built again at every call)
_MOVEMENT_ORDERS = (Hold, Move, SupportHold, SupportMove, Convoy)
_SUPPORTS = (SupportHold, SupportMove)


class _Provinces(dict[Location, Province]):
    """:func:`~realpolitik.vocab.province_of`, memoised: ``_PROVINCE["SPA/NC"] == "SPA"`` is
    a plain dictionary lookup (the board asks it a few hundred times a phase)."""

    def __missing__(self, location: Location) -> Province:
        if len(self) > 10_000:  # only ever the map's locations, unless orders name others
            self.clear()
        found = self[location] = province_of(location)
        return found


_PROVINCE = _Provinces()


class Illegal(Exception):
    """Raised inside the checks: the order is illegal, the message is the reason."""


@dataclass(slots=True)
class Entry:
    """One submitted order and its verdict so far."""

    power: Power
    order: Order
    unit: int = -1
    illegal: str = ""
    invalid: str = ""
    fails: str = ""
    move: tuple[Location, bool] | None = None  # a legal move: destination, needs a convoy


class Board:
    """The indexed movement problem. Lists are indexed by unit number (units sorted by
    location); each starts as "no order": holding, no destination, no target."""

    __slots__ = (
        "accepted",
        "attackers",
        "convoyed",
        "dest",
        "dest_loc",
        "disorder",
        "entries",
        "facts",
        "fallback",
        "fleet_seas",
        "fleets",
        "game_map",
        "hold_supports",
        "index",
        "kind",
        "move_supports",
        "no_route",
        "order_of",
        "owner",
        "prov",
        "rules",
        "target",
        "target_coast",
        "target_dest",
        "units",
        "via",
    )

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
        self.prov: list[Province] = [_PROVINCE[u.location] for u in units]  # each unit's
        self.index: dict[Province, int] = {p: i for i, p in enumerate(self.prov)}
        self.owner: list[Power] = [u.power for u in units]
        self.entries: list[Entry] = []
        self.kind: list[int] = [HOLD] * n
        self.order_of: list[int] = [-1] * n  # entry index of the unit's order, or -1
        self.dest: list[Province | None] = [None] * n
        self.dest_loc: list[Location | None] = [None] * n
        self.via: list[bool] = [False] * n
        self.convoyed: list[bool] = [False] * n
        self.fallback: list[bool] = [False] * n  # takes the land route if disrupted
        self.no_route: list[bool] = [False] * n
        self.target: list[int] = [-1] * n  # supported / convoyed unit
        self.target_dest: list[Province | None] = [None] * n
        self.target_coast: list[str | None] = [None] * n
        self.hold_supports: list[list[int]] = [[] for _ in units]
        self.move_supports: list[list[int]] = [[] for _ in units]
        self.fleets: list[list[int]] = [[] for _ in units]  # convoying fleets of a move
        self.attackers: dict[Province, list[int]] = {}  # units moving into each province
        self.facts = _facts(game_map, rules)
        seas = self.facts.seas
        # seas holding a fleet: where convoys are possible
        self.fleet_seas = frozenset(
            [p for u, p in zip(units, self.prov, strict=True) if p in seas and u.type is FLEET]
        )
        self.disorder = disorder  # powers in civil disorder (DATC 4.D.9)
        self.accepted = accepted  # accepted foreign supporters

    @property
    def size(self) -> int:
        return len(self.units)

    def power(self, i: int) -> Power:
        return self.owner[i]

    def province(self, i: int) -> Province:
        return self.prov[i]


def build_board(
    game_map: GameMap,
    position: Position,
    orders: Mapping[Power, Sequence[Order]],
    rules: Rules,
    *,
    disorder: Collection[Power] = (),
    accepted: Collection[tuple[Power, Province]] = (),
) -> Board:
    """Judge every order on the board alone, then link supports and convoys to moves."""
    units = sorted(position.units.values(), key=_by_location)
    board = Board(game_map, rules, units, frozenset(disorder), frozenset(accepted))
    judge = _Judge(board)
    entries = board.entries
    for power, power_orders in orders.items():
        for order in power_orders:
            entry = Entry(power, order)
            entries.append(entry)
            try:
                judge(entry)
            except Illegal as exc:
                entry.illegal = str(exc)
    _assign(board)
    _link(board)
    return board


_by_location = attrgetter("location")


# --- what the map and rules say about an order, whatever else is on the board ---------------
class _Facts:
    """The map-and-rules half of the legality checks, memoised per map and rules: a move's
    exact destination (or why it is illegal), and why a support or convoy is illegal for
    its own unit and the places it names (or ``""``). What depends on the other units (the
    supported unit, convoy routes through the fleets at sea) is checked on the board."""

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
        self.wrong_nationality = rules.wrong_nationality == "a"
        self.missing_nationality = rules.missing_nationality == "a"
        self.moves: dict[tuple[UnitType, Location, Location, bool], MoveRule] = {}
        self.supports: dict[tuple[UnitType, Location, Location, Location | None], str] = {}
        self.convoys: dict[tuple[UnitType, Location, Location, Location], str] = {}

    def move(self, utype: UnitType, location: Location, dest: Location, via: bool) -> MoveRule:
        key = (utype, location, dest, via)
        found = self.moves.get(key)
        if found is None:
            if len(self.moves) > 100_000:  # only ever the map's moves, unless orders are odd
                self.moves.clear()
            found = self.moves[key] = _move_rule(self.game_map, self.rules, *key)
        return found

    def support(
        self, utype: UnitType, location: Location, target: Location, dest: Location | None
    ) -> str:
        key = (utype, location, target, dest)
        found = self.supports.get(key)
        if found is None:
            if len(self.supports) > 100_000:
                self.supports.clear()
            found = self.supports[key] = _support_rule(self.game_map, *key)
        return found

    def convoy(self, utype: UnitType, location: Location, army: Location, dest: Location) -> str:
        key = (utype, location, army, dest)
        found = self.convoys.get(key)
        if found is None:
            if len(self.convoys) > 100_000:
                self.convoys.clear()
            found = self.convoys[key] = _convoy_rule(self.game_map, *key)
        return found


_LAST_FACTS: list[_Facts] = []  # the facts asked for last: almost always the same again


def _facts(game_map: GameMap, rules: Rules) -> _Facts:
    """The facts of this map and rules (looked up by identity first: hashing a
    :class:`Rules` hashes its every choice)."""
    if _LAST_FACTS:
        last = _LAST_FACTS[0]
        if last.game_map is game_map and last.rules is rules:
            return last
    found = _facts_of(game_map, rules)
    _LAST_FACTS[:] = [found]
    return found


@lru_cache(maxsize=16)
def _facts_of(game_map: GameMap, rules: Rules) -> _Facts:
    return _Facts(game_map, rules)


# A move's verdict on the map: why it is illegal ("" if it is not), the exact destination,
# whether it goes by convoy, and whether that needs a route through the fleets at sea (then
# the reason is why it is illegal without one).
MoveRule = tuple[str, Location, bool, bool]


def _move_rule(
    game_map: GameMap, rules: Rules, utype: UnitType, location: Location, dest: Location, via: bool
) -> MoveRule:
    prov = _PROVINCE[dest]
    coast = coast_of(dest)
    info = game_map.provinces.get(prov)
    if info is None or not info.passable:
        return f"{prov} cannot be entered", "", False, False
    here = _PROVINCE[location]
    if prov == here:
        return "a unit cannot move to its own province", "", False, False
    if utype is ARMY:
        if coast is not None and rules.unknown_coast == "a":
            return "an army move names a coast", "", False, False
        if not info.is_land:
            return f"an army cannot move to {prov} ({info.name})", "", False, False
        if game_map.can_move(ARMY, location, prov):
            return "", prov, via, False
        reason = f"{prov} is not adjacent to {here} and no convoy can reach it"
        return reason, prov, True, _coastal(game_map, here) and _coastal(game_map, prov)
    if via:
        return "a fleet cannot be convoyed", "", False, False
    options = game_map.fleet_destinations(location, prov)
    if coast is not None:
        if coast in info.coasts:
            if f"{prov}/{coast}" in options:
                return "", f"{prov}/{coast}", False, False
            if rules.impossible_coast == "b":
                return f"the fleet at {location} cannot reach {prov}/{coast}", "", False, False
        elif rules.unknown_coast == "a":
            return f"{prov} has no coast {coast}", "", False, False
    if not options:
        return f"a fleet at {location} cannot move to {prov}", "", False, False
    if len(options) > 1:
        return f"the coast of {prov} must be given ({', '.join(info.coasts)})", "", False, False
    if info.coasts and rules.omitted_coast == "b":
        return f"the coast of {prov} must be given", "", False, False
    return "", options[0], False, False


def _support_rule(
    game_map: GameMap, utype: UnitType, location: Location, target: Location, dest: Location | None
) -> str:
    """Why a support (of a hold if ``dest`` is None) is illegal for the supporter alone."""
    target_prov = _PROVINCE[target]
    here = _PROVINCE[location]
    if target_prov == here:
        return "a unit cannot support itself"
    into = target_prov if dest is None else _PROVINCE[dest]
    if into not in game_map.provinces:
        return f"unknown province {into}"
    if dest is not None and into == target_prov:
        return "a supported move must leave its province"
    if into == here:
        return "a unit cannot support a move into its own province"
    if not game_map.can_reach(utype, location, into):
        return f"{utype.value} {location} cannot move to {into}, so cannot support into it"
    return ""


def _convoy_rule(
    game_map: GameMap, utype: UnitType, location: Location, army: Location, dest: Location
) -> str:
    """Why a convoy is illegal for the fleet alone and the provinces it names."""
    here = _PROVINCE[location]
    if utype is not FLEET or not game_map.provinces[here].is_sea:
        return "only a fleet at sea can convoy"
    origin, to = _PROVINCE[army], _PROVINCE[dest]
    if to not in game_map.provinces:
        return f"unknown province {to}"
    if not _coastal(game_map, origin) or not _coastal(game_map, to) or origin == to:
        return "a convoy goes from one coastal province to another"
    return ""


def _coastal(game_map: GameMap, prov: Province) -> bool:
    info = game_map.provinces.get(prov)
    return info is not None and info.type is ProvinceType.COASTAL


# --- legality on the board ------------------------------------------------------------------
class _Judge:
    """Judges one order on the board: the unit is there and is the power's, and the order
    is legal for it (:class:`_Facts`) and for the units and fleets it involves. Sets the
    entry's unit and move, or raises :class:`Illegal`; an order naming the wrong coast of
    its fleet's province only fails (DATC 4.B.5)."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.facts = board.facts
        self.routes: dict[tuple[Province, Province, Province | None], bool] = {}

    def __call__(self, entry: Entry) -> None:
        order = entry.order
        cls = type(order)
        if cls not in _MOVEMENT_ORDERS:
            raise Illegal(f"{cls.__name__.lower()} orders are not given in a movement phase")
        board = self.board
        ref = order.unit  # type: ignore[union-attr]  # a movement order
        prov = _PROVINCE[ref.location]
        i = board.index.get(prov)
        if i is None:
            raise Illegal(f"there is no unit in {prov}")
        unit = board.units[i]
        if unit.power != entry.power:
            raise Illegal(f"the unit in {prov} belongs to {unit.power}")
        if ref.type is not unit.type or ref.location != unit.location:
            _check_ref(board, ref, unit)
        entry.unit = i
        if cls is Move:
            self._move(entry, unit, order)  # type: ignore[arg-type]
        elif cls is SupportHold or cls is SupportMove:
            self._support(unit, order)  # type: ignore[arg-type]
        elif cls is Convoy:
            self._convoy(unit, order)  # type: ignore[arg-type]

    def route(self, src: Province, dest: Province, exclude: Province | None = None) -> bool:
        """Could an army go from ``src`` to ``dest`` by convoy through the fleets at sea
        (other than the one in ``exclude``)?"""
        key = (src, dest, exclude)
        found = self.routes.get(key)
        if found is None:
            seas = self.board.fleet_seas
            if exclude is not None:
                seas = seas - {exclude}
            found = self.routes[key] = has_route(self.board.game_map, src, dest, seas)
        return found

    def _move(self, entry: Entry, unit: Unit, order: Move) -> None:
        key = (unit.type, unit.location, order.destination, order.via_convoy)
        rule = self.facts.moves.get(key) or self.facts.move(*key)
        reason, dest, convoy, needs_route = rule
        if needs_route and self.route(_PROVINCE[unit.location], dest):
            reason = ""
        if not reason:
            entry.move = (dest, convoy)
        elif unit.location != order.unit.location and coast_of(order.unit.location):
            # the order names another coast (ignored, DATC 4.B.5): it simply fails
            entry.fails = f"{reason}; the fleet is at {unit.location}"
        else:
            raise Illegal(reason)

    def _support(self, unit: Unit, order: SupportHold | SupportMove) -> None:
        dest = order.destination if isinstance(order, SupportMove) else None
        supported = order.supported
        key = (unit.type, unit.location, supported.location, dest)
        reason = self.facts.supports.get(key)
        if reason is None:
            reason = self.facts.support(*key)
        if reason:
            raise Illegal(reason)
        target = self._target(unit, supported)
        if dest is not None:
            into = _PROVINCE[dest]
            if into not in self.facts.reach[target.type].get(target.location, ()) and not (
                self._by_convoy(target, into, exclude=_PROVINCE[unit.location])
            ):
                raise Illegal(f"{target} cannot move to {into}")

    def _by_convoy(self, unit: Unit, into: Province, exclude: Province) -> bool:
        """Could ``unit`` move to ``into`` by convoy through fleets other than the one in
        ``exclude``?"""
        here = _PROVINCE[unit.location]
        coastal = self.facts.coastal
        if unit.type is FLEET or here not in coastal or into not in coastal:
            return False
        return self.route(here, into, exclude)

    def _convoy(self, unit: Unit, order: Convoy) -> None:
        army = order.convoyed
        reason = self.facts.convoy(unit.type, unit.location, army.location, order.destination)
        if reason:
            raise Illegal(reason)
        if self._target(unit, army).type is not ARMY:
            raise Illegal("only armies can be convoyed")
        board = self.board
        origin, dest = _PROVINCE[army.location], _PROVINCE[order.destination]
        here = _PROVINCE[unit.location]
        if not on_minimal_route(board.game_map, origin, dest, board.fleet_seas, here):
            raise Illegal(f"{unit} is on no possible convoy route from {origin} to {dest}")

    def _target(self, unit: Unit, ref: UnitRef) -> Unit:
        """The unit a support or convoy names, checked against the reference."""
        board = self.board
        prov = _PROVINCE[ref.location]
        i = board.index.get(prov)
        if i is None:
            raise Illegal(f"there is no unit in {prov}")
        target = board.units[i]
        if ref.type is not target.type or ref.location != target.location:
            _check_ref(board, ref, target)
        facts = self.facts
        if ref.power is None:
            if facts.missing_nationality and target.power != unit.power:
                raise Illegal(f"the nationality of the unit in {prov} is missing")
        elif facts.wrong_nationality and ref.power != target.power:
            raise Illegal(f"the unit in {prov} is not {ref.power}'s")
        return target


def _check_ref(board: Board, ref: UnitRef, unit: Unit) -> None:
    if ref.type is unit.type and ref.location == unit.location:
        return  # named exactly
    rules = board.rules
    if ref.type is None and rules.missing_unit_type == "a":
        raise Illegal(f"the unit type of {ref.location} is missing")
    if ref.type is not None and ref.type is not unit.type and rules.wrong_unit_type == "a":
        raise Illegal(f"the unit in {unit.province} is {unit.type.value}, not {ref.type.value}")
    coast = coast_of(ref.location)
    if (
        coast is not None
        and unit.location != ref.location
        and unit.type is FLEET
        and rules.wrong_unit_coast == "a"
    ):
        raise Illegal(f"the fleet is at {unit.location}, not {ref.location}")


# --- one order per unit (DATC 4.D.3) -------------------------------------------------------
def _assign(board: Board) -> None:
    """Give each unit its order: the only legal one, or the duplicate rule's choice."""
    entries, order_of = board.entries, board.order_of
    ordered: list[int] = []  # units in the order their first legal order came
    twice: list[int] = []
    for k, entry in enumerate(entries):
        if entry.illegal:
            continue
        i = entry.unit
        if order_of[i] < 0:
            order_of[i] = k
            ordered.append(i)
        elif entry.order != entries[order_of[i]].order and i not in twice:
            twice.append(i)
    if twice:
        _duplicates(board, twice)
    kind, dest, dest_loc, target = board.kind, board.dest, board.dest_loc, board.target
    attackers = board.attackers
    for i in ordered:
        k = order_of[i]
        if k < 0:
            continue
        entry = entries[k]
        if entry.fails:
            continue
        order = entry.order
        cls = type(order)
        if cls is Move:
            kind[i] = MOVE
            assert entry.move is not None
            loc, needs_convoy = entry.move
            prov = _PROVINCE[loc]
            dest_loc[i] = loc
            dest[i] = prov
            board.via[i] = needs_convoy
            found = attackers.get(prov)
            if found is None:
                attackers[prov] = [i]
            else:
                found.append(i)
        elif cls is SupportHold:
            kind[i] = SUPPORT
            target[i] = board.index[_PROVINCE[order.supported.location]]  # type: ignore[union-attr]
        elif cls is SupportMove:
            kind[i] = SUPPORT
            target[i] = board.index[_PROVINCE[order.supported.location]]  # type: ignore[union-attr]
            board.target_dest[i] = _PROVINCE[order.destination]  # type: ignore[union-attr]
            board.target_coast[i] = coast_of(order.destination)  # type: ignore[union-attr]
        elif cls is Convoy:
            kind[i] = CONVOY
            target[i] = board.index[_PROVINCE[order.convoyed.location]]  # type: ignore[union-attr]
            board.target_dest[i] = _PROVINCE[order.destination]  # type: ignore[union-attr]


def _duplicates(board: Board, units: list[int]) -> None:
    """Units with different orders: keep the first (choice a), the last (b), or none (c);
    the others are illegal."""
    choice = board.rules.duplicate_orders
    for i in units:
        ks = [k for k, e in enumerate(board.entries) if not e.illegal and e.unit == i]
        keep = ks[0] if choice == "a" else ks[-1] if choice == "b" else -1
        for k in ks:
            if k != keep:
                board.entries[k].illegal = "the unit has another order"
        board.order_of[i] = keep


# --- matching supports and convoys; convoy or land route (DATC 4.A.3) ------------------------
def _link(board: Board) -> None:
    game_map, rules = board.game_map, board.rules
    kind, dest, target, entries, order_of = (
        board.kind,
        board.dest,
        board.target,
        board.entries,
        board.order_of,
    )
    convoys = [i for i in range(board.size) if kind[i] == CONVOY]
    for i in convoys:
        t = target[i]
        if kind[t] == MOVE and dest[t] == board.target_dest[i]:
            board.fleets[t].append(i)
        else:
            entries[order_of[i]].invalid = "the army is not ordered to make that move"
    units = board.units
    for i, dst in enumerate(dest):
        if dst is None or units[i].type is not ARMY or kind[i] != MOVE:
            continue
        src = board.prov[i]
        fleets = board.fleets[i]
        route = bool(fleets) and has_route(game_map, src, dst, {board.prov[f] for f in fleets})
        if not game_map.can_move(ARMY, src, dst):
            board.convoyed[i] = True
        elif fleets or board.via[i]:
            board.convoyed[i] = _adjacent_by_convoy(board, i, route)
            board.fallback[i] = board.convoyed[i] and rules.adjacent_convoy in ("a", "c")
        if board.convoyed[i] and not route:
            board.no_route[i] = True
    support_coast = rules.support_coast
    vetoes = rules.foreign_support == "acknowledged" or bool(board.disorder)  # see _refused
    owner = board.owner
    for i, k in enumerate(kind):
        if k != SUPPORT:
            continue
        t = target[i]
        entry = entries[order_of[i]]
        want = board.target_dest[i]
        refused = _refused(board, i, t, want is None) if owner[t] != owner[i] and vetoes else ""
        if refused:
            entry.invalid = refused
        elif want is None:
            if kind[t] == MOVE:
                entry.invalid = f"{units[t]} is ordered to move, not to hold"
            else:
                board.hold_supports[t].append(i)
        elif kind[t] != MOVE or dest[t] != want:
            entry.invalid = f"{units[t]} is not ordered to move to {want}"
        elif board.target_coast[i] is None and (support_coast != "b" or owner[t] == owner[i]):
            board.move_supports[t].append(i)
        elif (
            board.target_coast[i] is not None
            and support_coast != "a"
            and board.target_coast[i] in game_map.provinces[want].coasts
            and board.dest_loc[t] != f"{want}/{board.target_coast[i]}"
        ):
            entry.invalid = f"{units[t]} is ordered to another coast of {want}"
        elif (
            support_coast == "b"
            and board.target_coast[i] is None
            and game_map.provinces[want].coasts
            and owner[t] != owner[i]
        ):
            # Calhamer's reading: allies name the coast; only one's own move may omit it
            entry.invalid = f"the support must name the coast {board.dest_loc[t]} of an ally"
        else:
            board.move_supports[t].append(i)


def _refused(board: Board, i: int, t: int, hold: bool) -> str:
    """Why a support of another power's unit does not count, if it does not: that power did
    not accept it (``rules.foreign_support``), or is in civil disorder (DATC 4.D.9 a)."""
    other = board.owner[t]
    if other == board.owner[i]:
        return ""
    rules = board.rules
    if rules.foreign_support == "acknowledged" and (other, board.prov[i]) not in board.accepted:
        return f"{other} did not accept the support of {board.units[i]}"
    if hold and rules.civil_disorder_hold_support == "a" and other in board.disorder:
        return f"{other} is in civil disorder"
    return ""


def _adjacent_by_convoy(board: Board, i: int, route: bool) -> bool:
    """Does an army's move to an adjacent province go by convoy (DATC 4.A.3)?"""
    choice = board.rules.adjacent_convoy
    power = board.owner[i]
    if choice == "a":  # only a swap, and only while the convoy holds (fallback)
        t = board.index.get(board.dest[i] or "")
        swap = t is not None and board.kind[t] == MOVE and board.dest[t] == board.prov[i]
        return swap and route
    if not board.via[i] and not any(board.owner[f] == power for f in board.fleets[i]):
        return False  # neither ordered "via convoy" nor convoyed by its own fleet
    return choice == "d" or route
