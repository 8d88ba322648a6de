"""Convoy routes: is there a chain of convoying fleets from an army's province to its goal?"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from realpolitik.maps.model import GameMap
from realpolitik.vocab import Province


def has_route(
    game_map: GameMap, src: Province, dst: Province, fleets: Collection[Province]
) -> bool:
    """True if the sea provinces ``fleets`` (holding convoying fleets) link ``src`` to ``dst``.

    Each step is a fleet move between seas; the first sea must touch ``src`` and the last
    ``dst`` (any coast of them).
    """
    if not fleets:
        return False
    reach = game_map.fleet_reach
    frontier = [f for f in fleets if src in reach[f]]
    seen = set(frontier)
    while frontier:
        sea = frontier.pop()
        near = reach[sea]
        if dst in near:
            return True
        for other in fleets:
            if other not in seen and other in near:
                seen.add(other)
                frontier.append(other)
    return False


def on_minimal_route(
    game_map: GameMap, src: Province, dst: Province, seas: Collection[Province], fleet: Province
) -> bool:
    """Is the sea ``fleet`` needed on some convoy route from ``src`` to ``dst`` through the
    seas ``seas``? A route counts when none of its fleets could be left out (DATC 6.G.19):
    only its first sea touches ``src``, only its last touches ``dst``, and only consecutive
    seas touch each other."""
    reach = game_map.fleet_reach
    pool = [s for s in set(seas) | {fleet} if s != src and s != dst]
    return any(_extends(reach, src, dst, fleet, pool, [sea]) for sea in pool if src in reach[sea])


def _extends(
    reach: Mapping[Province, Collection[Province]],
    src: Province,
    dst: Province,
    fleet: Province,
    pool: list[Province],
    path: list[Province],
) -> bool:
    """Does some minimal route from ``src`` to ``dst`` that starts with ``path`` go through
    ``fleet``? (A module-level function, not a closure calling itself: that would be a
    reference cycle per call, left for the garbage collector.)"""
    last = path[-1]
    if dst in reach[last]:
        return fleet in path
    for sea in pool:
        near = reach[sea]
        if sea in path or sea not in reach[last] or src in near:
            continue
        if any(p in near for p in path[:-1]):
            continue
        path.append(sea)
        if _extends(reach, src, dst, fleet, pool, path):
            return True
        path.pop()
    return False
