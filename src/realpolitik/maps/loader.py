"""Load and validate map data files (``maps/data/<name>.json``) into :class:`GameMap`."""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any

from realpolitik.errors import SituationError
from realpolitik.maps.model import GameMap, ProvinceInfo, ProvinceType
from realpolitik.vocab import ARMY, FLEET, Location, Power, Province, UnitType, province_of


class MapDataError(SituationError):
    """A map data file is inconsistent (unknown id, asymmetric edge, bad type...)."""


@lru_cache(maxsize=16)
def load_map(name: str = "standard") -> GameMap:
    """The named map from the package data (cached: maps are immutable)."""
    try:
        text = resources.files("realpolitik.maps").joinpath("data", f"{name}.json").read_text()
    except FileNotFoundError:
        raise MapDataError(f"unknown map {name!r}") from None
    return map_from_dict(json.loads(text))


def _edges(pairs: list[list[str]], what: str) -> dict[str, set[str]]:
    adj: dict[str, set[str]] = {}
    for pair in pairs:
        if len(pair) != 2 or pair[0] == pair[1]:
            raise MapDataError(f"bad {what} edge {pair!r}")
        a, b = pair
        if b in adj.get(a, ()):
            raise MapDataError(f"duplicate {what} edge {a}-{b}")
        adj.setdefault(a, set()).add(b)
        adj.setdefault(b, set()).add(a)
    return adj


def map_from_dict(data: dict[str, Any]) -> GameMap:
    """Validate a map's JSON data and build the frozen graph."""
    provinces: dict[Province, ProvinceInfo] = {}
    for raw in data["provinces"]:
        pid = raw["id"]
        if pid in provinces:
            raise MapDataError(f"duplicate province {pid}")
        try:
            ptype = ProvinceType(raw["type"])
        except ValueError:
            raise MapDataError(f"province {pid}: bad type {raw['type']!r}") from None
        info = ProvinceInfo(
            id=pid,
            name=raw["name"],
            type=ptype,
            coasts=tuple(raw.get("coasts", ())),
            center=bool(raw.get("center", False)),
            home=raw.get("home"),
            country=raw.get("country", raw.get("home")),
        )
        if info.coasts and ptype is not ProvinceType.COASTAL:
            raise MapDataError(f"province {pid}: only coastal provinces have coasts")
        if info.home is not None and not info.center:
            raise MapDataError(f"province {pid}: a home centre must be a centre")
        provinces[pid] = info

    army = _edges(data.get("army", []), "army")
    for p, dsts in army.items():
        for q in (p, *dsts):
            if q not in provinces or not provinces[q].is_land:
                raise MapDataError(f"army edge touches {q}, which is not a land province")

    fleet = _edges(data.get("fleet", []), "fleet")
    for loc in fleet:
        prov = province_of(loc)
        found = provinces.get(prov)
        if found is None:
            raise MapDataError(f"fleet edge touches unknown location {loc}")
        info = found
        if info.type in (ProvinceType.INLAND, ProvinceType.IMPASSABLE):
            raise MapDataError(f"fleet edge touches {loc}, which has no coast")
        coast = loc[len(prov) + 1 :] if "/" in loc else None
        if info.coasts and coast not in info.coasts:
            raise MapDataError(f"fleet edge at {loc}: {prov} needs one of its coasts")
        if not info.coasts and coast is not None:
            raise MapDataError(f"fleet edge at {loc}: {prov} has no named coasts")

    powers = tuple(data["starts"].keys())
    starts: dict[Power, tuple[tuple[UnitType, Location], ...]] = {}
    for power, units in data["starts"].items():
        placed = []
        for text in units:
            kind, loc = text.split()
            utype = UnitType.parse(kind)
            if (utype is ARMY and loc not in army and provinces.get(loc) is None) or (
                utype is FLEET and loc not in fleet
            ):
                raise MapDataError(f"start unit {text} of {power} stands nowhere valid")
            placed.append((utype, loc))
        starts[power] = tuple(placed)
    for p, info in provinces.items():
        if info.home is not None and info.home not in powers:
            raise MapDataError(f"province {p}: home of unknown power {info.home}")

    return GameMap(
        name=data["name"],
        title=data.get("title", data["name"]),
        provinces=provinces,
        army_adjacency={p: frozenset(army.get(p, ())) for p, i in provinces.items() if i.is_land},
        fleet_adjacency={loc: frozenset(dsts) for loc, dsts in fleet.items()},
        starts=starts,
        powers=powers,
    )
