"""The values a game is made of besides the board: its status, its processed phases
(:class:`PhaseRecord`) and what they brought about (:class:`Event`), press messages, the
two-player coin toss; and :class:`GameError`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from realpolitik.adjudicator.results import Outcome
from realpolitik.errors import GameError
from realpolitik.game.victory import Alliance
from realpolitik.orders import Order
from realpolitik.phase import Phase
from realpolitik.position import Position
from realpolitik.readonly import frozen_mapping
from realpolitik.vocab import Power, Province

__all__ = ["CoinToss", "Event", "EventKind", "GameError", "Message", "PhaseRecord", "Status"]


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

    def players(
        self, assignment: Mapping[str, Sequence[Power]], phase: Phase
    ) -> dict[str, tuple[Power, ...]]:
        """Each player's powers in ``phase``: the ``assignment``, and the coin toss's
        power from its year."""
        players = {name: tuple(powers) for name, powers in assignment.items()}
        toss = self.coin_toss
        if toss is not None and phase.year >= toss.from_year:
            players[toss.player] = (*players[toss.player], toss.power)
        return players


class EventKind(StrEnum):
    """What a phase can bring about besides the board."""

    CIVIL_DISORDER = "civil_disorder"  # powers gave no orders: civil disorder for the turn
    ALLIANCE_FORMED = "alliance_formed"  # conquista
    ALLIANCE_ENDED = "alliance_ended"  # conquista
    COIN_TOSS = "coin_toss"  # the neutral power of a small table goes to a player
    GAME_OVER = "game_over"


@dataclass(frozen=True, slots=True)
class Event:
    """Something a phase brought about besides the board: ``powers`` are those in civil
    disorder, the alliance's members or the power tossed for; a coin toss names the
    ``player`` who gets the power and the ``year`` it is theirs from; the end of the game
    its ``reason`` (English; the winners are the game's). ``str(event)`` says it in
    English; the web page says it in its own language from the kind and the names."""

    kind: EventKind
    powers: tuple[Power, ...] = ()
    player: str = ""
    year: int = 0
    reason: str = ""

    def __str__(self) -> str:
        kind, powers = self.kind, self.powers
        if kind is EventKind.CIVIL_DISORDER:
            return f"civil disorder (no orders): {', '.join(powers)}"
        if kind is EventKind.ALLIANCE_FORMED:
            return f"alliance formed: {'+'.join(powers)}"
        if kind is EventKind.ALLIANCE_ENDED:
            return f"alliance ended: {'+'.join(powers)}"
        if kind is EventKind.COIN_TOSS:
            return f"coin toss: {powers[0]} goes to {self.player} from {self.year}"
        return f"game over: {self.reason}"

    def to_json(self) -> dict[str, Any]:
        """The event as JSON: ``kind`` and ``powers``; ``player`` and ``year`` for a coin
        toss, ``reason`` for the end; ``text``: the English."""
        out: dict[str, Any] = {"kind": self.kind.value, "powers": list(self.powers)}
        if self.kind is EventKind.COIN_TOSS:
            out |= {"player": self.player, "year": self.year}
        if self.kind is EventKind.GAME_OVER:
            out["reason"] = self.reason
        return out | {"text": str(self)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Event:
        """The event :meth:`to_json` wrote (``text`` is not read: it follows from the rest)."""
        kind = EventKind(data["kind"])
        powers = tuple(str(p) for p in data["powers"])
        if kind is EventKind.COIN_TOSS:
            if len(powers) != 1:
                raise ValueError(f"a coin toss is for one power, not {len(powers)}")
            return cls(kind, powers, str(data["player"]), int(data["year"]))
        if kind is EventKind.GAME_OVER:
            return cls(kind, reason=str(data["reason"]))
        if not powers:
            raise ValueError(f"a {kind.value} event names no power")
        return cls(kind, powers)


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
    events: tuple[Event, ...] = ()

    def __post_init__(self) -> None:
        # shared by a game's copies and forks: its mappings must not change either
        for name in ("orders", "declared"):
            value = getattr(self, name)
            object.__setattr__(self, name, frozen_mapping({k: tuple(v) for k, v in value.items()}))


@dataclass(frozen=True, slots=True)
class Message:
    """A press message sent during ``phase`` (``recipient`` a power or ``"GLOBAL"``)."""

    phase: Phase
    sender: Power
    recipient: str
    text: str
