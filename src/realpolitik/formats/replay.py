"""Replay a recorded game (a start position and each phase's orders) along the JSON
contract's calendar, phase by phase: the rulebooks' example games ship as such records.

Each phase is one :func:`realpolitik.game.calendar.play` (the one game loop's step); :func:`replay`
writes each as the contract's result, the flip-book draws them
(:func:`realpolitik.render.frames.frames_from_record`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from realpolitik.data import read_json, shipped
from realpolitik.formats.situation import CALENDAR, read_orders, read_situation, result_json
from realpolitik.game.calendar import Turn, play
from realpolitik.game.editions import edition
from realpolitik.maps import load_map
from realpolitik.maps.model import GameMap
from realpolitik.phase import Phase
from realpolitik.rules import rules_for
from realpolitik.vocab import Power


def game_records() -> list[str]:
    """The names of the packaged game records (the rulebooks' example games)."""
    return sorted(path.stem for path in shipped("data", "games").glob("*.json"))


def load_game_record(name: str) -> dict[str, Any]:
    """A packaged game record, e.g. ``load_game_record("classic_1901_1902")``; an unknown
    name raises :class:`ValueError` naming those there are."""
    known = game_records()
    if name not in known:
        raise ValueError(f"no example game {name!r} (examples: {', '.join(known)})")
    data: dict[str, Any] = read_json("data", "games", f"{name}.json")
    return data


def start_state(record: Mapping[str, Any]) -> dict[str, Any]:
    """A record's starting position in the contract's shape (no dislodged or contested)."""
    start = record["start"]
    return {
        "units": start["units"],
        "centers": start.get("centers", {}),
        "dislodged": {},
        "contested": [],
    }


@dataclass(frozen=True, slots=True)
class Replayed:
    """One phase of a record replayed: its entry in the record, the orders that could not
    be read (per power, with the reason) and the :class:`~realpolitik.game.calendar.Turn` played."""

    entry: Mapping[str, Any]
    failed: Mapping[Power, list[tuple[str, str]]]
    turn: Turn


def replay_turns(record: Mapping[str, Any]) -> Iterator[Replayed]:
    """Play each phase of ``record`` from the position the one before left."""
    game_map = record_map(record)
    rules = rules_for(str(record.get("rules", "classic")))
    calendar = edition(CALENDAR)
    first = record["phases"][0]["phase"] if record["phases"] else "S1901M"
    _, position = read_situation({"phase": first, **start_state(record)}, game_map)
    for entry in record["phases"]:
        phase = Phase.parse(str(entry["phase"]))
        orders, failed = read_orders(entry.get("orders", {}), "en", game_map)
        turn = play(calendar, game_map, rules, phase, position, orders, skip_idle=True)
        yield Replayed(entry, failed, turn)
        position = turn.after


def record_map(record: Mapping[str, Any]) -> GameMap:
    """The board a record is played on (``record["map"]``, default standard)."""
    return load_map(str(record.get("map", "standard")))


def replay(record: Mapping[str, Any]) -> Iterator[tuple[Mapping[str, Any], dict[str, Any]]]:
    """Yield ``(phase record, result)`` for each phase, the result in the contract's shape."""
    game_map = record_map(record)
    for step in replay_turns(record):
        yield step.entry, result_json(step.turn, step.failed, "en", game_map)
