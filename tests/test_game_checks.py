"""What makes the game loop cheap must not change what it does: typed orders (such as those
of ``legal_orders``) get the errors of the full check, the facts a game works out once per
state follow every change of it, records are made as the dataclass would make them, and the
victory check's shortcut gives the same verdicts."""

from __future__ import annotations

import inspect
import random
from dataclasses import MISSING, FrozenInstanceError, dataclass, fields, replace
from itertools import pairwise

import pytest

from realpolitik import IllegalOrderError, Phase
from realpolitik.errors import GameError
from realpolitik.formats.savegame import game_from_json, game_to_json
from realpolitik.game import Game
from realpolitik.game.editions import Victory
from realpolitik.game.records import Event, EventKind, PhaseRecord, Status
from realpolitik.game.victory import check_victory
from realpolitik.maps import load_map
from realpolitik.orders import (
    Build,
    Disband,
    Hold,
    Move,
    Order,
    Retreat,
    SupportHold,
    UnitRef,
    Waive,
)
from realpolitik.position import Position
from realpolitik.vocab import ARMY, FLEET
from tests.gamekit import at, play_random

EIGHTEEN = ["BEL", "HOL", "DEN", "SWE", "NWY", "SPA", "POR", "TUN", "KIE", "BER", "MUN",
            "PAR", "MAR", "BRE", "LON", "EDI", "LVP", "ROM"]  # fmt: skip


@dataclass(frozen=True, slots=True)
class _MyHold(Hold):
    """A subclass of an order type: checked as its base type is (``isinstance``)."""


def _error(game: Game, power: str, orders: list[str | Order]) -> tuple[str, str]:
    """The message and order text of the error ``submit`` raises."""
    with pytest.raises(IllegalOrderError) as caught:
        game.submit(power, orders)
    return str(caught.value), caught.value.text


def _full_check_error(game: Game, power: str, order: Order) -> tuple[str, str]:
    """The same, from the full check of one order."""
    with pytest.raises(IllegalOrderError) as caught:
        Game._check_order(power, order, game._facts())
    return str(caught.value), caught.value.text


# --- typed orders ------------------------------------------------------------------------
def test_every_legal_order_of_another_power_is_refused_as_the_full_check_refuses_it() -> None:
    game = Game.new(seed=4)
    play_random(game, random.Random(4), 6)
    for _ in range(6):  # movement, retreat and adjustment phases
        legal = game.legal_orders()
        for power, keyed in legal.items():
            other = next(p for p in game.powers if p != power)
            for orders in keyed.values():
                for order in orders:
                    if isinstance(order, (Build, Waive)):
                        continue  # no unit to own: refused (or not) by the adjudicator
                    args = _error(game, other, [order])
                    assert args == _full_check_error(game, other, order)
                    assert f"belongs to {power}" in args[0]
                    game.submit(power, [order])  # and taken from its owner
        play_random(game, random.Random(5), 1)


@pytest.mark.parametrize(
    ("order", "match"),
    [
        (Hold(UnitRef(ARMY, "BER")), "FRANCE: A BER H: the unit in BER belongs to GERMANY"),
        (Move(UnitRef(ARMY, "BUR"), "PAR"), "FRANCE: A BUR - PAR: there is no unit in BUR"),
        (SupportHold(UnitRef(FLEET, "SPA/SC"), UnitRef(ARMY, "MAR")), "there is no unit in SPA"),
        (Build(UnitRef(ARMY, "PAR")), "A PAR B is not an order of a movement phase"),
        (Retreat(UnitRef(ARMY, "PAR"), "GAS"), "A PAR R GAS is not an order of a movement"),
        (Waive(), "WAIVE is not an order of a movement phase"),
    ],
)
def test_typed_orders_get_the_errors_of_text_orders(order: Order, match: str) -> None:
    game = Game.new(seed=1)
    game.submit("FRANCE", ["F BRE - MAO"])
    args = _error(game, "FRANCE", [Hold(UnitRef(ARMY, "PAR")), order])
    assert match in args[0] and args[1] == str(order)
    assert args == _error(game, "FRANCE", ["A PAR H", str(order)])
    assert args == _full_check_error(game, "FRANCE", order)
    assert [str(o) for o in game.orders("FRANCE")] == ["F BRE - MAO"]  # nothing stored


def test_typed_orders_second_order_and_strange_values() -> None:
    game = Game.new(seed=1)
    hold = Hold(UnitRef(ARMY, "PAR"))
    with pytest.raises(IllegalOrderError, match="FRANCE: A PAR - BUR: a second order for PAR"):
        game.submit("FRANCE", [hold, Move(UnitRef(ARMY, "PAR"), "BUR")])
    with pytest.raises(IllegalOrderError, match="a second order for PAR"):
        game.submit("FRANCE", [hold, "A PAR - BUR"])
    with pytest.raises(IllegalOrderError, match="42 is not an order of a movement phase"):
        game.submit("FRANCE", [hold, 42])  # type: ignore[list-item]
    assert game.orders("FRANCE") == []
    mine = _MyHold(UnitRef(ARMY, "PAR"))
    assert game.submit("FRANCE", [mine]) == [mine]  # a subclass passes as its base type
    with pytest.raises(IllegalOrderError, match="belongs to GERMANY"):
        game.submit("FRANCE", [_MyHold(UnitRef(ARMY, "MUN"))])


def test_typed_orders_in_retreat_and_adjustment_phases() -> None:
    game = at(Game.new(seed=1), "F1901R", {
        "units": {"FRANCE": ["A MAR"], "GERMANY": ["A BUR", "A RUH"]},
        "dislodged": {"FRANCE": [{"unit": "A BUR", "attacker_from": "MUN",
                                  "retreats": ["PAR", "GAS"]}]},
        "centers": {"FRANCE": ["PAR", "MAR", "BRE"]},
    })  # fmt: skip
    bur = UnitRef(ARMY, "BUR")
    assert game.submit("FRANCE", [Move(bur, "PAR")]) == [Retreat(bur, "PAR")]  # read as such
    assert game.submit("FRANCE", [Disband(bur)]) == [Disband(bur)]
    with pytest.raises(IllegalOrderError, match="FRANCE: A MAR D: there is no dislodged unit"):
        game.submit("FRANCE", [Disband(UnitRef(ARMY, "MAR"))])
    with pytest.raises(
        IllegalOrderError, match="A BUR - PAR VIA is not an order of a retreat phase"
    ):
        game.submit("FRANCE", [Move(bur, "PAR", via_convoy=True)])
    with pytest.raises(IllegalOrderError, match="A BUR H is not an order of a retreat phase"):
        game.submit("FRANCE", [Hold(bur)])
    with pytest.raises(IllegalOrderError, match="belongs to FRANCE"):
        game.submit("GERMANY", [Retreat(bur, "GAS")])
    adjust = at(Game.new(seed=1), "W1901A", {
        "units": {"FRANCE": ["A SPA"], "ENGLAND": ["F LON", "A WAL", "A YOR", "F NTH"]},
        "centers": {"FRANCE": ["PAR", "MAR", "BRE", "SPA"], "ENGLAND": ["LON"]},
    })  # fmt: skip
    orders: list[Order] = [Build(UnitRef(ARMY, "PAR")), Waive(), Waive()]
    assert adjust.submit("FRANCE", orders) == orders  # waives name no unit: no second order
    with pytest.raises(IllegalOrderError, match="a second order for PAR"):
        adjust.submit("FRANCE", [Build(UnitRef(ARMY, "PAR")), Build(UnitRef(FLEET, "PAR"))])
    with pytest.raises(IllegalOrderError, match="FRANCE: A WAL D: the unit in WAL belongs"):
        adjust.submit("FRANCE", [Disband(UnitRef(ARMY, "WAL"))])
    # "a retreats phase", "a adjustments phase" before
    with pytest.raises(IllegalOrderError, match="A WAL H is not an order of an adjustment phase"):
        adjust.submit("ENGLAND", [Hold(UnitRef(ARMY, "WAL"))])
    assert adjust.submit("ENGLAND", [Disband(UnitRef(ARMY, "WAL"))])


# --- the facts worked out once per state ---------------------------------------------------
def test_facts_follow_every_change_of_the_game() -> None:
    game = Game.new(seed=1)
    assert game.must_order() == list(game.powers)
    game.must_order().clear()  # lists, dicts handed out are the caller's
    game.players.clear()
    game.builds_due()["FRANCE"] = 9
    assert game.must_order() == list(game.powers) and len(game.players) == 7
    assert game.builds_due() == {}
    game.set_civil_disorder("ITALY")
    assert "ITALY" in game.civil_disorder and "ITALY" not in game.must_order()
    with pytest.raises(GameError, match="civil disorder"):
        game.submit("ITALY", [])
    game.set_civil_disorder("ITALY", on=False)
    assert "ITALY" not in game.civil_disorder and "ITALY" in game.must_order()
    game.concede("ITALY")
    assert "ITALY" in game.civil_disorder and "ITALY" not in game.legal_orders()
    at(game, "W1901A", {  # a new phase and position, set from outside (as a save does)
        "units": {"FRANCE": ["A SPA"], "ENGLAND": ["F LON", "A WAL"]},
        "centers": {"FRANCE": ["PAR", "MAR", "BRE", "SPA"], "ENGLAND": ["LON"]},
    })  # fmt: skip
    assert game.builds_due() == {"ENGLAND": -1, "FRANCE": 3}
    assert game.must_order() == ["ENGLAND", "FRANCE"] and set(game.legal_orders()) == {
        "ENGLAND", "FRANCE",
    }  # fmt: skip
    with pytest.raises(IllegalOrderError, match="there is no unit in MUN"):
        game.submit("GERMANY", [Disband(UnitRef(ARMY, "MUN"))])
    game.position = Position.from_json({"units": {"GERMANY": ["A MUN"]}}, game.game_map)
    assert game.submit("GERMANY", [Disband(UnitRef(ARMY, "MUN"))])
    game.phase = Phase.parse("S1902M")
    with pytest.raises(IllegalOrderError, match="not an order of a movement phase"):
        game.submit("GERMANY", [Disband(UnitRef(ARMY, "MUN"))])


def test_forks_have_their_own_facts() -> None:
    game = Game.new(seed=1)
    game.legal_orders()
    fork = game.copy()
    fork.set_civil_disorder("FRANCE")
    assert "FRANCE" in fork.civil_disorder and "FRANCE" not in game.civil_disorder
    for power in game.powers:
        game.submit(power, [])
    game.process()
    back = game.rollback("S1901M")
    assert str(back.phase) == "S1901M" and back.must_order() == list(back.powers)
    assert back.submit("FRANCE", [Hold(UnitRef(ARMY, "PAR"))])


# --- records ----------------------------------------------------------------------------
def test_phase_records_are_made_as_the_dataclass_makes_them() -> None:
    names = [f.name for f in fields(PhaseRecord)]
    assert list(inspect.signature(PhaseRecord).parameters) == names
    board = load_map("standard")
    phase, position = Phase.parse("S1901M"), Position.initial(board)
    record = PhaseRecord(phase, position, {}, (), position)
    for f in fields(PhaseRecord):
        if f.default is not MISSING:
            assert getattr(record, f.name) == f.default
    assert record.declared == {}  # shared by records only because nothing can change it
    with pytest.raises(TypeError):
        record.declared.clear()  # type: ignore[attr-defined]
    assert record.status == Status() and record.events == ()
    full = PhaseRecord(**{n: getattr(record, n) for n in names})
    event = (Event(EventKind.CIVIL_DISORDER, ("ITALY",)),)
    assert full == record and replace(record, events=event).events == event
    assert replace(record, events=event) == PhaseRecord(
        phase, position, {}, (), position, events=event
    )
    with pytest.raises(FrozenInstanceError):
        record.skipped = True  # type: ignore[misc]


# --- victory -----------------------------------------------------------------------------
def test_victory_verdicts_per_power_per_player_and_by_units() -> None:
    board = load_map("standard")
    centres = {c: "FRANCE" for c in EIGHTEEN[:17]} | {"VEN": "ITALY", "NAP": "ITALY"}
    position = Position(units={}, centers=centres)
    teams = {p: (p,) for p in board.powers}
    phase = Phase.parse("F1905M")
    assert check_victory(Victory(), board, position, teams, (), phase) is None
    won = Position(units={}, centers=centres | {"ROM": "FRANCE"})
    assert check_victory(Victory(), board, won, teams, (), phase) == (
        ("FRANCE",), "FRANCE: 18 supply centres (needed 18)",
    )  # fmt: skip
    assert check_victory(Victory(), board, won, {"x": ("ITALY",)}, (), phase) is None
    pair = {"ann": ("FRANCE", "ITALY", "FRANCE"), "bob": ("GERMANY",)}  # counted once
    found = check_victory(Victory(per="player"), board, position, pair, (), phase)
    assert found == (("FRANCE", "ITALY"), "player ann: 19 supply centres (needed 18)")
    units = Position.from_json({"units": {"FRANCE": ["A PAR", "A MAR"]}}, board)
    by_units = Victory(count="units", threshold=2)
    assert check_victory(by_units, board, units, teams, (), phase) == (
        ("FRANCE",), "FRANCE: 2 units (needed 2)",
    )  # fmt: skip


# --- who may act ------------------------------------------------------------------------
class _Name(str):
    """A power's name as a subclass of ``str``: stored as the board names the power."""


def test_who_may_act_follows_the_status_and_is_named_as_the_board_does() -> None:
    game = Game.new(players=6, seed=1)
    assert game.submit("france", []) == [] and game.submit(_Name("GERMANY"), []) == []
    assert [type(p) for p in game.pending_orders()] == [str, str]
    assert set(game.pending_orders()) == {"FRANCE", "GERMANY"}
    with pytest.raises(GameError, match="played by nobody"):
        game.submit("ITALY", [])
    with pytest.raises(GameError, match="unknown power"):
        game.submit("PRUSSIA", [])
    game.set_civil_disorder("FRANCE")
    with pytest.raises(GameError, match="FRANCE is in civil disorder"):
        game.submit("FRANCE", [])
    game.set_civil_disorder("FRANCE", on=False)
    assert game.submit("FRANCE", ["A PAR H"])
    game.concede("ENGLAND")
    with pytest.raises(GameError, match="ENGLAND has conceded"):
        game.submit("england", [])
    for power in game.voters():
        game.vote_draw(power)
    assert game.is_over
    with pytest.raises(GameError, match="the game is over"):
        game.submit("FRANCE", [])


def test_legal_orders_of_one_power_named_in_any_case() -> None:
    game = Game.new(seed=1)
    every = game.legal_orders()
    assert game.legal_orders("france") == {"FRANCE": every["FRANCE"]} != {"FRANCE": {}}
    assert game.legal_orders(_Name("Italy")) == {"ITALY": every["ITALY"]}
    with pytest.raises(GameError, match="unknown power"):
        game.legal_orders("prussia")
    at(game, "W1901A", {
        "units": {"FRANCE": ["A SPA"], "ENGLAND": ["F LON", "A WAL"]},
        "centers": {"FRANCE": ["PAR", "MAR", "BRE", "SPA"], "ENGLAND": ["LON"]},
    })  # fmt: skip
    every = game.legal_orders()
    assert set(every) == {"ENGLAND", "FRANCE"}
    assert game.legal_orders("england") == {"ENGLAND": every["ENGLAND"]} != {"ENGLAND": {}}
    assert game.legal_orders("germany") == {"GERMANY": {}}  # nothing to order


def test_each_record_keeps_the_position_after_it() -> None:
    game = Game.new(seed=3)
    game.submit("FRANCE", ["A PAR - BUR"])
    game.process()
    game.submit("FRANCE", ["A BUR - BEL"])
    game.process()  # Fall 1901, then the Winter adjustments processed at once or waited for
    history = game.history
    assert len(history) >= 2
    for record, following in pairwise(history):
        assert record.after == following.position
    assert history[-1].after == game.position
    assert history[1].after.centers["BEL"] == "FRANCE"  # centres changed owner after Fall
    loaded = game_from_json(game_to_json(game))
    assert [r.after for r in loaded.history] == [r.after for r in history]


def test_the_orders_the_adjudicator_would_call_illegal_with_their_reasons() -> None:
    """``Game.illegal_orders``: what the moderator's CLI warns about and the server refuses,
    worked out in one place (issue 16 review, problem 10: the CLI had its own dry run)."""
    game = Game.new(seed=1)
    orders = game.submit("FRANCE", ["A PAR - MUN", "A MAR H", "F BRE - MAO"])
    assert {k: str(r) for k, r in game.illegal_orders("FRANCE", orders).items()} == {
        0: "MUN is not adjacent to PAR and no convoy can reach it"
    }
    assert game.illegal_orders("FRANCE", game.submit("FRANCE", ["A PAR - BUR"])) == {}
    # a retreat phase: judged by the phase's own rules, on the current position
    dislodged = {"GERMANY": [{"unit": "A MUN", "attacker_from": "BUR", "retreats": ["RUH"]}]}
    at(game, "F1901R", {"units": {"FRANCE": ["A MUN"]}, "dislodged": dislodged})
    retreats = game.submit("GERMANY", ["A MUN R BUR"])
    reasons = game.illegal_orders("GERMANY", retreats)
    assert {k: str(r) for k, r in reasons.items()} == {0: "A MUN cannot retreat to BUR"}
    assert game.illegal_orders("GERMANY", game.submit("GERMANY", ["A MUN R RUH"])) == {}


def test_illegal_orders_and_controller_read_the_power_as_submit_does() -> None:
    """A power named in any case is the power (as ``submit`` and every other method read
    it), and one the board does not have is a ``GameError``: ``illegal_orders("france",
    ...)`` called France's own legal orders illegal ("the unit in PAR belongs to
    FRANCE") while ``submit("france", ...)`` played them, and ``controller`` said ``None``
    for any name it did not know, as for a power nobody plays."""
    game = Game.new(seed=1, players=["ann", "bob"])
    orders = game.submit("france", ["A PAR - BUR", "A MAR - MUN"])
    assert {k: str(r) for k, r in game.illegal_orders("france", orders).items()} == {
        1: "MUN is not adjacent to MAR and no convoy can reach it"
    }
    assert game.controller("france") == game.controller("FRANCE") is not None
    for name in ("FRANCEE", "nobody"):
        with pytest.raises(GameError, match=f"unknown power '{name.upper()}'"):
            game.illegal_orders(name, orders)
        with pytest.raises(GameError, match=f"unknown power '{name.upper()}'"):
            game.controller(name)
