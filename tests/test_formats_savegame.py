"""The native saved game: lossless, versioned, atomic, and clear about damaged files."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from realpolitik.formats.savegame import (
    FORMAT,
    VERSION,
    SaveGameError,
    game_from_json,
    game_to_json,
    load_game,
    order_from_text,
    save_game,
)
from realpolitik.game import Game
from realpolitik.game.editions import EDITIONS, edition
from realpolitik.game.records import Event, EventKind
from realpolitik.legal import legal_orders
from realpolitik.orders import Order, SupportHold, UnitRef
from realpolitik.vocab import ARMY
from tests.gamekit import play_random


def _roundtrip(game: Game) -> Game:
    data = json.loads(json.dumps(game_to_json(game)))
    again = game_from_json(data)
    assert game_to_json(again) == data
    return again


@pytest.mark.parametrize(
    ("name", "setup"), [(e, s.id) for e in EDITIONS for s in edition(e).setups]
)
def test_every_edition_and_table_round_trips(name: str, setup: str) -> None:
    game = Game.new(edition=name, setup=setup, seed=5)
    play_random(game, random.Random(5), 12, skip=0.1)
    again = _roundtrip(game)
    assert again.phase == game.phase and again.position == game.position
    assert again.history == game.history and again.players == game.players
    assert again.rules == game.rules and again.status == game.status
    assert again.game_map is game.game_map and again.seed == 5


def test_everything_pending_is_kept() -> None:
    game = Game.new(edition="conquista", players=["ann", "bob", "cy"], seed=2)
    game.submit("FRANCE", ["A PAR - BUR"])
    game.declare_alliance("FRANCE", ["ENGLAND"])
    game.accept_support("FRANCE", ["A MUN"])
    game.vote_draw("ENGLAND", agree=False)
    game.send_message("FRANCE", "GLOBAL", "bonjour")
    game.set_civil_disorder("ITALY")
    again = _roundtrip(game)
    assert again.orders("FRANCE") == game.orders("FRANCE")
    assert again.view("FRANCE") == game.view("FRANCE")
    assert again.votes == {"ENGLAND": False} and again.messages == game.messages
    again.process()
    game.process()
    assert game_to_json(again) == game_to_json(game)


def test_finished_games_round_trip() -> None:
    game = Game.new(players=["ann", "bob"], seed=1)
    for power in game.players["bob"]:
        game.concede(power)
    again = _roundtrip(game)
    assert again.is_over and again.result == game.result


def _eventful() -> list[Game]:
    """Games whose histories hold every kind of event between them."""
    shortened = Game.new(edition="1971", players=["allies", "centrals"], seed=9, last_year=1914)
    while not shortened.is_over:  # no orders: civil disorder; the coin toss; the end
        shortened.process()
    allied = Game.new(edition="conquista", seed=1)
    allied.declare_alliance("FRANCE", ["ENGLAND"])
    allied.declare_alliance("ENGLAND", ["FRANCE"])
    allied.process()
    allied.declare_alliance("ENGLAND", [])
    allied.process()
    return [shortened, allied]


def test_events_round_trip_and_old_texts_still_read() -> None:
    games = _eventful()
    events = [e for g in games for r in g.history for e in r.events]
    assert {e.kind for e in events} == set(EventKind)
    for game in games:
        again = _roundtrip(game)
        assert again.history == game.history
        old = json.loads(json.dumps(game_to_json(game)))
        for record in old["history"]:  # as saved before events had kinds: their English
            record["events"] = [e["text"] for e in record["events"]]
        assert game_from_json(old).history == game.history
    end = games[0].result
    assert end is not None and games[0].history[-1].events[-1] == Event(
        EventKind.GAME_OVER, reason=end.reason
    )


def test_order_text_round_trips_every_legal_order() -> None:
    game = Game.new(seed=3)
    play_random(game, random.Random(3), 9)
    orders: list[Order] = [
        o
        for keyed in legal_orders(game.game_map, game.position, game.phase, game.rules).values()
        for options in keyed.values()
        for o in options
    ]
    assert len(orders) > 100
    for order in orders:
        assert order_from_text(str(order)) == order
    named = SupportHold(UnitRef(ARMY, "BUD"), UnitRef(ARMY, "SER", "TURKEY"))
    assert str(named) == "A BUD S TURKEY A SER"
    assert order_from_text("A BUD S TURKEY A SER") == named
    untyped = order_from_text("PAR - BUR")
    assert untyped.unit.type is None  # type: ignore[union-attr]
    for bad in ("A PAR X BUR", "A PAR - BUR NOW", "A", "A PAR S A MAR + BUR"):
        with pytest.raises(SaveGameError):
            order_from_text(bad)


def test_format_and_version() -> None:
    data = game_to_json(Game.new(seed=1))
    assert data["format"] == FORMAT and data["version"] == VERSION == 1
    with pytest.raises(SaveGameError, match="not a realpolitik saved game"):
        game_from_json({"phases": []})
    with pytest.raises(SaveGameError, match="not a realpolitik saved game"):
        game_from_json([1, 2])
    with pytest.raises(SaveGameError, match="reads up to 1"):
        game_from_json({**data, "version": 2})


@pytest.mark.parametrize(
    ("damage", "match"),
    [
        (lambda d: d.pop("phase"), "missing 'phase'"),
        (lambda d: d.update(edition="chess"), "unknown edition"),
        (lambda d: d.update(players={"ann": ["FRANCE"]}), "do not match"),
        (lambda d: d["position"]["units"].update(FRANCE=["A XYZ"]), "unknown province"),
        (lambda d: d["history"][0]["orders"].update(FRANCE=["A PAR ~ BUR"]), "bad order"),
        (lambda d: d["history"][0].update(phase="S1901Q"), "bad phase"),
        (lambda d: d["rules"].update(convoy_paradox="z"), "4.A.2"),
        (lambda d: d.update(history=[7]), "damaged"),
        (lambda d: d["history"][0].update(events=[{"kind": "plague", "powers": []}]), "plague"),
        (lambda d: d["history"][0].update(events=["a plague"]), "unknown event 'a plague'"),
        (
            lambda d: d["history"][0].update(events=[{"kind": "coin_toss", "powers": []}]),
            "one power",
        ),
    ],
)
def test_damaged_saved_games_say_what_is_wrong(damage, match) -> None:
    game = Game.new(seed=1)
    game.submit("FRANCE", ["A PAR - BUR"])
    game.process()
    data = json.loads(json.dumps(game_to_json(game)))
    damage(data)
    with pytest.raises(SaveGameError, match=match):
        game_from_json(data)


def test_files_are_written_atomically(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "game.json"
    game = Game.new(seed=1)
    save_game(game, path)
    assert game_to_json(load_game(path)) == game_to_json(game)
    before = path.read_bytes()
    game.submit("FRANCE", ["A PAR - BUR"])

    def broken(*args: object, **kwargs: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr("realpolitik.formats.savegame.json.dump", broken)
    with pytest.raises(OSError, match="disk full"):
        save_game(game, path)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]  # no temporary file left


def test_unreadable_files(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(SaveGameError, match="not JSON"):
        load_game(bad)
    binary = tmp_path / "bin.json"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(SaveGameError, match="not a text file"):
        load_game(binary)
    with pytest.raises(FileNotFoundError):
        load_game(tmp_path / "missing.json")


def test_a_rule_saved_before_it_existed_takes_the_editions_choice() -> None:
    """A grow game saved before ``support_cut`` existed plays Grow's support cutting."""
    from realpolitik.formats.savegame import game_from_json, game_to_json
    from realpolitik.game import Game

    saved = game_to_json(Game.new(edition="grow", seed=1))
    del saved["rules"]["support_cut"]
    assert game_from_json(saved).rules.support_cut == "any_attack"


def test_a_game_saved_before_support_reach_takes_its_presets_reach() -> None:
    """A game saved before ``support_reach`` existed takes its preset's reach (conquista's
    is classic's since RULES.md §1 settled it); one saved with the book's reach keeps it."""
    from realpolitik.formats.savegame import game_from_json, game_to_json
    from realpolitik.game import Game

    saved = game_to_json(Game.new(edition="conquista", seed=1))
    del saved["rules"]["support_reach"]
    assert game_from_json(saved).rules.support_reach == "can_move"
    borders = Game.new(edition="conquista", seed=1, rules={"support_reach": "borders"})
    assert game_from_json(game_to_json(borders)).rules.support_reach == "borders"
    classic = game_to_json(Game.new(edition="classic", seed=1))
    del classic["rules"]["support_reach"]
    assert game_from_json(classic).rules.support_reach == "can_move"
