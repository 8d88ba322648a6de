"""Bots playing a whole game among themselves through :class:`~realpolitik.game.Game` (the
one game loop: legal orders → bots → :meth:`~realpolitik.game.Game.process`), so that the
calendar and the victory condition are the edition's: a new game, or a fork played on
(rollouts). Used by ``tools/bot_tournament.py`` and the tests."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from realpolitik.bots.base import Bot, is_bot, submit_bot_orders
from realpolitik.errors import whole_number
from realpolitik.game import Game
from realpolitik.game.victory import GameResult
from realpolitik.phase import Phase
from realpolitik.position import Position
from realpolitik.rules import Rules
from realpolitik.vocab import Power


@dataclass(frozen=True, slots=True)
class SelfPlayResult:
    """Where a game of bots ended: its phase and position, each power's centres, the
    game's ``result`` (``None``: cut off by the years given, not over) and its
    ``winners`` (every winning power: a player's several powers, an alliance, a draw's
    share); ``winner`` is the power of a victory won by one power alone, else ``None``."""

    phase: Phase
    position: Position
    centers: dict[Power, int]
    winner: Power | None
    winners: tuple[Power, ...] = ()
    result: GameResult | None = None


def self_play(
    bots: Mapping[Power, Bot],
    *,
    years: int,
    edition: str | None = None,
    rules: Rules | None = None,
    game: Game | None = None,
) -> SelfPlayResult:
    """Play a new game of ``edition`` (default classic; ``rules``: other rules than the
    edition's), or play on ``game`` from its phase, for at most ``years`` years, or to its
    end by the edition's victory condition; a power without a bot gives no orders, and the
    edition's rule for missed orders applies (classic, 1971: civil disorder; grow,
    conquista: its units hold, and it is not in civil disorder).

    ``game`` is played in place: a rollout from a position gives a fork
    (``game.copy()``) and keeps the game itself as it was. Orders already given in a
    phase are kept (the bots order for the other powers): a search bot submits the
    candidate it values to the fork, and every power's bot plays on after that phase.

    >>> from realpolitik.bots import make_bot
    >>> game = Game.new(seed=1)
    >>> bots = {p: make_bot("random", seed=k) for k, p in enumerate(game.powers)}
    >>> fork = game.copy()
    >>> result = self_play(bots, years=2, game=fork)
    >>> str(result.phase), str(fork.phase), str(game.phase)
    ('S1903M', 'S1903M', 'S1901M')
    """
    whole_number(years, "years", least=1)
    if not isinstance(bots, Mapping):
        raise ValueError(f"bots are given by power ({{'FRANCE': bot, ...}}), not {bots!r}")
    if game is None:
        game = Game.new(edition=edition or "classic", rules=rules, seed=0)
    elif edition is not None or rules is not None:
        raise ValueError("a game to play on has its edition and rules: give neither")
    for power, given_bot in bots.items():
        if power not in game.powers:
            raise ValueError(f"a bot for {power!r}: powers: {', '.join(game.powers)}")
        if not is_bot(given_bot):
            raise ValueError(
                f"the bot of {power} is no bot (it has no orders method): {given_bot!r}"
            )
    last_year = game.phase.year + years - 1
    while not game.is_over and game.phase.year <= last_year:
        given = game.pending_orders()  # a candidate being valued: kept, not replaced
        for power, legal in game.legal_orders().items():
            bot = bots.get(power)
            if bot is not None and legal and power not in given:
                submit_bot_orders(bot, game, power, legal)
        game.process()
    result = game.result
    winners = () if result is None else result.winners
    alone = result is not None and result.kind == "victory" and len(winners) == 1
    counts = {p: len(game.position.centers_of(p)) for p in game.powers}
    return SelfPlayResult(
        game.phase, game.position, counts, winners[0] if alone else None, winners, result
    )
