"""Phases: ``Phase.parse("S1901M")`` and ``str(phase)`` round-trip.

A phase is a season (Spring, Fall, Winter), a year and a kind (Movement, Retreats,
Adjustments). The compact form is the one used by the DATC tools and the PyPI ``diplomacy``
package: season letter, year, kind letter.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum


class Season(Enum):
    """The season of a phase; the value is its letter in ``S1901M``. Winter holds the
    adjustments (grow names its turns Winter and Summer: ``Edition.phase_name``)."""

    SPRING = "S"
    FALL = "F"
    WINTER = "W"


class PhaseKind(Enum):
    """Movement, retreats or adjustments; the value is its letter in ``S1901M``."""

    MOVEMENT = "M"
    RETREATS = "R"
    ADJUSTMENTS = "A"


_PHASE_RE = re.compile(r"^\s*([SFW])\s*(\d{1,4})\s*([MRA])\s*$", re.IGNORECASE)


@dataclass(frozen=True, slots=True, order=True)
class Phase:
    """One phase of the game, e.g. ``Phase(1901, Season.SPRING, PhaseKind.MOVEMENT)``."""

    year: int
    season: Season
    kind: PhaseKind

    def __post_init__(self) -> None:
        # letters (``Phase(1901, "S", "M")``) would be taken for another kind of phase
        # (the calendar makes each phase once: this costs nothing per phase played)
        if type(self.year) is not int:
            raise TypeError(f"a phase's year is a whole number, not {self.year!r}")
        if type(self.season) is not Season:
            raise TypeError(f"a phase's season is a Season (Season.SPRING), not {self.season!r}")
        if type(self.kind) is not PhaseKind:
            raise TypeError(
                f"a phase's kind is a PhaseKind (PhaseKind.MOVEMENT), not {self.kind!r}; "
                "Phase.parse('S1901M') reads the text"
            )

    @classmethod
    def parse(cls, text: str) -> Phase:
        """Parse ``"S1901M"`` (any case)."""
        match = _PHASE_RE.match(text) if isinstance(text, str) else None
        if not match:
            raise ValueError(f"bad phase {text!r}: expected e.g. S1901M, F1901R, W1901A")
        season, year, kind = match.groups()
        return cls(int(year), _SEASONS[season.upper()], _KINDS[kind.upper()])

    def __str__(self) -> str:
        return f"{self.season._value_}{self.year}{self.kind._value_}"  # ``value``: a property

    @property
    def is_movement(self) -> bool:
        return self.kind is PhaseKind.MOVEMENT

    @property
    def is_retreats(self) -> bool:
        return self.kind is PhaseKind.RETREATS

    @property
    def is_adjustments(self) -> bool:
        return self.kind is PhaseKind.ADJUSTMENTS


# by letter: ``Season("S")`` runs the enum's lookup in Python, five times this dictionary's
_SEASONS = {season.value: season for season in Season}
_KINDS = {kind.value: kind for kind in PhaseKind}
