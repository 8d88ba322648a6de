"""A power given on the command line is read in any of the four languages, by every
command that takes one (``orders game.json Francia`` is; ``render --sheet Francia``,
``selfplay --power-bot Francia=random`` and ``tournament --seats Francia`` were refused)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from realpolitik.cli import main


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(list(argv), stdin=io.StringIO(""), stdout=out), out.getvalue()


def test_render_sheet(tmp_path: Path) -> None:
    english = run("render", "--sheet", "FRANCE")
    assert english[0] == 0
    assert run("render", "--sheet", "Francia") == english == run("render", "--sheet", "frança")


def test_selfplay_power_bot(tmp_path: Path) -> None:
    code, _ = run(
        "selfplay", "--games", "1", "--out", str(tmp_path), "--power-bot", "Alemanha=heuristic",
        "--max-years", "1", "--workers", "1", "--quiet",
    )  # fmt: skip
    assert code == 0
    games = (tmp_path / "games.jsonl").read_text().splitlines()
    assert json.loads(games[0])["bots"]["GERMANY"] == "heuristic"


def test_tournament_seats(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(
        "tournament", "--seats", "Francia, Angleterre", "--bot", "random", "--baseline", "random",
        "--seeds", "1", "--years", "1", "--jobs", "1", "--quiet",
    )  # fmt: skip
    assert code == 0, capsys.readouterr().err
    assert "FRANCE" in out and "ENGLAND" in out and "GERMANY" not in out
