"""Bots playing a whole game among themselves, with the library's own phase pipeline
(legal orders → bots → :func:`~realpolitik.adjudicator.adjudicate` →
:func:`~realpolitik.situation.next_phase`). Used by the bot tournament."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from realpolitik.adjudicator import adjudicate
from realpolitik.bots.base import Bot, PowerView
from realpolitik.legal import legal_orders
from realpolitik.maps import GameMap
from realpolitik.orders import Order
from realpolitik.phase import Phase
from realpolitik.position import Position
from realpolitik.rules import Rules
from realpolitik.situation import next_phase
from realpolitik.vocab import Power


def bot_orders(
    bot: Bot, game_map: GameMap, position: Position, phase: Phase, rules: Rules, power: Power
) -> list[Order]:
    """The orders ``bot`` gives for ``power`` in this phase."""
    legal = legal_orders(game_map, position, phase, rules, power)[power]
    if not legal:
        return []
    return bot.orders(PowerView(power, phase, position, game_map, rules), legal)


@dataclass(frozen=True, slots=True)
class SelfPlayResult:
    phase: Phase
    position: Position
    centers: dict[Power, int]
    winner: Power | None


def self_play(
    bots: Mapping[Power, Bot],
    game_map: GameMap,
    rules: Rules,
    *,
    years: int,
    start: Phase | None = None,
) -> SelfPlayResult:
    """Play from the initial position for at most ``years`` years (or to a solo win:
    more than half the centres)."""
    phase = start or Phase.parse("S1901M")
    position = Position.initial(game_map)
    last_year = phase.year + years - 1
    to_win = len(game_map.centers) // 2 + 1
    winner: Power | None = None
    while phase.year <= last_year:
        orders = {
            power: bot_orders(bot, game_map, position, phase, rules, power)
            for power, bot in bots.items()
        }
        resolution = adjudicate(game_map, position, orders, rules, phase)
        phase, position = next_phase(phase, resolution, game_map)
        counts = {p: len(position.centers_of(p)) for p in game_map.powers}
        leaders = [p for p, n in counts.items() if n >= to_win]
        if leaders and phase.season.value == "S":
            winner = leaders[0]
            break
    counts = {p: len(position.centers_of(p)) for p in game_map.powers}
    return SelfPlayResult(phase, position, counts, winner)
