"""The movement resolver: no decision is settled from a guess, and after resolution every
decision is what its rule computes from the final values of the others."""

from __future__ import annotations

import gc
import random

import pytest

from realpolitik import Phase, Position, adjudicate, load_map, parse_order, rules_for
from realpolitik.adjudicator.movement import Resolver
from realpolitik.adjudicator.problem import build_problem
from realpolitik.game import Game
from realpolitik.legal import legal_orders
from realpolitik.maps.model import GameMap
from realpolitik.orders import Convoy, Order, SupportMove
from realpolitik.rules import PRESETS, Rules
from tests.gamekit import random_orders

# Issue 16, defect 1: the support of F SWE is cut and the convoy available, so the
# 2-against-1 convoyed attack on SWE succeeds (the only consistent resolution).
_UNITS = {
    "ENGLAND": ["F SWE", "F BER"],
    "GERMANY": ["A KIE", "A FIN"],
    "RUSSIA": ["F BAL", "F PRU"],
}
_ORDERS = {
    "ENGLAND": ["F SWE S F BER - BAL", "F BER - BAL"],
    "GERMANY": ["A KIE - SWE VIA", "A FIN S A KIE - SWE"],
    "RUSSIA": ["F BAL C A KIE - SWE", "F PRU S F BAL"],
}


def _consistent(
    game_map: GameMap, position: Position, orders: dict[str, list[Order]], rules: Rules
) -> None:
    """Resolve every decision, then check each against its rule."""
    resolver = Resolver(build_problem(game_map, position, orders, rules))
    decisions = resolver.decisions()
    final = {d: resolver.resolve(d) for d in decisions}
    for d in decisions:
        if d not in resolver.by_rule:
            assert resolver.computed(d) == final[d], (rules.name, d, orders)


@pytest.mark.parametrize("rules", ["datc", "classic"])
def test_a_guess_read_twice_is_not_settled(rules: str) -> None:
    game_map = load_map("standard")
    position = Position.from_json({"units": _UNITS}, game_map)
    orders = {p: [parse_order(t, game_map=game_map) for t in ts] for p, ts in _ORDERS.items()}
    result = adjudicate(game_map, position, orders, rules_for(rules), Phase.parse("S1901M"))
    assert result.position.units["SWE"].power == "GERMANY"
    assert result.position.dislodged["SWE"].unit.power == "ENGLAND"
    _consistent(game_map, position, orders, rules_for(rules))


def test_every_decision_follows_from_the_others_in_random_games() -> None:
    rng = random.Random(16)
    presets = [rules_for(name) for name in PRESETS]
    checked = 0
    for seed in range(4):
        game = Game.new(seed=seed)
        for _ in range(40):
            if game.is_over:
                break
            for power, keyed in game.legal_orders().items():
                game.submit(power, random_orders(game, keyed, power, rng))
            if game.phase.is_movement:
                orders = {p: list(o) for p, o in game.pending_orders().items()}
                for rules in presets:
                    _consistent(game.game_map, game.position, orders, rules)
                    checked += 1
            game.process()
    assert checked > 200


_NORTH = {"BAL", "BOT", "SWE", "DEN", "KIE", "BER", "PRU", "LVN", "FIN", "HEL", "SKA", "NTH", "NWY"}


def test_every_decision_follows_from_the_others_in_crowded_seas() -> None:
    """Random positions crowded round the Baltic (fleets at sea, armies on the coasts),
    random legal orders, convoys and supports of moves preferred."""
    game_map = load_map("standard")
    places = [("A", loc) for loc in game_map.army_adjacency]
    places += [("F", loc) for loc in game_map.fleet_adjacency]
    places = [(t, loc) for t, loc in places if loc.split("/")[0] in _NORTH]
    rng = random.Random(1)
    phase = Phase.parse("S1901M")
    for _ in range(300):
        units: dict[str, list[str]] = {}
        taken: set[str] = set()
        for _ in range(rng.randint(5, 12)):
            utype, loc = rng.choice(places)
            if loc.split("/")[0] not in taken:
                taken.add(loc.split("/")[0])
                units.setdefault(rng.choice(("ENGLAND", "GERMANY", "RUSSIA")), []).append(
                    f"{utype} {loc}"
                )
        position = Position.from_json({"units": units}, game_map)
        for name in ("datc", "classic", "1971"):
            rules = rules_for(name)
            legal = legal_orders(game_map, position, phase, rules)
            orders = {p: [_pick(rng, o) for o in keyed.values()] for p, keyed in legal.items()}
            _consistent(game_map, position, orders, rules)


def _pick(rng: random.Random, options: list[Order]) -> Order:
    weights = [3 if isinstance(o, Convoy | SupportMove) else 2 for o in options]
    return rng.choices(options, weights)[0]


# positions whose resolution once left reference cycles for the collector: two units
# supporting each other's hold; a circle of moves (DATC 6.C.1) and a convoy paradox (DATC
# 6.F.14), each settled by a backup rule
_CYCLES = [
    ({"TURKEY": ["F ANK", "A CON"]}, {"TURKEY": ["F ANK S A CON", "A CON S F ANK"]}),
    (
        {"TURKEY": ["F ANK", "A CON", "A SMY"]},
        {"TURKEY": ["F ANK - CON", "A CON - SMY", "A SMY - ANK"]},
    ),
    (
        {"ENGLAND": ["F LON", "F WAL"], "FRANCE": ["A BRE", "F ENG"]},
        {
            "ENGLAND": ["F LON S F WAL - ENG", "F WAL - ENG"],
            "FRANCE": ["A BRE - LON", "F ENG C A BRE - LON"],
        },
    ),
]


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_resolution_leaves_no_reference_cycles(name: str) -> None:
    """Reference counting frees all a movement phase builds (left to the cycle collector,
    it costs several percent of the phase), backup rules included."""
    game_map, rules = load_map("standard"), rules_for(name)
    for units, texts in _CYCLES:
        position = Position.from_json({"units": units}, game_map)
        orders = {p: [parse_order(t, game_map=game_map) for t in ts] for p, ts in texts.items()}
        gc.collect()
        gc.disable()
        try:
            adjudicate(game_map, position, orders, rules, Phase.parse("S1901M"))
            unreachable = gc.collect()
        finally:
            gc.enable()
        assert unreachable == 0, (name, texts)
