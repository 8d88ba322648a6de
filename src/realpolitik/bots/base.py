"""The bot protocol and what a bot is shown."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from realpolitik.adjudicator import builds_due
from realpolitik.errors import BotError, GameError, OrderError
from realpolitik.game import Game
from realpolitik.game.editions import Edition, Setup, edition
from realpolitik.game.records import Status
from realpolitik.maps.model import GameMap
from realpolitik.orders import Order
from realpolitik.phase import Phase, Season
from realpolitik.position import Position
from realpolitik.readonly import EMPTY, frozen_mapping
from realpolitik.rules import Rules
from realpolitik.vocab import Power

LegalOrders = Mapping[str, Sequence[Order]]
"""One power's legal orders: a unit's location (movement, retreats), a build province or a
removable unit's location (adjustments), or ``"WAIVE"``, to the orders allowed there."""


@dataclass(frozen=True, slots=True)
class PowerView:
    """What a power may see when it writes its orders: the board, never other orders;
    ``rules`` and ``edition``: the rules and the edition (its calendar) the game is played
    by, when the caller knows them; ``setup``, ``assignment`` (each player's setup group),
    ``status`` (who left, conceded or missed a turn, alliances, the coin toss) and
    ``last_year``: the table, all public, so that a bot sees which powers play and
    :meth:`fork` plays on at the game's own table (a 2- or 3-player game, a neutral
    power), not at the edition's table of seven."""

    power: Power
    phase: Phase
    position: Position
    game_map: GameMap
    rules: Rules | None = None
    edition: Edition | None = None
    setup: Setup | None = None
    assignment: Mapping[str, tuple[Power, ...]] = field(default=EMPTY)
    status: Status | None = None
    last_year: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "assignment", frozen_mapping(self.assignment))

    @classmethod
    def of(cls, game: Game, power: Power) -> PowerView:
        """What ``power`` sees of ``game`` now: its phase, position, board, rules, edition
        and table (``power`` in any case; one not on the board is a ``GameError``)."""
        power = str(power).upper()
        if power not in game.powers:
            raise GameError(f"unknown power {power!r}; powers: {', '.join(game.powers)}")
        return cls(
            power, game.phase, game.position, game.game_map, game.rules, game.edition,
            game.setup, game.assignment, game.status, game.last_year,
        )  # fmt: skip

    def fork(self, seed: int | None = None) -> Game:
        """A new game at the view's position and phase, at the game's table as the view
        shows it (what the view does not show is the edition's default, as
        :meth:`Game.from_position` makes it): a bot's look-ahead, to play on without
        touching the game. ``seed`` draws what the game would draw (a coin toss still to
        come).

            >>> game = Game.new(edition="1971", players=3, seed=1)
            >>> fork = PowerView.of(game, "FRANCE").fork(seed=1)
            >>> fork.players == game.players, fork.unplayed() == game.unplayed()
            (True, True)
        """
        ed = edition_of(self)
        players = list(self.assignment) or None
        game = Game.from_position(
            self.position, self.phase, edition=ed.name, rules=self.rules, seed=seed,
            players=players, assignment=self.assignment or None, last_year=self.last_year,
            setup=None if self.setup is None else self.setup.id,
        )  # fmt: skip
        if self.status is not None:
            game.status = self.status
        return game

    def unplayed(self) -> frozenset[Power]:
        """The powers nobody plays now, as the view shows the table (none when it shows no
        assignment): their units only hold, as :meth:`Game.unplayed` says.

            >>> game = Game.new(players=5, seed=1)
            >>> sorted(PowerView.of(game, "FRANCE").unplayed())
            ['GERMANY', 'ITALY']
        """
        if not self.assignment:
            return frozenset()
        status = self.status if self.status is not None else Status()
        players = status.players(self.assignment, self.phase)
        played = {p for powers in players.values() for p in powers}
        return frozenset(p for p in self.game_map.powers if p not in played)

    def due(self) -> int:
        """Builds (positive) or removals (negative) the power owes now: in an adjustment
        phase, as the adjudicator counts them under the game's rules (guessed from the
        calendar when not shown, as :func:`edition_of`); else 0."""
        if not self.phase.is_adjustments:
            return 0
        rules = self.rules if self.rules is not None else edition_of(self).rules
        return builds_due(self.game_map, self.position, rules).get(self.power, 0)


def edition_of(view: PowerView) -> Edition:
    """The edition the game is played by (as shown, else guessed from the calendar: only
    conquista adjusts in the Spring)."""
    if view.edition is not None:
        return view.edition
    reinforcing = view.phase.is_adjustments and view.phase.season is Season.SPRING
    return edition("conquista" if reinforcing else "classic")


class Bot(Protocol):
    """Anything that writes one power's orders for one phase."""

    name: str

    def orders(self, view: PowerView, legal: LegalOrders) -> Sequence[Order | str]:
        """The orders to give (at most one per key of ``legal``): order values, or text as
        :meth:`Game.submit` reads it (``"A PAR - BUR"``), for a bot that writes its orders
        (the loops of bots, :func:`bot_orders`, read both)."""
        ...


def bot_orders(bot: Bot, game: Game, power: Power, legal: LegalOrders) -> list[Order | str]:
    """What ``bot`` orders for ``power`` now, shown the power's view of ``game`` and its
    ``legal`` orders: the call of every loop of bots (self-play, the tournament, training,
    the environment). An exception of the bot's, or an answer that is not a list of
    orders, is a :class:`BotError` naming the bot, the power, the phase and the game's seed
    (caused by the bot's exception: its traceback is kept)."""
    view = PowerView.of(game, power)  # a power the game has not: the caller's error
    name, where = _said(bot, game, view.power)
    try:
        given = bot.orders(view, legal)
    except Exception as exc:
        kind = type(exc).__name__
        raise BotError(f"the bot {name!r} failed writing {where}: {kind}: {exc}") from exc
    if isinstance(given, str | Mapping) or not isinstance(given, Iterable):
        raise BotError(f"the bot {name!r} gave {where} as {given!r}, not a list of orders")
    return list(given)


def submit_bot_orders(bot: Bot, game: Game, power: Power, legal: LegalOrders) -> list[Order]:
    """:func:`bot_orders` given to the game (:meth:`Game.submit`), as self-play does: an
    order the game refuses is a :class:`BotError` too, naming the bot, game and phase."""
    given = bot_orders(bot, game, power, legal)
    try:
        return game.submit(power, given)
    except OrderError as exc:
        name, where = _said(bot, game, power)
        raise BotError(f"the bot {name!r} gave {where} that the game refuses: {exc}") from None


def _said(bot: Bot, game: Game, power: Power) -> tuple[str, str]:
    """The bot's name and its task, as its errors say them."""
    name = getattr(bot, "name", type(bot).__name__)
    return name, f"{power}'s orders for {game.phase} (game seed {game.seed})"


def is_bot(thing: object) -> bool:
    """Whether ``thing`` can play as a :class:`Bot` (it has an ``orders`` method)."""
    return callable(getattr(thing, "orders", None))
