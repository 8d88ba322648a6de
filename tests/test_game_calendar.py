"""The calendar (:mod:`realpolitik.game.calendar`): which phase follows, when centres change owner,
when an adjustment phase is skipped, per edition."""

from __future__ import annotations

import pytest

from realpolitik.game.calendar import changes_owners, idle_adjustments, next_phase, settle
from realpolitik.game.editions import edition
from realpolitik.maps import load_map
from realpolitik.phase import Phase
from realpolitik.position import Position

STANDARD = load_map("standard")


@pytest.mark.parametrize(
    ("name", "phase", "dislodged", "following"),
    [
        ("classic", "S1901M", False, "F1901M"),
        ("classic", "S1901M", True, "S1901R"),
        ("classic", "S1901R", False, "F1901M"),
        ("classic", "F1901M", False, "W1901A"),
        ("classic", "F1901R", False, "W1901A"),
        ("classic", "W1901A", False, "S1902M"),
        ("grow", "F1901M", False, "W1901A"),
        ("conquista", "S1914M", False, "F1914M"),
        ("conquista", "F1914M", False, "S1915A"),
        ("conquista", "S1915A", False, "S1915M"),
    ],
)
def test_next_phase(name: str, phase: str, dislodged: bool, following: str) -> None:
    assert str(next_phase(edition(name), Phase.parse(phase), dislodged)) == following


@pytest.mark.parametrize(
    ("name", "phase", "following", "changes"),
    [
        ("classic", "S1901M", "F1901M", False),
        ("classic", "F1901M", "F1901R", False),
        ("classic", "F1901M", "W1901A", True),
        ("classic", "F1901R", "W1901A", True),
        ("classic", "W1901A", "S1902M", False),
        ("conquista", "S1914M", "F1914M", True),
        ("conquista", "S1915A", "S1915M", False),
    ],
)
def test_changes_owners(name: str, phase: str, following: str, changes: bool) -> None:
    got = changes_owners(edition(name), Phase.parse(phase), Phase.parse(following))
    assert got is changes


def _moved(position: Position, frm: str, to: str) -> Position:
    units = dict(position.units)
    units[to] = units.pop(frm)
    return Position(units, dict(position.centers), {}, frozenset())


def test_settle_changes_owners_after_fall_only() -> None:
    classic = edition("classic")
    start = Position.initial(STANDARD)
    moved = _moved(start, "PAR", "BEL")
    spring, same = settle(classic, STANDARD, Phase.parse("S1901M"), moved)
    assert (str(spring), same.centers.get("BEL")) == ("F1901M", None)
    winter, after = settle(classic, STANDARD, Phase.parse("F1901M"), moved)
    assert (str(winter), after.centers["BEL"], after.centers["PAR"]) == (
        "W1901A",
        "FRANCE",
        "FRANCE",
    )


def test_idle_adjustment_phase_is_skipped_on_request() -> None:
    classic = edition("classic")
    start = Position.initial(STANDARD)
    assert idle_adjustments(STANDARD, start, classic.rules)
    assert str(settle(classic, STANDARD, Phase.parse("F1901M"), start)[0]) == "W1901A"
    skipped, _ = settle(classic, STANDARD, Phase.parse("F1901M"), start, skip_idle=True)
    assert str(skipped) == "S1902M"
    gained = _moved(start, "PAR", "BEL")
    _, owned = settle(classic, STANDARD, Phase.parse("F1901M"), gained)
    assert not idle_adjustments(STANDARD, owned, classic.rules)
    busy, _ = settle(classic, STANDARD, Phase.parse("F1901M"), gained, skip_idle=True)
    assert str(busy) == "W1901A"
