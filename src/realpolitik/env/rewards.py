"""Reward schemes: a score per power, the reward of a step its change.

* ``"centres"``: the power's supply centres; a step's reward is the centres it gained
  (negative: lost), so an episode's return is its final count less its first;
* ``"sum_of_squares"``: the power's centres squared over the sum of every power's squares
  (the sum-of-squares scoring of tournaments), also paid as its change step by step;
* ``"win"``: nothing until the end; then ``1/k`` to each power of the ``k`` players who
  won or drew (a solo: 1), 0 to the others. A game cut off by the environment's year
  limit is a draw of the players with a power still on the board.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from realpolitik.position import Position
from realpolitik.vocab import Power

REWARDS = ("centres", "sum_of_squares", "win")


def centre_counts(position: Position, powers: Iterable[Power]) -> dict[Power, int]:
    counts = dict.fromkeys(powers, 0)
    for owner in position.centers.values():
        if owner in counts:
            counts[owner] += 1
    return counts


def scores(scheme: str, position: Position, powers: Iterable[Power]) -> dict[Power, float]:
    """Each power's score in ``position`` (the ``"win"`` scheme scores only at the end: 0)."""
    counts = centre_counts(position, powers)
    if scheme == "centres":
        return {p: float(n) for p, n in counts.items()}
    if scheme == "sum_of_squares":
        total = sum(n * n for n in counts.values())
        return {p: (n * n / total if total else 0.0) for p, n in counts.items()}
    return dict.fromkeys(counts, 0.0)


def shares(players: Mapping[str, Iterable[Power]], winners: Iterable[str]) -> dict[Power, float]:
    """The ``"win"`` scheme's end: ``1/k`` to each power of the ``k`` winning players."""
    won = sorted(set(winners))
    return {p: 1.0 / len(won) for name in won for p in players.get(name, ())}
