"""Shared state under threads: the server calls the engine from a thread pool, so whatever
the engine keeps per map or per process must be whole before another thread can read it.

Each trial loads a fresh copy of a board (nothing is remembered of it yet), starts several
threads at once on it, and compares what each gets with what one thread alone gets."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable

import pytest

from realpolitik import Game, Phase, Position, adjudicate, parse_order, rules_for
from realpolitik.game.editions import EDITIONS, edition
from realpolitik.legal import legal_orders
from realpolitik.maps import load_map
from realpolitik.maps.loader import (
    BOARDS,
    _raw,  # the board's data, to make a fresh map of it
    map_from_dict,
)
from realpolitik.maps.model import GameMap

THREADS = 8
TRIALS = 4


def _fresh(name: str) -> GameMap:
    return map_from_dict(_raw(name))


def _work(game_map: GameMap) -> tuple[object, ...]:
    """What one thread does on a map: list every legal order, read some back from text,
    adjudicate a random choice of them."""
    position = Position.initial(game_map)
    phase = Phase.parse("S1901M")
    rules = rules_for("datc")
    legal = legal_orders(game_map, position, phase, rules)
    listed = {p: {k: [str(o) for o in os] for k, os in keyed.items()} for p, keyed in legal.items()}
    rng = random.Random(7)
    chosen = {p: [rng.choice(os) for _, os in sorted(keyed.items())] for p, keyed in legal.items()}
    read = {
        p: [parse_order(str(o), game_map=game_map) for o in orders] for p, orders in chosen.items()
    }
    result = adjudicate(game_map, position, read, rules, phase)
    outcomes = [(o.power, str(o.order), o.result.value, o.reason) for o in result.outcomes]
    return listed, outcomes


def _together(game_map: GameMap, work: Callable[[GameMap], tuple[object, ...]]) -> list[object]:
    start = threading.Barrier(THREADS)
    results: list[object] = [None] * THREADS

    def run(k: int) -> None:
        start.wait()
        try:
            results[k] = work(game_map)
        except Exception as exc:  # a thread's failure is a result to compare
            results[k] = exc

    threads = [threading.Thread(target=run, args=(k,)) for k in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


@pytest.mark.parametrize("name", BOARDS)
def test_threads_meeting_a_fresh_map_see_the_same(name: str) -> None:
    expected = _work(_fresh(name))
    assert expected[0]  # the board has orders to list
    for _ in range(TRIALS):
        results = _together(_fresh(name), _work)
        for result in results:
            assert result == expected


def test_the_boards_are_every_shipped_board() -> None:
    assert load_map("standard") is not None
    assert len(BOARDS) == 10


def test_threads_asking_for_an_edition_first_get_it_whole() -> None:
    """Editions are made on first use: threads asking together each get a whole one, equal
    to what one thread alone gets, and a new game on it."""
    alone = {name: (edition(name), Game.new(edition=name, seed=3).position) for name in EDITIONS}
    for _ in range(TRIALS):
        edition.cache_clear()
        results = _together(
            load_map("standard"),
            lambda _: tuple(
                (edition(name), Game.new(edition=name, seed=3).position) for name in EDITIONS
            ),
        )
        for result in results:
            assert result == tuple(alone[name] for name in EDITIONS)
