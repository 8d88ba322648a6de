"""Step one of a movement phase: match orders to units, judge their legality, link them.

The result, :class:`Board`, is the flat, indexed form the resolver works on: one slot per
unit, its effective order kind, destinations, the supports and convoys that match it. Every
submitted order also gets its preliminary verdict (illegal / invalid, with a reason).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from realpolitik.adjudicator.convoy import has_route, on_minimal_route
from realpolitik.maps.model import GameMap, ProvinceType
from realpolitik.orders import Convoy, Hold, Move, Order, SupportHold, SupportMove, UnitRef
from realpolitik.position import Position
from realpolitik.rules import Rules
from realpolitik.vocab import ARMY, FLEET, Location, Power, Province, Unit, coast_of, province_of

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


@dataclass(slots=True)
class Board:
    """The indexed movement problem. Lists are indexed by unit number."""

    game_map: GameMap
    rules: Rules
    units: list[Unit]
    index: dict[Province, int]
    entries: list[Entry]
    prov: list[Province] = field(default_factory=list)  # each unit's province
    owner: list[Power] = field(default_factory=list)  # each unit's power
    kind: list[int] = field(default_factory=list)
    order_of: list[int] = field(default_factory=list)  # entry index of the unit's order, or -1
    dest: list[Province | None] = field(default_factory=list)
    dest_loc: list[Location | None] = field(default_factory=list)
    via: list[bool] = field(default_factory=list)
    convoyed: list[bool] = field(default_factory=list)
    fallback: list[bool] = field(default_factory=list)  # takes the land route if disrupted
    no_route: list[bool] = field(default_factory=list)
    target: list[int] = field(default_factory=list)  # supported / convoyed unit
    target_dest: list[Province | None] = field(default_factory=list)
    target_coast: list[str | None] = field(default_factory=list)
    hold_supports: list[list[int]] = field(default_factory=list)
    move_supports: list[list[int]] = field(default_factory=list)
    fleets: list[list[int]] = field(default_factory=list)  # convoying fleets of an army's move
    attackers: dict[Province, list[int]] = field(default_factory=dict)
    fleet_seas: frozenset[Province] = frozenset()  # seas holding a fleet: possible convoys
    disorder: frozenset[Power] = frozenset()  # powers in civil disorder (DATC 4.D.9)
    accepted: frozenset[tuple[Power, Province]] = frozenset()  # accepted foreign supporters
    used_fleets: bool = False  # the order being judged asked about convoy routes

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
    n = len(units)
    prov = [_PROVINCE[u.location] for u in units]
    board = Board(game_map, rules, units, {p: i for i, p in enumerate(prov)}, entries=[])
    board.prov = prov
    board.owner = [u.power for u in units]
    board.disorder = frozenset(disorder)
    board.accepted = frozenset(accepted)
    board.kind = [HOLD] * n
    board.order_of = [-1] * n
    board.dest = [None] * n
    board.dest_loc = [None] * n
    board.via = [False] * n
    board.convoyed = [False] * n
    board.fallback = [False] * n
    board.no_route = [False] * n
    board.target = [-1] * n
    board.target_dest = [None] * n
    board.target_coast = [None] * n
    board.hold_supports = [[] for _ in range(n)]
    board.move_supports = [[] for _ in range(n)]
    board.fleets = [[] for _ in range(n)]
    seas = _seas(game_map)
    board.fleet_seas = frozenset(
        p for u, p in zip(units, prov, strict=True) if u.type is FLEET and p in seas
    )

    verdicts = _verdicts(game_map, rules)
    for power, power_orders in orders.items():
        for order in power_orders:
            entry = Entry(power, order)
            board.entries.append(entry)
            _judge_memoised(board, position, entry, verdicts)
    _assign(board)
    _link(board)
    return board


def _by_location(unit: Unit) -> Location:
    return unit.location


@lru_cache(maxsize=16)
def _seas(game_map: GameMap) -> frozenset[Province]:
    return frozenset(p for p, info in game_map.provinces.items() if info.is_sea)


# --- legality on the board alone ----------------------------------------------------------
# A verdict: whether the unit was found, why the order is illegal, why it fails, its move.
Verdict = tuple[bool, str, str, "tuple[Location, bool] | None"]
VerdictKey = tuple[Power, Order, "Unit | None", "Unit | None"]


class _Verdicts(dict[VerdictKey, Verdict]):
    """The verdicts of one map and rules, by power, order and the units at the provinces
    the order names: all a verdict depends on, unless it asked about convoy routes."""


@lru_cache(maxsize=16)
def _verdicts(game_map: GameMap, rules: Rules) -> _Verdicts:
    return _Verdicts()


def _judge_memoised(board: Board, position: Position, entry: Entry, verdicts: _Verdicts) -> None:
    """:func:`_judge`, or the verdict it gave the same order on the same units before."""
    order = entry.order
    if not isinstance(order, _MOVEMENT_ORDERS):
        _judge_now(board, position, entry)
        return
    units = position.units
    other = (
        order.supported
        if isinstance(order, _SUPPORTS)
        else order.convoyed
        if isinstance(order, Convoy)
        else None
    )
    key = (
        entry.power,
        order,
        units.get(_PROVINCE[order.unit.location]),
        None if other is None else units.get(_PROVINCE[other.location]),
    )
    verdict = verdicts.get(key)
    if verdict is None:
        board.used_fleets = False
        _judge_now(board, position, entry)
        verdict = (entry.unit >= 0, entry.illegal, entry.fails, entry.move)
        if not board.used_fleets:  # the fleets at sea did not matter: keep it
            if len(verdicts) > 100_000:
                verdicts.clear()
            verdicts[key] = verdict
        return
    found, entry.illegal, entry.fails, entry.move = verdict
    if found:
        entry.unit = board.index[_PROVINCE[order.unit.location]]


def _judge_now(board: Board, position: Position, entry: Entry) -> None:
    try:
        _judge(board, position, entry)
    except Illegal as exc:
        entry.illegal = str(exc)


def _fleet_route(
    board: Board, src: Province, dest: Province, exclude: Province | None = None
) -> bool:
    """Could an army go from ``src`` to ``dest`` by convoy through the fleets at sea (other
    than the one in ``exclude``)? Marks the verdict as depending on the fleets."""
    board.used_fleets = True
    seas = board.fleet_seas if exclude is None else board.fleet_seas - {exclude}
    return has_route(board.game_map, src, dest, seas)


def _find_unit(board: Board, position: Position, ref: UnitRef, power: Power) -> int:
    prov = _PROVINCE[ref.location]
    i = board.index.get(prov)
    if i is None:
        raise Illegal(f"there is no unit in {prov}")
    unit = board.units[i]
    if unit.power != power:
        raise Illegal(f"the unit in {prov} belongs to {unit.power}")
    _check_ref(board, ref, unit)
    return i


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


def _judge(board: Board, position: Position, entry: Entry) -> None:
    order = entry.order
    if not isinstance(order, _MOVEMENT_ORDERS):
        raise Illegal(f"{type(order).__name__.lower()} orders are not given in a movement phase")
    entry.unit = _find_unit(board, position, order.unit, entry.power)
    unit = board.units[entry.unit]
    if isinstance(order, Move):
        try:
            entry.move = _move_destination(board, unit, order)
        except Illegal as exc:
            if unit.location != order.unit.location and coast_of(order.unit.location):
                # the order names another coast (ignored, DATC 4.B.5): it simply fails
                entry.fails = f"{exc}; the fleet is at {unit.location}"
                return
            raise
    elif isinstance(order, _SUPPORTS):
        _check_support(board, unit, order)
    elif isinstance(order, Convoy):
        _check_convoy(board, unit, order)


def _move_destination(board: Board, unit: Unit, order: Move) -> tuple[Location, bool]:
    """The exact destination location and whether the move needs a convoy, or Illegal."""
    game_map, rules = board.game_map, board.rules
    prov = _PROVINCE[order.destination]
    coast = coast_of(order.destination)
    info = game_map.provinces.get(prov)
    if info is None or not info.passable:
        raise Illegal(f"{prov} cannot be entered")
    here = _PROVINCE[unit.location]
    if prov == here:
        raise Illegal("a unit cannot move to its own province")
    if unit.type is ARMY:
        if coast is not None and rules.unknown_coast == "a":
            raise Illegal("an army move names a coast")
        if not info.is_land:
            raise Illegal(f"an army cannot move to {prov} ({info.name})")
        if game_map.can_move(ARMY, unit.location, prov):
            return prov, order.via_convoy
        if (
            _coastal(game_map, here)
            and _coastal(game_map, prov)
            and _fleet_route(board, here, prov)
        ):
            return prov, True
        raise Illegal(f"{prov} is not adjacent to {here} and no convoy can reach it")
    if order.via_convoy:
        raise Illegal("a fleet cannot be convoyed")
    options = game_map.fleet_destinations(unit.location, prov)
    if coast is not None:
        if coast in info.coasts:
            if f"{prov}/{coast}" in options:
                return f"{prov}/{coast}", False
            if rules.impossible_coast == "b":
                raise Illegal(f"the fleet at {unit.location} cannot reach {prov}/{coast}")
        elif rules.unknown_coast == "a":
            raise Illegal(f"{prov} has no coast {coast}")
    if not options:
        raise Illegal(f"a fleet at {unit.location} cannot move to {prov}")
    if len(options) > 1:
        raise Illegal(f"the coast of {prov} must be given ({', '.join(info.coasts)})")
    if info.coasts and rules.omitted_coast == "b":
        raise Illegal(f"the coast of {prov} must be given")
    return options[0], False


def _coastal(game_map: GameMap, prov: Province) -> bool:
    return game_map.provinces[prov].type is ProvinceType.COASTAL


def _check_support(board: Board, unit: Unit, order: SupportHold | SupportMove) -> None:
    game_map = board.game_map
    target_prov = _PROVINCE[order.supported.location]
    here = _PROVINCE[unit.location]
    if target_prov == here:
        raise Illegal("a unit cannot support itself")
    into = target_prov if isinstance(order, SupportHold) else _PROVINCE[order.destination]
    if into not in game_map.provinces:
        raise Illegal(f"unknown province {into}")
    if isinstance(order, SupportMove) and into == target_prov:
        raise Illegal("a supported move must leave its province")
    if into == here:
        raise Illegal("a unit cannot support a move into its own province")
    if not game_map.can_reach(unit.type, unit.location, into):
        raise Illegal(f"{unit} cannot move to {into}, so cannot support into it")
    _check_target(board, unit, order.supported)
    if isinstance(order, SupportMove):
        target = board.units[board.index[target_prov]]
        if not _could_move(board, target, into, exclude=here):
            raise Illegal(f"{target} cannot move to {into}")


def _check_target(board: Board, unit: Unit, ref: UnitRef) -> None:
    prov = _PROVINCE[ref.location]
    i = board.index.get(prov)
    if i is None:
        raise Illegal(f"there is no unit in {prov}")
    target = board.units[i]
    _check_ref(board, ref, target)
    rules = board.rules
    if ref.power is not None and ref.power != target.power and rules.wrong_nationality == "a":
        raise Illegal(f"the unit in {prov} is not {ref.power}'s")
    if ref.power is None and target.power != unit.power and rules.missing_nationality == "a":
        raise Illegal(f"the nationality of the unit in {prov} is missing")


def _could_move(board: Board, unit: Unit, into: Province, exclude: Province) -> bool:
    """Could ``unit`` move to ``into`` on this board (by convoy through fleets other than the
    one in ``exclude``)?"""
    game_map = board.game_map
    if game_map.can_reach(unit.type, unit.location, into):
        return True
    here = _PROVINCE[unit.location]
    if unit.type is FLEET or not _coastal(game_map, here) or not _coastal(game_map, into):
        return False
    return _fleet_route(board, here, into, exclude)


def _check_convoy(board: Board, unit: Unit, order: Convoy) -> None:
    game_map = board.game_map
    here = _PROVINCE[unit.location]
    if unit.type is not FLEET or not game_map.provinces[here].is_sea:
        raise Illegal("only a fleet at sea can convoy")
    origin, dest = _PROVINCE[order.convoyed.location], _PROVINCE[order.destination]
    if dest not in game_map.provinces:
        raise Illegal(f"unknown province {dest}")
    if not _coastal(game_map, origin) or not _coastal(game_map, dest) or origin == dest:
        raise Illegal("a convoy goes from one coastal province to another")
    _check_target(board, unit, order.convoyed)
    if board.units[board.index[origin]].type is not ARMY:
        raise Illegal("only armies can be convoyed")
    board.used_fleets = True
    if not on_minimal_route(game_map, origin, dest, board.fleet_seas, here):
        raise Illegal(f"{unit} is on no possible convoy route from {origin} to {dest}")


# --- one order per unit (DATC 4.D.3) -------------------------------------------------------
def _assign(board: Board) -> None:
    per_unit: dict[int, list[int]] = {}
    for k, entry in enumerate(board.entries):
        if not entry.illegal:
            per_unit.setdefault(entry.unit, []).append(k)
    choice = board.rules.duplicate_orders
    for i, ks in per_unit.items():
        if len(ks) > 1 and len({board.entries[k].order for k in ks}) > 1:
            keep = ks[0] if choice == "a" else ks[-1] if choice == "b" else -1
            for k in ks:
                if k != keep:
                    board.entries[k].illegal = "the unit has another order"
            if keep < 0:
                continue
            ks = [keep]
        board.order_of[i] = ks[0]
        entry = board.entries[ks[0]]
        order = entry.order
        if entry.fails:
            continue
        if isinstance(order, Move):
            board.kind[i] = MOVE
            assert entry.move is not None
            loc, needs_convoy = entry.move
            board.dest_loc[i] = loc
            board.dest[i] = _PROVINCE[loc]
            board.via[i] = needs_convoy
            board.attackers.setdefault(_PROVINCE[loc], []).append(i)
        elif isinstance(order, _SUPPORTS):
            board.kind[i] = SUPPORT
            board.target[i] = board.index[_PROVINCE[order.supported.location]]
            if isinstance(order, SupportMove):
                board.target_dest[i] = _PROVINCE[order.destination]
                board.target_coast[i] = coast_of(order.destination)
        elif isinstance(order, Convoy):
            board.kind[i] = CONVOY
            board.target[i] = board.index[_PROVINCE[order.convoyed.location]]
            board.target_dest[i] = _PROVINCE[order.destination]


# --- matching supports and convoys; convoy or land route (DATC 4.A.3) ------------------------
def _link(board: Board) -> None:
    game_map, rules = board.game_map, board.rules
    kind, dest = board.kind, board.dest
    for i in range(board.size):
        if kind[i] == CONVOY:
            t = board.target[i]
            if kind[t] == MOVE and dest[t] == board.target_dest[i]:
                board.fleets[t].append(i)
    for i in range(board.size):
        if kind[i] != MOVE or board.units[i].type is not ARMY:
            continue
        src, dst = board.prov[i], dest[i]
        assert dst is not None
        fleets = board.fleets[i]
        route = bool(fleets) and has_route(game_map, src, dst, {board.prov[f] for f in fleets})
        adjacent = game_map.can_move(ARMY, src, dst)
        if not adjacent:
            board.convoyed[i] = True
        else:
            board.convoyed[i] = _adjacent_by_convoy(board, i, route)
            board.fallback[i] = board.convoyed[i] and rules.adjacent_convoy in ("a", "c")
        if board.convoyed[i] and not route:
            board.no_route[i] = True
    for i in range(board.size):
        if kind[i] == CONVOY:
            t = board.target[i]
            entry = board.entries[board.order_of[i]]
            if i not in board.fleets[t]:
                entry.invalid = "the army is not ordered to make that move"
    for i in range(board.size):
        if kind[i] != SUPPORT:
            continue
        t = board.target[i]
        entry = board.entries[board.order_of[i]]
        want = board.target_dest[i]
        refused = _refused(board, i, t, want is None)
        if refused:
            entry.invalid = refused
        elif want is None:
            if kind[t] == MOVE:
                entry.invalid = f"{board.units[t]} is ordered to move, not to hold"
            else:
                board.hold_supports[t].append(i)
        elif kind[t] != MOVE or dest[t] != want:
            entry.invalid = f"{board.units[t]} is not ordered to move to {want}"
        elif (
            board.target_coast[i] is not None
            and rules.support_coast != "a"
            and board.target_coast[i] in game_map.provinces[want].coasts
            and board.dest_loc[t] != f"{want}/{board.target_coast[i]}"
        ):
            entry.invalid = f"{board.units[t]} is ordered to another coast of {want}"
        elif (
            rules.support_coast == "b"
            and board.target_coast[i] is None
            and game_map.provinces[want].coasts
            and board.power(t) != board.power(i)
        ):
            # Calhamer's reading: allies name the coast; only one's own move may omit it
            entry.invalid = f"the support must name the coast {board.dest_loc[t]} of an ally"
        else:
            board.move_supports[t].append(i)


def _refused(board: Board, i: int, t: int, hold: bool) -> str:
    """Why a support of another power's unit does not count, if it does not: that power did
    not accept it (``rules.foreign_support``), or is in civil disorder (DATC 4.D.9 a)."""
    other = board.power(t)
    if other == board.power(i):
        return ""
    rules = board.rules
    if rules.foreign_support == "acknowledged" and (other, board.province(i)) not in board.accepted:
        return f"{other} did not accept the support of {board.units[i]}"
    if hold and rules.civil_disorder_hold_support == "a" and other in board.disorder:
        return f"{other} is in civil disorder"
    return ""


def _adjacent_by_convoy(board: Board, i: int, route: bool) -> bool:
    """Does an army's move to an adjacent province go by convoy (DATC 4.A.3)?"""
    choice = board.rules.adjacent_convoy
    power = board.power(i)
    if choice == "a":  # only a swap, and only while the convoy holds (fallback)
        t = board.index.get(board.dest[i] or "")
        swap = t is not None and board.kind[t] == MOVE and board.dest[t] == board.province(i)
        return swap and route
    if not board.via[i] and not any(board.owner[f] == power for f in board.fleets[i]):
        return False  # neither ordered "via convoy" nor convoyed by its own fleet
    return choice == "d" or route
