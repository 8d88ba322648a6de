"""Bot-vs-bot tournament: the heuristic bot against the random bot on the standard map.

Each game seats a random half of the powers (3 or 4) with the heuristic bot and the rest
with the random bot, plays a number of years, and counts supply centres. The score is the
mean number of centres a power ends with, by bot, and the solo wins::

    python tools/bot_tournament.py --games 20 --years 8 --seed 1

Exit status 0 when the heuristic bot beats the random bot clearly (at least twice its mean
centres per power), 1 otherwise.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from realpolitik.bots import make_bot
from realpolitik.bots.base import Bot
from realpolitik.bots.selfplay import self_play
from realpolitik.maps import load_map
from realpolitik.vocab import Power

CLEAR_MARGIN = 2.0


@dataclass
class Score:
    seats: dict[str, int] = field(default_factory=lambda: {"heuristic": 0, "random": 0})
    centers: dict[str, int] = field(default_factory=lambda: {"heuristic": 0, "random": 0})
    solos: dict[str, int] = field(default_factory=lambda: {"heuristic": 0, "random": 0})
    games: int = 0

    def mean(self, kind: str) -> float:
        return self.centers[kind] / self.seats[kind] if self.seats[kind] else 0.0

    @property
    def heuristic_wins_clearly(self) -> bool:
        return self.mean("heuristic") >= CLEAR_MARGIN * max(self.mean("random"), 0.01)

    def report(self) -> str:
        lines = [f"{self.games} games", "bot        seats  mean centres  solos"]
        for kind in ("heuristic", "random"):
            lines.append(
                f"{kind:<10} {self.seats[kind]:>5}  {self.mean(kind):>12.2f}  {self.solos[kind]:>5}"
            )
        verdict = (
            "heuristic beats random clearly" if self.heuristic_wins_clearly else "no clear win"
        )
        lines.append(f"result: {verdict} (margin needed: x{CLEAR_MARGIN})")
        return "\n".join(lines)


def tournament(games: int, years: int, seed: int) -> Score:
    game_map = load_map("standard")
    rng = random.Random(seed)
    score = Score()
    for _ in range(games):
        powers = list(game_map.powers)
        rng.shuffle(powers)
        half = 3 + rng.randrange(2)
        kinds: dict[Power, str] = {
            p: ("heuristic" if k < half else "random") for k, p in enumerate(powers)
        }
        bots: dict[Power, Bot] = {
            p: make_bot(kind, seed=rng.randrange(2**31)) for p, kind in kinds.items()
        }
        result = self_play(bots, years=years)
        score.games += 1
        for power, kind in kinds.items():
            score.seats[kind] += 1
            score.centers[kind] += result.centers.get(power, 0)
        if result.winner is not None:
            score.solos[kinds[result.winner]] += 1
    return score


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--years", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    score = tournament(args.games, args.years, args.seed)
    print(score.report())
    print(f"time: {time.perf_counter() - started:.1f}s")
    return 0 if score.heuristic_wins_clearly else 1


if __name__ == "__main__":
    sys.exit(main())
