"""Helpers for the game tests: a sandbox position, random legal play."""

from __future__ import annotations

import random
from typing import Any

from realpolitik.game import Game
from realpolitik.orders import Order, Waive
from realpolitik.phase import Phase
from realpolitik.position import Position


def at(game: Game, phase: str, data: dict[str, Any]) -> Game:
    """Put ``game`` at a phase and position (the situation's JSON shape)."""
    game.phase = Phase.parse(phase)
    game.position = Position.from_json(data, game.game_map)
    if not game.history:
        game.start = game.position  # a game set up here, as a saved game records it
    return game


def won_by_france() -> Game:
    """A game France wins in Fall 1901, its 18th centre taken (Munich)."""
    won = Game.from_position(
        {"units": {"FRANCE": ["A BUR", "A PAR"], "GERMANY": ["A SIL"]},
         "centers": {"FRANCE": ["PAR", "BRE", "MAR", "SPA", "POR", "BEL", "HOL", "LON", "EDI",
                                "LVP", "NWY", "SWE", "DEN", "KIE", "BER", "VEN", "ROM"],
                     "GERMANY": ["MUN"]}},
        "F1901M",
    )  # fmt: skip
    won.submit("FRANCE", ["A BUR - MUN", "A PAR - BUR"])
    won.process()
    return won


def random_orders(
    game: Game, keyed: dict[str, list[Order]], power: str, rng: random.Random
) -> list[Order]:
    """One random legal order per unit (or the adjustments due, on distinct provinces)."""
    if not game.phase.is_adjustments:
        return [rng.choice(options) for _, options in sorted(keyed.items())]
    due = abs(game.builds_due().get(power, 0))
    keys = [k for k in sorted(keyed) if k != "WAIVE"]
    rng.shuffle(keys)
    chosen: list[Order] = [rng.choice(keyed[k]) for k in keys[:due]]
    if len(chosen) < due and "WAIVE" in keyed:
        chosen += [Waive()] * (due - len(chosen))
    return chosen


def play_random(game: Game, rng: random.Random, phases: int, skip: float = 0.0) -> int:
    """Play up to ``phases`` phases with random legal orders (each power gives no orders
    with probability ``skip``: civil disorder); return the number of orders given."""
    given = 0
    for _ in range(phases):
        if game.is_over:
            break
        legal = game.legal_orders()
        for power, keyed in legal.items():
            if rng.random() < skip:
                continue
            orders = random_orders(game, keyed, power, rng)
            game.submit(power, orders)
            given += len(orders)
        game.process()
    return given
