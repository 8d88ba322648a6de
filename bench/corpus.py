"""Write the benchmark corpus: the phases of random legal games played by realpolitik.

    .venv/bin/python bench/corpus.py [--out bench/corpus.jsonl]

The first line is the corpus's metadata (seed, games, last year, rules); every other line is
one phase as a situation of the ``realpolitik adjudicate`` JSON contract (``phase``,
``units``, ``centers``, ``dislodged`` with ``retreats``, ``contested``, ``orders``) plus the
number of its ``game``. Both engines read it: it is the work they are timed on and compare.
A fixed seed makes the file the same on every machine; it is kept in the repository and
only rewritten when the generator changes.
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from common import CORPUS, pick
from realpolitik import Phase, Position, adjudicate, load_map, rules_for
from realpolitik.adjudicator import builds_due
from realpolitik.game.calendar import settle
from realpolitik.game.editions import edition
from realpolitik.legal import legal_orders
from realpolitik.orders import Order
from realpolitik.phase import PhaseKind

SEED = 1901
GAMES = 20
LAST_YEAR = 1915
RULES = "datc"


Legal = dict[str, dict[str, list[Order]]]
"""The legal orders of a phase: per power, per unit (or build site), its orders."""
Chooser = Callable[[random.Random, Phase, Legal, dict[str, int]], dict[str, list[Order]]]
"""Picks the orders of a phase: from ``rng``, the phase, its legal orders and the builds
(or removals, negative) due."""


def random_orders(
    rng: random.Random, phase: Phase, legal: Legal, due: dict[str, int]
) -> dict[str, list[Order]]:
    """One legal order at random for every unit (adjustments: as many as due)."""
    adjusting = phase.kind is PhaseKind.ADJUSTMENTS
    return {
        power: pick(rng, keyed, due.get(power, 0) if adjusting else None)
        for power, keyed in legal.items()
    }


def play(
    game: int, rng: random.Random, last_year: int, choose: Chooser = random_orders
) -> Iterator[dict[str, Any]]:
    """The phases of one game whose orders ``choose`` picks (by default at random), from
    Spring 1901 to the end of ``last_year``."""
    game_map = load_map("standard")
    rules = rules_for(RULES)
    position = Position.initial(game_map)
    phase = Phase.parse("S1901M")
    while phase.year <= last_year:
        legal = legal_orders(game_map, position, phase, rules)
        orders = choose(rng, phase, legal, builds_due(game_map, position))
        yield {
            "game": game,
            "phase": str(phase),
            **position.to_json(),
            "orders": {p: [str(o) for o in os] for p, os in orders.items() if os},
        }
        resolution = adjudicate(game_map, position, orders, rules, phase)
        phase, position = settle(
            edition("classic"), game_map, phase, resolution.position, skip_idle=True
        )


def generate(seed: int = SEED, games: int = GAMES, last_year: int = LAST_YEAR) -> list[str]:
    rng = random.Random(seed)
    meta = {"seed": seed, "games": games, "last_year": last_year, "rules": RULES}
    lines = [json.dumps({"meta": meta})]
    for game in range(games):
        lines.extend(json.dumps(entry, sort_keys=True) for entry in play(game, rng, last_year))
    return lines


CONTRACT_KEYS = ("phase", "units", "centers", "dislodged", "contested", "orders")


def movement_situations(count: int, seed: int = SEED + 1) -> list[str]:
    """The first ``count`` movement phases of random games (from another seed than the
    corpus's), as situations of the ``realpolitik adjudicate`` contract, one per line: the
    input of the JSON-lines measure."""
    rng = random.Random(seed)
    lines: list[str] = []
    game = 0
    while len(lines) < count:
        for entry in play(game, rng, LAST_YEAR):
            if entry["phase"].endswith("M") and len(lines) < count:
                situation = {key: entry[key] for key in CONTRACT_KEYS}
                lines.append(json.dumps(situation, sort_keys=True))
        game += 1
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=CORPUS)
    parser.add_argument(
        "--movement", type=int, default=0, help="write this many movement situations instead"
    )
    args = parser.parse_args()
    if args.movement:
        lines = movement_situations(args.movement)
        args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(f"wrote {len(lines)} movement situations to {args.out}")
        return
    lines = generate()
    args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {len(lines) - 1} phases to {args.out}")


if __name__ == "__main__":
    main()
