"""Boards as validated data: ``load_map("standard")`` gives a frozen :class:`GameMap`; every
shipped board (:data:`BOARDS`) loads, derived ones included."""

from realpolitik.maps.loader import BOARDS, load_map, map_from_dict
from realpolitik.maps.model import GameMap, ProvinceInfo, ProvinceType

__all__ = ["BOARDS", "GameMap", "ProvinceInfo", "ProvinceType", "load_map", "map_from_dict"]
