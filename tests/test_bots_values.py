"""Province values: centres to take and threatened own centres are worth most, and worth
spreads to the places near them, for armies and fleets apart."""

from __future__ import annotations

from realpolitik.bots.values import threats, values
from realpolitik.maps import load_map
from realpolitik.position import Position
from realpolitik.vocab import ARMY, FLEET, Unit

BOARD = load_map("standard")
START = Position.initial(BOARD)


def test_neutral_centres_draw_units_from_home() -> None:
    v = values(BOARD, START, "FRANCE")
    assert v.of(ARMY, "BUR") > v.of(ARMY, "GAS")  # next to BEL, MUN, PAR, MAR
    assert v.of(ARMY, "SPA") > v.of(ARMY, "PIC")
    assert v.of(FLEET, "MAO") > v.of(FLEET, "IRI")
    assert v.of(ARMY, "SPA") > v.of(ARMY, "PAR")  # a neutral centre over a quiet home


def test_a_threatened_own_centre_is_worth_more() -> None:
    quiet = values(BOARD, START, "FRANCE").of(ARMY, "MAR")
    units = dict(START.units) | {"PIE": Unit("ITALY", ARMY, "PIE")}
    threatened = values(BOARD, Position(units, START.centers), "FRANCE").of(ARMY, "MAR")
    assert threatened > quiet


def test_armies_and_fleets_are_valued_apart() -> None:
    v = values(BOARD, START, "RUSSIA")
    assert v.of(FLEET, "STP/SC") != v.of(FLEET, "STP/NC")
    assert v.of(ARMY, "MAO") == 0.0  # no army stands at sea
    assert v.of(FLEET, "MOS") == 0.0  # nor a fleet inland


def test_threats_count_the_units_of_others() -> None:
    t = threats(BOARD, START, "GERMANY")
    assert t.get("BUR", 0) == 2  # A PAR, A MAR (A MUN is Germany's own)
    assert t.get("SIL", 0) == 1  # A WAR
    assert t.get("GAL", 0) == 3  # A WAR, A VIE, A BUD
