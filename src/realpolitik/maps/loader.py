"""Load and validate boards into :class:`GameMap`: complete map files
(``maps/data/<name>.json``) and derived boards (``maps/data/derived/<name>.json``: a base
board with provinces removed, cut off or added, homes and starting units changed).

    >>> [m.name for m in map(load_map, ("standard", "grow_4"))]
    ['standard', 'grow_4']
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from realpolitik.data import shipped
from realpolitik.errors import MapDataError
from realpolitik.maps.model import GameMap, ProvinceInfo, ProvinceType
from realpolitik.vocab import ARMY, FLEET, Location, Power, Province, UnitType, province_of

BOARDS = (
    "standard",
    "standard_neutral_italy",
    "grow",
    "grow_3",
    "grow_4",
    "grow_5",
    "grow_6",
    "grow_neutral_italy",
    "conquista",
    "conquista_neutral_italy",
)
"""Every board the package ships."""


@lru_cache(maxsize=32)
def load_map(name: str) -> GameMap:
    """A shipped board by name (see :data:`BOARDS`): a map file or a derived declaration
    applied to its base. Cached: boards are immutable."""
    return map_from_dict(_raw(name))


_DATA = shipped("maps", "data")


def _raw(name: str) -> dict[str, Any]:
    if isinstance(name, str) and "/" not in name and "\\" not in name and not name.startswith("."):
        for path in (_DATA / f"{name}.json", _DATA / "derived" / f"{name}.json"):
            if path.is_file():
                data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
                return _derive(data) if "base" in data else data
    raise MapDataError(f"unknown map {name!r}; maps: {', '.join(BOARDS)}")


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
    land = {p for p, info in provinces.items() if info.is_land}
    off_land = sorted(army.keys() - land)  # (both ends of every edge are keys)
    if off_land:
        raise MapDataError(f"army edge touches {off_land[0]}, which is not a land province")

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
    removed = frozenset(data.get("removed", ()))
    for p in sorted(removed):
        if p not in provinces or provinces[p].passable:
            raise MapDataError(f"removed province {p} must be an impassable province of the map")

    return GameMap(
        name=data["name"],
        title=data.get("title", data["name"]),
        provinces=provinces,
        army_adjacency={p: frozenset(army.get(p, ())) for p in provinces if p in land},
        fleet_adjacency={loc: frozenset(dsts) for loc, dsts in fleet.items()},
        starts=starts,
        powers=powers,
        bases=tuple(data.get("bases", ())),
        removed=removed,
    )


def _derive(decl: Mapping[str, Any]) -> dict[str, Any]:
    """Apply a derived board's declaration to its base's data (see ``maps/data/derived``)."""
    data = _raw(decl["base"])
    provinces = {p["id"]: dict(p) for p in data["provinces"]}
    army = [tuple(e) for e in data["army"]]
    fleet = [tuple(e) for e in data["fleet"]]
    starts: dict[str, list[str]] = {k: list(v) for k, v in data["starts"].items()}
    for power, units in decl.get("starts", {}).items():
        starts[power] = list(units)
    for power, units in decl.get("add_starts", {}).items():
        starts.setdefault(power, []).extend(units)
    for prov, power in decl.get("homes", {}).items():
        provinces[prov].update(center=True, home=power)
    for raw in decl.get("add_provinces", ()):
        if raw["id"] in provinces:
            raise MapDataError(f"{decl['name']}: province {raw['id']} is already on the board")
        provinces[raw["id"]] = dict(raw)
    for prov, coasts in decl.get("coasts", {}).items():
        provinces[prov]["coasts"] = list(coasts)
    removed = set(decl.get("remove", ()))
    for prov in removed:
        info = provinces[prov]
        provinces[prov] = {"id": prov, "name": info["name"], "type": "impassable"}
    army = [e for e in army if not removed & set(e)]
    fleet = [e for e in fleet if not removed & {province_of(x) for x in e}]
    cut = set(decl.get("isolate", ()))
    army = [e for e in army if len(cut & set(e)) != 1]
    fleet = [e for e in fleet if len(cut & {province_of(x) for x in e}) != 1]
    for power in decl.get("drop_powers", ()):
        starts.pop(power, None)
        for info in provinces.values():
            if info.get("home") == power:
                info.pop("home")
            if info.get("country") == power:
                info.pop("country")
    army = _without(army, decl.get("remove_army", ()), decl["name"])
    fleet = _without(fleet, decl.get("remove_fleet", ()), decl["name"])
    army += [tuple(e) for e in decl.get("add_army", ())]
    fleet += [tuple(e) for e in decl.get("add_fleet", ())]
    for power, units in starts.items():
        for unit in units:
            prov = province_of(unit.split()[-1])
            if provinces.get(prov, {}).get("type") in (None, "impassable"):
                raise MapDataError(f"{decl['name']}: start unit {unit} of {power} is off the board")
    return {
        "name": decl["name"],
        "title": decl.get("title", decl["name"]),
        "provinces": list(provinces.values()),
        "army": [list(e) for e in army],
        "fleet": [list(e) for e in fleet],
        "starts": starts,
        "bases": [decl["base"], *data.get("bases", ())],
        "removed": sorted(removed.union(data.get("removed", ()))),
    }


def _without(
    edges: list[tuple[str, ...]], removed: Sequence[Sequence[str]], name: str
) -> list[tuple[str, ...]]:
    """``edges`` less the ``removed`` ones (in either direction); each must be there."""
    drop = {frozenset(e) for e in removed}
    missing = drop - {frozenset(e) for e in edges}
    if missing:
        names = ", ".join("-".join(sorted(e)) for e in sorted(missing, key=sorted))
        raise MapDataError(f"{name}: no edge {names} to remove")
    return [e for e in edges if frozenset(e) not in drop]
