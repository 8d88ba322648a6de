"""Damaged saved games: every kind of damage gives a one-line error naming what is wrong
(never a traceback from the CLI), and damage that still parses, such as a power's units
deleted, is caught by checking the position against the history."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from realpolitik.cli import main
from realpolitik.formats.savegame import (
    SaveGameError,
    game_to_json,
    load_game,
    save_game,
)
from realpolitik.game import Game
from realpolitik.game.editions import EDITIONS, edition
from tests.gamekit import at, play_random


def _played() -> Game:
    game = Game.new(seed=3)
    game.submit("FRANCE", ["A PAR - BUR", "F BRE - MAO"])
    game.submit("GERMANY", ["A MUN - RUH"])
    game.process()
    game.submit("FRANCE", ["F MAO - POR"])
    game.process()
    return game


def _write(tmp_path: Path, data: Any, name: str = "g.json") -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return path


def _cli(*argv: str) -> int:
    return main(list(argv))


def test_deep_nesting_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, "[" * 100000 + "]" * 100000)
    with pytest.raises(SaveGameError, match="nested"):
        load_game(path)
    for command in ("show", "history", "process"):
        assert _cli(command, str(path)) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.count("\n") == 3


@pytest.mark.parametrize(
    ("damage", "named"),
    [
        (lambda d: d["history"][0]["outcomes"][1].update(power={}), "history[0].outcomes[1].power"),
        (lambda d: d["history"][1].pop("position"), "history[1]: missing 'position'"),
        (lambda d: d.pop("status"), "missing 'status'"),
        (lambda d: d.pop("pending"), "missing 'pending'"),
        (lambda d: d.update(players=[]), "players"),
        (lambda d: d["position"].update(units=7), "position.units"),
        (lambda d: d["position"]["units"].update(FRANCE=[None]), "position.units.FRANCE[0]"),
        (lambda d: d["history"][0].update(orders={"FRANCE": "A PAR - BUR"}), "history[0].orders"),
        (lambda d: d.update(seed="x"), "seed"),
        (lambda d: d.update(last_year=-1), "last year -1"),  # would end the game at once
    ],
)
def test_damage_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], damage: Any, named: str
) -> None:
    data = game_to_json(_played())
    damage(data)
    path = _write(tmp_path, data)
    with pytest.raises(SaveGameError) as caught:
        load_game(path)
    assert named in str(caught.value)
    assert _cli("show", str(path)) == 2
    assert "Traceback" not in capsys.readouterr().err


@pytest.mark.parametrize("played", [True, False])
def test_a_powers_units_deleted_is_detected(tmp_path: Path, played: bool) -> None:
    data = game_to_json(_played() if played else Game.new(seed=3))
    del data["position"]["units"]["FRANCE"]
    with pytest.raises(SaveGameError, match="position"):
        load_game(_write(tmp_path, data))


def test_a_game_set_up_elsewhere_keeps_its_start(tmp_path: Path) -> None:
    """A game set up at a chosen position (a scenario, a puzzle) saves that start and loads;
    damage to its position is still caught against it."""
    game = at(Game.new(seed=3), "S1901M", {"units": {"FRANCE": ["A BUR"], "GERMANY": ["A MUN"]}})
    data = game_to_json(game)
    assert data["start"] == data["position"]
    assert load_game(_write(tmp_path, data)).position == game.position
    del data["position"]["units"]["GERMANY"]
    with pytest.raises(SaveGameError, match="position"):
        load_game(_write(tmp_path, data))
    assert "start" not in game_to_json(Game.new(seed=3))  # the edition's start is not repeated


def test_centres_changed_is_detected(tmp_path: Path) -> None:
    data = game_to_json(_played())
    data["position"]["centers"]["FRANCE"].append("SPA")
    with pytest.raises(SaveGameError, match="position"):
        load_game(_write(tmp_path, data))


def _outcome(data: Any, phase: str, order: str) -> dict[str, Any]:
    record = next(r for r in data["history"] if r["phase"] == phase)
    entry: dict[str, Any] = next(o for o in record["outcomes"] if o["order"] == order)
    return entry


@pytest.mark.parametrize(
    ("damage", "named"),
    [
        (lambda d: d["history"][0]["position"]["units"].pop("FRANCE"), "S1901M"),
        (lambda d: d["history"][0]["position"]["centers"]["FRANCE"].pop(), "S1901M"),
        (lambda d: d["history"].pop(0), "F1901M"),
        (lambda d: d["history"][0]["orders"].pop("GERMANY"), "S1901M"),
        (lambda d: _outcome(d, "S1901M", "A PAR - BUR").update(result="fails"), "S1901M"),
        (lambda d: d["history"][0]["outcomes"].pop(0), "S1901M"),
        (lambda d: _outcome(d, "S1901M", "A MUN - RUH").update(power="FRANCE"), "S1901M"),
    ],
)
def test_damage_to_an_earlier_phase_is_detected(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], damage: Any, named: str
) -> None:
    """Every processed phase, not only the last, must lead to the next one's position (the
    first starts from the game's start) and have the outcomes its orders give: else
    ``history`` shows what never happened and ``rollback`` writes a game that cannot load."""
    data = game_to_json(_played())
    damage(data)
    path = _write(tmp_path, data)
    with pytest.raises(SaveGameError, match="damaged") as caught:
        load_game(path)
    assert named in str(caught.value)
    assert _cli("rollback", str(path), "F1901M", str(tmp_path / "fork.json")) == 2
    assert not (tmp_path / "fork.json").exists()
    assert "Traceback" not in capsys.readouterr().err


def test_good_games_still_load(tmp_path: Path) -> None:
    for game in (_played(), Game.new(seed=3), Game.new(edition="1971", players=5, seed=2)):
        path = _write(tmp_path, game_to_json(game))
        assert game_to_json(load_game(path)) == game_to_json(game)


def _paths(value: Any, at: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield at
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*at, key))
    elif isinstance(value, list):
        for k, item in enumerate(value):
            yield from _paths(item, (*at, k))


MUTATIONS: list[Any] = ["delete", None, 0, -1, 10**30, "x", [], {}, [[]], {"": {}}, 1.5, True]


def test_structural_mutations_never_give_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = game_to_json(_played())
    paths = [p for p in _paths(base) if p]
    rng = random.Random(19)
    cases = [(path, rng.choice(MUTATIONS)) for path in rng.sample(paths, 150)]
    for path, mutation in cases:
        data = copy.deepcopy(base)
        parent = data
        for key in path[:-1]:
            parent = parent[key]
        if mutation == "delete":
            del parent[path[-1]]
        else:
            parent[path[-1]] = mutation
        file = _write(tmp_path, data)
        for command in ("show", "history"):
            assert _cli(command, str(file)) in (0, 2), (path, mutation)
    capsys.readouterr()


@pytest.mark.parametrize(
    ("name", "setup"), [(e, s.id) for e in EDITIONS for s in edition(e).setups]
)
def test_played_games_of_every_edition_pass_the_checks(
    tmp_path: Path, name: str, setup: str
) -> None:
    game = Game.new(edition=name, setup=setup, seed=7)
    play_random(game, random.Random(7), 14, skip=0.1)
    path = tmp_path / "ok.json"
    save_game(game, path)
    assert game_to_json(load_game(path)) == game_to_json(game)


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero here")
def test_an_endless_file_is_refused_not_read_whole(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file far larger than any saved game (``/dev/zero`` given by mistake, a huge
    file) is refused after reading the limit: it was read whole (MemoryError traceback
    once the memory ran out)."""
    monkeypatch.setattr("realpolitik.formats.savegame.MAX_FILE_BYTES", 1000)
    with pytest.raises(SaveGameError, match="over 1000 bytes"):
        load_game("/dev/zero")
    assert _cli("show", "/dev/zero") == 2
    assert _cli("mila-import", "/dev/zero", "/dev/null") == 2
    assert "Traceback" not in capsys.readouterr().err
