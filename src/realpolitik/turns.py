"""The calendar of an edition: which phase follows, and when centres change owner.

Classic, 1971 and grow: Spring (grow: Winter) and Fall (Summer) turns, each a movement
phase and, when a unit was dislodged, a retreat phase; centres change owner at the end of
the Fall turn, then an adjustment phase. Conquista: no retreats (dislodged units are
destroyed), centres change owner at the end of every turn, and the reinforcements come at
the start of each Spring from the second year (``S1915A`` before ``S1915M``).

    >>> from realpolitik.variants import edition
    >>> str(next_phase(edition("conquista"), Phase.parse("F1914M"), False))
    'S1915A'
"""

from __future__ import annotations

from collections.abc import Mapping

from realpolitik.maps.model import GameMap
from realpolitik.orders import Build, Order, UnitRef, Waive
from realpolitik.phase import Phase, PhaseKind, Season
from realpolitik.position import Position
from realpolitik.rules import Rules
from realpolitik.situation import update_centers
from realpolitik.variants import Edition
from realpolitik.vocab import ARMY, FLEET, Power

__all__ = ["end_of_turn", "next_phase", "ordinal", "reinforcement_orders", "settle"]

# enum members bound once: reading ``PhaseKind.MOVEMENT`` goes through the enum's class
# machinery, several times slower than a module global (these run at every phase)
_MOVEMENT, _RETREATS, _ADJUSTMENTS = PhaseKind.MOVEMENT, PhaseKind.RETREATS, PhaseKind.ADJUSTMENTS
_SPRING, _FALL, _WINTER = Season.SPRING, Season.FALL, Season.WINTER


def next_phase(edition: Edition, phase: Phase, dislodged: bool) -> Phase:
    """The phase after ``phase`` (``dislodged``: the movement left units to retreat)."""
    year = phase.year
    if phase.kind is _MOVEMENT and dislodged:
        return Phase(year, phase.season, _RETREATS)
    if phase.kind is _ADJUSTMENTS:
        if edition.adjustments == "before_spring":
            return Phase(year, _SPRING, _MOVEMENT)
        return Phase(year + 1, _SPRING, _MOVEMENT)
    if phase.season is _SPRING:
        return Phase(year, _FALL, _MOVEMENT)
    if edition.adjustments == "before_spring":
        return Phase(year + 1, _SPRING, _ADJUSTMENTS)
    return Phase(year, _WINTER, _ADJUSTMENTS)


def end_of_turn(edition: Edition, phase: Phase, following: Phase) -> bool:
    """Does the step from ``phase`` to ``following`` end a turn in which centres change
    owner (after the Fall turn and its retreats; conquista: after every turn)?"""
    if phase.kind is _ADJUSTMENTS or following.kind is _RETREATS:
        return False
    return edition.centres == "every_turn" or phase.season is _FALL


def settle(
    edition: Edition, game_map: GameMap, phase: Phase, after: Position
) -> tuple[Phase, Position, bool]:
    """The phase after ``phase`` and the position it starts from, given the position the
    adjudicator left; the flag says whether centre ownership was updated."""
    following = next_phase(edition, phase, bool(after.dislodged))
    if end_of_turn(edition, phase, following):
        return following, update_centers(after, game_map), True
    return following, after, False


def ordinal(phase: Phase) -> int:
    """Half-years since year 0 (Spring even, Fall odd): ages of alliances, phase order."""
    half = 1 if phase.season is not _SPRING else 0
    return 2 * phase.year + half


def reinforcement_orders(
    game_map: GameMap, position: Position, due: Mapping[Power, int], rules: Rules
) -> dict[Power, dict[str, list[Order]]]:
    """Conquista's legal builds (the ``legal_orders`` shape): every unit type on each free
    owned home centre of a power with reinforcements ``due``, and the waive."""
    out: dict[Power, dict[str, list[Order]]] = {}
    for power, count in due.items():
        keyed: dict[str, list[Order]] = {}
        for prov in game_map.homes.get(power, ()):
            if count <= 0 or position.centers.get(prov) != power or prov in position.units:
                continue
            info = game_map.provinces[prov]
            builds: list[Order] = [Build(UnitRef(ARMY, prov))]
            if info.type.value == "coastal":
                locs = [f"{prov}/{c}" for c in info.coasts] or [prov]
                builds += [Build(UnitRef(FLEET, loc)) for loc in locs]
            keyed[prov] = builds
        if keyed:
            if rules.waive == "a":
                keyed["WAIVE"] = [Waive()]
            out[power] = keyed
    return out
