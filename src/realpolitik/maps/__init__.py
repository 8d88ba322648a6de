"""Maps as validated data: ``load_map("standard")`` gives a frozen :class:`GameMap`."""

from realpolitik.maps.loader import load_map, map_from_dict
from realpolitik.maps.model import GameMap, ProvinceInfo, ProvinceType

__all__ = ["GameMap", "ProvinceInfo", "ProvinceType", "load_map", "map_from_dict"]
