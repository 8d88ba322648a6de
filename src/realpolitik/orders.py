"""Orders as immutable typed values.

Every order names the unit it is for as a :class:`UnitRef` (unit type and location as the
player wrote them: the type may be missing and the coast wrong; the adjudicator matches the
reference to the unit on the board). ``str(order)`` writes the English short notation that
:func:`realpolitik.notation.parse_order` reads back to the same order (the one English
writer: saved games and the JSON contract use it too)::

    A PAR - BUR            Move            A LON - BEL VIA   Move via convoy
    A PAR H                Hold            F NTH C A LON - BEL  Convoy
    A MAR S A PAR - BUR    SupportMove     A MUN S A BER     SupportHold
    A PAR R BUR            Retreat         A PAR D           Disband
    F STP/NC B             Build           WAIVE             Waive
    A BUD S TURKEY A SER   a unit named with its nationality

    >>> from realpolitik.vocab import ARMY
    >>> str(SupportHold(UnitRef(ARMY, "BUD"), UnitRef(ARMY, "SER", "TURKEY")))
    'A BUD S TURKEY A SER'
"""

from __future__ import annotations

from dataclasses import dataclass

from realpolitik.vocab import Location, Power, Province, UnitType, province_of


@dataclass(frozen=True, slots=True)
class UnitRef:
    """A unit as named in an order: ``UnitRef(ARMY, "PAR")``; ``power`` is the optional
    nationality written in supports and convoys ("S Turkish F CON - BUL")."""

    type: UnitType | None
    location: Location
    power: Power | None = None

    def __post_init__(self) -> None:
        # a reference of letters (``UnitRef("A", "PAR")``) would be taken by a game and fail
        # later, when it is written or adjudicated; few are made (the parser remembers)
        if self.type is not None and type(self.type) is not UnitType:
            raise TypeError(f"a unit's type is ARMY, FLEET or None, not {self.type!r}")
        if not isinstance(self.location, str):
            raise TypeError(f"a unit's location is a text such as 'PAR', not {self.location!r}")
        if self.power is not None and not isinstance(self.power, str):
            raise TypeError(f"a unit's nationality is a power's name or None, not {self.power!r}")

    @property
    def province(self) -> Province:
        return province_of(self.location)

    def __str__(self) -> str:
        # ``_value_``: ``value`` is a Python property (every result written names units)
        text = self.location if self.type is None else f"{self.type._value_} {self.location}"
        return text if self.power is None else f"{self.power} {text}"


@dataclass(frozen=True, slots=True)
class Hold:
    unit: UnitRef

    def __str__(self) -> str:
        return f"{self.unit} H"


@dataclass(frozen=True, slots=True)
class Move:
    unit: UnitRef
    destination: Location
    via_convoy: bool = False

    def __str__(self) -> str:
        return f"{self.unit} - {self.destination}{' VIA' if self.via_convoy else ''}"


@dataclass(frozen=True, slots=True)
class SupportHold:
    unit: UnitRef
    supported: UnitRef

    def __str__(self) -> str:
        return f"{self.unit} S {self.supported}"


@dataclass(frozen=True, slots=True)
class SupportMove:
    unit: UnitRef
    supported: UnitRef
    destination: Location

    def __str__(self) -> str:
        return f"{self.unit} S {self.supported} - {self.destination}"


@dataclass(frozen=True, slots=True)
class Convoy:
    unit: UnitRef
    convoyed: UnitRef
    destination: Location

    def __str__(self) -> str:
        return f"{self.unit} C {self.convoyed} - {self.destination}"


@dataclass(frozen=True, slots=True)
class Retreat:
    unit: UnitRef
    destination: Location

    def __str__(self) -> str:
        return f"{self.unit} R {self.destination}"


@dataclass(frozen=True, slots=True)
class Disband:
    """Disband a dislodged unit (retreat phase) or remove a unit (adjustment phase)."""

    unit: UnitRef

    def __str__(self) -> str:
        return f"{self.unit} D"


@dataclass(frozen=True, slots=True)
class Build:
    unit: UnitRef

    def __str__(self) -> str:
        return f"{self.unit} B"


@dataclass(frozen=True, slots=True)
class Waive:
    """Give up one build."""

    def __str__(self) -> str:
        return "WAIVE"


Order = Hold | Move | SupportHold | SupportMove | Convoy | Retreat | Disband | Build | Waive
MovementOrder = Hold | Move | SupportHold | SupportMove | Convoy
"""Orders of a movement phase."""


def order_unit(order: Order) -> UnitRef | None:
    """The unit an order is for (``None`` for :class:`Waive`)."""
    return None if isinstance(order, Waive) else order.unit
