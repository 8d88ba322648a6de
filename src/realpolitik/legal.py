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

What does not depend on the position (a unit's moves, the provinces it could support into,
and the order values themselves, which are immutable) is made once per map, on first use;
what depends on the units (who could move where, convoy routes through the fleets at sea)
is computed once per call.
"""

from __future__ import annotations

from collections import defaultdict
from functools import lru_cache
from operator import attrgetter

from realpolitik.adjudicator import adjustment_counts
from realpolitik.adjudicator.adjustments import adjustment_dues
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
from realpolitik.rules import Rules
from realpolitik.vocab import ARMY, FLEET, Location, Power, Province, Unit, UnitType, province_of

__all__ = ["WAIVE", "adjustment_counts", "legal_orders", "unit_orders"]

WAIVE = "WAIVE"
"""The key of the waive order in an adjustment phase."""

LegalOrders = dict[Power, dict[str, list[Order]]]

_by_location = attrgetter("location")


def legal_orders(
    game_map: GameMap, position: Position, phase: Phase, rules: Rules, power: Power | None = None
) -> LegalOrders:
    """Every legal order of ``power`` (or of every power with something to order), by key.

    With ``power`` given, the result has that one entry (empty if it has nothing to order).
    Powers and keys come in sorted order; each key's list starts with the default (the
    hold of a unit in a movement phase, the disband of a dislodged unit)."""
    if phase.kind is PhaseKind.MOVEMENT:
        out = _movement(game_map, position, rules, power)
    elif phase.kind is PhaseKind.RETREATS:
        out = _retreats(game_map, position, power)
    else:
        out = _adjustments(game_map, position, rules, power)
    if power is not None:
        return {power: out.get(power, {})}
    return dict(sorted(out.items()))


def unit_orders(
    game_map: GameMap, position: Position, phase: Phase, rules: Rules, location: Location
) -> list[Order]:
    """The legal orders of the unit at ``location`` (its province is enough), or of the
    dislodged unit there in a retreat phase; in an adjustment phase, the builds in that
    province or the removal of the unit there. Empty if there is none."""
    prov = province_of(location)
    if phase.kind is PhaseKind.MOVEMENT:
        unit = position.units.get(prov)
        if unit is None:
            return []
        return _Movement(_tables(game_map), position, rules).unit_orders(unit)
    if phase.kind is PhaseKind.RETREATS:
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
class _Slot:
    """A unit type at a location: its reference, hold and moves, the provinces it could
    support into, and the orders it gave before (order values are made once per map)."""

    __slots__ = (
        "base",
        "build",
        "convoys",
        "disband",
        "hold",
        "moves",
        "province",
        "reach",
        "ref",
        "retreats",
        "supports",
        "vias",
    )

    def __init__(self, game_map: GameMap, ref: UnitRef) -> None:
        self.ref = ref
        self.province = province_of(ref.location)
        self.hold = Hold(ref)
        if ref.type is ARMY:
            dests = sorted(game_map.army_adjacency.get(ref.location, ()))
            reach = dests
        else:
            dests = sorted(game_map.fleet_adjacency.get(ref.location, ()))
            reach = sorted(game_map.fleet_reach.get(ref.location, ()))
        self.moves = tuple(Move(ref, dest) for dest in dests)
        self.base: tuple[Order, ...] = (self.hold, *self.moves)
        self.reach = tuple(p for p in reach if p != self.province)
        # supports into each province it reaches (by supported unit), via-convoy moves by
        # destination, convoys by army and destination: made on first use
        self.supports = {p: _SupportsInto(self, p) for p in self.reach}
        self.vias: dict[Province, Move] = {}
        self.convoys: dict[tuple[_Slot, Province], Convoy] = {}
        self.disband = Disband(ref)
        self.build = Build(ref)
        self.retreats: dict[Location, Retreat] = {}

    def retreat(self, dest: Location) -> Retreat:
        order = self.retreats.get(dest)
        if order is None:
            order = self.retreats[dest] = Retreat(self.ref, dest)
        return order

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


class _SupportsInto(dict["_Slot", "SupportHold | SupportMove | None"]):
    """One unit's supports into one province, by supported unit (the unit there: a hold;
    another: its move), each made on first use; ``None`` for the supporter itself, which
    cannot support itself (so ``filter(None, map(table.__getitem__, units))`` lists the
    supports of ``units`` at C speed)."""

    __slots__ = ("into", "supporter")

    def __init__(self, supporter: _Slot, into: Province) -> None:
        super().__init__()
        self.supporter = supporter
        self.into = into
        self[supporter] = None

    def __missing__(self, target: _Slot) -> SupportHold | SupportMove:
        ref = self.supporter.ref
        if target.province == self.into:
            order: SupportHold | SupportMove = SupportHold(ref, target.ref)
        else:
            order = SupportMove(ref, target.ref, self.into)
        self[target] = order
        return order


class _Tables:
    """The map's lookups for legal orders (sea neighbours, the coasts each sea touches) and
    one :class:`_Slot` per unit type and location, made on first use."""

    def __init__(self, game_map: GameMap) -> None:
        self.game_map = game_map
        provinces = game_map.provinces
        self.coastal = frozenset(p for p, i in provinces.items() if i.type is ProvinceType.COASTAL)
        seas = frozenset(p for p, i in provinces.items() if i.type is ProvinceType.SEA)
        self.seas = seas
        reach = game_map.fleet_reach
        self.sea_next = {s: reach.get(s, frozenset()) & seas for s in seas}
        self.sea_coasts = {s: tuple(sorted(reach.get(s, frozenset()) & self.coastal)) for s in seas}
        self.seas_at = {
            p: frozenset(s for s in seas if p in reach.get(s, ())) for p in self.coastal
        }
        self._armies: dict[Location, _Slot] = {}
        self._fleets: dict[Location, _Slot] = {}
        self._builds: dict[Province, tuple[Order, ...]] = {}

    def builds(self, prov: Province) -> tuple[Order, ...]:
        """The builds in a province: an army, and a fleet on each coast of a coastal one."""
        found = self._builds.get(prov)
        if found is None:
            info = self.game_map.provinces[prov]
            locs = [f"{prov}/{c}" for c in info.coasts] if info.coasts else [prov]
            fleets = locs if info.type is ProvinceType.COASTAL else []
            found = (self.slot(ARMY, prov).build, *(self.slot(FLEET, f).build for f in fleets))
            self._builds[prov] = found
        return found

    def slot(self, utype: UnitType, location: Location) -> _Slot:
        slots = self._armies if utype is ARMY else self._fleets
        found = slots.get(location)
        if found is None:
            found = slots[location] = _Slot(self.game_map, UnitRef(utype, location))
        return found


@lru_cache(maxsize=8)
def _tables(game_map: GameMap) -> _Tables:
    return _Tables(game_map)


# --- movement ---------------------------------------------------------------------------------
class _Movement:
    """One call's view of a movement phase: the units' slots by province, who could move
    into each province, the fleets at sea and the convoy routes through them (computed when
    first needed)."""

    def __init__(self, tables: _Tables, position: Position, rules: Rules) -> None:
        self.tables = tables
        self.units = position.units
        self.slots: dict[Province, _Slot] = {}
        movers: defaultdict[Province, list[_Slot]] = defaultdict(list)
        fleet_seas: set[Province] = set()
        coastal_armies: list[Unit] = []
        self.sorted = sorted(self.units.values(), key=_by_location)
        for unit in self.sorted:
            slot = tables.slot(unit.type, unit.location)
            self.slots[slot.province] = slot
            for prov in slot.reach:
                movers[prov].append(slot)
            if unit.type is FLEET:
                if slot.province in tables.seas:
                    fleet_seas.add(slot.province)
            elif slot.province in tables.coastal:
                coastal_armies.append(unit)
        self.movers = movers
        self.fleet_seas = frozenset(fleet_seas)
        # the armies a convoy could carry: on a coast that a fleet at sea touches
        seas_at = tables.seas_at
        self.armies = [
            self.slots[u.province] for u in coastal_armies if seas_at[u.province] & fleet_seas
        ]
        self.nationality = rules.missing_nationality == "a"
        self._reach: dict[tuple[Province, Province | None], frozenset[Province]] = {}
        self._convoys: dict[Province, list[tuple[_Slot, Province]]] | None = None
        self._into: dict[Province, list[_Slot]] | None = None

    def unit_orders(self, unit: Unit) -> list[Order]:
        slot = self.slots[province_of(unit.location)]
        orders: list[Order] = list(slot.base)
        armies = self.armies
        if armies and unit.type is ARMY and slot in armies:
            vias = slot.vias
            reach = sorted(self.convoy_reach(slot.province))
            orders += [vias.get(dest) or slot.via(dest) for dest in reach]
        slots, movers, supports = self.slots, self.movers, slot.supports
        convoyed = self.convoyed_into() if armies else {}
        for prov in slot.reach:
            made = supports[prov]
            target = slots.get(prov)
            if target is not None:
                orders.append(made[target])  # type: ignore[arg-type]  # never the supporter
            # the units that could move to prov (this one among them: None, filtered out)
            orders += filter(None, map(made.__getitem__, movers[prov]))
            if prov in convoyed:
                orders += self._convoyed_supports(slot, prov, convoyed[prov])
        if slot.province in self.fleet_seas:
            convoys = slot.convoys
            orders += [convoys.get(c) or slot.convoy(*c) for c in self.convoys()[slot.province]]
        if self.nationality:
            orders = [self._with_nationality(order, unit.power) for order in orders]
        return orders

    def _convoyed_supports(self, slot: _Slot, prov: Province, armies: list[_Slot]) -> list[Order]:
        """Supports of the ``armies`` that could reach ``prov`` only by convoy, but not by
        this supporter alone (a fleet cannot convoy the move it supports)."""
        made = slot.supports[prov]
        if slot.province not in self.fleet_seas:
            return list(filter(None, map(made.__getitem__, armies)))
        return [
            made[army]  # type: ignore[misc]  # an army, never the supporting fleet
            for army in armies
            if prov in self.convoy_reach(army.province, slot.province)
        ]

    def convoyed_into(self) -> dict[Province, list[_Slot]]:
        """For each coastal province, the armies that could reach it only by convoy."""
        if self._into is None:
            into: dict[Province, list[_Slot]] = {}
            army_adjacency = self.tables.game_map.army_adjacency
            for army in self.armies:
                near = army_adjacency[army.province]
                for dest in self.convoy_reach(army.province):
                    if dest not in near:
                        into.setdefault(dest, []).append(army)
            self._into = into
        return self._into

    def convoy_reach(self, src: Province, exclude: Province | None = None) -> frozenset[Province]:
        """Coastal provinces an army in ``src`` could reach by convoy through the fleets at
        sea (other than the one in ``exclude``)."""
        key = (src, exclude)
        found = self._reach.get(key)
        if found is None:
            found = self._reach[key] = _convoy_reach(self.tables, src, self.fleet_seas, exclude)
        return found

    def convoys(self) -> dict[Province, list[tuple[_Slot, Province]]]:
        """For each fleet at sea, the (army, destination) convoys it could be part of."""
        if self._convoys is None:
            table: dict[Province, list[tuple[_Slot, Province]]] = {
                sea: [] for sea in self.fleet_seas
            }
            for army in self.armies:
                routes = _minimal_routes(self.tables, army.province, self.fleet_seas)
                for dest in sorted(routes):
                    for fleet in routes[dest]:
                        table[fleet].append((army, dest))
            self._convoys = table
        return self._convoys

    def _with_nationality(self, order: Order, power: Power) -> Order:
        """DATC 4.C.5 a: a support or convoy of another power's unit must name its power."""
        if isinstance(order, (SupportHold, SupportMove)):
            other = self.units[order.supported.province].power
            if other != power:
                ref = UnitRef(order.supported.type, order.supported.location, other)
                if isinstance(order, SupportHold):
                    return SupportHold(order.unit, ref)
                return SupportMove(order.unit, ref, order.destination)
        elif isinstance(order, Convoy):
            other = self.units[order.convoyed.province].power
            if other != power:
                ref = UnitRef(ARMY, order.convoyed.location, other)
                return Convoy(order.unit, ref, order.destination)
        return order


def _movement(
    game_map: GameMap, position: Position, rules: Rules, power: Power | None
) -> LegalOrders:
    call = _Movement(_tables(game_map), position, rules)
    out: LegalOrders = {}
    for unit in call.sorted:
        if power is None or unit.power == power:
            keyed = out.get(unit.power)
            if keyed is None:
                keyed = out[unit.power] = {}
            keyed[unit.location] = call.unit_orders(unit)
    return out


def _convoy_reach(
    tables: _Tables, src: Province, fleet_seas: frozenset[Province], exclude: Province | None
) -> frozenset[Province]:
    seas = fleet_seas - {exclude} if exclude is not None else fleet_seas
    frontier = [s for s in tables.seas_at[src] if s in seas]
    seen = set(frontier)
    while frontier:
        sea = frontier.pop()
        for nxt in tables.sea_next[sea]:
            if nxt in seas and nxt not in seen:
                seen.add(nxt)
                frontier.append(nxt)
    found: set[Province] = set()
    for sea in seen:
        found.update(tables.sea_coasts[sea])
    found.discard(src)
    return frozenset(found)


def _minimal_routes(
    tables: _Tables, src: Province, fleet_seas: frozenset[Province]
) -> dict[Province, set[Province]]:
    """For each destination, the fleets (seas) on some minimal convoy route from ``src``:
    only its first sea touches ``src``, only its last the destination, and only consecutive
    seas touch each other (as :func:`realpolitik.adjudicator.convoy.on_minimal_route`)."""
    reach, sea_coasts = tables.game_map.fleet_reach, tables.sea_coasts
    found: dict[Province, set[Province]] = {}

    def extend(path: list[Province], touched: frozenset[Province]) -> None:
        # touched: what the seas before the last one touch (none of it may come again)
        last = path[-1]
        for dest in sea_coasts[last]:
            if dest != src and dest not in touched:
                found.setdefault(dest, set()).update(path)
        inner = touched | reach[last]
        for sea in tables.sea_next[last]:
            if (
                sea in fleet_seas
                and sea not in touched
                and sea not in path
                and src not in reach[sea]
            ):
                path.append(sea)
                extend(path, inner)
                path.pop()

    for first in sorted(tables.seas_at[src] & fleet_seas):
        extend([first], frozenset())
    return found


# --- retreats and adjustments ---------------------------------------------------------------
def _retreats(game_map: GameMap, position: Position, power: Power | None) -> LegalOrders:
    tables = _tables(game_map)
    out: LegalOrders = {}
    for prov in sorted(position.dislodged, key=lambda p: position.dislodged[p].unit.location):
        d = position.dislodged[prov]
        unit = d.unit
        if power is not None and unit.power != power:
            continue
        slot = tables.slot(unit.type, unit.location)
        orders: list[Order] = [slot.disband]
        orders.extend(slot.retreat(loc) for loc in d.retreats)
        out.setdefault(unit.power, {})[unit.location] = orders
    return out


def _adjustments(
    game_map: GameMap, position: Position, rules: Rules, power: Power | None
) -> LegalOrders:
    tables = _tables(game_map)
    out: LegalOrders = {}
    dues = adjustment_dues(game_map, position, rules)
    for who in [power] if power is not None else sorted(dues):
        due = dues.get(who, 0)
        keyed: dict[str, list[Order]] = {}
        if due > 0:
            for prov in game_map.homes.get(who, ()):
                if position.centers.get(prov) != who or prov in position.units:
                    continue
                keyed[prov] = list(tables.builds(prov))
            if rules.waive == "a":
                keyed[WAIVE] = [Waive()]
        elif due < 0:
            for unit in position.units_of(who):
                keyed[unit.location] = [tables.slot(unit.type, unit.location).disband]
        if keyed:
            out[who] = dict(sorted(keyed.items()))
    return out
