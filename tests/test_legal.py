"""Legal orders: exactly the orders the adjudicator accepts as legal.

Both ways, on positions from random legal play and on random positions crowded with fleets
at sea (where convoys get interesting): every listed order is judged legal, and every order
built from the map that the adjudicator does not judge illegal is listed (in its canonical
spelling)."""

from __future__ import annotations

import random
import re
import threading
from collections.abc import Iterator

import pytest

from realpolitik import (
    ARMY,
    FLEET,
    Build,
    Convoy,
    Disband,
    Game,
    Hold,
    Move,
    Order,
    OrderResult,
    Phase,
    Position,
    Retreat,
    Rules,
    SupportHold,
    SupportMove,
    Unit,
    UnitRef,
    Waive,
    adjudicate,
    load_map,
    rules_for,
)
from realpolitik.adjudicator import builds_due
from realpolitik.adjudicator.convoy import has_route, seas_of
from realpolitik.adjudicator.problem import build_problem
from realpolitik.game.calendar import settle
from realpolitik.game.editions import edition
from realpolitik.legal import WAIVE, _fast, legal_orders, unit_orders
from realpolitik.legal.listing import _Carriage, _tables, as_listed, movement_orders
from realpolitik.maps.loader import _raw, map_from_dict
from realpolitik.maps.model import GameMap, ProvinceType
from realpolitik.phase import PhaseKind
from realpolitik.position import Dislodged
from realpolitik.rules import SupportReach
from realpolitik.vocab import province_of
from tests.gamekit import random_orders

MAP = load_map("standard")
DATC = rules_for("datc")
CLASSIC = rules_for("classic")
CONQUISTA = rules_for("conquista", support_reach="borders")
"""Conquista with its book's reach of supports, a table's option (``--rule
support_reach=borders``): a unit supports into any province its own borders. The preset
keeps the classic reach (RULES.md §1)."""
S1901 = Phase.parse("S1901M")
COASTAL = {p for p, i in MAP.provinces.items() if i.type is ProvinceType.COASTAL}
LOCATIONS = sorted(set(MAP.provinces) | set(MAP.fleet_locations))


# --- positions to test on --------------------------------------------------------------------
def _pick(rng: random.Random, keyed: dict[str, list[Order]], due: int | None) -> list[Order]:
    keys = sorted(keyed)
    if due is not None:
        keys = sorted(rng.sample(keys, min(abs(due), len(keys))))
    return [rng.choice(keyed[k]) for k in keys]


def played(seed: int, phases: int, rules: Rules = DATC) -> Iterator[tuple[Phase, Position]]:
    """The phases of a random legal game."""
    rng = random.Random(seed)
    position, phase = Position.initial(MAP), S1901
    for _ in range(phases):
        yield phase, position
        legal = legal_orders(MAP, position, phase, rules)
        counts = builds_due(MAP, position)
        adjusting = phase.kind is PhaseKind.ADJUSTMENTS
        orders = {
            p: _pick(rng, keyed, counts.get(p, 0) if adjusting else None)
            for p, keyed in legal.items()
        }
        resolution = adjudicate(MAP, position, orders, rules, phase)
        phase, position = settle(
            edition("classic"), MAP, phase, resolution.position, skip_idle=True
        )


def crowded(seed: int) -> Position:
    """A random position with many fleets at sea and armies on the coasts."""
    rng = random.Random(seed)
    units: dict[str, Unit] = {}
    for prov in sorted(MAP.provinces):
        if rng.random() > 0.55:
            continue
        power = rng.choice(MAP.powers)
        info = MAP.provinces[prov]
        if info.type is ProvinceType.SEA:
            units[prov] = Unit(power, FLEET, prov)
        elif info.type is ProvinceType.COASTAL and rng.random() < 0.3:
            coast = rng.choice(info.coasts) if info.coasts else None
            units[prov] = Unit(power, FLEET, f"{prov}/{coast}" if coast else prov)
        elif info.is_land:
            units[prov] = Unit(power, ARMY, prov)
    return Position(units, dict(Position.initial(MAP).centers))


def movement_positions() -> list[Position]:
    out = [p for ph, p in played(7, 60) if ph.kind is PhaseKind.MOVEMENT][::5]
    return out + [crowded(seed) for seed in range(4)]


MOVEMENT = movement_positions()


# --- helpers ----------------------------------------------------------------------------------
def listed(position: Position, phase: Phase = S1901, rules: Rules = DATC) -> set[Order]:
    out: set[Order] = set()
    for keyed in legal_orders(MAP, position, phase, rules).values():
        for orders in keyed.values():
            assert len(set(orders)) == len(orders), "an order is listed twice"
            out.update(orders)
    return out


def assert_all_legal(position: Position, phase: Phase, rules: Rules) -> int:
    """Adjudicate every listed order (one order per unit and call) and check none is
    illegal. Returns the number of orders checked."""
    legal = legal_orders(MAP, position, phase, rules)
    checked = 0
    if phase.kind is PhaseKind.ADJUSTMENTS:
        for power, keyed in legal.items():
            for orders in keyed.values():
                for order in orders:
                    result = adjudicate(MAP, position, {power: [order]}, rules, phase)
                    outcome = result.outcome_of(order)
                    assert outcome.result is OrderResult.SUCCEEDS, (order, outcome.reason)
                    checked += 1
        return checked
    lists = [(power, orders) for power, keyed in legal.items() for orders in keyed.values()]
    for k in range(max((len(orders) for _, orders in lists), default=0)):
        round_orders: dict[str, list[Order]] = {}
        for power, orders in lists:
            if k < len(orders):
                round_orders.setdefault(power, []).append(orders[k])
        result = adjudicate(MAP, position, round_orders, rules, phase)
        for outcome in result.outcomes:
            assert outcome.result is not OrderResult.ILLEGAL, (str(outcome.order), outcome.reason)
            checked += not outcome.implied
    return checked


def candidates(position: Position) -> list[tuple[str, Order]]:
    """Every movement order one can write from the map for the units on the board, in the
    canonical spelling: exact locations, unit types given, support and convoy destinations
    as provinces (supports into the provinces next to the supporter)."""
    out: list[tuple[str, Order]] = []
    units = sorted(position.units.values(), key=lambda u: u.location)
    refs = {u.province: UnitRef(u.type, u.location) for u in units}
    for unit in units:
        ref = refs[unit.province]
        out.append((unit.power, Hold(ref)))
        for loc in LOCATIONS:
            out.append((unit.power, Move(ref, loc)))
            out.append((unit.power, Move(ref, loc, via_convoy=True)))
        for other in units:
            target = refs[other.province]
            out.append((unit.power, SupportHold(ref, target)))
            # a unit supports only into a province next to it (by land or sea): the others
            # are left out to keep the test fast
            for prov in sorted(MAP.any_adjacency[unit.province]):
                out.append((unit.power, SupportMove(ref, target, prov)))
            if unit.type is FLEET and other.type is ARMY:
                for prov in sorted(COASTAL):
                    out.append((unit.power, Convoy(ref, target, prov)))
    return out


def canonical(order: Order, fleet_seas: frozenset[str]) -> Order | None:
    """A move by convoy to a non-adjacent province is listed with VIA; a move VIA to an
    adjacent province with no convoy route on the board is not listed (it cannot go by
    convoy: it is the land move, or under DATC 4.A.3 d an invalid order). Armies' moves
    name no coast; fleets' moves name the coast they reach."""
    if isinstance(order, Move) and order.unit.type is ARMY:
        # a coast in an army's move is ignored (DATC 4.B.6 b): the province is the spelling
        order = Move(order.unit, province_of(order.destination), order.via_convoy)
        adjacent = MAP.can_move(ARMY, order.unit.location, order.destination)
        if not order.via_convoy and not adjacent:
            return Move(order.unit, order.destination, via_convoy=True)
        if order.via_convoy and adjacent:
            src = order.unit.province
            if not has_route(MAP, src, order.destination, fleet_seas):
                return None
    if isinstance(order, Move) and order.unit.type is FLEET and order.destination in MAP:
        # a fleet's move with the coast left out where only one coast can be reached
        options = MAP.fleet_destinations(order.unit.location, order.destination)
        if len(options) == 1:
            return Move(order.unit, options[0])
    return order


def judged_legal(position: Position, rules: Rules) -> set[Order]:
    """The candidates the board does not judge illegal (each judged on its own: the board
    judges every order alone before it keeps one order per unit)."""
    entries = candidates(position)
    orders: dict[str, list[Order]] = {}
    for power, order in entries:
        orders.setdefault(power, []).append(order)
    problem = build_problem(MAP, position, orders, rules)
    verdicts = problem.verdicts
    legal = {
        canonical(order, problem.seas_with_fleets())
        for number, (_, order, _) in enumerate(problem.orders)
        if number not in verdicts
        or verdicts[number][0] is not OrderResult.ILLEGAL
        or verdicts[number][1].key == "another_order"
    }
    return {o for o in legal if o is not None}


# --- the opening ----------------------------------------------------------------------------
def test_opening_counts_match_the_peer() -> None:
    """Spring 1901: the PyPI ``diplomacy`` package (1.1.2) lists 238 orders, 34 29 30 38 38 42
    27 per power in alphabetical order; with no fleet at sea there is no convoy, and the two
    engines agree order for order (its lists are keyed by location as ours)."""
    legal = legal_orders(MAP, Position.initial(MAP), S1901, CLASSIC)
    counts = {p: sum(len(v) for v in keyed.values()) for p, keyed in legal.items()}
    assert counts == {
        "AUSTRIA": 34,
        "ENGLAND": 29,
        "FRANCE": 30,
        "GERMANY": 38,
        "ITALY": 38,
        "RUSSIA": 42,
        "TURKEY": 27,
    }
    assert sorted(str(o) for o in legal["ENGLAND"]["LON"]) == sorted(
        [
            "F LON S F BRE - ENG",
            "F LON - YOR",
            "F LON S A LVP - WAL",
            "F LON - NTH",
            "F LON H",
            "F LON S A LVP - YOR",
            "F LON S F EDI - NTH",
            "F LON - WAL",
            "F LON - ENG",
            "F LON S F EDI - YOR",
        ]
    )
    assert [str(o) for o in legal["RUSSIA"]["STP/SC"]] == [
        "F STP/SC H",
        "F STP/SC - BOT",
        "F STP/SC - FIN",
        "F STP/SC - LVN",
        "F STP/SC S A MOS - LVN",
        "F STP/SC S A WAR - LVN",
    ]


def test_keys_and_the_default_order_first() -> None:
    legal = legal_orders(MAP, Position.initial(MAP), S1901, DATC)
    assert list(legal) == sorted(MAP.powers)
    assert list(legal["RUSSIA"]) == ["MOS", "SEV", "STP/SC", "WAR"]
    for keyed in legal.values():
        for loc, orders in keyed.items():
            first = orders[0]
            assert isinstance(first, Hold)
            assert first.unit.location == loc


def test_one_power_and_one_unit() -> None:
    position = MOVEMENT[3]
    everyone = legal_orders(MAP, position, S1901, DATC)
    for power in MAP.powers:
        assert legal_orders(MAP, position, S1901, DATC, power) == {power: everyone.get(power, {})}
    for keyed in everyone.values():
        for loc, orders in keyed.items():
            assert unit_orders(MAP, position, S1901, DATC, loc) == orders
    assert unit_orders(MAP, Position({}), S1901, DATC, "PAR") == []


def test_threads_on_a_new_map_list_what_one_thread_lists() -> None:
    """The tables made for a map are whole before any thread can read them (issue 16: a
    thread could get a unit's list without its supports while another filled them)."""
    positions = [MOVEMENT[3], crowded(0)]
    expected = [legal_orders(MAP, position, S1901, DATC) for position in positions]

    def work(game_map: GameMap, start: threading.Barrier, found: list[object]) -> None:
        start.wait()
        found.append([legal_orders(game_map, p, S1901, DATC) for p in positions])

    for _ in range(4):
        # the same board as a new map: nothing made for it yet
        game_map = GameMap(
            MAP.name,
            MAP.title,
            MAP.provinces,
            MAP.army_adjacency,
            MAP.fleet_adjacency,
            MAP.starts,
            MAP.powers,
        )
        start = threading.Barrier(8)
        found: list[object] = []
        threads = [threading.Thread(target=work, args=(game_map, start, found)) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert found == [expected] * 8


def _wide_map() -> GameMap:
    """The standard map with twelve more coastal provinces in a chain from Clyde, each on
    the North Atlantic: more codes than the masks' byte holds (no shipped board has)."""
    raw = _raw("standard")
    provinces, army, fleet = list(raw["provinces"]), list(raw["army"]), list(raw["fleet"])
    before = "CLY"
    for k in range(12):
        added = f"X{k:02d}"
        provinces.append({"id": added, "name": f"Extra {k}", "type": "coastal"})
        army.append([before, added])
        fleet += [[before, added], ["NAO", added]]
        before = added
    return map_from_dict(
        raw | {"name": "wide", "provinces": provinces, "army": army, "fleet": fleet}
    )


def test_a_map_too_wide_for_the_masks_is_listed_plainly() -> None:
    """The masks' fallback for maps over 256 codes, reached by no shipped board: the plain
    listing lists such a map, moves by land and by convoy through its new provinces."""
    wide = _wide_map()
    units = dict(Position.initial(wide).units)
    units["NAO"] = Unit("ENGLAND", FLEET, "NAO")
    units["X05"] = Unit("ENGLAND", ARMY, "X05")
    position = Position(units, dict(Position.initial(wide).centers))
    assert _fast.movement_orders(wide, position, CLASSIC, None) is None
    listed_here = legal_orders(wide, position, S1901, CLASSIC)
    assert listed_here == movement_orders(wide, position, CLASSIC)
    texts = {str(o) for keyed in listed_here.values() for os in keyed.values() for o in os}
    assert {"A X05 - X06", "A X05 - LVP VIA", "F NAO C A X05 - LVP"} <= texts
    listed_orders = {o for keyed in listed_here.values() for os in keyed.values() for o in os}
    assert judged_legal_on(wide, position, CLASSIC) == listed_orders


def judged_legal_on(game_map: GameMap, position: Position, rules: Rules) -> set[Order]:
    """The listed orders of ``position`` the adjudicator, given each alone, does not judge
    illegal."""
    legal = legal_orders(game_map, position, S1901, rules)
    found: set[Order] = set()
    for power, keyed in legal.items():
        for orders in keyed.values():
            for order in orders:
                problem = build_problem(game_map, position, {power: [order]}, rules)
                if not problem.illegal:
                    found.add(order)
    return found


# --- the masked listing is the plain one, faster ------------------------------------------------
@pytest.mark.parametrize("rules", [DATC, CLASSIC, CONQUISTA], ids=["datc", "classic", "conquista"])
def test_the_masked_listing_lists_what_the_plain_one_does(rules: Rules) -> None:
    """:mod:`realpolitik.legal._fast` (byte masks, kept for speed) gives the same lists, in
    the same order, as the plain listing, for every power and for each one alone."""
    positions = [*MOVEMENT, *(crowded(seed) for seed in range(12))]
    for position in positions:
        fast = _fast.movement_orders(MAP, position, rules, None)
        assert fast is not None
        assert fast == movement_orders(MAP, position, rules), position
        for power in ("ENGLAND", "TURKEY"):
            alone = _fast.movement_orders(MAP, position, rules, power)
            assert alone is not None
            plain = movement_orders(MAP, position, rules, power)
            assert alone.get(power, {}) == plain.get(power, {})


def test_what_the_masks_do_not_cover_is_listed_plainly() -> None:
    """A unit at a location the map does not have, and the rule that supports name other
    powers' units, go to the plain listing."""
    units = dict(crowded(3).units)
    units["SPA"] = Unit("FRANCE", FLEET, "SPA")
    position = Position(units, dict(Position.initial(MAP).centers))
    assert _fast.movement_orders(MAP, position, DATC, None) is None
    assert legal_orders(MAP, position, S1901, DATC) == movement_orders(MAP, position, DATC)
    named = DATC.with_choice("4.C.5", "a")
    assert _fast.movement_orders(MAP, crowded(3), named, None) is None


# --- movement: both ways ------------------------------------------------------------------------
@pytest.mark.parametrize("index", range(len(MOVEMENT)))
def test_listed_movement_orders_are_legal(index: int) -> None:
    assert assert_all_legal(MOVEMENT[index], S1901, DATC) > 0


@pytest.mark.parametrize("index", range(len(MOVEMENT)))
def test_every_legal_movement_order_is_listed(index: int) -> None:
    position = MOVEMENT[index]
    legal = judged_legal(position, DATC)
    mine = listed(position)
    assert mine <= legal, sorted(str(o) for o in mine - legal)
    assert legal <= mine, sorted(str(o) for o in legal - mine)


@pytest.mark.parametrize("index", range(0, len(MOVEMENT), 3))
def test_conquista_movement_both_ways(index: int) -> None:
    """Under conquista's reach of supports the listing is still exactly what the
    adjudicator judges legal (the candidates hold every support into a bordering
    province)."""
    position = MOVEMENT[index]
    assert assert_all_legal(position, S1901, CONQUISTA) > 0
    legal = judged_legal(position, CONQUISTA)
    mine = listed(position, rules=CONQUISTA)
    assert mine <= legal, sorted(str(o) for o in mine - legal)
    assert legal <= mine, sorted(str(o) for o in legal - mine)


def test_conquista_lists_supports_across_the_shore() -> None:
    """An army on a coast supports the fleet in a sea it borders, a fleet on a coast a
    move into an inland province its province borders, a fleet on one coast into a sea
    the other coast touches; classic lists none of them."""
    units = {
        "BRE": Unit("FRANCE", ARMY, "BRE"),
        "MAO": Unit("FRANCE", FLEET, "MAO"),
        "MAR": Unit("FRANCE", FLEET, "MAR"),
        "PAR": Unit("FRANCE", ARMY, "PAR"),
        "SPA": Unit("FRANCE", FLEET, "SPA/NC"),
        "WES": Unit("ITALY", FLEET, "WES"),
    }
    position = Position(units, dict(Position.initial(MAP).centers))
    across = {
        SupportHold(UnitRef(ARMY, "BRE"), UnitRef(FLEET, "MAO")),
        SupportMove(UnitRef(FLEET, "MAR"), UnitRef(ARMY, "PAR"), "BUR"),
        SupportHold(UnitRef(FLEET, "SPA/NC"), UnitRef(FLEET, "WES")),  # from the other coast
    }
    assert across <= listed(position, rules=CONQUISTA)
    assert not across & listed(position, rules=CLASSIC)
    for rules in (CLASSIC, CONQUISTA):
        mine = listed(position, rules=rules)
        legal = judged_legal(position, rules)
        assert mine == legal, sorted(str(o) for o in mine ^ legal)


def test_crowded_positions_have_convoys_and_convoyed_supports() -> None:
    orders = listed(crowded(0))
    assert any(isinstance(o, Convoy) for o in orders)
    assert any(isinstance(o, Move) and o.via_convoy for o in orders)
    convoyed = [
        o
        for o in orders
        if isinstance(o, SupportMove)
        and o.supported.type is ARMY
        and not MAP.can_move(ARMY, o.supported.location, o.destination)
    ]
    assert convoyed


def test_a_fleet_in_every_sea_and_an_army_on_every_coast() -> None:
    """So many convoys, moves by convoy and supports of them that almost every unit's
    supports go province by province: the listing still matches what the adjudicator
    judges legal."""
    units: dict[str, Unit] = {}
    for prov in sorted(MAP.provinces):
        power = MAP.powers[len(units) % len(MAP.powers)]
        kind = MAP.provinces[prov].type
        if kind is ProvinceType.SEA:
            units[prov] = Unit(power, FLEET, prov)
        elif kind is ProvinceType.COASTAL:
            units[prov] = Unit(power, ARMY, prov)
    position = Position(units, dict(Position.initial(MAP).centers))
    for rules in (DATC, CONQUISTA):
        legal = judged_legal(position, rules)
        mine = listed(position, rules=rules)
        assert mine <= legal, sorted(str(o) for o in mine - legal)
        assert legal <= mine, sorted(str(o) for o in legal - mine)


def test_units_at_locations_the_map_does_not_have() -> None:
    """A position built by hand may put a fleet on a coastal province without its coast or
    an army on a coast: such a unit moves by land nowhere, but may hold, be supported to
    hold, be convoyed and support (conquista: into what its province borders); the listing
    is still exactly what the adjudicator judges legal."""
    units = dict(crowded(3).units)
    units["SPA"] = Unit("FRANCE", FLEET, "SPA")
    units["BUL"] = Unit("TURKEY", ARMY, "BUL/EC")
    position = Position(units, dict(Position.initial(MAP).centers))
    for rules in (DATC, CONQUISTA):
        assert assert_all_legal(position, S1901, rules) > 0
        mine = listed(position, rules=rules)
        legal = judged_legal(position, rules)
        assert mine == legal, sorted(str(o) for o in mine ^ legal)
    assert Hold(UnitRef(FLEET, "SPA")) in mine
    assert any(isinstance(o, Convoy) and o.convoyed.location == "BUL/EC" for o in mine)


def test_convoys_only_on_minimal_routes() -> None:
    """DATC 6.G.19's board: a fleet in the Western Mediterranean is needed on no route from
    Tunis to Naples when the Tyrrhenian Sea touches both."""
    units = {
        "TUN": Unit("ITALY", ARMY, "TUN"),
        "TYS": Unit("ITALY", FLEET, "TYS"),
        "WES": Unit("FRANCE", FLEET, "WES"),
        "LYO": Unit("FRANCE", FLEET, "LYO"),
    }
    position = Position(units)
    tys = {str(o) for o in unit_orders(MAP, position, S1901, DATC, "TYS")}
    wes = {str(o) for o in unit_orders(MAP, position, S1901, DATC, "WES")}
    assert "F TYS C A TUN - NAP" in tys
    assert "F WES C A TUN - NAP" not in wes
    assert "F WES C A TUN - PIE" in wes  # WES - LYO - PIE: a route of its own
    tun = {str(o) for o in unit_orders(MAP, position, S1901, DATC, "TUN")}
    assert {"A TUN - NAP VIA", "A TUN - PIE VIA", "A TUN - NAF"} <= tun


def test_supports_of_convoyed_moves_not_by_their_own_convoy() -> None:
    """A fleet cannot support a move that only it could convoy."""
    units = {
        "LON": Unit("ENGLAND", ARMY, "LON"),
        "NTH": Unit("ENGLAND", FLEET, "NTH"),
        "ENG": Unit("ENGLAND", FLEET, "ENG"),
    }
    position = Position(units)
    nth = {str(o) for o in unit_orders(MAP, position, S1901, DATC, "NTH")}
    eng = {str(o) for o in unit_orders(MAP, position, S1901, DATC, "ENG")}
    assert "F NTH S A LON - BEL" in nth  # convoyed by the fleet in ENG
    assert "F ENG S A LON - BEL" in eng  # convoyed by the fleet in NTH
    assert "F NTH S A LON - NWY" not in nth  # only NTH could carry it
    assert "F NTH C A LON - NWY" in nth


def test_missing_nationality_rule_names_the_power() -> None:
    """DATC 4.C.5 a: supporting another power's unit needs its nationality."""
    rules = DATC.with_choice("4.C.5", "a")
    position = Position.initial(MAP)
    orders = legal_orders(MAP, position, S1901, rules, "GERMANY")["GERMANY"]["MUN"]
    foreign = [o for o in orders if isinstance(o, SupportMove) and o.supported.location == "VEN"]
    own = [o for o in orders if isinstance(o, SupportMove) and o.supported.location == "BER"]
    assert foreign and all(o.supported.power == "ITALY" for o in foreign)
    assert own and all(o.supported.power is None for o in own)
    assert assert_all_legal(position, S1901, rules) > 0


# --- retreats ---------------------------------------------------------------------------------
def retreat_positions() -> list[tuple[Phase, Position]]:
    found = []
    for seed in range(12):
        for phase, position in played(seed, 40):
            if phase.kind is PhaseKind.RETREATS:
                found.append((phase, position))
    return found


RETREATS = retreat_positions()


def test_there_are_retreat_phases_to_test() -> None:
    assert len(RETREATS) >= 3


@pytest.mark.parametrize("index", range(len(RETREATS)))
def test_retreats_both_ways(index: int) -> None:
    phase, position = RETREATS[index]
    assert assert_all_legal(position, phase, DATC) > 0
    mine = listed(position, phase)
    legal: set[Order] = set()
    for d in position.dislodged.values():
        ref = UnitRef(d.unit.type, d.unit.location)
        tries: list[Order] = [Disband(ref), *(Retreat(ref, loc) for loc in LOCATIONS)]
        for order in tries:
            result = adjudicate(MAP, position, {d.unit.power: [order]}, DATC, phase)
            if result.outcome_of(order).result is not OrderResult.ILLEGAL:
                legal.add(order)
    assert mine == legal


def test_retreat_keys_and_options() -> None:
    unit = Unit("FRANCE", FLEET, "SPA/NC")
    position = Position(
        {"SPA": Unit("ITALY", ARMY, "SPA")},
        dislodged={"SPA": Dislodged(unit, "GAS", ("MAO", "POR"))},
    )
    legal = legal_orders(MAP, position, Phase.parse("F1901R"), DATC)
    assert [str(o) for o in legal["FRANCE"]["SPA/NC"]] == [
        "F SPA/NC D",
        "F SPA/NC R MAO",
        "F SPA/NC R POR",
    ]
    assert legal_orders(MAP, position, Phase.parse("F1901R"), DATC, "ITALY") == {"ITALY": {}}


# --- adjustments --------------------------------------------------------------------------------
def adjustment_positions() -> list[tuple[Phase, Position]]:
    found = []
    for seed in range(3):
        for phase, position in played(seed, 30):
            if phase.kind is PhaseKind.ADJUSTMENTS:
                found.append((phase, position))
    return found


ADJUSTMENTS = adjustment_positions()


@pytest.mark.parametrize("index", range(len(ADJUSTMENTS)))
def test_adjustments_both_ways(index: int) -> None:
    phase, position = ADJUSTMENTS[index]
    assert assert_all_legal(position, phase, DATC) > 0
    mine = listed(position, phase)
    legal: set[Order] = set()
    for power in MAP.powers:
        tries: list[Order] = [Waive()]
        for loc in LOCATIONS:  # armies are built in a province, fleets on a coast
            tries += [Build(UnitRef(FLEET, loc))]
            tries += [Build(UnitRef(ARMY, loc))] if loc in MAP.provinces else []
        tries += [Disband(UnitRef(u.type, u.location)) for u in position.units_of(power)]
        for order in tries:
            result = adjudicate(MAP, position, {power: [order]}, DATC, phase)
            if result.outcome_of(order).result is OrderResult.SUCCEEDS:
                legal.add(order)
    # a fleet "built" inland is refused here (DATC 4.C.4 a); WAIVE is per power
    assert {o for o in mine if not isinstance(o, Waive)} == {
        o for o in legal if not isinstance(o, Waive)
    }


def test_builds_waive_and_removals() -> None:
    centers = dict(Position.initial(MAP).centers)
    centers["BEL"] = "RUSSIA"
    units = {
        "MOS": Unit("RUSSIA", ARMY, "MOS"),
        "PAR": Unit("FRANCE", ARMY, "PAR"),
        "BUR": Unit("FRANCE", ARMY, "BUR"),
        "PIC": Unit("FRANCE", ARMY, "PIC"),
        "GAS": Unit("FRANCE", ARMY, "GAS"),
    }
    for prov in ("BRE", "MAR"):
        centers.pop(prov)
    position = Position(units, centers)
    phase = Phase.parse("W1901A")
    legal = legal_orders(MAP, position, phase, DATC)
    russia = {k: [str(o) for o in v] for k, v in legal["RUSSIA"].items()}
    assert russia == {
        "SEV": ["A SEV B", "F SEV B"],
        "STP": ["A STP B", "F STP/NC B", "F STP/SC B"],
        "WAR": ["A WAR B"],
        WAIVE: ["WAIVE"],
    }
    assert list(legal["FRANCE"]) == ["BUR", "GAS", "PAR", "PIC"]
    assert all(isinstance(o, Disband) for v in legal["FRANCE"].values() for o in v)
    no_waive = legal_orders(MAP, position, phase, DATC.with_choice("4.D.7", "b"), "RUSSIA")
    assert WAIVE not in no_waive["RUSSIA"]
    assert unit_orders(MAP, position, phase, DATC, "STP") == legal["RUSSIA"]["STP"]
    assert unit_orders(MAP, position, phase, DATC, "GAS") == legal["FRANCE"]["GAS"]
    assert unit_orders(MAP, position, phase, DATC, "BUD")[0] == Build(UnitRef(ARMY, "BUD"))
    assert unit_orders(MAP, position, phase, DATC, "NTH") == []


def test_carriage_reach_and_needs_as_searched_without_each_fleet() -> None:
    """A carriage takes its reach and the fleets each move by convoy needs from the minimal
    routes; the same as searching the fleets at sea again, with and without each fleet."""
    tables = _tables(MAP, SupportReach.CAN_MOVE)
    seas_map = seas_of(MAP)
    reach = MAP.fleet_reach

    def reached(src: str, seas: frozenset[str]) -> set[str]:
        seen = {s for s in seas_map.at[src] if s in seas}
        frontier = list(seen)
        while frontier:
            for nxt in reach[frontier.pop()] & seas:
                if nxt not in seen:
                    seen.add(nxt)
                    frontier.append(nxt)
        return {c for s in seen for c in seas_map.coasts[s]} - {src}

    rng = random.Random(5)
    all_seas, coasts = sorted(seas_map.next), sorted(seas_map.at)
    for _ in range(300):
        src = rng.choice(coasts)
        seas = frozenset(rng.sample(all_seas, rng.randint(1, 8)))
        carriage = _Carriage(tables, tables.slots[ARMY, src], seas)
        everywhere = sorted(reached(src, seas))
        assert [move.destination for move in carriage.vias] == everywhere
        for dest in carriage.overseas:
            assert carriage.needed[dest] == {
                sea for sea in seas if dest not in reached(src, seas - {sea})
            }


def test_a_power_the_board_does_not_have_is_named() -> None:
    """``"france"`` or a misspelt power had no legal orders ({'france': {}}), as if it
    had nothing to order: a bot asking so passed every turn."""
    game_map = load_map("standard")
    position, phase = Position.initial(game_map), Phase.parse("S1901M")
    for power in ("france", "FRANCIA"):
        with pytest.raises(ValueError, match=re.escape(
            f"unknown power {power!r} on standard; powers: AUSTRIA, ENGLAND, FRANCE"
        )):  # fmt: skip
            legal_orders(game_map, position, phase, rules_for("classic"), power)
    # a power of the board with nothing to order is still an empty entry
    assert legal_orders(game_map, position, Phase.parse("F1901R"), rules_for("classic"),
                        "FRANCE") == {"FRANCE": {}}  # fmt: skip


@pytest.mark.parametrize("name", ["classic", "1971", "grow", "conquista"])
def test_every_listed_order_is_in_the_listings_spelling(name: str) -> None:
    """``as_listed`` (the listing's spelling of a legal order written otherwise, which the
    environment's ``action_of`` finds by) leaves every listed order as it is, in every
    phase of random games of each edition."""
    for seed in range(2):
        game, rng, seen = Game.new(edition=name, seed=seed), random.Random(seed), 0
        for _ in range(30):
            if game.is_over:
                break
            for power, keyed in game.legal_orders().items():
                for orders in keyed.values():
                    for order in orders:
                        assert as_listed(order, game.game_map, game.position, game.rules) == order
                        seen += 1
                game.submit(power, random_orders(game, keyed, power, rng))
            game.process()
        assert seen > 1000
