"""The map as a frozen graph: provinces, coasts, army and fleet adjacency, centres, homes.

Built once by :func:`realpolitik.maps.load_map` from a data file and never changed (its
mappings are read-only: every game of a process shares it); every lookup the adjudicator
needs is a precomputed dictionary or set.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum

from realpolitik.readonly import frozen_mapping
from realpolitik.vocab import ARMY, Location, Power, Province, UnitType, province_of


class ProvinceType(Enum):
    INLAND = "inland"
    COASTAL = "coastal"
    SEA = "sea"
    IMPASSABLE = "impassable"


@dataclass(frozen=True, slots=True)
class ProvinceInfo:
    """One province: id (``"SPA"``), English name, type, coasts, centre and home flags.

    ``country`` is the power whose home country the province belongs to (centre or not:
    Apulia is Italian), used by the 2000 rulebook's civil-disorder removals.
    """

    id: Province
    name: str
    type: ProvinceType
    coasts: tuple[str, ...] = ()
    center: bool = False
    home: Power | None = None
    country: Power | None = None

    @property
    def is_land(self) -> bool:
        return self.type is ProvinceType.INLAND or self.type is ProvinceType.COASTAL

    @property
    def is_sea(self) -> bool:
        return self.type is ProvinceType.SEA

    @property
    def passable(self) -> bool:
        return self.type is not ProvinceType.IMPASSABLE


@dataclass(frozen=True, eq=False)
class GameMap:
    """A validated map. Use :func:`realpolitik.maps.load_map` to get one.

    ``army_adjacency[p]``: provinces an army in ``p`` may move to.
    ``fleet_adjacency[loc]``: locations (coast-qualified where needed) a fleet at ``loc`` may
    move to. ``fleet_reach[loc]``: the provinces of those locations (for supports).
    ``bases``: the boards this one is derived from, nearest first (``conquista_neutral_italy``:
    ``("conquista", "standard")``). ``removed``: the provinces of those boards that this one
    takes away (grow's smaller tables): impassable here, and no part of this board.
    ``cut_off``: the provinces off the main board, out of reach of its largest part though
    units stand there (neutral Italy's until the coin toss's year, whose borders are cut):
    no unit from the rest of the board can enter them.
    """

    name: str
    title: str
    provinces: Mapping[Province, ProvinceInfo]
    army_adjacency: Mapping[Province, frozenset[Province]]
    fleet_adjacency: Mapping[Location, frozenset[Location]]
    starts: Mapping[Power, tuple[tuple[UnitType, Location], ...]]
    powers: tuple[Power, ...]
    bases: tuple[str, ...] = ()
    removed: frozenset[Province] = frozenset()
    fleet_reach: Mapping[Location, frozenset[Province]] = field(init=False)
    fleet_locations: frozenset[Location] = field(init=False)
    army_locations: frozenset[Province] = field(init=False)
    centers: frozenset[Province] = field(init=False)
    homes: Mapping[Power, tuple[Province, ...]] = field(init=False)
    any_adjacency: Mapping[Province, frozenset[Province]] = field(init=False)
    cut_off: frozenset[Province] = field(init=False)

    def __post_init__(self) -> None:
        # every mapping read-only: a board is shared by every game of the process
        for name in ("provinces", "army_adjacency", "fleet_adjacency", "starts"):
            object.__setattr__(self, name, frozen_mapping(getattr(self, name)))
        reach = {
            loc: frozenset(map(province_of, dsts)) for loc, dsts in self.fleet_adjacency.items()
        }
        object.__setattr__(self, "fleet_reach", frozen_mapping(reach))
        object.__setattr__(self, "fleet_locations", frozenset(self.fleet_adjacency))
        armies = frozenset(p for p, info in self.provinces.items() if info.is_land)
        object.__setattr__(self, "army_locations", armies)
        centers = frozenset(p for p, info in self.provinces.items() if info.center)
        object.__setattr__(self, "centers", centers)
        homes: dict[Power, list[Province]] = {power: [] for power in self.powers}
        for p, info in sorted(self.provinces.items()):
            if info.home is not None:
                homes.setdefault(info.home, []).append(p)
        object.__setattr__(self, "homes", frozen_mapping({k: tuple(v) for k, v in homes.items()}))
        near: dict[Province, set[Province]] = {p: set() for p in self.provinces}
        for p, dsts in self.army_adjacency.items():
            near[p].update(dsts)
        for loc, provs in reach.items():
            near[province_of(loc)].update(provs)
        near_all = frozen_mapping({p: frozenset(s) for p, s in near.items()})
        object.__setattr__(self, "any_adjacency", near_all)
        object.__setattr__(self, "cut_off", _off_the_main_part(self.provinces, near_all))

    # --- queries -------------------------------------------------------------------------
    def __contains__(self, province: object) -> bool:
        return province in self.provinces

    def info(self, province: Province) -> ProvinceInfo:
        return self.provinces[province]

    def name_of(self, province: Province) -> str:
        return self.provinces[province].name

    def coasts(self, province: Province) -> tuple[str, ...]:
        return self.provinces[province].coasts

    def is_valid_location(self, unit_type: UnitType, location: Location) -> bool:
        """Can a unit of this type stand at this location (fleets on a named coast)?"""
        if unit_type is ARMY:
            return location in self.army_locations
        return location in self.fleet_locations

    def can_move(self, unit_type: UnitType, src: Location, dst: Location) -> bool:
        """Direct move, coast-exact for fleets (``dst`` must carry the coast if needed)."""
        if unit_type is ARMY:
            adj = self.army_adjacency.get(src)
            return adj is not None and dst in adj
        fadj = self.fleet_adjacency.get(src)
        return fadj is not None and dst in fadj

    def can_reach(self, unit_type: UnitType, src: Location, province: Province) -> bool:
        """Could the unit move into the province (any coast)? Used for supports."""
        if unit_type is ARMY:
            adj = self.army_adjacency.get(src)
            return adj is not None and province in adj
        reach = self.fleet_reach.get(src)
        return reach is not None and province in reach

    def fleet_destinations(self, src: Location, province: Province) -> tuple[Location, ...]:
        """The locations of ``province`` a fleet at ``src`` can move to (one per coast)."""
        adj = self.fleet_adjacency.get(src, frozenset())
        info = self.provinces.get(province)
        if info is None:
            return ()
        if not info.coasts:
            return (province,) if province in adj else ()
        return tuple(f"{province}/{c}" for c in info.coasts if f"{province}/{c}" in adj)


def _off_the_main_part(
    provinces: Mapping[Province, ProvinceInfo], near: Mapping[Province, frozenset[Province]]
) -> frozenset[Province]:
    """The passable provinces outside the largest connected part of the board."""
    live = {p for p, info in provinces.items() if info.passable}
    parts: list[set[Province]] = []
    for first in sorted(live):
        if any(first in part for part in parts):
            continue
        part, todo = set(), [first]
        while todo:
            here = todo.pop()
            if here not in part:
                part.add(here)
                todo.extend(p for p in near.get(here, ()) if p in live)
        parts.append(part)
    parts.sort(key=len, reverse=True)
    return frozenset(p for part in parts[1:] for p in part)
