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

    # hashed by identity, in C (``Enum`` hashes the name in Python): units and orders are
    # dictionary keys; without it movement adjudication costs 6.6% more instructions
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

    def __post_init__(self) -> None:
        # letters (``Unit("FRANCE", "A", "PAR")``) would make a position that fails later,
        # wherever it is written or judged; units are made a few times a phase
        if type(self.type) is not UnitType:
            raise TypeError(f"a unit's type is ARMY or FLEET, not {self.type!r}")
        if not isinstance(self.power, str):
            raise TypeError(f"a unit's power is a power's name, not {self.power!r}")
        if not isinstance(self.location, str):
            raise TypeError(f"a unit's location is a text such as 'PAR', not {self.location!r}")

    @property
    def province(self) -> Province:
        return province_of(self.location)

    def __str__(self) -> str:
        return f"{self.type._value_} {self.location}"  # as UnitRef: ``value`` is a property


class _Provinces(dict[Location, Province]):
    """:func:`province_of`, memoised (see :data:`PROVINCE`)."""

    def __missing__(self, location: Location) -> Province:
        if len(self) > 10_000:  # only ever the maps' locations, unless orders name others
            self.clear()
        found = self[location] = province_of(location)
        return found


PROVINCE = _Provinces()
"""The province of a location as a dictionary lookup: ``PROVINCE["SPA/NC"] == "SPA"`` (the
adjudicator asks it hundreds of times a phase: 4.6% of its instructions against
:func:`province_of`)."""
