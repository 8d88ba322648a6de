"""Movement-phase legal orders by byte masks: the same lists as
:func:`realpolitik.legal.listing.movement_orders`, in about three quarters of its
instructions (the tests compare the two over random games).

Kept for speed only (issue 16's rule: a trick stays if it pays at least 3% on the
benchmark; this one pays about a quarter of a movement listing). What does not depend on
the position is made once per map, whole, before it is shared. Each unit type at each
location (a *slot*) has a byte code, and a list of *candidates*: every support it could
ever give, in the listing's order, each with the code of the unit it supports. A call
writes the codes on the board into a 256-byte table, so that ``bytes.translate`` gives
each unit the mask of its candidates that are on the board and ``itertools.compress``
picks them, both in C. Orders that need a convoy have a place among the candidates (a
*marker*, with a code of its own, set in the table only when the phase has such orders
there) and are put in by Python code. A map whose codes do not fit in a byte, a unit at a
location the map does not have, and the rule that supports name other powers' units are
left to the plain listing.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import lru_cache
from itertools import compress
from operator import attrgetter
from typing import final

from realpolitik.adjudicator.convoy import minimal_routes, seas_of
from realpolitik.adjudicator.legality import support_reach
from realpolitik.legal.listing import LegalOrders, fleet_groups
from realpolitik.maps.model import GameMap, ProvinceType
from realpolitik.orders import Convoy, Hold, Move, Order, SupportHold, SupportMove, UnitRef, Waive
from realpolitik.position import Position
from realpolitik.rules import MissingNationality, Rules, SupportReach
from realpolitik.vocab import ARMY, FLEET, Location, Power, Province, Unit, UnitType, province_of

_by_location = attrgetter("location")

_CARRIAGES = 4096
"""How many (army's province, group of fleets at sea) a map keeps what a convoy could do of."""


# --- per map: the position-independent part, computed lazily and kept ----------------------
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
    ``code`` (its byte in the masks), ``base`` (its hold, then its moves
    by destination), ``enters`` (the provinces it could move into), ``reach`` (the provinces
    it could support into, in order: :func:`~realpolitik.adjudicator.legality.support_reach`,
    ``enters`` in every edition but conquista) with one
    :class:`_SupportsInto` table each (``supports``), ``seas`` (for an army on a coast, the
    seas touching it), ``at_sea`` (a fleet in a sea), the codes of its markers (``via_code``
    for an army on a coast, ``convoys_code`` for a fleet at sea; 0 for none), and the orders
    made before (``vias``: moves by convoy by destination; ``convoys``: by army and
    destination).

    Once planned (:meth:`plan`, for a unit in a movement phase): ``cands``, what it could
    order after ``base`` but for what needs a convoy, in the listing's order: for each
    province of ``reach``, the support of each slot that could stand there (a hold), then
    of each that could move there (by location), with a marker (:data:`_MARKER`) where
    moves by convoy, supports of those and convoys go; ``codes``, one byte per candidate:
    the code of the supported slot, or of the marker. The marker of the moves
    by convoy (``via_code``) comes first, that of the convoys (``convoys_code``) last, and
    one for the supports of the moves by convoy into a province ends that province's
    candidates. ``marked``: ``cands`` with each marker a :class:`_Mark` that says
    which orders go in its place (for a unit whose mask picks a marker)."""

    __slots__ = (
        "at_sea",
        "base",
        "cands",
        "code",
        "codes",
        "convoys",
        "convoys_code",
        "enters",
        "marked",
        "province",
        "reach",
        "ref",
        "seas",
        "supports",
        "via_code",
        "vias",
    )

    def __init__(self, tables: _Tables, ref: UnitRef, code: int) -> None:
        game_map = tables.game_map
        self.ref = ref
        self.code = code
        self.province = province_of(ref.location)
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
        self.base: tuple[Order, ...] = (Hold(ref), *(Move(ref, dest) for dest in dests))
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
        self.cands: tuple[Order, ...] = ()
        self.codes = b""
        self.marked: tuple[Order | _Mark, ...] = ()

    def plan(self, tables: _Tables) -> None:
        """Work out ``cands``, ``codes`` and ``marked``."""
        cands: list[Order] = []
        codes: list[int] = []
        marked: list[Order | _Mark] = []
        if self.via_code:
            cands.append(_MARKER)
            codes.append(self.via_code)
            marked.append(_VIA)
        for prov, table in zip(self.reach, self.supports, strict=True):
            for target in (*tables.occupants.get(prov, ()), *tables.movers.get(prov, ())):
                if target is not self:
                    order = table[target]
                    cands.append(order)
                    codes.append(target.code)
                    marked.append(order)
            if prov in tables.into_codes:
                cands.append(_MARKER)
                codes.append(tables.into_codes[prov])
                marked.append(_Mark(prov, table.__getitem__))
        if self.convoys_code:
            cands.append(_MARKER)
            codes.append(self.convoys_code)
            marked.append(_CONVOYS)
        self.cands = tuple(cands)
        self.codes = bytes(codes)
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


class _Tables:
    """The map's lookups for legal orders.

    The sea neighbours of each sea and the seas each coast touches; one :class:`_Slot` per
    unit type and location, planned (``slot_at``; and by unit type then location,
    ``planned``); ``occupants[p]``: the slots in province ``p``; ``movers[p]``: the slots
    that could move to ``p`` (by location); the codes: of the slots (from
    :data:`_FIRST_CODE`, in location order; ``by_code``), of the markers of the moves by
    convoy into each coast (``into_codes``), then of the slots' markers; ``narrow`` if they
    all fit in a byte (else the slots are not planned: :func:`movement_orders` leaves the
    map to the plain listing); and the most recent :class:`_Carriage` tables
    (``carriages``, by army's province and group of connected fleets at sea, at most
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
        self.sea_next, self.seas_at = graph.next, graph.at
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
        self.narrow = code <= 256
        # everything is made here, before the tables can be shared between threads
        for slot in self.by_code.values() if self.narrow else ():
            slot.plan(self)
        self.planned: dict[UnitType, dict[Location, _Slot]] = {ARMY: {}, FLEET: {}}
        for (utype, loc), slot in self.slot_at.items():
            self.planned[utype][loc] = slot
        self.carriages: dict[tuple[Province, frozenset[Province]], _Carriage] = {}
        self._carriages_lock = threading.Lock()

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
    ``convoys[s]``, the convoys the fleet in sea ``s`` could be part of."""

    def __init__(self, tables: _Tables, units: list[Unit], slots: list[_Slot]) -> None:
        self.tables = tables
        self.units = units
        self.slots = slots
        # the fleets at sea and the armies on a coast
        at_sea = [slot for slot in slots if slot.at_sea]
        coastal = [slot for slot in slots if slot.seas]
        self.carriages: dict[_Slot, _Carriage] = {}
        self.vias: dict[Province, tuple[Move, ...]] = {}
        self.into: dict[Province, list[_Slot]] = {}
        self.needed: set[Province] = set()
        self.convoys: dict[Province, list[Convoy]] = {}
        # the codes of the markers with orders to put in
        marks = self._by_convoy(coastal, at_sea) if at_sea and coastal else b""
        # the codes on the board map to 1, the markers' to 2, the others to themselves
        # then to 0 (no code is 1 or 2)
        codes = bytes([slot.code for slot in slots])
        table = bytes.maketrans(codes + marks, _ONES[: len(codes)] + _TWO * len(marks))
        self.present = table.translate(_MASK_BYTES)
        self.marked = bool(self.carriages)

    def _by_convoy(self, coastal: list[_Slot], at_sea: list[_Slot]) -> bytes:
        """Fill in ``carriages``, ``vias``, ``into``, ``needed`` and ``convoys`` for the
        armies a convoy could carry (on a coast that a fleet at sea touches) of those in
        ``coastal``, given the fleets ``at_sea``; return the codes of their markers (some
        more than once)."""
        tables, into, convoys = self.tables, self.into, self.convoys
        cache = tables.carriages
        groups = fleet_groups(tables.sea_next, [slot.province for slot in at_sea])
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
        present, marked = self.present, self.marked
        into, needed, carriages = self.into, self.needed, self.carriages
        for unit, slot in zip(units, slots, strict=True):
            mask = slot.codes.translate(present)
            if marked and _MARKED in mask:
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


def movement_orders(
    game_map: GameMap, position: Position, rules: Rules, power: Power | None
) -> LegalOrders | None:
    """The legal orders of a movement phase, as :func:`.listing.movement_orders` lists
    them; ``None`` (list them there) when the map's codes do not fit in a byte, a unit
    stands at a location the map does not have, or the rules want supports and convoys
    of other powers' units to name the power."""
    tables = _tables(game_map, rules.support_reach)
    if not tables.narrow or rules.missing_nationality is MissingNationality.ILLEGAL:
        return None
    units = sorted(position.units.values(), key=_by_location)
    planned = tables.planned
    try:
        slots = [planned[unit.type][unit.location] for unit in units]
    except KeyError:  # a unit at a location the map does not have
        return None
    call = _Movement(tables, units, slots)
    if power is not None:
        picked = [k for k, unit in enumerate(units) if unit.power == power]
        units, slots = [units[k] for k in picked], [slots[k] for k in picked]
    out: LegalOrders = {who: {} for who in sorted({unit.power for unit in units})}
    call.fill(out, units, slots)
    return out
