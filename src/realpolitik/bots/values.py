"""How much a power wants each place on the board: the province values the search bot
plans with.

A supply centre the power does not own is worth taking (a neutral one a little more: no
one defends it), one it owns is worth defending as much as it is threatened (enemy units
next to it). Those worths spread over the board, as DumbBot's proximity maps do: a place is
worth what it holds plus a decaying share of what its neighbours hold, for armies over the
army adjacencies and for fleets over the fleet adjacencies, so a unit is drawn towards
the centres it could take next and a build goes where it is needed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from realpolitik.maps.model import GameMap
from realpolitik.position import Position
from realpolitik.vocab import ARMY, Location, Power, Province, Unit, UnitType, province_of

NEUTRAL = 1.2
"""A neutral centre (an owned foreign centre is worth 1)."""
DEFENCE = 0.6
"""An own centre, per enemy unit that could enter it."""
GARRISON = 0.15
"""An own centre with no threat: a little, so units do not wander off for nothing."""
SPREAD = (1.0, 0.45, 0.2, 0.09, 0.04)
"""Weight of the centres 0, 1, 2, 3 and 4 steps away."""


@dataclass(frozen=True, slots=True)
class Values:
    """One power's province values for armies and for fleets (locations with coasts
    included, keyed by location) and the threat: how many enemy units can enter each
    province."""

    army: Mapping[Province, float]
    fleet: Mapping[Location, float]
    threat: Mapping[Province, int]

    def of(self, utype: UnitType, location: Location) -> float:
        if utype is ARMY:
            return self.army.get(province_of(location), 0.0)
        return self.fleet.get(location, self.fleet.get(province_of(location), 0.0))


def reach(game_map: GameMap, unit: Unit) -> Iterable[Province]:
    """The provinces ``unit`` could move to (or support into)."""
    if unit.type is ARMY:
        return game_map.army_adjacency.get(unit.location, frozenset())
    return game_map.fleet_reach.get(unit.location, frozenset())


def threats(game_map: GameMap, position: Position, power: Power) -> dict[Province, int]:
    """How many units of other powers could move into each province."""
    out: dict[Province, int] = {}
    for unit in position.units.values():
        if unit.power != power:
            for p in reach(game_map, unit):
                out[p] = out.get(p, 0) + 1
    return out


def values(game_map: GameMap, position: Position, power: Power) -> Values:
    """``power``'s province values in ``position``."""
    threat = threats(game_map, position, power)
    base: dict[Province, float] = {}
    for c in game_map.centers:
        owner = position.centers.get(c)
        if owner == power:
            base[c] = GARRISON + DEFENCE * threat.get(c, 0)
        else:
            base[c] = NEUTRAL if owner is None else 1.0
    near = _near(game_map)
    army = {x: sum(base[c] * w for c, w in cs) for x, cs in near.army.items()}
    fleet = {x: sum(base[c] * w for c, w in cs) for x, cs in near.fleet.items()}
    return Values(army, fleet, threat)


@dataclass(frozen=True, slots=True)
class _Near:
    """Per place, the centres at most ``len(SPREAD) - 1`` steps away, with their weight."""

    army: Mapping[Province, tuple[tuple[Province, float], ...]]
    fleet: Mapping[Location, tuple[tuple[Province, float], ...]]


_NEAR: dict[int, tuple[GameMap, _Near]] = {}
"""Per board (by identity; the board is held so its id is not reused): its :class:`_Near`,
stored whole once built (the server runs bots on threads)."""


def _near(game_map: GameMap) -> _Near:
    known = _NEAR.get(id(game_map))
    if known is not None and known[0] is game_map:
        return known[1]
    army: dict[Province, list[tuple[Province, float]]] = {p: [] for p in game_map.army_adjacency}
    fleet: dict[Location, list[tuple[Province, float]]] = {
        loc: [] for loc in game_map.fleet_adjacency
    }
    for c in sorted(game_map.centers):
        if c in game_map.army_adjacency:
            for p, d in _bfs([c], game_map.army_adjacency).items():
                army[p].append((c, SPREAD[d]))
        starts = [loc for loc in game_map.fleet_adjacency if province_of(loc) == c]
        for loc, d in _bfs(starts, game_map.fleet_adjacency).items():
            fleet[loc].append((c, SPREAD[d]))
    near = _Near(
        {p: tuple(cs) for p, cs in army.items()}, {loc: tuple(cs) for loc, cs in fleet.items()}
    )
    _NEAR[id(game_map)] = (game_map, near)
    return near


def _bfs(starts: Iterable[str], adjacency: Mapping[str, frozenset[str]]) -> dict[str, int]:
    """Steps from ``starts`` to every place at most ``len(SPREAD) - 1`` steps away."""
    dist = dict.fromkeys(starts, 0)
    frontier = list(dist)
    for d in range(1, len(SPREAD)):
        nxt = []
        for x in frontier:
            for y in adjacency.get(x, ()):
                if y not in dist:
                    dist[y] = d
                    nxt.append(y)
        frontier = nxt
    return dist
