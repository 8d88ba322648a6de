"""The calendar of an edition, its one home: which phase follows, when centres change owner,
when an adjustment phase is skipped, and one phase played through it (:func:`play`).

Classic, 1971 and grow: Spring (grow: Winter) and Fall (Summer) turns, each a movement
phase and, when a unit was dislodged, a retreat phase; centres change owner at the end of
the Fall turn, then an adjustment phase. Conquista: no retreats (dislodged units are
destroyed), centres change owner at the end of every turn, and the reinforcements come at
the start of each Spring from the second year (``S1915A`` before ``S1915M``).

    >>> from realpolitik.game.editions import edition
    >>> str(next_phase(edition("conquista"), Phase.parse("F1914M"), False))
    'S1915A'

An adjustment phase in which no power has a build or a removal to make is *idle*: the JSON
contract skips it (:func:`play` with ``skip_idle``); a :class:`~realpolitik.game.Game`
processes it at once and records it as skipped (civil-disorder removals happen there).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from realpolitik.adjudicator import Resolution, adjudicate
from realpolitik.adjudicator.adjustments import free_homes, net_upkeep
from realpolitik.game.editions import Edition
from realpolitik.maps.model import GameMap
from realpolitik.orders import Order
from realpolitik.phase import Phase, PhaseKind, Season
from realpolitik.position import Position
from realpolitik.rules import Dislodging, Rules
from realpolitik.vocab import Power, Province

__all__ = [
    "Turn",
    "changes_owners",
    "idle_adjustments",
    "next_phase",
    "ordinal",
    "phases_of_year",
    "play",
    "settle",
    "turn_changes_owners",
    "update_centers",
]


def next_phase(edition: Edition, phase: Phase, dislodged: bool) -> Phase:
    """The phase after ``phase`` (``dislodged``: the movement left units to retreat)."""
    year, season, kind = phase.year, phase.season, phase.kind
    if kind is _MOVEMENT and dislodged:
        return _phase(year, season, _RETREATS)
    if kind is _ADJUSTMENTS:
        if edition.adjustment_time == "before_spring":
            return _phase(year, _SPRING, _MOVEMENT)
        return _phase(year + 1, _SPRING, _MOVEMENT)
    if season is _SPRING:
        return _phase(year, _FALL, _MOVEMENT)
    if edition.adjustment_time == "before_spring":
        return _phase(year + 1, _SPRING, _ADJUSTMENTS)
    return _phase(year, _WINTER, _ADJUSTMENTS)


def phases_of_year(edition: Edition, rules: Rules, year: int) -> tuple[Phase, ...]:
    """Every phase a year of ``edition`` can have under ``rules``, in order: Spring and Fall
    movement, each with its retreats unless dislodged units are destroyed (conquista), and
    the adjustments, in Winter or, for reinforcements, before the Spring turn (conquista).

        >>> from realpolitik.game.editions import edition
        >>> [str(p) for p in phases_of_year(edition("conquista"), edition("conquista").rules, 1915)]
        ['S1915A', 'S1915M', 'F1915M']
    """
    retreats = rules.dislodged is not Dislodging.DESTROYED
    first = _ADJUSTMENTS if edition.adjustment_time == "before_spring" else _MOVEMENT
    phase, phases = _phase(year, _SPRING, first), []
    while phase.year == year:  # the year as next_phase walks it, with every retreat taken
        phases.append(phase)
        phase = next_phase(edition, phase, retreats)
    return tuple(phases)


def turn_changes_owners(edition: Edition, phase: Phase) -> bool:
    """Do centres change owner at the end of the turn of ``phase`` (the Fall turn;
    conquista: every turn)?"""
    return edition.centers == "every_turn" or phase.season is _FALL


def changes_owners(edition: Edition, phase: Phase, following: Phase) -> bool:
    """Does the step from ``phase`` to ``following`` end a turn in which centres change
    owner (:func:`turn_changes_owners`: after the turn's retreats)?"""
    if phase.kind is _ADJUSTMENTS or following.kind is _RETREATS:
        return False
    return turn_changes_owners(edition, phase)


# bound once: reading ``PhaseKind.MOVEMENT`` is slow on Python 3.11 (the enum's metaclass): 3.5%
# of adjudicating an adjustment phase (callgrind, on make bench-instructions' phases)
_MOVEMENT, _RETREATS, _ADJUSTMENTS = PhaseKind.MOVEMENT, PhaseKind.RETREATS, PhaseKind.ADJUSTMENTS
_SPRING, _FALL, _WINTER = Season.SPRING, Season.FALL, Season.WINTER
_PHASES: dict[tuple[int, str, str], Phase] = {}


def _phase(year: int, season: Season, kind: PhaseKind) -> Phase:
    """``Phase(year, season, kind)``, made once and shared: a look-up costs a fifth of making
    the frozen value (keyed by the members' letters: hashing a member runs Python code);
    without it a retreat phase's adjudication takes 3.7% more instructions (callgrind)."""
    key = (year, season._value_, kind._value_)
    found = _PHASES.get(key)
    if found is None:
        found = _PHASES[key] = Phase(year, season, kind)
    return found


def update_centers(position: Position, game_map: GameMap) -> Position:
    """Each occupied supply centre becomes its occupier's (the same position when none
    changes hands)."""
    owners, centers = position.centers, game_map.centers
    changes: dict[Province, Power] = {
        prov: unit.power
        for prov, unit in position.units.items()
        if prov in centers and owners.get(prov) != unit.power
    }
    if not changes:
        return position
    return Position(position.units, {**owners, **changes}, position.dislodged, position.contested)


def idle_adjustments(game_map: GameMap, position: Position, rules: Rules) -> bool:
    """No power has a build (with a free home centre to build in) or a removal to make."""
    for power, due in net_upkeep(game_map, position, rules).items():
        if due < 0 or (due > 0 and free_homes(game_map, position, power)):
            return False
    return True


def settle(
    edition: Edition,
    game_map: GameMap,
    phase: Phase,
    after: Position,
    *,
    skip_idle: bool = False,
) -> tuple[Phase, Position]:
    """The phase after ``phase`` and the position it starts from, given the position the
    adjudicator left (centres change owner at the end of a turn that changes them);
    ``skip_idle``: an idle adjustment phase is passed over."""
    following = next_phase(edition, phase, bool(after.dislodged))
    if changes_owners(edition, phase, following):
        after = update_centers(after, game_map)
    if (
        skip_idle
        and following.kind is _ADJUSTMENTS
        and idle_adjustments(game_map, after, edition.rules)
    ):
        following = next_phase(edition, following, False)
    return following, after


@dataclass(frozen=True, slots=True)
class Turn:
    """One phase played: the orders adjudicated, their :class:`Resolution`, and the phase
    that follows with the position it starts from (``after``)."""

    phase: Phase
    position: Position
    orders: Mapping[Power, Sequence[Order]]
    resolution: Resolution
    following: Phase
    after: Position


def play(
    edition: Edition,
    game_map: GameMap,
    rules: Rules,
    phase: Phase,
    position: Position,
    orders: Mapping[Power, Sequence[Order]],
    *,
    disorder: Collection[Power] = (),
    accepted: Collection[tuple[Power, Province]] = (),
    skip_idle: bool = False,
) -> Turn:
    """Adjudicate ``phase`` and move on along the edition's calendar: the one game loop's
    step, used by :class:`~realpolitik.game.Game`, the JSON contract, replays and the
    flip-book (``disorder``, ``accepted``: see :func:`~realpolitik.adjudicator.adjudicate`)."""
    resolution = adjudicate(
        game_map, position, orders, rules, phase, disorder=disorder, accepted=accepted
    )
    following, after = settle(edition, game_map, phase, resolution.position, skip_idle=skip_idle)
    return Turn(phase, position, orders, resolution, following, after)


def ordinal(phase: Phase) -> int:
    """Half-years since year 0 (Spring even, Fall odd): ages of alliances, phase order."""
    return 2 * phase.year + (0 if phase.season is _SPRING else 1)
