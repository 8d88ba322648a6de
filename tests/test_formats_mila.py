"""MILA saved games (the PyPI ``diplomacy`` package's format): import by replay, export that
the package loads and replays to the same states.

``tests/data/games/mila_*.json`` were written by ``diplomacy==1.1.2`` with random orders
(:func:`mila_game` below: full orders; powers skipping turns; press messages). The tests that
run the package itself are skipped when it is not installed (it is in the ``dev`` extra).
"""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path
from typing import Any

import pytest

from realpolitik.formats.mila import MilaError, from_mila, to_mila
from realpolitik.formats.savegame import game_from_json, game_to_json
from realpolitik.game import Game
from realpolitik.phase import Phase
from tests.gamekit import play_random, won_by_france

DATA = Path(__file__).parent / "data" / "games"
FILES = sorted(DATA.glob("mila_*.json"))


def _load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def _units(state: dict[str, Any]) -> set[str]:
    return {f"{p} {u}" for p, us in state["units"].items() for u in us}


def _centers(state: dict[str, Any]) -> set[str]:
    return {f"{p} {c}" for p, cs in state["centers"].items() for c in cs}


def _our_units(game: Game, phase: str) -> set[str]:
    record = next(r for r in game.history if str(r.phase) == phase)
    pos = record.position
    return {f"{u.power} {u}" for u in pos.units.values()} | {
        f"{d.unit.power} *{d.unit}" for d in pos.dislodged.values()
    }


def mila_game(seed: int, last: str, skip: float = 0.0, press: bool = False) -> dict[str, Any]:
    """A game played by the ``diplomacy`` package with random possible orders (a power gives
    none with probability ``skip``), saved in its format."""
    from diplomacy import Game as MilaGame
    from diplomacy.engine.message import Message
    from diplomacy.utils.export import to_saved_game_format

    game = MilaGame(game_id=f"mila-{seed}", rules=[] if press else ["NO_PRESS"])
    rng = random.Random(seed)
    while not game.is_game_done and game.get_current_phase() != last:
        phase = game.get_current_phase()
        possible = game.get_all_possible_orders()
        if press and phase.endswith("M"):
            text = f"hello {phase}"
            game.add_message(Message(sender="FRANCE", recipient="ENGLAND", message=text,
                                     phase=phase))  # fmt: skip
        for power in game.powers.values():
            locs = game.get_orderable_locations(power.name)
            if rng.random() < skip:
                continue
            if phase.endswith("A"):
                due = len(power.centers) - len(power.units)
                end = " B" if due > 0 else " D"
                options = sorted({o for loc in locs for o in possible[loc] if o.endswith(end)})
                rng.shuffle(options)
                chosen: list[str] = []
                for order in options:
                    if len(chosen) < abs(due) and all(order[2:5] != c[2:5] for c in chosen):
                        chosen.append(order)
                game.set_orders(power.name, chosen)
            else:
                # sorted: the package lists possible orders in hash order (PYTHONHASHSEED)
                game.set_orders(power.name, [rng.choice(sorted(possible[loc]))
                                             for loc in sorted(locs) if possible[loc]])  # fmt: skip
        game.process()
    data: dict[str, Any] = json.loads(json.dumps(to_saved_game_format(game)))
    return data


def _check_import(data: dict[str, Any]) -> Game:
    game = from_mila(data)
    played = {str(r.phase): r for r in game.history}
    phases = data["phases"]
    for raw in phases[:-1]:
        record = played[raw["name"]]
        assert _our_units(game, raw["name"]) == _units(raw["state"]), raw["name"]
        assert {f"{o} {c}" for c, o in record.position.centers.items()} == _centers(raw["state"])
        ours = {p: sorted(map(str, os)) for p, os in record.orders.items() if os}
        theirs = {p: sorted(os) for p, os in raw["orders"].items() if os}
        assert ours == theirs, raw["name"]
    last = phases[-1]
    assert str(game.phase) == last["name"]
    assert {f"{u.power} {u}" for u in game.position.units.values()} == _units(last["state"])
    return game


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_games_written_by_mila_replay_here(path: Path) -> None:
    game = _check_import(_load(path))
    assert len(game.history) >= 7
    if path.stem == "mila_press":
        assert len(game.messages) == 5 and game.messages[0].text == "hello S1901M"
        assert game.view("ENGLAND")["messages"] and not game.view("RUSSIA")["messages"]


def test_fresh_games_from_the_package_replay_here() -> None:
    pytest.importorskip("diplomacy")
    for seed in (11, 12):
        _check_import(mila_game(seed, "S1905M", skip=0.1 * (seed - 11)))


def test_our_games_round_trip_through_the_format() -> None:
    for seed in range(3):
        game = Game.new(seed=seed)
        play_random(game, random.Random(seed), 24, skip=0.15)
        data = json.loads(json.dumps(to_mila(game)))
        again = from_mila(data)
        assert again.position == game.position and again.phase == game.phase
        kept = [r for r in game.history if not (r.skipped and not r.outcomes)]
        assert [r.position for r in again.history if r.phase in {k.phase for k in kept}] == [
            r.position for r in kept if r.phase in {a.phase for a in again.history}
        ]


def test_a_grow_game_on_the_standard_board_comes_back_as_grow() -> None:
    """Grow's seven-player board is the standard one (only Italy's start differs, which
    the file's first state holds): ``to_mila`` wrote it, and ``from_mila(data,
    edition="grow")`` refused it ("edition grow is not played on the standard map", the
    board being named ``grow``). It replays by grow's rules to the same position."""
    game = Game.new(edition="grow", seed=1)
    play_random(game, random.Random(1), 16)
    again = from_mila(json.loads(json.dumps(to_mila(game))), edition="grow")
    assert (again.edition.name, again.rules) == ("grow", game.rules)
    assert (again.phase, again.position) == (game.phase, game.position)
    with pytest.raises(MilaError, match="edition conquista is not played on the standard"):
        from_mila(to_mila(game), edition="conquista")


def test_our_export_loads_and_replays_in_the_package() -> None:
    pytest.importorskip("diplomacy")
    from diplomacy.utils.export import from_saved_game_format

    for seed in range(4):
        game = Game.new(seed=seed)
        play_random(game, random.Random(seed), 30, skip=0.1)
        data = json.loads(json.dumps(to_mila(game)))
        loaded = from_saved_game_format(data)
        assert loaded.get_current_phase() == str(game.phase)
        assert {f"{p} {u}" for p, us in loaded.get_units().items() for u in us} == {
            f"{u.power} {u}" for u in game.position.units.values()
        }
        _replays_in_the_package(data, seed)


def test_import_errors_name_the_problem() -> None:
    data = _load(FILES[0])
    with pytest.raises(MilaError, match='no "phases"'):
        from_mila({"id": "x"})
    with pytest.raises(MilaError, match="only the standard map"):
        from_mila({**data, "map": "ancmed"})
    with pytest.raises(MilaError, match="no phases"):
        from_mila({**data, "phases": []})
    tampered = json.loads(json.dumps(data))
    state = tampered["phases"][3]["state"]
    state["units"]["FRANCE"] = state["units"]["FRANCE"][1:]
    name = tampered["phases"][3]["name"]
    with pytest.raises(MilaError, match=f"phase {name}: our units differ"):
        from_mila(tampered)
    tampered = json.loads(json.dumps(data))
    tampered["phases"][1]["orders"]["FRANCE"] = ["A PAR ~ BUR"]
    with pytest.raises(MilaError, match="bad order"):
        from_mila(tampered)
    tampered = json.loads(json.dumps(data))
    russian = tampered["phases"][1]["state"]["units"]["RUSSIA"][0]
    tampered["phases"][1]["orders"]["FRANCE"] = [f"{russian} H"]
    with pytest.raises(MilaError, match="belongs to RUSSIA"):
        from_mila(tampered)


@pytest.mark.parametrize(
    ("key", "said"), [("state", "'state' is missing (phase F1901M)"), ("name", "'name' is missing")]
)
def test_a_phase_without_a_part_names_the_part(key: str, said: str) -> None:
    """A phase without its state said "damaged MILA game: KeyError('state')"."""
    tampered = json.loads(json.dumps(_load(FILES[0])))
    del tampered["phases"][1][key]
    with pytest.raises(MilaError) as error:
        from_mila(tampered)
    assert str(error.value).startswith(f"damaged MILA game: {said}"), error.value
    assert "KeyError" not in str(error.value)


def test_boards_without_a_mila_equivalent_are_refused() -> None:
    with pytest.raises(MilaError, match="no MILA equivalent"):
        to_mila(Game.new(edition="grow", players=6))
    with pytest.raises(MilaError, match="no MILA equivalent"):
        to_mila(Game.new(edition="conquista"))
    with pytest.raises(MilaError, match="two-player"):
        to_mila(Game.new(players=2))
    exported = to_mila(Game.new(edition="1971", seed=1))
    assert exported["map"] == "standard" and exported["phases"][0]["name"] == "S1901M"
    assert Phase.parse(exported["phases"][-1]["name"]) == Phase.parse("S1901M")


def _replays_in_the_package(data: dict[str, Any], seed: int | None = None) -> None:
    """Each phase of a MILA saved game, processed by the package from the phase before,
    gives the units and centres the file has (``seed``: the game's, said if not)."""
    from diplomacy import Game as MilaGame
    from diplomacy.utils.game_phase_data import GamePhaseData

    for now, after in itertools.pairwise(data["phases"]):
        engine = MilaGame(map_name="standard")
        engine.set_phase_data(GamePhaseData.from_dict(now))
        for power, orders in now["orders"].items():
            if orders is not None:
                engine.set_orders(power, orders)
        engine.process()
        assert engine.get_current_phase() == after["name"], (seed, now["name"])
        got = {f"{p} {u}" for p, us in engine.get_units().items() for u in us}
        assert got == _units(after["state"]), (seed, now["name"])
        cs = {f"{p} {c}" for p, cs in engine.get_centers().items() for c in cs}
        assert cs == _centers(after["state"]), (seed, now["name"])


_RUMANIA = {
    "units": {
        "AUSTRIA": ["A SER", "A BUD", "A VIE"],
        "TURKEY": ["F BLA", "A BUL", "F SEV", "F CON", "A ARM"],
        "RUSSIA": ["F RUM", "A GAL"],
    },
    "orders": {
        "AUSTRIA": ["A SER S A BUD - RUM", "A BUD - GAL", "A VIE S A BUD - GAL"],
        "TURKEY": ["F BLA - RUM", "A BUL S F BLA - RUM", "F SEV S F BLA - RUM", "F CON S A BUL",
                   "A ARM S F SEV"],
        "RUSSIA": ["F RUM H"],
    },
}  # fmt: skip
"""Spring 1901: Russia's F RUM is dislodged with nowhere to go, its A GAL with retreats."""


def test_a_unit_dislodged_with_nowhere_to_go_beside_a_retreat_goes_as_in_the_package() -> None:
    """The package removes a dislodged unit with no retreat at once, even when another
    unit's retreat makes a retreat phase. Its games with one did not load here ("phase
    S1901R: our dislodged units differ from the file's (ours only: RUSSIA F RUM"), and
    ours were written with the unit still there ("*F RUM", no retreat), a state its engine
    never reaches from the phase before."""
    pytest.importorskip("diplomacy")
    from diplomacy import Game as MilaGame
    from diplomacy.utils.export import to_saved_game_format

    theirs = MilaGame()
    theirs.clear_units()
    for power, units in _RUMANIA["units"].items():
        theirs.set_units(power, units)
    for power, orders in _RUMANIA["orders"].items():
        theirs.set_orders(power, orders)
    theirs.process()
    theirs.set_orders("RUSSIA", ["A GAL R UKR"])
    theirs.process()
    data = json.loads(json.dumps(to_saved_game_format(theirs)))
    game = from_mila(data)
    assert str(game.phase) == "F1901M"
    assert {str(u) for u in game.position.units.values() if u.power == "RUSSIA"} == {"A UKR"}

    ours = Game.from_position({"units": _RUMANIA["units"]}, "S1901M")
    for power, orders in _RUMANIA["orders"].items():
        ours.submit(power, orders)
    ours.process()
    ours.submit("RUSSIA", ["A GAL R UKR", "F RUM D"])  # a disband the package has no unit for
    ours.process()
    exported = json.loads(json.dumps(to_mila(ours)))
    retreats = next(p for p in exported["phases"] if p["name"] == "S1901R")
    assert retreats["state"]["units"]["RUSSIA"] == ["*A GAL"]
    assert retreats["orders"]["RUSSIA"] == ["A GAL R UKR"]
    _replays_in_the_package(exported)
    assert from_mila(exported).position == ours.position


def test_a_civil_disorder_removal_is_the_one_the_file_records() -> None:
    """The package picks a power's civil-disorder removals by its own distance (armies
    crossing water, to the nearest home centre), which no DATC 4.D.8 choice here is: its
    game where Turkey, without orders, must lose A GAL or A LVN (it loses A LVN; classic
    would take A GAL) did not load ("our units differ from the file's"). The removal
    recorded is the game's: it is replayed as made."""
    pytest.importorskip("diplomacy")
    from diplomacy import Game as MilaGame
    from diplomacy.utils.export import to_saved_game_format

    theirs = MilaGame()
    theirs.clear_units()
    theirs.clear_centers()
    theirs.set_current_phase("F1901M")
    theirs.set_units("TURKEY", ["A GAL", "A LVN"])
    theirs.set_centers("TURKEY", ["CON"])
    theirs.set_units("FRANCE", ["A PAR"])
    theirs.set_centers("FRANCE", ["PAR"])
    theirs.process()
    theirs.process()
    assert theirs.get_units("TURKEY") == ["A GAL"]
    data = json.loads(json.dumps(to_saved_game_format(theirs)))
    game = from_mila(data)
    assert str(game.phase) == "S1902M"
    assert {str(u) for u in game.position.units.values()} == {"A GAL", "A PAR"}


def test_a_finished_game_is_written_completed_as_the_package_writes_it() -> None:
    """The package names the end of a finished game ``COMPLETED`` (a victory: after the
    phase that won it; a draw: after the phase it was agreed in) with a note of the
    winners, and loads such a game as done. Ours were written with the next phase
    (``W1901A``), which it loaded as a game going on, waiting for orders."""
    pytest.importorskip("diplomacy")
    from diplomacy.utils.export import from_saved_game_format

    won = won_by_france()
    assert won.is_over and won.winners == ("FRANCE",)
    drawn = Game.new(seed=1)
    drawn.process()
    for power in drawn.voters():
        drawn.vote_draw(power)
    assert drawn.is_over
    for game, names, note in (
        (won, ["F1901M", "COMPLETED"], "Victory by: FRA"),
        (drawn, ["S1901M", "F1901M", "COMPLETED"], "Victory by: AUS, ENG, FRA, GER, ITA, RUS, TUR"),
    ):
        data = json.loads(json.dumps(to_mila(game)))
        assert [p["name"] for p in data["phases"]] == names
        last = data["phases"][-1]
        assert last["state"]["name"] == "COMPLETED" and last["state"]["note"] == note
        loaded = from_saved_game_format(data)
        assert loaded.is_game_done and loaded.get_current_phase() == "COMPLETED"
        assert {f"{p} {u}" for p, us in loaded.get_units().items() for u in us} == {
            f"{u.power} {u}" for u in game.position.units.values()
        }
        again = from_mila(data)
        assert again.position == game.position


def test_a_game_drawn_with_orders_given_comes_back_drawn_in_that_phase() -> None:
    """A draw agreed while orders of the phase were given is written as that phase (its
    orders, no results) and ``COMPLETED``: read back, the phase is not played and the game
    is drawn there. It was played on its orders (never adjudicated at the table) and the
    game went on, as if no draw had been agreed."""
    drawn = Game.new(seed=1)
    drawn.process()
    drawn.submit("FRANCE", ["A PAR - BUR", "A MAR - SPA"])
    for power in drawn.voters():
        drawn.vote_draw(power)
    assert drawn.is_over
    again = from_mila(json.loads(json.dumps(to_mila(drawn))))
    assert str(again.phase) == "F1901M" and again.position == drawn.position
    assert again.is_over and again.winners == drawn.winners
    assert [str(o) for o in again.orders("FRANCE")] == ["A PAR - BUR", "A MAR - SPA"]


def test_a_game_set_up_at_a_position_imports_as_a_game_that_loads() -> None:
    """A MILA file whose first state is not the standard start (France's won game, set up
    in Fall 1901) was imported with the standard start kept as where the game began: the
    saved game then refused to load ('damaged history at F1901M: its position is not the
    starting position'). The import begins where the file does, and the victory stands."""
    won = won_by_france()
    back = from_mila(to_mila(won))
    assert back.start == won.start
    loaded = game_from_json(game_to_json(back))
    assert loaded.result is not None and loaded.result.winners == ("FRANCE",)


def test_a_game_won_by_concession_imports_as_won() -> None:
    """A game the others conceded to Austria is written "Victory by: AUS" after its
    phase; imported, it was a game going on in Fall 1901 (only a draw of every power was
    read back). The others concede again, and Austria has won."""
    game = Game.new(seed=3)
    game.process()
    for power in ("ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"):
        game.concede(power)
    assert game.result is not None and game.result.winners == ("AUSTRIA",)
    back = from_mila(json.loads(json.dumps(to_mila(game))))
    assert back.result is not None and back.result.winners == ("AUSTRIA",)
    assert back.status.conceded == game.status.conceded
