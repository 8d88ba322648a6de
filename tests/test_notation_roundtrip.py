"""Every legal order, written in any language and style, reads back as itself.

The legal orders come from :func:`realpolitik.legal.legal_orders` (movement, retreat and
adjustment phases) for the opening, the example games' positions and random positions. Each
is written with ``format_order`` in every language, short and long, and read back with
``parse_order``: without a position, with the position (the board check must accept it
unchanged), and with the language guessed. Arbitrary order values (no unit type, another
power's unit, any coast) round-trip without a position.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from realpolitik import (
    ARMY,
    FLEET,
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Phase,
    Position,
    Retreat,
    SupportHold,
    SupportMove,
    Unit,
    UnitRef,
    Waive,
    load_map,
    rules_for,
)
from realpolitik.adjudicator import retreat_options
from realpolitik.formats.replay import load_game_record
from realpolitik.formats.situation import adjudicate_situation, read_situation
from realpolitik.legal import legal_orders
from realpolitik.notation import LANGUAGES, STYLES, candidates, format_order, parse_order
from realpolitik.notation.parser import _canonical
from realpolitik.phase import PhaseKind
from realpolitik.position import Dislodged
from realpolitik.vocab import Power, Province

BOARD = load_map("standard")
RULES = rules_for("classic")
START = Position.initial(BOARD)


def _orders(position: Position, phase: Phase) -> list[tuple[Power, Order]]:
    legal = legal_orders(BOARD, position, phase, RULES)
    return [(power, o) for power, keyed in legal.items() for os in keyed.values() for o in os]


def _round_trip(
    power: Power, order: Order, position: Position, phase: Phase, language: str, style: str
) -> None:
    text = format_order(order, language, style)  # type: ignore[arg-type]
    assert parse_order(text, language=language, game_map=BOARD) == order, text
    assert (
        parse_order(
            text, language=language, position=position, game_map=BOARD, power=power, phase=phase
        )
        == order
    ), text
    assert parse_order(text, language=None, game_map=BOARD) == order, text


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_legal_order_of_the_opening(language: str) -> None:
    phase = Phase.parse("S1901M")
    orders = _orders(START, phase)
    assert len(orders) > 200
    for power, order in orders:
        for style in STYLES:
            _round_trip(power, order, START, phase, language, style)


def _record_positions() -> list[tuple[Phase, Position]]:
    out = []
    for game in ("classic_1901_1902", "grow_1901_1902"):
        record = load_game_record(game)
        state = {"units": record["start"]["units"], "centers": record["start"]["centers"]}
        for step in record["phases"]:
            situation = {"phase": step["phase"], **state}
            out.append(read_situation(situation, BOARD))
            result = adjudicate_situation({**situation, "orders": step["orders"]}, RULES)
            state = {k: result[k] for k in ("units", "centers", "dislodged", "contested")}
    return out


RECORDS = _record_positions()


@pytest.mark.parametrize(
    "index",
    [i for i, (phase, _) in enumerate(RECORDS) if phase.kind is not PhaseKind.MOVEMENT],
    ids=lambda i: str(RECORDS[i][0]),
)
def test_every_retreat_and_adjustment_of_the_example_games(index: int) -> None:
    phase, position = RECORDS[index]
    orders = _orders(position, phase)
    assert orders
    for power, order in orders:
        for language in LANGUAGES:
            for style in STYLES:
                _round_trip(power, order, position, phase, language, style)


# --- random positions ------------------------------------------------------------------
PLACES = sorted(
    [(ARMY, loc) for loc in BOARD.army_locations] + [(FLEET, loc) for loc in BOARD.fleet_locations],
    key=lambda item: (item[1], item[0].value),
)


@st.composite
def boards(draw: st.DrawFn) -> tuple[Phase, Position]:
    placed = draw(st.lists(st.sampled_from(PLACES), min_size=1, max_size=30))
    units: dict[Province, Unit] = {}
    for kind, loc in placed:
        unit = Unit(draw(st.sampled_from(BOARD.powers)), kind, loc)
        units.setdefault(unit.province, unit)
    when = draw(st.sampled_from(list(PhaseKind)))
    if when is PhaseKind.MOVEMENT:
        return Phase.parse("F1903M"), Position(units)
    if when is PhaseKind.ADJUSTMENTS:
        centers = {
            prov: owner
            for prov in sorted(BOARD.centers)
            if (owner := draw(st.sampled_from((None, *BOARD.powers)))) is not None
        }
        return Phase.parse("W1903A"), Position(units, centers)
    dislodged: dict[Province, Dislodged] = {}
    for prov in draw(st.lists(st.sampled_from(sorted(units)), max_size=4, unique=True)):
        here = [(k, loc) for k, loc in PLACES if loc.split("/")[0] == prov]
        k, loc = draw(st.sampled_from(here))
        loser = Unit(draw(st.sampled_from(BOARD.powers)), k, loc)
        attacker = draw(st.sampled_from(sorted(BOARD.any_adjacency[prov])))
        retreats = retreat_options(BOARD, loser, units, frozenset(), attacker)
        dislodged[prov] = Dislodged(loser, attacker, retreats)
    return Phase.parse("F1903R"), Position(units, {}, dislodged)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(board=boards(), data=st.data())
def test_legal_orders_of_random_positions(board: tuple[Phase, Position], data: Any) -> None:
    phase, position = board
    orders = _orders(position, phase)
    if not orders:
        return
    picked = data.draw(st.lists(st.sampled_from(orders), min_size=1, max_size=6))
    for power, order in picked:
        language = data.draw(st.sampled_from(LANGUAGES))
        style = data.draw(st.sampled_from(STYLES))
        _round_trip(power, order, position, phase, language, style)


# --- arbitrary order values --------------------------------------------------------------
LOCATIONS = sorted(set(BOARD.army_locations) | set(BOARD.fleet_locations) | set(BOARD.provinces))
refs = st.builds(
    UnitRef,
    st.sampled_from((None, ARMY, FLEET)),
    st.sampled_from(LOCATIONS),
    st.sampled_from((None, None, *BOARD.powers)),
)
locations = st.sampled_from(LOCATIONS)
order_values = st.one_of(
    st.builds(Hold, refs),
    st.builds(Move, refs, locations, st.booleans()),
    st.builds(SupportHold, refs, refs),
    st.builds(SupportMove, refs, refs, locations),
    st.builds(Convoy, refs, refs, locations),
    st.builds(Retreat, refs, locations),
    st.builds(Disband, refs),
    st.builds(Build, refs),
    st.just(Waive()),
)


@settings(max_examples=300, deadline=None)
@given(order=order_values)
def test_any_order_value_round_trips(order: Order) -> None:
    for language in LANGUAGES:
        for style in STYLES:
            text = format_order(order, language, style)
            assert parse_order(text, language=language, game_map=BOARD) == order, text


# the conquista board's own places (seed 004): London's and Brest's coasts, the Sea of
# Denmark, Slovakia
CONQUISTA = load_map("conquista")
CONQUISTA_PLACES = sorted(
    p
    for p in set(CONQUISTA.army_locations) | set(CONQUISTA.fleet_locations)
    if p[:3] in ("LON", "BRE", "SDN", "SLO", "DEN", "SWE", "SKA", "BAL")
)
conquista_refs = st.builds(
    UnitRef, st.sampled_from((None, ARMY, FLEET)), st.sampled_from(CONQUISTA_PLACES)
)
conquista_orders = st.one_of(
    st.builds(Move, conquista_refs, st.sampled_from(CONQUISTA_PLACES)),
    st.builds(SupportMove, conquista_refs, conquista_refs, st.sampled_from(CONQUISTA_PLACES)),
    st.builds(Build, conquista_refs),
)


@settings(max_examples=100, deadline=None)
@given(order=conquista_orders)
def test_conquista_board_orders_round_trip(order: Order) -> None:
    for language in LANGUAGES:
        for style in STYLES:
            text = format_order(order, language, style, game_map=CONQUISTA)
            assert parse_order(text, language=language, game_map=CONQUISTA) == order, text


@settings(max_examples=300, deadline=None)
@given(order=order_values)
def test_the_fast_path_reads_what_the_grammar_reads(order: Order) -> None:
    text = str(order)  # the English short notation, as the JSON contract writes it
    found = candidates(text, "en", BOARD)
    cheapest = {o for o, cost in found if cost == found[0][1]}
    assert cheapest == {_canonical(text, BOARD)}


# The short notation the fast path reads, as a regular expression: the specification the
# hand-written reader is held to, on any run of words.
_LOC = r"([A-Z]{3}(?:/(?:NC|SC|EC|WC))?)"
_POWER = rf"(?:({'|'.join(BOARD.powers)}) )?"
_SHORT = re.compile(
    rf"{_POWER}(?:([AF]) )?{_LOC} "
    rf"(?:([HDB])|- {_LOC}( VIA)?|R {_LOC}|([SC]) {_POWER}(?:([AF]) )?{_LOC}(?: - {_LOC})?)"
)
_KINDS = {"A": ARMY, "F": FLEET, None: None}


def _specified(text: str) -> Order | None:
    text = text.strip().upper()
    if text == "WAIVE":
        return Waive()
    match = _SHORT.fullmatch(text)
    if match is None:
        return None
    (power, kind, loc, verb, dest, via, retreat, aid, target_power, target_kind, target,
     target_dest) = match.groups()  # fmt: skip
    places = (loc, dest, retreat, target, target_dest)
    if any(p is not None and p.split("/")[0] not in BOARD.provinces for p in places):
        return None
    unit = UnitRef(_KINDS[kind], loc, power)
    other = UnitRef(_KINDS[target_kind], target, target_power) if target is not None else None
    if verb is not None:
        return Hold(unit) if verb == "H" else Disband(unit) if verb == "D" else Build(unit)
    if dest is not None:
        return Move(unit, dest, via is not None)
    if retreat is not None:
        return Retreat(unit, retreat)
    assert other is not None
    if aid == "S":
        return (
            SupportHold(unit, other)
            if target_dest is None
            else SupportMove(unit, other, target_dest)
        )
    return None if target_dest is None else Convoy(unit, other, target_dest)


_WORDS = (
    "A", "F", "a", "PAR", "par", "BUR", "SPA/NC", "spa/sc", "STP/NC", "PAR/EC", "MAO", "NTH",
    "SPA/XC", "XYZ", "PARIS", "H", "D", "B", "-", "R", "S", "C", "VIA", "via", "WAIVE", "",
    " ", "\t", "S-", "H.", "TURKEY", "france", "ITALIAN",
)  # fmt: skip


@settings(max_examples=2000, deadline=None)
@given(words=st.lists(st.sampled_from(_WORDS), max_size=9), pad=st.sampled_from(("", " ", "\n")))
def test_the_fast_path_reads_the_short_notation_exactly(words: list[str], pad: str) -> None:
    text = pad + " ".join(words) + pad
    assert _canonical(text, BOARD) == _specified(text), text


@settings(max_examples=1000, deadline=None)
@given(
    order=order_values,
    edit=st.sampled_from(("insert", "replace", "delete")),
    at=st.integers(0, 8),
    word=st.sampled_from(_WORDS),
)
def test_the_fast_path_reads_near_misses_exactly(
    order: Order, edit: str, at: int, word: str
) -> None:
    words = str(order).split(" ")
    at = min(at, len(words) - 1)
    if edit == "insert":
        words.insert(at + 1, word)
    elif edit == "replace":
        words[at] = word
    else:
        del words[at]
    text = " ".join(words)
    assert _canonical(text, BOARD) == _specified(text), text


@pytest.mark.parametrize(
    "text",
    [
        "A PAR - BUR", "PAR - BUR VIA", "F NTH C A LON - BEL", "A MUN S A BER", "A MUN S BER",
        "F MAO S F SPA/NC - POR", "F STP/NC B", "A PAR R BUR", "A PAR D", "waive", " a par h ",
        "F NTH C A LON", "A PAR - BUR - MAR", "A PAR  - BUR", "A PAR - BUR VIA VIA", "A PAR",
        "A PAR S", "A PAR S A", "A PAR S A MUN -", "A XYZ H", "A PAR - XYZ", "A PAR R",
        "A PAR - BUR H", "A PAR H H", "A PAR R BUR VIA", "F NTH C A LON - BEL VIA",
    ],
)  # fmt: skip
def test_the_fast_path_on_chosen_texts(text: str) -> None:
    assert _canonical(text, BOARD) == _specified(text)
