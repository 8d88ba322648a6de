"""A whole game as frames to draw: each phase's starting position, orders and results.

Two sources: a game record (the packaged example games, ``{"start": ..., "phases": [...]}``,
replayed through the adjudicator) and a :class:`realpolitik.game.Game` (its history).
The last frame is the position the game reached, with no orders.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from realpolitik.adjudicator import adjudicate
from realpolitik.adjudicator.results import Resolution
from realpolitik.errors import SituationError
from realpolitik.formats.replay import record_map, replay_turns
from realpolitik.formats.savegame import game_from_json
from realpolitik.formats.situation import (
    check_dislodged,
    read_accept,
    read_orders,
    read_situation,
    situation_board,
    situation_edition,
)
from realpolitik.game.calendar import Turn
from realpolitik.game.victory import Alliance
from realpolitik.maps import GameMap
from realpolitik.orders import Order
from realpolitik.phase import Phase
from realpolitik.position import Position
from realpolitik.vocab import Power

if TYPE_CHECKING:
    from realpolitik.game import Game


@dataclass(frozen=True)
class Frame:
    """One phase: the position it starts from, the orders given and their resolution
    (``None`` for the final position, still to be played); ``edition``: the name of the
    edition (or ``datc``) the game is played by, for its season words and adjustments;
    ``unplayed``: the powers nobody plays then (:meth:`Game.unplayed`); ``unread``: the
    texts of a situation's orders that could not be read (each power's); ``alliances``:
    the alliances standing as it starts (conquista)."""

    phase: Phase
    position: Position
    game_map: GameMap
    orders: Mapping[Power, Sequence[Order]] = field(default_factory=dict)
    resolution: Resolution | None = None
    edition: str | None = None
    unplayed: frozenset[Power] = frozenset()
    unread: Mapping[Power, Sequence[str]] = field(default_factory=dict)
    alliances: tuple[Alliance, ...] = ()


def frames_from_record(record: Mapping[str, Any]) -> list[Frame]:
    """Replay a game record phase by phase (``record["rules"]``, default classic)."""
    game_map = record_map(record)
    name = str(record.get("rules", "classic"))
    frames: list[Frame] = []
    last: Turn | None = None
    for step in replay_turns(record):
        last = step.turn
        frames.append(
            Frame(last.phase, last.position, game_map, last.orders, last.resolution, name)
        )
    if last is not None:
        frames.append(Frame(last.following, last.after, game_map, edition=name))
    return frames


def frames_from_game(game: Game) -> list[Frame]:
    """The frames of a :class:`~realpolitik.game.Game`'s history, then its present; a game
    that ended in a phase it played ends on that phase (the next is never played)."""
    frames: list[Frame] = []
    for record in game.history:
        resolution = Resolution(record.phase, tuple(record.outcomes), record.after)
        frames.append(
            Frame(
                record.phase,
                record.position,
                game.map_for(record.phase),
                {p: list(o) for p, o in record.orders.items()},
                resolution,
                game.edition.name,
                game.unplayed(record.phase),
                alliances=record.status.alliances,
            )
        )
    if game.result is not None and any(r.phase == game.result.phase for r in game.history):
        return frames
    frames.append(
        Frame(
            game.phase,
            game.position,
            game.game_map,
            edition=game.edition.name,
            unplayed=game.unplayed(),
            alliances=game.status.alliances,
        )
    )
    return frames


def frame_from_situation(data: Mapping[str, Any], rules: str | None = None) -> Frame:
    """A situation of the ``realpolitik adjudicate`` contract (position and orders),
    adjudicated as that command does (``rules``: the edition, over the situation's own):
    the picture of that phase with its results."""
    if not isinstance(data, Mapping):
        raise SituationError("a situation must be a JSON object")
    name, judged = situation_edition(data, rules)
    game_map = situation_board(data, name)
    phase, position = read_situation(data, game_map)
    check_dislodged(phase, position)
    orders, unread = read_orders(
        data.get("orders"),
        str(data.get("language", "en")),
        game_map,
        position=position,
        phase=phase,
        rules=judged,
    )
    accepted = read_accept(data.get("accept"), judged, position, game_map)
    resolution = adjudicate(game_map, position, orders, judged, phase, accepted=accepted)
    texts = {power: [text for text, _ in bad] for power, bad in unread.items()}
    return Frame(phase, position, game_map, orders, resolution, name, unread=texts)


def frames_from_json(data: Mapping[str, Any]) -> list[Frame]:
    """Frames of a saved game (:func:`~realpolitik.formats.savegame.game_to_json`) or of a
    game record."""
    if "phases" in data and "start" in data:
        return frames_from_record(data)
    return frames_from_game(game_from_json(data))
