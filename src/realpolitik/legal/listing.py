"""The legal orders, listed plainly: the specification of what is legal to order.

What does not depend on the position is made once per map, whole,
before it is shared between threads (:class:`_Tables`): for each unit type at each location
(a :class:`_Slot`), its hold, its moves by land (the map's adjacency), and its support of
each unit it could support by land, province by province (those of
:func:`~realpolitik.adjudicator.legality.support_reach`), in the listing's order. A call
keeps those supports whose supported unit is on the board, and adds what the fleets at sea
make possible, from the minimal convoy routes
(:func:`~realpolitik.adjudicator.convoy.minimal_routes`, as the adjudicator finds them):
the moves by convoy, the convoys, and the supports of moves by convoy (last in their
province's supports). Retreat and adjustment phases read a lighter table per map
(:class:`_Leaving`): each unit's disband and retreats, each power's builds.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from functools import lru_cache
from itertools import compress
from operator import attrgetter, itemgetter

from realpolitik.adjudicator.adjustments import net_upkeep
from realpolitik.adjudicator.convoy import minimal_routes, seas_of
from realpolitik.adjudicator.legality import move_rule, support_reach
from realpolitik.maps.model import GameMap, ProvinceType
from realpolitik.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Retreat,
    SupportHold,
    SupportMove,
    UnitRef,
    Waive,
)
from realpolitik.position import Position
from realpolitik.rules import MissingNationality, Rules, SupportCoast, SupportReach, Waiving
from realpolitik.vocab import ARMY, FLEET, Location, Power, Province, Unit, UnitType, province_of

WAIVE = "WAIVE"
"""The key of the waive order in an adjustment phase."""

LegalOrders = dict[Power, dict[str, list[Order]]]

_Which = Callable[[list[bool]], tuple[bool, ...]]
"""Given whether each slot of the map holds a unit (by number), whether some of them do."""

_by_location = attrgetter("location")


# --- per map: what does not depend on the position --------------------------------------------
class _Slot:
    """A unit type at a location of the map, and what it could order that does not depend on
    the other units:

    * ``ref``, ``utype``, ``location``, ``province``; ``number``, its place among the map's
      slots (:class:`_Tables`);
    * ``base``: its hold, then its moves by land (by destination);
    * ``enters``: the provinces it could move into by land;
    * ``reach``: the provinces it could support into, in order
      (:func:`~realpolitik.adjudicator.legality.support_reach`);
    * ``supports``: its support of each slot it could support into the provinces of
      ``reach`` but by convoy: for each province, of the slots in it (holding), then of
      those that could move into it by land (by location); ``which``: given whether each
      slot of the map holds a unit (by number), whether each supported slot does;
      ``groups``: the same, province by province (the province, ``which``, ``supports``);
    * ``seas``: for an army on a coast, the seas touching it; ``at_sea``: a fleet in a sea.

    A slot at a location the map does not have is ``stray`` (made for one call): it has no
    moves by land, and no unit could move to it by land. :class:`_Tables` makes every slot
    whole before it is shared."""

    __slots__ = (
        "at_sea",
        "base",
        "enters",
        "groups",
        "location",
        "number",
        "province",
        "reach",
        "ref",
        "seas",
        "stray",
        "supports",
        "utype",
        "which",
    )

    def __init__(self, game_map: GameMap, utype: UnitType, location: Location, number: int) -> None:
        self.number = number
        self.ref = ref = UnitRef(utype, location)
        self.utype = utype
        self.location = location
        self.province = province_of(location)
        self.seas: frozenset[Province] = frozenset()
        self.at_sea = False
        if utype is ARMY:
            self.stray = location not in game_map.army_adjacency
            dests = sorted(game_map.army_adjacency.get(location, ()))
            enters = dests
            self.seas = seas_of(game_map).at.get(self.province, frozenset())
        else:
            self.stray = location not in game_map.fleet_adjacency
            dests = sorted(game_map.fleet_adjacency.get(location, ()))
            enters = sorted(game_map.fleet_reach.get(location, ()))
            info = game_map.provinces.get(self.province)
            self.at_sea = info is not None and info.is_sea
        self.base: tuple[Order, ...] = (Hold(ref), *(Move(ref, dest) for dest in dests))
        self.enters = tuple(p for p in enters if p != self.province)
        self.reach: tuple[Province, ...] = ()
        self.groups: tuple[tuple[Province, _Which, tuple[Order, ...]], ...] = ()
        self.supports: tuple[Order, ...] = ()
        self.which = _which([])

    def support(self, target: _Slot, into: Province) -> SupportHold | SupportMove:
        """This unit's support of the unit of ``target`` holding in, or moving to, ``into``."""
        if target.province == into:
            return SupportHold(self.ref, target.ref)
        return SupportMove(self.ref, target.ref, into)


class _Tables:
    """The map's lookups for legal orders, under one reach of supports: one :class:`_Slot`
    per unit type and location (``slots``, numbered in location order); the seas next to
    each sea (``sea_next``). Everything is made here, before the tables can be shared."""

    def __init__(self, game_map: GameMap, reach: SupportReach) -> None:
        self.game_map = game_map
        self.sea_next = seas_of(game_map).next
        places = [(ARMY, loc) for loc in game_map.army_adjacency]
        places += [(FLEET, loc) for loc in game_map.fleet_adjacency]
        places.sort(key=lambda place: place[1])
        self.slots = {place: _Slot(game_map, *place, k) for k, place in enumerate(places)}
        # the slots in each province, then those that could move into it by land, by location
        self._supported: dict[Province, list[_Slot]] = {}
        for slot in self.slots.values():
            self._supported.setdefault(slot.province, []).append(slot)
        for slot in self.slots.values():
            for prov in slot.enters:
                self._supported.setdefault(prov, []).append(slot)
        self._reach = reach
        for slot in self.slots.values():
            self._plan(slot)

    def _plan(self, slot: _Slot) -> None:
        """Make the ``reach``, ``supports``, ``which`` and ``groups`` of ``slot``."""
        found = support_reach(self.game_map, self._reach, slot.utype, slot.location)
        slot.reach = tuple(sorted(p for p in found if p != slot.province))
        groups, every = [], []
        for into in slot.reach:
            # a unit cannot support itself
            targets = [t for t in self._supported.get(into, ()) if t.province != slot.province]
            supports = tuple(slot.support(t, into) for t in targets)
            groups.append((into, _which(targets), supports))
            every += targets
        slot.groups = tuple(groups)
        slot.supports = tuple(order for _, _, orders in groups for order in orders)
        slot.which = _which(every)

    def slot(self, unit: Unit) -> _Slot:
        """The slot of ``unit`` (a stray one, made for the call, at a location the map does
        not have)."""
        found = self.slots.get((unit.type, unit.location))
        if found is None:
            found = _Slot(self.game_map, unit.type, unit.location, len(self.slots))
            self._plan(found)
        return found


def _which(targets: list[_Slot]) -> _Which:
    """Whether each of ``targets`` holds a unit, picked in C (not by a set's __contains__
    for each: 13% of movement listing)."""
    # two more numbers, whose answers compress leaves: itemgetter of one gives no tuple
    return itemgetter(*(target.number for target in targets), 0, 0)


@lru_cache(maxsize=16)  # every shipped board (10), and a few made otherwise; made whole
def _tables(game_map: GameMap, reach: SupportReach) -> _Tables:
    """The map's tables, with supports into the provinces ``reach`` says."""
    return _Tables(game_map, reach)


# --- convoys ----------------------------------------------------------------------------------
class _Carriage:
    """What an army on a coast could do by convoy through one connected group of fleets at
    sea, from its minimal routes:

    * ``vias``: its moves by convoy, by destination;
    * ``overseas``: the destinations it could reach only by convoy (not next to it by land);
    * ``convoys``: for each fleet (by sea), its convoys of the army on a minimal route
      (DATC 6.G.19), by destination;
    * ``needed``: for each destination of ``overseas``, the seas on every minimal route to
      it, whose fleets no route without them reaches it by (such a fleet cannot support
      the move: it would convoy what it supports).
    """

    __slots__ = ("convoys", "needed", "overseas", "vias")

    def __init__(self, tables: _Tables, army: _Slot, seas: frozenset[Province]) -> None:
        game_map = tables.game_map
        routes = minimal_routes(game_map, army.province, seas)
        reach = sorted(routes)  # every province a route reaches, a minimal one reaches too
        self.vias = tuple(_via(army, dest) for dest in reach)
        near = game_map.army_adjacency.get(army.location, frozenset())
        self.overseas = tuple(dest for dest in reach if dest not in near)
        convoys: dict[Province, list[Convoy]] = {}
        for dest in reach:
            for sea in routes[dest][0]:
                fleet = tables.slots[FLEET, sea]
                convoys.setdefault(sea, []).append(_convoy(fleet, army, dest))
        self.convoys = {sea: tuple(orders) for sea, orders in convoys.items()}
        # a route without a fleet, if any, holds a minimal one without it: those no route
        # without it reaches are those whose every minimal route it is on
        self.needed = {dest: routes[dest][1] for dest in self.overseas}


@lru_cache(maxsize=4096)  # the same armies and fleets meet phase after phase: 23% of movement
# listing
def _carriage(tables: _Tables, army: _Slot, seas: frozenset[Province]) -> _Carriage:
    """The :class:`_Carriage` of the army of ``army`` through the fleets in ``seas``."""
    return _Carriage(tables, army, seas)


# the orders that depend on the fleets at sea, each made once, not in each phase that lists it
# (15% of movement listing)
@lru_cache(maxsize=4096)
def _via(army: _Slot, dest: Province) -> Move:
    return Move(army.ref, dest, via_convoy=True)


@lru_cache(maxsize=16384)
def _convoy(fleet: _Slot, army: _Slot, dest: Province) -> Convoy:
    return Convoy(fleet.ref, army.ref, dest)


@lru_cache(maxsize=16384)
def _support_by_convoy(supporter: _Slot, army: _Slot, dest: Province) -> SupportMove:
    return SupportMove(supporter.ref, army.ref, dest)


class _Convoys:
    """What the fleets at sea of one position make possible: ``vias[p]``, the moves by
    convoy of the army in ``p``; ``overseas[p]``, the armies that could move into ``p`` only
    by convoy (by location), each with the seas whose fleets every route of the move needs;
    ``convoys[s]``, the convoys the fleet in sea ``s`` could be part of (by army, then
    destination)."""

    def __init__(self, tables: _Tables, slots: list[_Slot]) -> None:
        """``slots``: those of the units on the board, by location."""
        self.vias: dict[Province, tuple[Move, ...]] = {}
        self.convoys: dict[Province, list[Convoy]] = {}
        self.overseas: dict[Province, list[tuple[_Slot, frozenset[Province]]]] = {}
        armies = [slot for slot in slots if slot.seas]
        fleets = [slot.province for slot in slots if slot.at_sea]
        groups = fleet_groups(tables.sea_next, fleets) if armies and fleets else {}
        for army in armies if groups else ():
            # the fleets at sea connected to those next to the army
            seas = frozenset().union(*[groups[sea] for sea in army.seas if sea in groups])
            if not seas:
                continue
            carriage = _carriage(tables, army, seas)
            if carriage.vias:
                self.vias[army.province] = carriage.vias
            for dest in carriage.overseas:
                self.overseas.setdefault(dest, []).append((army, carriage.needed[dest]))
            for sea, orders in carriage.convoys.items():
                self.convoys.setdefault(sea, []).extend(orders)


def fleet_groups(
    sea_next: Mapping[Province, frozenset[Province]], fleet_seas: Iterable[Province]
) -> dict[Province, frozenset[Province]]:
    """Each fleet's sea to its group: the seas of the fleets at sea connected to it through
    fleets at sea."""
    fleets = frozenset(fleet_seas)
    groups: dict[Province, frozenset[Province]] = {}
    for sea in fleets:
        if sea not in groups:
            seen = {sea}
            frontier = [sea]
            while frontier:
                for nxt in sea_next[frontier.pop()] & fleets:
                    if nxt not in seen:
                        seen.add(nxt)
                        frontier.append(nxt)
            group = frozenset(seen)
            for member in group:
                groups[member] = group
    return groups


# --- movement ---------------------------------------------------------------------------------
def movement_orders(
    game_map: GameMap,
    position: Position,
    rules: Rules,
    power: Power | None = None,
    location: Location | None = None,
) -> LegalOrders:
    """The legal orders of the units on the board (of ``power``, or the one at
    ``location``, if given), by power and location."""
    tables = _tables(game_map, rules.support_reach)
    units = sorted(position.units.values(), key=_by_location)
    slots = [tables.slot(unit) for unit in units]
    # whether a unit of the board is at each slot, by number (a stray's: one past the map's)
    on_board = [False] * (len(tables.slots) + 1)
    for slot in slots:
        on_board[slot.number] = True
    by_convoy = _Convoys(tables, slots)
    # units at a location the map does not have, by province (no slot supports them)
    strays = {slot.province: slot for slot in slots if slot.stray}
    # the provinces where a unit may give a support that is not among its slot's supports
    more = by_convoy.overseas.keys() | strays.keys()
    out: LegalOrders = {who: {} for who in sorted({unit.power for unit in units})}
    for unit, slot in zip(units, slots, strict=True):
        if (power is not None and unit.power != power) or (
            location is not None and unit.location != location
        ):
            continue
        orders = [*slot.base, *by_convoy.vias.get(slot.province, ())]
        if more.isdisjoint(slot.reach):  # most units: one pass (14% of movement listing)
            orders += compress(slot.supports, slot.which(on_board))
        else:
            orders += _supports(slot, on_board, strays, by_convoy)
        if slot.at_sea:
            orders += by_convoy.convoys.get(slot.province, ())
        out[unit.power][unit.location] = orders
    if rules.missing_nationality is MissingNationality.ILLEGAL:
        for who, keyed in out.items():
            for key, orders in keyed.items():
                keyed[key] = [_with_nationality(order, who, position) for order in orders]
    return out


def _supports(
    slot: _Slot, on_board: list[bool], strays: dict[Province, _Slot], by_convoy: _Convoys
) -> list[Order]:
    """The supports the unit of ``slot`` may give, province by province: the hold support
    of a unit at a location the map does not have (``strays``), its slot's supports of the
    units on the board (``on_board``), then the supports of moves by convoy
    (``by_convoy``)."""
    out: list[Order] = []
    overseas = by_convoy.overseas
    for into, which, supports in slot.groups:
        if into in strays:
            out.append(slot.support(strays[into], into))
        out += compress(supports, which(on_board))
        if into in overseas:
            for army, needed in overseas[into]:
                # not a move every route of which goes through the supporter's fleet
                if slot.province not in needed and army is not slot:
                    out.append(_support_by_convoy(slot, army, into))
    return out


def _with_nationality(order: Order, power: Power, position: Position) -> Order:
    """DATC 4.C.5 a: a support or convoy of another power's unit must name its power."""
    if isinstance(order, (SupportHold, SupportMove)):
        other = position.units[order.supported.province].power
        if other != power:
            ref = UnitRef(order.supported.type, order.supported.location, other)
            if isinstance(order, SupportHold):
                return SupportHold(order.unit, ref)
            return SupportMove(order.unit, ref, order.destination)
    elif isinstance(order, Convoy):
        other = position.units[order.convoyed.province].power
        if other != power:
            ref = UnitRef(ARMY, order.convoyed.location, other)
            return Convoy(order.unit, ref, order.destination)
    return order


def as_listed(order: Order, game_map: GameMap, position: Position, rules: Rules) -> Order:
    """``order``, which the adjudicator judges legal as the game stores it, in the
    listing's spelling of the same order (:mod:`realpolitik.legal`), where the rules make
    the two mean the same: each unit it names as the board has it (a type or coast the
    rules ignore, DATC 4.C.2, 4.B.5), a nationality as the listing writes it (4.C.6), an
    army's move to a province it does not border marked ``VIA``, a fleet's move or retreat
    without a coast where it reaches only one (4.B.2), the province alone as the
    destination of a convoy, and of a support of an army's move or, where the rules ignore
    it (4.B.4), of a fleet's. Any other order is returned as it is: a support naming a
    coast that must match, a move ``VIA`` into a bordering province, an army's move there
    by land, mean other orders than any listed.

        >>> from realpolitik import load_map, parse_order, rules_for
        >>> game_map = load_map("standard")
        >>> units = {"LON": Unit("ENGLAND", ARMY, "LON"), "NTH": Unit("ENGLAND", FLEET, "NTH")}
        >>> order = parse_order("A LON - BEL", game_map=game_map)
        >>> str(as_listed(order, game_map, Position(units), rules_for("classic")))
        'A LON - BEL VIA'
    """
    if isinstance(order, Waive | Build):
        return order
    units = position.units
    if isinstance(order, Retreat | Disband) and order.unit.province in position.dislodged:
        units = {order.unit.province: position.dislodged[order.unit.province].unit}
    unit = units.get(order.unit.province)
    if unit is None:
        return order
    ref = UnitRef(unit.type, unit.location)
    if isinstance(order, Hold):
        return Hold(ref)
    if isinstance(order, Disband):
        return Disband(ref)
    if isinstance(order, Move | Retreat):  # where it goes, as the adjudicator reads it
        via = isinstance(order, Move) and order.via_convoy
        rule = move_rule(game_map, rules, unit.type, unit.location, order.destination, via)
        if not rule.exact:
            return order
        if isinstance(order, Retreat):
            return Retreat(ref, rule.exact)
        return Move(ref, rule.exact, rule.by_convoy)
    if isinstance(order, Convoy):
        listed: Order = Convoy(
            ref, _named(order.convoyed, position), province_of(order.destination)
        )
    else:
        target = _named(order.supported, position)
        if isinstance(order, SupportHold):
            listed = SupportHold(ref, target)
        else:
            dest = order.destination
            if target.type is ARMY or rules.support_coast is SupportCoast.IGNORED:
                dest = province_of(dest)
            listed = SupportMove(ref, target, dest)
    if rules.missing_nationality is MissingNationality.ILLEGAL:
        return _with_nationality(listed, unit.power, position)
    return listed


def _named(ref: UnitRef, position: Position) -> UnitRef:
    """A supported or convoyed unit as the listing names it: as the board has it, with no
    nationality (the listing adds it where the rules want one)."""
    unit = position.units.get(ref.province)
    if unit is None:
        return ref
    return UnitRef(unit.type, unit.location)


# --- retreats and adjustments ---------------------------------------------------------------
class _Leaving:
    """A map's orders for retreat and adjustment phases, made whole before they are shared:
    each unit type at each location's ``disbands`` and ``retreats`` (by destination), and
    each power's ``menus``: its keys in an adjustment phase where it may build, in key
    order, each home centre with its builds (an army, and a fleet on each coast of a
    coastal one), and ``WAIVE`` with the waive."""

    def __init__(self, game_map: GameMap) -> None:
        places = [(ARMY, loc, game_map.army_adjacency[loc]) for loc in game_map.army_adjacency]
        places += [(FLEET, loc, game_map.fleet_adjacency[loc]) for loc in game_map.fleet_adjacency]
        self.disbands: dict[tuple[UnitType, Location], Disband] = {}
        self.retreats: dict[tuple[UnitType, Location], dict[Location, Retreat]] = {}
        for utype, loc, dests in places:
            ref = UnitRef(utype, loc)
            self.disbands[utype, loc] = Disband(ref)
            self.retreats[utype, loc] = {dest: Retreat(ref, dest) for dest in sorted(dests)}
        self.menus = {power: _menu(game_map, power) for power in game_map.powers}

    def disband(self, unit: Unit) -> Disband:
        return self.disbands.get((unit.type, unit.location)) or Disband(
            UnitRef(unit.type, unit.location)
        )

    def retreat(self, unit: Unit, dest: Location) -> Retreat:
        found = self.retreats.get((unit.type, unit.location), {}).get(dest)
        return found or Retreat(UnitRef(unit.type, unit.location), dest)


def _menu(game_map: GameMap, power: Power) -> tuple[tuple[str, tuple[Order, ...]], ...]:
    menu: list[tuple[str, tuple[Order, ...]]] = [(WAIVE, (Waive(),))]
    for prov in game_map.homes.get(power, ()):
        info = game_map.provinces[prov]
        fleets = [f"{prov}/{c}" for c in info.coasts] if info.coasts else [prov]
        if info.type is not ProvinceType.COASTAL:
            fleets = []
        builds = [Build(UnitRef(ARMY, prov)), *(Build(UnitRef(FLEET, f)) for f in fleets)]
        menu.append((prov, tuple(builds)))
    return tuple(sorted(menu, key=lambda entry: entry[0]))


@lru_cache(maxsize=16)  # every shipped board (10), and a few made otherwise; made whole
def _leaving(game_map: GameMap) -> _Leaving:
    return _Leaving(game_map)


def retreat_orders(game_map: GameMap, position: Position, power: Power | None) -> LegalOrders:
    """The disband and retreats of each dislodged unit (of ``power``, if given)."""
    leaving = _leaving(game_map)
    out: LegalOrders = {}
    for d in sorted(position.dislodged.values(), key=lambda d: d.unit.location):
        unit = d.unit
        if power is None or unit.power == power:
            retreats = [leaving.retreat(unit, dest) for dest in d.retreats]
            out.setdefault(unit.power, {})[unit.location] = [leaving.disband(unit), *retreats]
    return dict(sorted(out.items()))


def adjustment_orders(
    game_map: GameMap, position: Position, rules: Rules, power: Power | None
) -> LegalOrders:
    """The builds (and the waive) of each power with builds due, the removals of each with
    removals due (of ``power``, if given)."""
    leaving = _leaving(game_map)
    centers, units = position.centers, position.units
    waive = rules.waive is Waiving.ALLOWED
    out: LegalOrders = {}
    dues = net_upkeep(game_map, position, rules)
    for who in [power] if power is not None else sorted(dues):
        due = dues.get(who, 0)
        if due == 0:
            continue
        keyed: dict[str, list[Order]] = {}
        if due > 0:  # each home centre it owns with no unit there, and WAIVE
            for key, orders in leaving.menus.get(who, ()):
                if key == WAIVE:
                    if waive:
                        keyed[key] = [*orders]
                elif centers.get(key) == who and key not in units:
                    keyed[key] = [*orders]
        else:  # each of its units
            for unit in sorted([u for u in units.values() if u.power == who], key=_by_location):
                keyed[unit.location] = [leaving.disband(unit)]
        if keyed:
            out[who] = keyed
    return out
