"""Self-play at scale (realpolitik.bots.training, ``realpolitik selfplay``)."""

from __future__ import annotations

import io
import json
import re
import socket
import sys
import time
from itertools import count, pairwise
from pathlib import Path
from typing import cast

import pytest

from realpolitik import BotError, Game
from realpolitik.bots.base import Bot, PowerView
from realpolitik.bots.selfplay import self_play
from realpolitik.bots.training import Plan, play_game, run
from realpolitik.cli import main
from realpolitik.formats.savegame import game_from_json
from realpolitik.game.editions import edition
from realpolitik.orders import Hold, Order


def _lines(path: Path) -> list[dict]:  # type: ignore[type-arg]
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_plans_are_checked():
    with pytest.raises(ValueError, match="unknown bot 'clever'"):
        Plan(games=1, bot="clever")
    with pytest.raises(ValueError, match="no power SPAIN"):
        Plan(games=1, bots={"SPAIN": "random"})
    with pytest.raises(ValueError, match="games must be a whole number from 1, not 0"):
        Plan(games=0)
    # text or None failed on Python's "'<' not supported between 'str' and 'int'"
    with pytest.raises(ValueError, match="games must be a whole number from 1, not '2'"):
        Plan(games=cast(int, "2"))
    with pytest.raises(ValueError, match="max_years must be a whole number from 1, not None"):
        Plan(games=1, max_years=cast(int, None))
    with pytest.raises(ValueError, match="unknown edition"):
        Plan(games=1, edition="modern")
    with pytest.raises(ValueError, match="played by 2 to 7 players, not 9"):
        Plan(games=1, players=9)


def test_a_bot_is_given_only_to_a_power_someone_plays(tmp_path: Path) -> None:
    """Six players of classic: Italy is played by nobody (its units hold all game). A bot
    named for it played nothing and games.jsonl said it played Italy; now it is refused,
    and the line's bots are those of the powers played (two players' neutral Italy is one,
    played after the coin toss)."""
    said = "ITALY is played by nobody at this table; powers played: AUSTRIA, ENGLAND, "
    with pytest.raises(ValueError, match=said):
        Plan(games=1, players=6, bots={"ITALY": "heuristic"})
    run(Plan(games=1, players=6, max_years=1), tmp_path / "six", workers=1)
    (line,) = _lines(tmp_path / "six" / "games.jsonl")
    assert sorted(line["bots"]) == ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "RUSSIA", "TURKEY"]
    run(
        Plan(games=1, players=2, bots={"ITALY": "heuristic"}, max_years=1),
        tmp_path / "two",
        workers=1,
    )
    (line,) = _lines(tmp_path / "two" / "games.jsonl")
    assert line["bots"]["ITALY"] == "heuristic" and len(line["bots"]) == 7


def test_no_workers_is_refused_not_read_as_the_default(tmp_path: Path) -> None:
    """``selfplay --workers 0`` ran on one process per core, as if none had been given
    (``tournament --jobs 0`` is refused); ``-3`` was refused after the folder was made."""
    for workers in (0, -3):
        said = f"workers must be a whole number from 1, not {workers}"
        with pytest.raises(ValueError, match=said):
            run(Plan(games=1), tmp_path / "out", workers=workers)
    assert not (tmp_path / "out").exists()


class Holding:
    """A bot of one's own: every unit holds; nothing built, retreated or removed."""

    name = "holding"

    def __init__(self, seed: int | None = None) -> None:
        pass

    def orders(self, view: PowerView, legal: object) -> list[Order]:
        return [o for options in legal.values() for o in options if isinstance(o, Hold)]  # type: ignore[attr-defined]


def test_a_bot_of_ones_own_plays_by_its_module_and_name(tmp_path):
    plan = Plan(games=2, bots={"ITALY": f"{__name__}:Holding"}, max_years=2, format="saved")
    run(plan, tmp_path, workers=2)
    assert {line["bots"]["ITALY"] for line in _lines(tmp_path / "games.jsonl")} == {
        f"{__name__}:Holding"
    }
    for seed in (0, 1):
        game = game_from_json(json.loads((tmp_path / f"game-{seed}.json").read_text()))
        given = [o for r in game.history if r.phase.is_movement for o in r.orders.get("ITALY", ())]
        assert given and all(isinstance(o, Hold) for o in given)
    with pytest.raises(ValueError, match="bot 'nowhere:Bot': no module 'nowhere'"):
        Plan(games=1, bot="nowhere:Bot")


def test_processes_write_the_games_one_process_writes(tmp_path):
    plan = Plan(games=5, seed=40, bot="random", bots={"FRANCE": "heuristic"}, max_years=4)
    one = run(plan, tmp_path / "one", workers=1)
    two = run(plan, tmp_path / "two", workers=2)
    assert one["games"] == two["games"] == 5 and one["phases"] == two["phases"] > 5 * 8
    for name in ("phases.jsonl", "games.jsonl"):
        assert (tmp_path / "one" / name).read_bytes() == (tmp_path / "two" / name).read_bytes()
    other = run(Plan(games=5, seed=41, max_years=4), tmp_path / "other", workers=1)
    assert other["games"] == 5
    assert (tmp_path / "other/phases.jsonl").read_bytes() != (
        tmp_path / "one/phases.jsonl"
    ).read_bytes()
    games = _lines(tmp_path / "one" / "games.jsonl")
    assert [g["game"] for g in games] == [40, 41, 42, 43, 44]
    assert games[0]["bots"]["FRANCE"] == "heuristic" and games[0]["bots"]["ITALY"] == "random"
    phases = _lines(tmp_path / "one" / "phases.jsonl")
    assert len(phases) == one["phases"] == sum(g["phases"] for g in games)
    first = phases[0]
    assert (first["game"], first["phase"], first["next"]) == (40, "S1901M", "F1901M")
    assert first["position"]["units"]["FRANCE"] == ["F BRE", "A MAR", "A PAR"]
    assert set(first["orders"]) == set(first["results"]) == set(games[0]["players"])
    assert all(r["result"] for rs in first["results"].values() for r in rs)
    for line, after in pairwise(phases):
        if line["game"] == after["game"]:
            assert line["next"] == after["phase"]


def test_the_phases_are_the_saved_games_history(tmp_path):
    plan = Plan(games=2, seed=7, edition="conquista", players=4, bot="heuristic", max_years=3)
    run(plan, tmp_path / "lines", workers=1)
    saved = Plan(games=2, seed=7, edition="conquista", players=4, bot="heuristic",
                 max_years=3, format="saved")  # fmt: skip
    run(saved, tmp_path / "saved", workers=1)
    phases = _lines(tmp_path / "lines" / "phases.jsonl")
    for seed in (7, 8):
        game = game_from_json(json.loads((tmp_path / "saved" / f"game-{seed}.json").read_text()))
        assert game.edition.name == "conquista" and game.setup.id == "4"
        mine = [p for p in phases if p["game"] == seed]
        assert [p["phase"] for p in mine] == [str(r.phase) for r in game.history]
        for line, rec in zip(mine, game.history, strict=True):
            assert line["position"] == rec.position.to_json()
            assert line["orders"] == {p: [str(o) for o in os] for p, os in rec.orders.items()}
        # conquista's calendar: the reinforcements come before the spring (no winter)
        kinds = [p["phase"][0] + p["phase"][-1] for p in mine]
        assert "SA" in kinds and not any(k.startswith("W") for k in kinds)
        assert game.phase.year == 1917


def test_a_run_into_the_folder_of_an_earlier_one_leaves_none_of_its_games(tmp_path):
    """The files of an earlier run are replaced, as ``run`` says: a run of 3 saved games,
    then one of 1 game as lines, left game-0.json ... game-2.json beside a games.jsonl
    naming game 50 alone (and the other way, a phases.jsonl of games no longer listed).
    Files the runs did not write stay."""
    out = tmp_path / "data"
    run(Plan(games=3, max_years=1, format="saved"), out, workers=1)
    (out / "notes.txt").write_text("mine", encoding="utf-8")
    (out / "game-9.json").write_text("{}", encoding="utf-8")  # no game of that run
    run(Plan(games=1, seed=50, max_years=1), out, workers=1)
    assert sorted(p.name for p in out.iterdir()) == [
        "game-9.json", "games.jsonl", "notes.txt", "phases.jsonl"
    ]  # fmt: skip
    assert {line["game"] for line in _lines(out / "phases.jsonl")} == {50}
    run(Plan(games=2, seed=60, max_years=1, format="saved"), out, workers=1)
    assert sorted(p.name for p in out.iterdir()) == [
        "game-60.json", "game-61.json", "game-9.json", "games.jsonl", "notes.txt"
    ]  # fmt: skip


def test_the_games_follow_the_editions_rules():
    # grow: the units on the board win; the game is the edition's, not a loop of its own
    game = play_game(Plan(games=1, edition="grow", players=3, bot="heuristic", max_years=2), 3)
    assert game.map_for(game.phase).name == "grow_3"
    assert game.phase.year == 1903 and not game.is_over
    orders: list[Order] = [o for r in game.history for os in r.orders.values() for o in os]
    assert orders and {r.phase.kind.value for r in game.history} >= {"M", "A"}
    # a two-player game: the neutral power's coin toss, and the player-level victory
    two = play_game(Plan(games=1, players=2, bot="random", max_years=2), 5)
    assert two.status.coin_toss is not None and two.controller("ITALY") is not None


def test_ray_is_named_when_it_is_missing(tmp_path, monkeypatch):
    """... and a run that cannot start leaves the folder as it was: the earlier run's
    games.jsonl was emptied before Ray was asked for."""
    run(Plan(games=2, max_years=1, format="saved"), tmp_path, workers=1)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray: ImportError
    with pytest.raises(ValueError, match=r"--ray needs Ray: pip install 'realpolitik\[ray\]'"):
        run(Plan(games=1, max_years=1), tmp_path, ray_address="auto")
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


def test_the_command(tmp_path, capsys):
    out = io.StringIO()
    code = main(
        ["selfplay", "--games", "3", "--out", str(tmp_path), "--bot", "random",
         "--power-bot", "england=heuristic", "--max-years", "2", "--workers", "1",
         "--format", "saved"],
        stdout=out,
    )  # fmt: skip
    assert code == 0
    figures = json.loads(out.getvalue())
    assert figures["games"] == 3 and figures["workers"] == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "game-0.json", "game-1.json", "game-2.json", "games.jsonl",
    ]  # fmt: skip
    assert _lines(tmp_path / "games.jsonl")[0]["bots"]["ENGLAND"] == "heuristic"
    err = capsys.readouterr().err
    assert "selfplay [" in err and "3/3 games" in err and err.endswith("phases/s\n")
    assert main(["selfplay", "--games", "1", "--out", str(tmp_path), "--power-bot", "x"]) == 2
    assert "expected POWER=BOT" in capsys.readouterr().err


class _Recording:
    """A bot that holds (gives nothing) and keeps the views it was shown."""

    name = "recording"

    def __init__(self) -> None:
        self.views: list[PowerView] = []

    def orders(self, view: PowerView, legal: object) -> list[Order]:
        self.views.append(view)
        return []


def test_bots_are_shown_the_editions_rules(monkeypatch):
    bots: list[_Recording] = []

    def make(kind: str, *, seed: int | None = None, time_limit: float | None = None) -> _Recording:
        bots.append(_Recording())
        return bots[-1]

    monkeypatch.setattr("realpolitik.bots.training.make_bot", make)
    game = play_game(Plan(games=1, edition="grow", max_years=1), 1)
    views = [v for bot in bots for v in bot.views]
    assert views and all(v.rules is game.rules for v in views)
    assert game.rules.name == edition("grow").rules.name


class Misspelling:
    """A bot of one's own that writes an order the game cannot read."""

    name = "misspelling"

    def __init__(self, seed: int | None = None) -> None:
        pass

    def orders(self, view: PowerView, legal: object) -> list[str]:
        return ["A PAR - XXX"]


def test_an_order_the_game_refuses_names_the_bot_and_game(tmp_path, capsys) -> None:
    """Self-play stopped on 'FRANCE: unknown word "xxx" in order "A PAR - XXX"', naming
    neither the bot nor the game or phase: in a run of a thousand games, which?"""
    said = (
        "the bot 'misspelling' gave FRANCE's orders for S1901M (game seed 4) that the game "
        'refuses: FRANCE: unknown word "xxx" in order "A PAR - XXX"'
    )
    with pytest.raises(BotError, match=re.escape(said)):
        play_game(
            Plan(games=1, seed=4, bot="random", bots={"FRANCE": f"{__name__}:Misspelling"}), 4
        )
    game = Game.new(seed=4)
    with pytest.raises(BotError, match=re.escape(said)):
        self_play({"FRANCE": cast(Bot, Misspelling())}, years=1, game=game)
    argv = ["selfplay", "--games", "1", "--seed", "4", "--out", str(tmp_path), "--workers", "1",
            "--power-bot", f"FRANCE={__name__}:Misspelling", "--quiet"]  # fmt: skip
    assert main(argv, stdout=io.StringIO()) == 2
    assert (
        capsys.readouterr().err == f"realpolitik: error: {said}\n"
    )  # no traceback: the line says it


def test_a_search_bot_plays_the_same_games_on_a_slower_machine(monkeypatch) -> None:
    """Game k is "the same however many processes or machines play" it: the search bot's
    time limit (0.4 s) cut its search short where the machine was slower or busier, and
    it gave other orders (seen at a load of 20: 2 of 7 powers' orders in a 1905 position).
    In self-play it searches by its strength alone."""
    plan = Plan(games=1, bot="random", bots={"FRANCE": "search", "TURKEY": "search"}, max_years=2)
    fast = [(r.phase, r.orders) for r in play_game(plan, 3).history]
    clock = count(step=10.0)  # each reading of the clock 10 s on: slower than any machine
    monkeypatch.setattr("realpolitik.bots.search.time.perf_counter", lambda: next(clock))
    slow = [(r.phase, r.orders) for r in play_game(plan, 3).history]
    assert slow == fast


def test_an_out_that_is_a_file_is_named_as_not_a_folder(tmp_path, capsys) -> None:
    """``--out games.json`` (a file) said "[Errno 17] File exists: 'games.json'", as if the
    folder's being there were the trouble; the file is left as it was."""
    there = tmp_path / "games.json"
    there.write_text("mine\n")
    code = main(["selfplay", "--games", "1", "--out", str(there), "--quiet", "--workers", "1"])
    err = capsys.readouterr().err
    assert code == 2 and err == f"realpolitik: error: --out {there} is a file, not a folder\n"
    assert there.read_text() == "mine\n"


@pytest.mark.parametrize("where", ["nowhere.invalid:6379", "ray://nowhere.invalid:10001", "closed"])
def test_a_ray_address_nobody_answers_is_refused_not_waited_on(tmp_path, where):
    """Ray retries an address of ``HOST:PORT`` that no cluster answers for ever: ``selfplay
    --ray nowhere:1`` hung. A host unknown or a port closed is refused at once, named."""
    pytest.importorskip("ray")
    if where == "closed":  # a port of this machine nothing listens on
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            where = f"127.0.0.1:{s.getsockname()[1]}"
    started = time.monotonic()
    with pytest.raises(ValueError, match=rf"no Ray cluster answers at {re.escape(where)}: "):
        run(Plan(games=1, max_years=1), tmp_path, ray_address=where)
    assert time.monotonic() - started < 30
    assert not (tmp_path / "games.jsonl").exists()
