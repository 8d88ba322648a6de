"""Convoy routes: is there a chain of convoying fleets from an army's province to its goal
(:func:`has_route`), and which fleets are on the minimal routes (:func:`minimal_routes`)."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from functools import lru_cache

from realpolitik.maps.model import GameMap, ProvinceType
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


@dataclass(frozen=True, slots=True)
class Seas:
    """A map's seas as a convoy sees them: ``next[s]``, the seas next to sea ``s``;
    ``coasts[s]``, the coastal provinces it touches (in order); ``at[p]``, the seas that
    touch the coastal province ``p``."""

    next: Mapping[Province, frozenset[Province]]
    coasts: Mapping[Province, tuple[Province, ...]]
    at: Mapping[Province, frozenset[Province]]


@lru_cache(maxsize=16)  # every shipped board; made whole, never changed
def seas_of(game_map: GameMap) -> Seas:
    """The :class:`Seas` of ``game_map``."""
    provinces, reach = game_map.provinces, game_map.fleet_reach
    seas = frozenset(p for p, info in provinces.items() if info.type is ProvinceType.SEA)
    coastal = frozenset(p for p, info in provinces.items() if info.type is ProvinceType.COASTAL)
    return Seas(
        next={s: reach.get(s, frozenset()) & seas for s in seas},
        coasts={s: tuple(sorted(reach.get(s, frozenset()) & coastal)) for s in seas},
        at={p: frozenset(s for s in seas if p in reach.get(s, ())) for p in coastal},
    )


Routes = dict[Province, tuple[frozenset[Province], frozenset[Province]]]
"""For each destination, the seas on some minimal convoy route to it and those on every one."""


def minimal_routes(game_map: GameMap, src: Province, fleets: frozenset[Province]) -> Routes:
    """The minimal convoy routes of an army in ``src`` through the fleets at sea in
    ``fleets``, by destination: the seas on some of them, and those on every one.

    A route is minimal when none of its fleets could be left out (DATC 6.G.19): only its
    first sea touches ``src``, only its last touches the destination, and only consecutive
    seas touch each other. Every destination some route reaches, a minimal one reaches."""
    reach, seas = game_map.fleet_reach, seas_of(game_map)
    found: Routes = {}
    # the routes as (seas in order, what the seas before the last one touch: none of it may
    # come again), grown from each first sea (a stack, not a closure calling itself: that
    # would leave a reference cycle per call to the garbage collector)
    stack: list[tuple[tuple[Province, ...], frozenset[Province]]] = [
        ((first,), frozenset()) for first in seas.at.get(src, frozenset()) & fleets
    ]
    while stack:
        path, touched = stack.pop()
        last = path[-1]
        on = frozenset(path)
        for dest in seas.coasts[last]:
            if dest != src and dest not in touched:
                known = found.get(dest)
                found[dest] = (on, on) if known is None else (known[0] | on, known[1] & on)
        inner = None
        for sea in seas.next[last]:
            if sea in fleets and sea not in touched and sea not in path and src not in reach[sea]:
                if inner is None:
                    inner = touched | reach[last]
                stack.append(((*path, sea), inner))
    return found
