"""Every order the rulebooks print, in its language, reads as the order it means.

``tests/data/notation/<lang>.json`` lists the orders of the seeds' diagrams, examples and
prose (``text``; ``printed`` when the OCR garbled it) with the order in the English short
notation (``order``) or the error the text must give (``error``). ``games.json`` lists the
example games' orders phase by phase; they are read against the position of their phase
(replayed from the packaged game records), so the board fills in unit types and coasts.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from realpolitik import (
    AmbiguousOrderError,
    IllegalOrderError,
    InvalidOrderError,
    OrderError,
    Phase,
    Position,
    load_map,
)
from realpolitik.formats.replay import load_game_record
from realpolitik.formats.situation import adjudicate_situation, read_situation
from realpolitik.notation import guess_language, parse_order

DATA = Path(__file__).parent / "data" / "notation"
BOARD = load_map("standard")
ERRORS: dict[str, type[OrderError]] = {
    "invalid": InvalidOrderError,
    "illegal": IllegalOrderError,
    "ambiguous": AmbiguousOrderError,
}


def _table(language: str) -> list[Any]:
    rows: list[dict[str, Any]] = json.loads((DATA / f"{language}.json").read_text("utf-8"))
    return [pytest.param(row, id=f"{row['source']}: {row['text']}") for row in rows]


def _check(row: dict[str, Any], language: str) -> None:
    if "error" in row:
        with pytest.raises(ERRORS[row["error"]]):
            parse_order(row["text"], language=language, game_map=BOARD)
    else:
        assert parse_order(row["text"], language=language, game_map=BOARD) == parse_order(
            row["order"], game_map=BOARD
        ), row


@pytest.mark.parametrize("row", _table("es"))
def test_spanish(row: dict[str, Any]) -> None:
    _check(row, "es")


@pytest.mark.parametrize("row", _table("fr"))
def test_french(row: dict[str, Any]) -> None:
    _check(row, "fr")


@pytest.mark.parametrize("row", _table("pt"))
def test_portuguese(row: dict[str, Any]) -> None:
    _check(row, "pt")


@pytest.mark.parametrize("row", _table("en"))
def test_english(row: dict[str, Any]) -> None:
    _check(row, "en")


@pytest.mark.parametrize("language", ["es", "fr", "pt"])
def test_the_language_of_every_seed_order_is_guessed(language: str) -> None:
    rows = json.loads((DATA / f"{language}.json").read_text("utf-8"))
    for row in rows:
        if "guess" in row:  # written so that another language reads it otherwise
            assert guess_language(row["text"], game_map=BOARD) == row["guess"], row
        elif "order" in row:
            assert parse_order(row["text"], language=None, game_map=BOARD) == parse_order(
                row["order"], game_map=BOARD
            ), row


def _game_rows() -> list[Any]:
    games: dict[str, Any] = json.loads((DATA / "games.json").read_text("utf-8"))
    out = []
    for name, spec in games.items():
        for phase, rows in spec["phases"].items():
            for row in rows:
                label = f"{name} {phase} {row['power']}: {row['text']}"
                out.append(pytest.param(name, spec["language"], phase, row, id=label))
    return out


_POSITIONS: dict[tuple[str, str], tuple[Phase, Position]] = {}


def _position(name: str, phase_text: str) -> tuple[Phase, Position]:
    """The position at the start of ``phase_text`` of a packaged game record."""
    if not _POSITIONS:
        for game in ("classic_1901_1902", "grow_1901_1902"):
            record = load_game_record(game)
            start = record["start"]
            state = {"units": start["units"], "centers": start.get("centers", {})}
            for step in record["phases"]:
                situation = {"phase": step["phase"], **state}
                _POSITIONS[(game, step["phase"])] = read_situation(situation, BOARD)
                result = adjudicate_situation(
                    {**situation, "orders": step.get("orders", {})}, record["rules"]
                )
                state = {k: result[k] for k in ("units", "centers", "dislodged", "contested")}
    return _POSITIONS[(name, phase_text)]


@pytest.mark.parametrize(("game", "language", "phase", "row"), _game_rows())
def test_example_games_against_the_board(
    game: str, language: str, phase: str, row: dict[str, Any]
) -> None:
    when, position = _position(game, phase)
    power = row["power"]
    expect = row["expect"]
    if expect in ERRORS:
        with pytest.raises(ERRORS[expect]):
            parse_order(
                row["text"],
                language=language,
                position=position,
                game_map=BOARD,
                power=power,
                phase=when,
            )
        return
    got = parse_order(
        row["text"], language=language, position=position, game_map=BOARD, power=power, phase=when
    )
    assert got == parse_order(expect, position=position, game_map=BOARD, power=power, phase=when)
