"""Legal orders: every order the adjudicator accepts as legal in the current phase.

``legal_orders(game_map, position, phase, rules, power=None)`` returns, per power, a dict
from a key to the list of that key's legal orders::

    >>> from realpolitik import Phase, Position, load_map, rules_for
    >>> board = load_map("standard")
    >>> orders = legal_orders(board, Position.initial(board), Phase.parse("S1901M"),
    ...                       rules_for("classic"), "ENGLAND")
    >>> [str(o) for o in orders["ENGLAND"]["LVP"]][:3]
    ['A LVP H', 'A LVP - CLY', 'A LVP - EDI']

Keys are a unit's location (movement, retreats), or in an adjustment phase the province of
a possible build, the location of a unit that may be removed, and ``"WAIVE"``.

Each order is listed once, in one canonical spelling: unit types always given, a fleet's
destination with its coast where the province has several, supports and convoys naming the
destination province (any coast: DATC 4.B.4), and every move that goes by convoy marked
``VIA`` (an army's move to a non-adjacent province needs no ``VIA``, but means the same).
A move ``VIA`` to an adjacent province is listed when a convoy route exists on the board.
An army built as ``F`` in an inland province (DATC 4.C.4 b) is the army build's spelling.

A convoy is listed for a fleet at sea on a route of fleets at sea that none of its fleets
could leave (DATC 6.G.19); a support for a move the supported unit could make, by land or
by a convoy of fleets other than the supporter: exactly what
:func:`realpolitik.adjudicator.adjudicate` judges legal (the tests check both ways).

In a movement phase a unit's list is its hold, its moves by land, its moves by convoy (each
by destination), then for each province it could support into (in order) the support of
the unit there and of the units that could move there by land, then only by convoy (each
group by location), and last, for a fleet at sea, its convoys (by army, then destination).

How it is fast: what does not depend on the position is made once per map, on first use,
and kept, order values included (they are immutable, so every call lists the same
objects). Each unit type at each location (a *slot*) has a code, and a list of
*candidates*: every support it could ever give, in the listing's order, each with the code
of the unit it supports. A call writes the codes on the board into a 256-byte table, so
that ``bytes.translate`` gives each unit the mask of its candidates that are on the board
and ``itertools.compress`` picks them, both in C. Orders that need a convoy have a place
among the candidates (a *marker*, with a code of its own, set in the table only when the
phase has such orders there) and are put in by Python code. What an army could do by
convoy through one connected group of fleets at sea is kept per map too, for the most
recent groups (they come back from phase to phase).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import lru_cache
from itertools import compress
from operator import attrgetter, itemgetter
from typing import final

from realpolitik.adjudicator import builds_due
from realpolitik.adjudicator.adjustments import net_upkeep
from realpolitik.adjudicator.convoy import minimal_routes, seas_of
from realpolitik.adjudicator.legality import support_reach
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
from realpolitik.phase import Phase, PhaseKind
from realpolitik.position import Position
from realpolitik.rules import Adjustments, MissingNationality, Rules, SupportReach, Waiving
from realpolitik.vocab import ARMY, FLEET, Location, Power, Province, Unit, UnitType, province_of

__all__ = ["WAIVE", "builds_due", "legal_orders", "unit_orders"]

WAIVE = "WAIVE"
"""The key of the waive order in an adjustment phase."""

LegalOrders = dict[Power, dict[str, list[Order]]]

_by_location = attrgetter("location")
# bound once (reading ``PhaseKind.MOVEMENT`` runs Enum's __getattr__ hook): 12% of retreat listing
_MOVEMENT, _RETREATS = PhaseKind.MOVEMENT, PhaseKind.RETREATS
_CAN_MOVE = SupportReach.CAN_MOVE
_by_unit_location = attrgetter("unit.location")
_first = itemgetter(0)


_CARRIAGES = 4096
"""How many (army's province, group of fleets at sea) a map keeps what a convoy could do of."""


def legal_orders(
    game_map: GameMap, position: Position, phase: Phase, rules: Rules, power: Power | None = None
) -> LegalOrders:
    """Every legal order of ``power`` (or of every power with something to order), by key.

    With ``power`` given, the result has that one entry (empty if it has nothing to order).
    Powers and keys come in sorted order; each key's list starts with the default (the
    hold of a unit in a movement phase, the disband of a dislodged unit)."""
    kind = phase.kind
    if kind is _MOVEMENT:
        out = _movement(game_map, position, rules, power)
    elif kind is _RETREATS:
        out = _retreats(game_map, position, power)
    else:
        out = _adjustments(game_map, position, rules, power)
    if power is not None:
        return {power: out.get(power, {})}
    return out


def unit_orders(
    game_map: GameMap, position: Position, phase: Phase, rules: Rules, location: Location
) -> list[Order]:
    """The legal orders of the unit at ``location`` (its province is enough), or of the
    dislodged unit there in a retreat phase; in an adjustment phase, the builds in that
    province or the removal of the unit there. Empty if there is none."""
    prov = province_of(location)
    if phase.kind is _MOVEMENT:
        unit = position.units.get(prov)
        if unit is None:
            return []
        tables = _tables(game_map, rules.support_reach)
        slot = tables.slot(unit.type, unit.location)
        out: LegalOrders = {unit.power: {}}
        _Movement(tables, position, rules).fill(out, [unit], [slot])
        return out[unit.power][unit.location]
    if phase.kind is _RETREATS:
        d = position.dislodged.get(prov)
        return (
            []
            if d is None
            else _retreats(game_map, position, d.unit.power)[d.unit.power][d.unit.location]
        )
    for keyed in _adjustments(game_map, position, rules, None).values():
        for key, orders in keyed.items():
            if key != WAIVE and province_of(key) == prov:
                return orders
    return []


# --- per map: the position-independent part, computed lazily and kept ----------------------
_STRAY = 0
"""The code of a slot at a location the map does not have (no unit can be supported there)."""

_FIRST_CODE = 3
"""The first code of a slot on the map (1 and 2, the bytes of a mask, are left unused: see
:meth:`_Movement.__init__`)."""

_LISTED, _MARKED = 1, 2
"""A candidate's byte in a mask: listed as is, or a marker to expand (else 0)."""


_Support = Callable[["_Slot"], "SupportHold | SupportMove"]
"""A supports table's lookup: one unit's support of a slot into one province."""

_ONES = bytes([1]) * 256
_MARKER: Order = Waive()
"""What stands in a slot's candidates at a marker's place (never listed: a marker picked
is always replaced by its orders)."""
_TWO = bytes([_MARKED])


@final
class _Mark:
    """What stands at a marker's place in a slot's ``marked`` candidates: :data:`_VIA` (the
    moves by convoy), :data:`_CONVOYS` (the convoys), or the supports of the moves by convoy
    into the province ``into``, made by ``support`` (given the supported army's slot)."""

    __slots__ = ("into", "support")

    def __init__(self, into: Province = "", support: _Support | None = None) -> None:
        self.into = into
        self.support = support


_VIA, _CONVOYS = _Mark(), _Mark()
_MASK_BYTES = bytes([byte if byte in (_LISTED, _MARKED) else 0 for byte in range(256)])


class _Slot:
    """A unit type at a location and what does not depend on the position: its reference,
    ``code`` (its byte in the masks; see :data:`_STRAY`), ``base`` (its hold, then its moves
    by destination), ``enters`` (the provinces it could move into), ``reach`` (the provinces
    it could support into, in order: :func:`~realpolitik.adjudicator.legality.support_reach`,
    ``enters`` in every edition but conquista) with one
    :class:`_SupportsInto` table each (``supports``), ``seas`` (for an army on a coast, the
    seas touching it), ``at_sea`` (a fleet in a sea), the codes of its markers (``via_code``
    for an army on a coast, ``convoys_code`` for a fleet at sea; 0 for none), and the orders
    made before (``vias``: moves by convoy by destination; ``convoys``: by army and
    destination; ``retreats``: by destination).

    Once planned (:meth:`plan`, for a unit in a movement phase): ``cands``, what it could
    order after ``base`` but for what needs a convoy, in the listing's order: for each
    province of ``reach``, the support of each slot that could stand there (a hold), then
    of each that could move there (by location), with a marker (:data:`_MARKER`) where
    moves by convoy, supports of those and convoys go; ``codes``, one byte per candidate:
    the code of the supported slot, or of the marker (``code_list``: the same, as
    integers); ``starts``: where each province's candidates start. The marker of the moves
    by convoy (``via_code``) comes first, that of the convoys (``convoys_code``) last, and
    one for the supports of the moves by convoy into a province ends that province's
    candidates: ``into_marks``, for each of those, its index in ``cands``, the province and
    the supports table. ``marked``: ``cands`` with each marker a :class:`_Mark` that says
    which orders go in its place (for a unit whose mask picks a marker)."""

    __slots__ = (
        "at_sea",
        "base",
        "build",
        "cands",
        "code",
        "code_list",
        "codes",
        "convoys",
        "convoys_code",
        "disband",
        "enters",
        "hold",
        "into_marks",
        "marked",
        "province",
        "reach",
        "ref",
        "retreats",
        "seas",
        "starts",
        "supports",
        "via_code",
        "vias",
    )

    def __init__(self, tables: _Tables, ref: UnitRef, code: int) -> None:
        game_map = tables.game_map
        self.ref = ref
        self.code = code
        self.province = province_of(ref.location)
        self.hold = Hold(ref)
        if ref.type is ARMY:
            dests = sorted(game_map.army_adjacency.get(ref.location, ()))
            enters = dests
            self.seas = tables.seas_at.get(self.province, frozenset())
            self.at_sea = False
        else:
            dests = sorted(game_map.fleet_adjacency.get(ref.location, ()))
            enters = sorted(game_map.fleet_reach.get(ref.location, ()))
            self.seas = frozenset()
            self.at_sea = self.province in tables.seas
        self.base: tuple[Order, ...] = (self.hold, *(Move(ref, dest) for dest in dests))
        self.enters = tuple(p for p in enters if p != self.province)
        if tables.support_reach is SupportReach.CAN_MOVE:
            self.reach = self.enters
        else:
            utype = ARMY if ref.type is ARMY else FLEET
            reach = support_reach(game_map, tables.support_reach, utype, ref.location)
            self.reach = tuple(sorted(p for p in reach if p != self.province))
        self.supports = tuple(_SupportsInto(self, p) for p in self.reach)
        self.via_code = self.convoys_code = 0
        self.vias: dict[Province, Move] = {}
        self.convoys: dict[tuple[_Slot, Province], Convoy] = {}
        self.disband = Disband(ref)
        self.build = Build(ref)
        self.retreats = _Retreats(ref)
        self.cands: tuple[Order, ...] = ()
        self.codes = b""
        self.code_list: tuple[int, ...] = ()
        self.starts: tuple[int, ...] = ()
        self.into_marks: tuple[tuple[int, Province, _SupportsInto], ...] = ()
        self.marked: tuple[Order | _Mark, ...] = ()

    def plan(self, tables: _Tables) -> None:
        """Work out ``cands``, ``codes``, ``code_list``, ``starts``, ``into_marks`` and
        ``marked``."""
        cands: list[Order] = []
        codes: list[int] = []
        starts: list[int] = []
        into: list[tuple[int, Province, _SupportsInto]] = []
        marked: list[Order | _Mark] = []
        if self.via_code:
            cands.append(_MARKER)
            codes.append(self.via_code)
            marked.append(_VIA)
        for prov, table in zip(self.reach, self.supports, strict=True):
            starts.append(len(cands))
            for target in (*tables.occupants.get(prov, ()), *tables.movers.get(prov, ())):
                if target is not self:
                    order = table[target]
                    cands.append(order)
                    codes.append(target.code)
                    marked.append(order)
            if prov in tables.into_codes:
                into.append((len(cands), prov, table))
                cands.append(_MARKER)
                codes.append(tables.into_codes[prov])
                marked.append(_Mark(prov, table.__getitem__))
        if self.convoys_code:
            cands.append(_MARKER)
            codes.append(self.convoys_code)
            marked.append(_CONVOYS)
        self.cands = tuple(cands)
        self.code_list = tuple(codes)
        self.codes = bytes(codes) if tables.narrow else b""
        self.starts = tuple(starts)
        self.into_marks = tuple(into)
        self.marked = tuple(marked)

    def via(self, dest: Province) -> Move:
        order = self.vias.get(dest)
        if order is None:
            order = self.vias[dest] = Move(self.ref, dest, via_convoy=True)
        return order

    def convoy(self, army: _Slot, dest: Province) -> Convoy:
        order = self.convoys.get((army, dest))
        if order is None:
            order = self.convoys[army, dest] = Convoy(self.ref, army.ref, dest)
        return order


class _SupportsInto(dict["_Slot", "SupportHold | SupportMove"]):
    """One unit's supports into one province, by supported unit (the unit there: a hold;
    another: its move), each made on first use."""

    __slots__ = ("into", "supporter")

    def __init__(self, supporter: _Slot, into: Province) -> None:
        super().__init__()
        self.supporter = supporter
        self.into = into

    def __missing__(self, target: _Slot) -> SupportHold | SupportMove:
        ref = self.supporter.ref
        if target.province == self.into:
            order: SupportHold | SupportMove = SupportHold(ref, target.ref)
        else:
            order = SupportMove(ref, target.ref, self.into)
        self[target] = order
        return order


class _Retreats(dict[Location, Retreat]):
    """One dislodged unit's retreats, by destination, each made on first use."""

    __slots__ = ("ref",)

    def __init__(self, ref: UnitRef) -> None:
        super().__init__()
        self.ref = ref

    def __missing__(self, dest: Location) -> Retreat:
        order = self[dest] = Retreat(self.ref, dest)
        return order


class _Tables:
    """The map's lookups for legal orders.

    The sea neighbours of each sea, the coasts each sea touches and the seas each coast
    touches; one :class:`_Slot` per unit type and location, planned (``slot_at``; and by
    unit type then location, ``planned``); ``occupants[p]``: the
    slots in province ``p``; ``movers[p]``: the slots that could move to ``p`` (by
    location); the codes: of the slots (from :data:`_FIRST_CODE`, in location order;
    ``by_code``), of the markers of the moves by convoy into each coast (``into_codes``),
    then of the slots' markers; ``narrow`` if they all fit in a byte (else masks are made in
    Python); each power's build menu (``menus``); and the most recent :class:`_Carriage`
    tables (``carriages``, by army's province and group of connected fleets at sea, at most
    ``_CARRIAGES``, the oldest dropped first).

    All but the carriages is made here, whole, before the tables can be shared between
    threads; a carriage is made whole, then published under a lock."""

    def __init__(self, game_map: GameMap, reach: SupportReach) -> None:
        self.game_map = game_map
        self.support_reach = reach
        provinces = game_map.provinces
        self.coastal = frozenset(p for p, i in provinces.items() if i.type is ProvinceType.COASTAL)
        seas = frozenset(p for p, i in provinces.items() if i.type is ProvinceType.SEA)
        self.seas = seas
        graph = seas_of(game_map)
        self.sea_next, self.sea_coasts, self.seas_at = graph.next, graph.coasts, graph.at
        self.slot_at: dict[tuple[UnitType, Location], _Slot] = {}
        places = [(ARMY, loc) for loc in game_map.army_adjacency]
        places += [(FLEET, loc) for loc in game_map.fleet_adjacency]
        places.sort(key=lambda place: place[1])
        self.by_code: dict[int, _Slot] = {}
        self.occupants: dict[Province, list[_Slot]] = {}
        self.movers: dict[Province, list[_Slot]] = {}
        for code, (utype, loc) in enumerate(places, _FIRST_CODE):
            slot = self.slot_at[utype, loc] = self.by_code[code] = _Slot(
                self, UnitRef(utype, loc), code
            )
            self.occupants.setdefault(slot.province, []).append(slot)
            for prov in slot.enters:
                self.movers.setdefault(prov, []).append(slot)
        first = _FIRST_CODE + len(places)
        self.into_codes: dict[Province, int] = {
            prov: code for code, prov in enumerate(sorted(self.coastal), first)
        }
        code = _FIRST_CODE + len(places) + len(self.into_codes)
        for slot in self.by_code.values():
            if slot.seas:
                slot.via_code, code = code, code + 1
            elif slot.at_sea:
                slot.convoys_code, code = code, code + 1
        self.code_count = code
        self.narrow = code <= 256
        # everything is made here, before the tables can be shared between threads
        for slot in self.by_code.values():
            slot.plan(self)
        self.planned: dict[UnitType, dict[Location, _Slot]] = {ARMY: {}, FLEET: {}}
        for (utype, loc), slot in self.slot_at.items():
            self.planned[utype][loc] = slot
        self.carriages: dict[tuple[Province, frozenset[Province]], _Carriage] = {}
        self._carriages_lock = threading.Lock()
        self.menus = {power: self._menu(power) for power in game_map.powers}

    def slot(self, utype: UnitType, location: Location) -> _Slot:
        """The slot of a unit type at a location; at one the map does not have, a stray
        (code :data:`_STRAY`), made for the call and not kept."""
        found = self.slot_at.get((utype, location))
        if found is None:
            found = _Slot(self, UnitRef(utype, location), _STRAY)
            found.plan(self)
        return found

    def _builds(self, prov: Province) -> tuple[Order, ...]:
        """The builds in a province: an army, and a fleet on each coast of a coastal one."""
        info = self.game_map.provinces[prov]
        locs = [f"{prov}/{c}" for c in info.coasts] if info.coasts else [prov]
        fleets = locs if info.type is ProvinceType.COASTAL else []
        return (self.slot(ARMY, prov).build, *(self.slot(FLEET, f).build for f in fleets))

    def _menu(self, power: Power) -> tuple[tuple[str, tuple[Order, ...]], ...]:
        """A power's keys in an adjustment phase where it may build, in key order: each home
        centre with its builds, and ``WAIVE`` with the waive."""
        keys = [*self.game_map.homes.get(power, ()), WAIVE]
        return tuple(
            (key, (Waive(),) if key == WAIVE else self._builds(key)) for key in sorted(keys)
        )

    def carriage(self, src: Province, seas: frozenset[Province]) -> _Carriage:
        """What an army in ``src`` could do by convoy through the fleets in ``seas``: made
        whole, then kept (the most recent ``_CARRIAGES``, under a lock)."""
        key = (src, seas)
        found = self.carriages.get(key)
        if found is None:
            found = _Carriage(self, src, seas)
            with self._carriages_lock:
                carriages = self.carriages
                if len(carriages) >= _CARRIAGES:
                    del carriages[next(iter(carriages))]
                carriages[key] = found
        return found


@lru_cache(maxsize=16)  # every shipped board (10), and a few made otherwise
def _tables(game_map: GameMap, reach: SupportReach) -> _Tables:
    """The map's tables, with supports into the provinces ``reach`` says."""
    return _Tables(game_map, reach)


class _Carriage:
    """What an army on a coast could do by convoy through one connected group of fleets at
    sea (``seas``: every fleet at sea a route from the army could use):

    * ``vias``: its moves by convoy, by destination;
    * ``into``: the destinations it could reach only by convoy (not next to it by land);
    * ``convoys``: for each fleet (by sea), its convoys of the army on a minimal route
      (DATC 6.G.19), by destination;
    * ``needs``: for each fleet (by sea), the destinations of ``into`` no route without it
      reaches (that fleet cannot support those moves: it would convoy what it supports);
      ``lost``, the same as (sea, destination) pairs;
    * ``marks``: the codes of the markers these orders go in at (the army's moves by
      convoy, the supports of moves by convoy into each of ``into``, each fleet's convoys).
    """

    __slots__ = ("convoys", "into", "lost", "marks", "needs", "vias")

    def __init__(self, tables: _Tables, src: Province, seas: frozenset[Province]) -> None:
        slot_at = tables.slot_at
        army = slot_at[ARMY, src]
        routes = minimal_routes(tables.game_map, src, seas)
        reach = sorted(routes)  # every province a route reaches, a minimal one reaches too
        made = army.vias
        self.vias = tuple([made.get(dest) or army.via(dest) for dest in reach])
        near = tables.game_map.army_adjacency[src]
        self.into = tuple([dest for dest in reach if dest not in near])
        fleets = {sea: slot_at[FLEET, sea] for sea in seas}
        convoys: dict[Province, list[Convoy]] = {}
        for dest in reach:
            for sea in routes[dest][0]:
                convoys.setdefault(sea, []).append(fleets[sea].convoy(army, dest))
        self.convoys = {sea: tuple(orders) for sea, orders in convoys.items()}
        # a route without a fleet, if any, holds a minimal one without it: those no route
        # without it reaches are those whose every minimal route it is on
        needs: dict[Province, list[Province]] = {}
        for dest in self.into:
            for sea in routes[dest][1]:
                needs.setdefault(sea, []).append(dest)
        self.needs = {sea: tuple(needs[sea]) for sea in sorted(needs)}
        self.lost = frozenset([(sea, dest) for sea, dests in needs.items() for dest in dests])
        marks = [army.via_code] if self.vias else []
        marks += [tables.into_codes[dest] for dest in self.into]
        marks += [tables.slot_at[FLEET, sea].convoys_code for sea in self.convoys]
        self.marks = bytes(marks)


# --- movement ---------------------------------------------------------------------------------
class _Movement:
    """One call's view of a movement phase.

    ``units`` (sorted by location) and their planned ``slots``; ``present``, the table for
    ``bytes.translate`` that makes a slot's mask: ``present[code]`` is :data:`_LISTED` for
    a unit on the board, :data:`_MARKED` for a marker with orders to put in, else 0. When
    an army on a coast touches a fleet at sea: ``carriages``, each such army's
    :class:`_Carriage`; ``vias[p]``, the moves by convoy of the army in ``p``; ``into[p]``,
    the armies that could reach ``p`` only by convoy (by location); ``needed``, the seas
    of the fleets that some of those moves need (every route goes through them);
    ``convoys[s]``, the convoys the fleet in sea ``s`` could be part of. ``strays``: the
    provinces of units at a location the map does not have (only a hold support can be
    given them)."""

    def __init__(self, tables: _Tables, position: Position, rules: Rules) -> None:
        self.tables = tables
        self.board = position.units
        self.units = units = sorted(position.units.values(), key=_by_location)
        planned = tables.planned
        try:
            slots = [planned[unit.type][unit.location] for unit in units]
        except KeyError:  # a unit at a location the map does not have
            slots = [tables.slot(unit.type, unit.location) for unit in units]
        self.slots = slots
        # the fleets at sea and the armies on a coast
        at_sea = [slot for slot in slots if slot.at_sea]
        coastal = [slot for slot in slots if slot.seas]
        if tables.narrow:
            codes = bytes([slot.code for slot in slots])  # the codes on the board
            stray = _STRAY in codes
        else:
            stray = not all(slot.code for slot in slots)
        self.strays = frozenset(slot.province for slot in slots if not slot.code) if stray else ()
        self.carriages: dict[_Slot, _Carriage] = {}
        self.vias: dict[Province, tuple[Move, ...]] = {}
        self.into: dict[Province, list[_Slot]] = {}
        self.needed: set[Province] = set()
        self.convoys: dict[Province, list[Convoy]] = {}
        # the codes of the markers with orders to put in
        marks = self._by_convoy(coastal, at_sea) if at_sea and coastal else b""
        if tables.narrow:
            # the codes on the board map to 1, the markers' to 2, the others to themselves
            # then to 0 (no code is 1 or 2)
            table = bytes.maketrans(codes + marks, _ONES[: len(codes)] + _TWO * len(marks))
            self.present = table.translate(_MASK_BYTES)
        else:
            present = bytearray(tables.code_count)
            for slot in slots:
                present[slot.code] = _LISTED
            for code in marks:
                present[code] = _MARKED
            self.present = bytes(present)
        self.marked = bool(self.carriages)
        self.nationality = rules.missing_nationality is MissingNationality.ILLEGAL

    def _by_convoy(self, coastal: list[_Slot], at_sea: list[_Slot]) -> bytes:
        """Fill in ``carriages``, ``vias``, ``into``, ``needed`` and ``convoys`` for the
        armies a convoy could carry (on a coast that a fleet at sea touches) of those in
        ``coastal``, given the fleets ``at_sea``; return the codes of their markers (some
        more than once)."""
        tables, into, convoys = self.tables, self.into, self.convoys
        cache = tables.carriages
        groups = _fleet_groups(tables, at_sea)
        marks = bytearray()
        for army in coastal:
            # the fleets at sea connected to those next to the army
            seas = None
            for sea in army.seas:
                group = groups.get(sea)
                if group is not None and group is not seas:
                    seas = group if seas is None else seas | group
            if seas is None:
                continue
            carriage = cache.get((army.province, seas)) or tables.carriage(army.province, seas)
            self.carriages[army] = carriage
            marks += carriage.marks
            if carriage.vias:
                self.vias[army.province] = carriage.vias
            for dest in carriage.into:
                into.setdefault(dest, []).append(army)
            for sea, orders in carriage.convoys.items():
                convoys.setdefault(sea, []).extend(orders)
            if carriage.needs:
                self.needed.update(carriage.needs)
        return bytes(marks)

    def fill(self, out: LegalOrders, units: list[Unit], slots: list[_Slot]) -> None:
        """Put the legal orders of each of ``units`` (with its planned slot in ``slots``) in
        ``out[power][location]``: its slot's ``base`` and the candidates its mask picks,
        with the markers' orders put in. A unit whose mask picks a marker goes through what
        its mask picks of its ``marked`` candidates, one by one, each marker replaced by its
        orders; any other, in C."""
        present, strays, narrow, marked = self.present, self.strays, self.tables.narrow, self.marked
        into, needed, carriages = self.into, self.needed, self.carriages
        for unit, slot in zip(units, slots, strict=True):
            if narrow:
                mask = slot.codes.translate(present)
            else:
                mask = bytes(map(present.__getitem__, slot.code_list))
            if strays and not strays.isdisjoint(slot.reach):
                orders = self._with_holds(slot, mask)
            elif marked and _MARKED in mask:
                orders = [*slot.base]
                sea = slot.province
                for cand in compress(slot.marked, mask):
                    if type(cand) is not _Mark:
                        orders.append(cand)
                    elif cand is _VIA:
                        orders += self.vias[sea]
                    elif cand is _CONVOYS:
                        orders += self.convoys[sea]
                    else:
                        armies = into[cand.into]
                        if sea in needed:
                            # not the moves that every route sends through this fleet
                            pair = (sea, cand.into)
                            armies = [a for a in armies if pair not in carriages[a].lost]
                        support = cand.support
                        assert support is not None  # only _VIA and _CONVOYS have none
                        for army in armies:
                            orders.append(support(army))
            else:
                orders = [*slot.base, *compress(slot.cands, mask)]
            out[unit.power][unit.location] = orders
        if self.nationality:
            for unit in units:
                keyed = out[unit.power]
                keyed[unit.location] = [
                    self._with_nationality(order, unit.power) for order in keyed[unit.location]
                ]

    def _with_holds(self, slot: _Slot, mask: bytes) -> list[Order]:
        """The orders of a unit that could support a stray: the list its mask picks of its
        ``cands``, with the markers picked replaced by their orders and the hold support of
        each stray in ``slot.reach`` put in at the start of its province's candidates; from
        the last to the first, so that the places still to fill stay as the mask gives."""
        base = len(slot.base)
        orders = [*slot.base, *compress(slot.cands, mask)]
        if slot.convoys_code and mask[-1] == _MARKED:
            orders[-1:] = self.convoys[slot.province]
        # (index in the mask, how many orders it replaces, supports table, supported slots)
        edits: list[tuple[int, int, _SupportsInto, list[_Slot]]] = []
        for k, prov in enumerate(slot.reach):
            if prov in self.strays:
                stray = self.board[prov]
                target = self.tables.slot(stray.type, stray.location)
                edits.append((slot.starts[k], 0, slot.supports[k], [target]))
        for index, prov, table in slot.into_marks:
            if mask[index] == _MARKED:
                edits.append((index, 1, table, self._supported(slot, prov)))
        edits.sort(key=_first, reverse=True)
        for index, width, table, targets in edits:
            at = base + index - mask.count(0, 0, index)
            orders[at : at + width] = map(table.__getitem__, targets)
        if slot.via_code and mask[0] == _MARKED:
            orders[base : base + 1] = self.vias[slot.province]
        return orders

    def _supported(self, slot: _Slot, prov: Province) -> list[_Slot]:
        """The armies whose moves by convoy into ``prov`` the unit of ``slot`` may support:
        for a fleet at sea, not the moves that every route sends through it."""
        armies = self.into[prov]
        sea = slot.province
        if sea in self.needed:
            carriages, pair = self.carriages, (sea, prov)
            armies = [a for a in armies if pair not in carriages[a].lost]
        return armies

    def _with_nationality(self, order: Order, power: Power) -> Order:
        """DATC 4.C.5 a: a support or convoy of another power's unit must name its power."""
        if isinstance(order, (SupportHold, SupportMove)):
            other = self.board[order.supported.province].power
            if other != power:
                ref = UnitRef(order.supported.type, order.supported.location, other)
                if isinstance(order, SupportHold):
                    return SupportHold(order.unit, ref)
                return SupportMove(order.unit, ref, order.destination)
        elif isinstance(order, Convoy):
            other = self.board[order.convoyed.province].power
            if other != power:
                ref = UnitRef(ARMY, order.convoyed.location, other)
                return Convoy(order.unit, ref, order.destination)
        return order


def _movement(
    game_map: GameMap, position: Position, rules: Rules, power: Power | None
) -> LegalOrders:
    call = _Movement(_tables(game_map, rules.support_reach), position, rules)
    units, slots = call.units, call.slots
    if power is not None:
        picked = [k for k, unit in enumerate(units) if unit.power == power]
        units, slots = [units[k] for k in picked], [slots[k] for k in picked]
    out: LegalOrders = {who: {} for who in sorted({unit.power for unit in units})}
    call.fill(out, units, slots)
    return out


def _fleet_groups(tables: _Tables, at_sea: list[_Slot]) -> dict[Province, frozenset[Province]]:
    """Each fleet's sea to its group: the seas of the fleets at sea connected to it through
    fleets at sea."""
    fleet_seas = frozenset([slot.province for slot in at_sea])
    sea_next = tables.sea_next
    groups: dict[Province, frozenset[Province]] = {}
    for sea in fleet_seas:
        if sea not in groups:
            seen = {sea}
            frontier = [sea]
            while frontier:
                for nxt in sea_next[frontier.pop()] & fleet_seas:
                    if nxt not in seen:
                        seen.add(nxt)
                        frontier.append(nxt)
            group = frozenset(seen)
            for member in group:
                groups[member] = group
    return groups


# --- retreats and adjustments ---------------------------------------------------------------
def _retreats(game_map: GameMap, position: Position, power: Power | None) -> LegalOrders:
    dislodged = position.dislodged
    if not dislodged:
        return {}
    tables = _tables(game_map, _CAN_MOVE)  # a retreat needs no supports
    out: LegalOrders = {}
    found = dislodged.values()
    for d in sorted(found, key=_by_unit_location) if len(found) > 1 else found:
        unit = d.unit
        who = unit.power
        if power is not None and who != power:
            continue
        slot = tables.slot(unit.type, unit.location)
        keyed = out.get(who)
        if keyed is None:
            keyed = out[who] = {}
        keyed[unit.location] = [slot.disband, *map(slot.retreats.__getitem__, d.retreats)]
    return dict(sorted(out.items())) if len(out) > 1 else out


def _adjustments(
    game_map: GameMap, position: Position, rules: Rules, power: Power | None
) -> LegalOrders:
    tables = _tables(game_map, rules.support_reach)
    centers, units = position.centers, position.units
    waive = rules.waive is Waiving.ALLOWED
    out: LegalOrders = {}
    fielded: dict[Power, list[Unit]] = {}  # each power's units
    for unit in units.values():
        mine = fielded.get(unit.power)
        if mine is None:
            fielded[unit.power] = [unit]
        else:
            mine.append(unit)
    if rules.adjustments is Adjustments.UPKEEP:
        # owned centres minus units (as net_upkeep, but only for powers with either)
        dues = {who: -len(mine) for who, mine in fielded.items()}
        for owner in centers.values():
            dues[owner] = dues.get(owner, 0) + 1
    else:
        dues = net_upkeep(game_map, position, rules)
    for who in [power] if power is not None else sorted(dues):
        due = dues.get(who, 0)
        if due > 0:
            keyed: dict[str, list[Order]] = {}
            for key, orders in tables.menus.get(who, ()):
                if key == WAIVE:
                    if waive:
                        keyed[key] = list(orders)
                elif centers.get(key) == who and key not in units:
                    keyed[key] = list(orders)
        elif due < 0:
            keyed = {
                u.location: [tables.slot(u.type, u.location).disband]
                for u in sorted(fielded[who], key=_by_location)
            }
        else:
            continue
        if keyed:
            out[who] = keyed
    return out
