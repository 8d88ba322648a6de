"""The small vocabulary every other module speaks: unit types, units and locations.

A *province* is a map id such as ``"PAR"``; a *location* is where a unit stands: a province,
or a coast of a two-coast province for a fleet (``"SPA/NC"``). Powers are upper-case names
(``"ENGLAND"``), as the map's variant declares them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

Power = str
Province = str
Location = str


class UnitType(Enum):
    """Army or fleet; the value is the standard one-letter code."""

    ARMY = "A"
    FLEET = "F"

    # members are singletons compared by identity: hash them so too, in C (``Enum`` hashes
    # the name in Python, and units and orders, hashed as dictionary keys, hold a type)
    __hash__ = object.__hash__

    @classmethod
    def parse(cls, text: str) -> UnitType:
        """``"A"``/``"F"`` (any case) to a unit type."""
        try:
            return cls(text.upper())
        except ValueError:
            raise ValueError(f"unknown unit type {text!r} (expected A or F)") from None

    def __str__(self) -> str:
        return self.value


ARMY = UnitType.ARMY
FLEET = UnitType.FLEET


def province_of(location: Location) -> Province:
    """The province of a location: ``province_of("SPA/NC") == "SPA"``."""
    slash = location.find("/")
    return location if slash < 0 else location[:slash]


def coast_of(location: Location) -> str | None:
    """The coast of a location, if any: ``coast_of("SPA/NC") == "NC"``."""
    slash = location.find("/")
    return None if slash < 0 else location[slash + 1 :]


@dataclass(frozen=True, slots=True)
class Unit:
    """A unit on the board: its power, type and location (``Unit("FRANCE", ARMY, "PAR")``)."""

    power: Power
    type: UnitType
    location: Location

    @property
    def province(self) -> Province:
        return province_of(self.location)

    def __str__(self) -> str:
        return unit_text(self)


def unit_text(unit: Unit) -> str:
    """``str(unit)``, "A PAR": called directly, cheaper than through ``str()`` or an
    f-string (the adjudicator writes many reasons naming units)."""
    return f"{unit.type._value_} {unit.location}"  # ``_value_``: ``value`` is a Python property


class _Provinces(dict[Location, Province]):
    """:func:`province_of`, memoised (see :data:`PROVINCE`)."""

    def __missing__(self, location: Location) -> Province:
        if len(self) > 10_000:  # only ever the maps' locations, unless orders name others
            self.clear()
        found = self[location] = province_of(location)
        return found


PROVINCE = _Provinces()
"""The province of a location as a dictionary lookup: ``PROVINCE["SPA/NC"] == "SPA"`` (the
adjudicator asks it hundreds of times a phase)."""

_UNITS: dict[tuple[Power, UnitType, Location], Unit] = {}


def shared_unit(power: Power, utype: UnitType, location: Location) -> Unit:
    """``Unit(power, utype, location)``, made once and shared: a unit is a value, and the
    same units recur phase after phase (England's fleet in the North Sea), so a dictionary
    lookup replaces building the frozen dataclass."""
    key = (power, utype, location)
    unit = _UNITS.get(key)
    if unit is None:
        if len(_UNITS) > 10_000:  # only ever the maps' units, unless orders name others
            _UNITS.clear()
        unit = _UNITS[key] = Unit(power, utype, location)
    return unit
