"""Replay a recorded game (a start position and each phase's orders) through the JSON
contract, phase by phase: the rulebooks' example games ship as such records."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from importlib import resources
from typing import Any

from realpolitik.situation import adjudicate_situation


def load_game_record(name: str) -> dict[str, Any]:
    """A packaged game record, e.g. ``load_game_record("classic_1901_1902")``."""
    path = resources.files("realpolitik.data").joinpath("games", f"{name}.json")
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
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


def replay(record: dict[str, Any]) -> Iterator[tuple[dict[str, Any], dict[str, Any]]]:
    """Yield ``(phase record, result)`` for each phase; each result feeds the next phase."""
    state = start_state(record)
    for phase in record["phases"]:
        situation = {"phase": phase["phase"], **state, "orders": phase.get("orders", {})}
        result = adjudicate_situation(situation, record.get("rules", "classic"))
        yield phase, result
        state = {key: result[key] for key in ("units", "centers", "dislodged", "contested")}
