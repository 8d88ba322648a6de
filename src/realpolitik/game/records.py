"""The values a game is made of besides the board: its status, its processed phases
(:class:`PhaseRecord`), press messages, the two-player coin toss; and :class:`GameError`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from realpolitik.adjudicator.results import Outcome
from realpolitik.errors import GameError
from realpolitik.game.victory import Alliance
from realpolitik.orders import Order
from realpolitik.phase import Phase
from realpolitik.position import Position
from realpolitik.vocab import Power, Province

__all__ = ["CoinToss", "GameError", "Message", "PhaseRecord", "Status"]


@dataclass(frozen=True, slots=True)
class CoinToss:
    """The two-player game's coin toss: ``power`` goes to ``player`` from year ``from_year``."""

    power: Power
    player: str
    phase: Phase
    from_year: int


@dataclass(frozen=True, slots=True)
class Status:
    """What changes besides the board: powers whose player left (``disorder``), conceded
    powers, powers that gave no orders in this turn's movement phase (``missed``: in civil
    disorder for the rest of the turn and its adjustments, unless they order again),
    alliances and the coin toss. Each record keeps the status before it."""

    disorder: frozenset[Power] = frozenset()
    conceded: frozenset[Power] = frozenset()
    missed: frozenset[Power] = frozenset()
    alliances: tuple[Alliance, ...] = ()
    coin_toss: CoinToss | None = None


@dataclass(frozen=True, slots=True)
class PhaseRecord:
    """One processed phase: the position before it, the orders that were adjudicated, the
    outcomes, and the position after it (``after``: the one the next phase starts from,
    centres updated); ``skipped`` when nobody had a choice (processed at once);
    ``disorder``: the powers in civil disorder in it; ``accepted``: accepted foreign
    supports (conquista); ``declared``: alliance declarations; ``events``: what the phase
    decided besides the board (a coin toss, an alliance, the end of the game)."""

    phase: Phase
    position: Position
    orders: Mapping[Power, tuple[Order, ...]]
    outcomes: tuple[Outcome, ...]
    after: Position
    skipped: bool = False
    disorder: frozenset[Power] = frozenset()
    accepted: frozenset[tuple[Power, Province]] = frozenset()
    declared: Mapping[Power, tuple[Power, ...]] = field(default_factory=dict)
    status: Status = Status()
    events: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Message:
    """A press message sent during ``phase`` (``recipient`` a power or ``"GLOBAL"``)."""

    phase: Phase
    sender: Power
    recipient: str
    text: str
