"""Orders as typed values and the English short notation, both ways."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from realpolitik import (
    ARMY,
    FLEET,
    Build,
    Convoy,
    Disband,
    Hold,
    InvalidOrderError,
    Move,
    Order,
    Phase,
    PhaseKind,
    Retreat,
    Season,
    SupportHold,
    SupportMove,
    UnitRef,
    UnitType,
    Waive,
    parse_order,
)
from realpolitik.maps import load_map

STANDARD = load_map("standard")


def A(loc: str) -> UnitRef:
    return UnitRef(ARMY, loc)


def F(loc: str) -> UnitRef:
    return UnitRef(FLEET, loc)


SHORT = [
    ("A PAR - BUR", Move(A("PAR"), "BUR")),
    ("A PAR H", Hold(A("PAR"))),
    ("F NTH C A LON - BEL", Convoy(F("NTH"), A("LON"), "BEL")),
    ("A LON - BEL VIA", Move(A("LON"), "BEL", via_convoy=True)),
    ("A MAR S A PAR - BUR", SupportMove(A("MAR"), A("PAR"), "BUR")),
    ("A MUN S A BER", SupportHold(A("MUN"), A("BER"))),
    ("F STP/NC B", Build(F("STP/NC"))),
    ("A PAR R BUR", Retreat(A("PAR"), "BUR")),
    ("A PAR D", Disband(A("PAR"))),
    ("WAIVE", Waive()),
]


@pytest.mark.parametrize(("text", "order"), SHORT, ids=[t for t, _ in SHORT])
def test_short_notation_round_trips(text, order) -> None:
    assert parse_order(text, game_map=STANDARD) == order
    assert str(order) == text


@pytest.mark.parametrize(
    ("text", "order"),
    [
        ("F London Supports F Wales - English Channel",
         SupportMove(F("LON"), F("WAL"), "ENG")),
        ("F North Sea Convoys A London - Holland", Convoy(F("NTH"), A("LON"), "HOL")),
        ("A Gascony - Marseilles via convoy", Move(A("GAS"), "MAR", via_convoy=True)),
        ("F Spain(nc) - Gulf of Lyon", Move(F("SPA/NC"), "LYO")),
        ("F Mid-Atlantic Ocean - Spain(sc)", Move(F("MAO"), "SPA/SC")),
        ("Build F St Petersburg(nc)", Build(F("STP/NC"))),
        ("Disband F English Channel", Disband(F("ENG"))),
        ("a par-bur", Move(A("PAR"), "BUR")),
        ("PAR - BUR", Move(UnitRef(None, "PAR"), "BUR")),
        ("A Yorkshire - North Sea - Belgium", Move(A("YOR"), "BEL")),
        ("A Serbia Supports Turkish A Bulgaria - Rumania",
         SupportMove(A("SER"), UnitRef(ARMY, "BUL", "TURKEY"), "RUM")),
    ],
)  # fmt: skip
def test_long_english(text, order) -> None:
    assert parse_order(text, game_map=STANDARD) == order


@pytest.mark.parametrize("text", ["", "A", "A PAR -", "A PAR S", "A PAR XYZ", "A PAR - BUR BUR"])
def test_not_understood(text) -> None:
    with pytest.raises(InvalidOrderError):
        parse_order(text, game_map=STANDARD)


def test_orders_are_immutable_values() -> None:
    order = Move(A("PAR"), "BUR")
    assert order == Move(A("PAR"), "BUR") and hash(order) == hash(Move(A("PAR"), "BUR"))
    with pytest.raises(AttributeError):
        order.destination = "PIC"  # type: ignore[misc]


def test_phase_round_trip() -> None:
    for text in ("S1901M", "F1901R", "W1901A"):
        assert str(Phase.parse(text)) == text
    with pytest.raises(ValueError, match="bad phase"):
        Phase.parse("X1901M")


def test_a_phase_or_unit_reference_of_letters_is_refused_when_made() -> None:
    """``Phase(1901, "S", "M")`` was made, and ``adjudicate`` took it for an adjustment
    phase (every move "illegal": only builds... in an adjustment phase); an order naming
    ``UnitRef("A", "PAR")`` was taken by ``Game.submit``, then the game's view, its saving
    and ``process`` (after moving the game on) failed on it. Both are refused when made,
    naming the value and how to write it."""
    with pytest.raises(TypeError, match=r"a phase's season is a Season \(Season.SPRING\), not 'S'"):
        Phase(1901, "S", PhaseKind.MOVEMENT)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"a phase's kind is a PhaseKind .*, not 'M'"):
        Phase(1901, Season.SPRING, "M")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="a phase's year is a whole number, not '1901'"):
        Phase("1901", Season.SPRING, PhaseKind.MOVEMENT)  # type: ignore[arg-type]
    assert Phase(1901, Season.SPRING, PhaseKind.MOVEMENT) == Phase.parse("S1901M")
    with pytest.raises(TypeError, match=r"a unit's type is ARMY, FLEET or None, not 'A'"):
        UnitRef("A", "PAR")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="a unit's location is a text such as 'PAR', not 5"):
        UnitRef(ARMY, 5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="a unit's nationality is a power's name or None, not 1"):
        UnitRef(ARMY, "SER", 1)  # type: ignore[arg-type]
    assert str(UnitRef(None, "SER", "TURKEY")) == "TURKEY SER"


# --- str(order) and parse_order round-trip, for any order ----------------------------------
_LOCATIONS = sorted({*STANDARD.army_adjacency, *STANDARD.fleet_adjacency})


@st.composite
def _refs(draw: st.DrawFn) -> UnitRef:
    location = draw(st.sampled_from(_LOCATIONS))
    kinds: list[UnitType | None] = [None]
    if location in STANDARD.army_adjacency:
        kinds.append(ARMY)
    if location in STANDARD.fleet_adjacency:
        kinds.append(FLEET)
    power = draw(st.sampled_from((None, *STANDARD.powers)))
    return UnitRef(draw(st.sampled_from(kinds)), location, power)


_PLACES = st.sampled_from(_LOCATIONS)
_ORDERS = st.one_of(
    st.builds(Hold, _refs()),
    st.builds(Move, _refs(), _PLACES, st.booleans()),
    st.builds(SupportHold, _refs(), _refs()),
    st.builds(SupportMove, _refs(), _refs(), _PLACES),
    st.builds(Convoy, _refs(), _refs(), _PLACES),
    st.builds(Retreat, _refs(), _PLACES),
    st.builds(Disband, _refs()),
    st.builds(Build, _refs()),
    st.just(Waive()),
)


@settings(max_examples=400, deadline=None)
@given(_ORDERS)
def test_str_and_parse_order_round_trip(order: Order) -> None:
    assert parse_order(str(order), game_map=STANDARD) == order
