"""How games end (victory, draw, concession) and civil disorder, per edition."""

from __future__ import annotations

import pytest

from realpolitik.errors import GameError
from realpolitik.game import Game
from realpolitik.game.records import Event, EventKind
from realpolitik.maps import load_map
from tests.gamekit import at

EIGHTEEN = ["BEL", "HOL", "DEN", "SWE", "NWY", "SPA", "POR", "TUN", "KIE", "BER", "MUN",
            "PAR", "MAR", "BRE", "LON", "EDI", "LVP", "ROM"]  # fmt: skip


def _hold_all(game: Game) -> None:
    for power in game.must_order():
        game.submit(power, [])
    game.process()


def _result(game: Game, order: str) -> str:
    record = next(r for r in reversed(game.history) if not r.skipped)
    return next(o.result.value for o in record.outcomes if str(o.order) == order)


@pytest.mark.parametrize("edition", ["classic", "1971"])
def test_eighteen_centres_win_after_a_fall_turn(edition: str) -> None:
    data = {"units": {"FRANCE": ["A PIC", "A BUR"], "GERMANY": ["A RUH"]},
            "centers": {"FRANCE": [c for c in EIGHTEEN if c not in ("MUN", "KIE")] + ["VEN"],
                        "GERMANY": ["MUN", "KIE"]}}  # fmt: skip
    game = at(Game.new(edition=edition, seed=1), "S1905M", data)
    game.submit("FRANCE", ["A PIC - BEL"])
    game.process()
    assert not game.is_over  # owners change only after a Fall turn
    game.submit("FRANCE", ["A BEL - HOL", "A BUR - MUN"])
    game.submit("GERMANY", ["A RUH - KIE"])
    game.process()
    assert game.position.centers["MUN"] == "FRANCE" and game.position.centers["KIE"] == "GERMANY"
    assert game.is_over and game.winners == ("FRANCE",) and game.result is not None
    assert game.result.kind == "victory" and "18 supply centres" in game.result.reason
    assert game.result.players == ("FRANCE",) and str(game.result.phase) == "F1905M"
    over = game.history[-1].events[-1]
    assert over == Event(EventKind.GAME_OVER, reason=game.result.reason)
    assert str(over) == f"game over: {game.result.reason}"
    with pytest.raises(GameError, match="the game is over"):
        game.submit("GERMANY", [])
    with pytest.raises(GameError, match="the game is over"):
        game.process()
    assert game.legal_orders() == {} and game.waiting_for() == []
    assert game.view()["result"]["winners"] == ["FRANCE"]


def test_draw_needs_every_surviving_power() -> None:
    game = at(Game.new(seed=1), "S1905M", {
        "units": {"FRANCE": ["A PAR"], "GERMANY": ["A MUN"], "ENGLAND": ["F LON"]},
        "centers": {"FRANCE": ["PAR"], "GERMANY": ["MUN"], "ENGLAND": ["LON"], "ITALY": ["ROM"]},
    })  # fmt: skip
    assert game.voters() == ["ENGLAND", "FRANCE", "GERMANY"]  # Italy has no unit left
    assert not game.vote_draw("FRANCE")
    assert not game.vote_draw("germany")
    assert game.view("FRANCE")["draw_vote"] is True and game.view("ENGLAND")["draw_vote"] is None
    with pytest.raises(GameError, match="no say"):
        game.vote_draw("ITALY")
    assert not game.vote_draw("ENGLAND", agree=False)
    game.process()  # votes stand until changed
    assert game.vote_draw("ENGLAND")
    assert game.is_over and game.result is not None and game.result.kind == "draw"
    assert game.winners == ("ENGLAND", "FRANCE", "GERMANY")


def test_draw_without_powers_whose_player_left() -> None:
    game = Game.new(seed=1)
    for power in ("AUSTRIA", "ENGLAND", "GERMANY", "ITALY"):
        game.vote_draw(power)
    game.set_civil_disorder("FRANCE")
    assert game.voters() == ["AUSTRIA", "ENGLAND", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
    with pytest.raises(GameError, match="civil disorder"):
        game.vote_draw("FRANCE")
    game.set_civil_disorder("FRANCE", on=False)
    for power in ("FRANCE", "RUSSIA"):
        assert not game.vote_draw(power)
    assert game.vote_draw("TURKEY") and game.is_over and len(game.winners) == 7


@pytest.mark.parametrize("leaves", ["disorder", "concede"])
def test_the_last_player_not_to_vote_leaving_draws_the_game(leaves: str) -> None:
    """Six players voted for a draw, the seventh leaves or concedes without voting: the
    six agreed, so the game is drawn among them (it went on with nobody left to vote)."""
    game = Game.new(seed=1)
    for power in ("AUSTRIA", "ENGLAND", "GERMANY", "ITALY", "RUSSIA", "TURKEY"):
        assert not game.vote_draw(power)
    if leaves == "disorder":
        game.set_civil_disorder("FRANCE")
    else:
        assert game.concede("FRANCE")
    assert game.result is not None and game.result.kind == "draw"
    assert "FRANCE" not in game.winners and len(game.winners) == 6


def test_concession() -> None:
    game = Game.new(players=["ann", "bob"], seed=2)
    loser = next(p for p in game.players["bob"])
    assert not game.concede(loser)
    assert loser in game.civil_disorder
    with pytest.raises(GameError, match="conceded"):
        game.submit(loser, [])
    with pytest.raises(GameError, match="conceded"):
        game.set_civil_disorder(loser, on=False)
    for power in game.players["bob"][1:]:
        ended = game.concede(power)
    assert ended and game.result is not None and game.result.kind == "concession"
    assert game.result.players == ("ann",) and set(game.winners) == set(game.players["ann"])


def test_player_who_leaves_is_in_civil_disorder_until_back() -> None:
    game = at(Game.new(seed=1), "F1901M", {
        "units": {"FRANCE": ["A BUR", "A MAR", "A GAS"], "GERMANY": ["A MUN", "A RUH"]},
        "centers": {"FRANCE": ["PAR", "MAR", "BRE", "SPA"], "GERMANY": ["MUN", "BER", "KIE"]},
    })  # fmt: skip
    game.submit("FRANCE", ["A MAR - SPA"])
    game.set_civil_disorder("FRANCE")
    assert game.orders("FRANCE") == [] and "FRANCE" not in game.waiting_for()
    with pytest.raises(GameError, match="civil disorder"):
        game.submit("FRANCE", ["A MAR H"])
    game.submit("GERMANY", ["A MUN - BUR", "A RUH S A MUN - BUR"])
    game.process()  # France's units hold and do not support; its dislodged unit is disbanded
    assert _result(game, "A MAR H") == "stands"
    assert "BUR" not in game.position.dislodged and game.position.units["BUR"].power == "GERMANY"
    skipped = game.history[-1]
    assert skipped.skipped and str(skipped.phase) == "F1901R" and skipped.outcomes[0].implied
    assert str(game.phase) == "W1901A" and "FRANCE" not in game.waiting_for()
    assert game.builds_due()["FRANCE"] == 2  # owed, but it builds nothing
    game.submit("GERMANY", ["A KIE B"])
    game.process()
    assert len(game.position.units_of("FRANCE")) == 2
    game.set_civil_disorder("FRANCE", on=False)
    assert "FRANCE" in game.waiting_for()
    game.submit("FRANCE", ["A MAR - SPA"])
    with pytest.raises(GameError, match="nobody"):
        Game.new(players=6).set_civil_disorder("ITALY")


def test_no_orders_for_a_turn_is_civil_disorder_for_that_turn() -> None:
    game = at(Game.new(seed=1), "F1901M", {
        "units": {"FRANCE": ["A BUR", "A MAR"], "GERMANY": ["A MUN", "A RUH"]},
        "centers": {"FRANCE": ["PAR", "MAR", "BRE"], "GERMANY": ["MUN", "BER", "KIE"]},
    })  # fmt: skip
    game.submit("GERMANY", ["A MUN - BUR", "A RUH S A MUN - BUR"])
    game.process()  # France gave no orders: its dislodged army is not asked to retreat
    assert game.history[0].disorder >= {"FRANCE"}
    assert game.history[0].events == (Event(EventKind.CIVIL_DISORDER, ("FRANCE",)),)
    assert str(game.history[0].events[0]) == "civil disorder (no orders): FRANCE"
    assert [str(r.phase) for r in game.history] == ["F1901M", "F1901R"]
    assert game.history[-1].skipped
    assert "FRANCE" in game.civil_disorder and "FRANCE" not in game.waiting_for()
    game.submit("FRANCE", ["A PAR B"])  # it may come back at once
    assert "FRANCE" not in game.civil_disorder
    game.submit("GERMANY", ["A KIE B"])
    game.process()
    assert str(game.phase) == "S1902M" and "FRANCE" in game.waiting_for()


@pytest.mark.parametrize(
    ("edition", "removed"),
    [("classic", {"F NAO"}), ("1971", {"F NAO"}), ("grow", {"F NAO"})],
)
def test_civil_disorder_removals_follow_the_edition(edition: str, removed: set[str]) -> None:
    """Classic and grow (4.D.8 b) remove the unit farthest from the home country, 1971
    (4.D.8 a) the one farthest from its nearest home centre, convoy routes counted; at equal
    distance (NAO and NAF are two moves from Brest) the fleet goes first."""
    game = at(Game.new(edition=edition, seed=1), "W1901A", {
        "units": {"FRANCE": ["F NAO", "A NAF", "A PAR"]},
        "centers": {"FRANCE": ["PAR", "MAR"]},
    })  # fmt: skip
    game.set_civil_disorder("FRANCE")
    game.process()
    gone = {str(o.order).removesuffix(" D") for o in game.history[-1].outcomes}
    assert len(gone) == 1
    assert gone == removed
    assert game.history[-1].outcomes[0].implied


def test_hold_support_in_civil_disorder_datc_4d9() -> None:
    data = {"units": {"ITALY": ["A VEN"], "AUSTRIA": ["A TRI", "A TYR"], "FRANCE": ["A PIE"]}}
    for choice, result, holds in (("b", "given", True), ("a", "invalid", False)):
        game = at(Game.new(players=6, rules={"4.D.9": choice}, seed=1), "S1902M", data)
        game.submit("AUSTRIA", ["A TRI - VEN", "A TYR S A TRI - VEN"])
        game.submit("FRANCE", ["A PIE S A VEN"])
        game.process()
        assert _result(game, "A PIE S A VEN") == result
        assert (game.position.units["VEN"].power == "ITALY") is holds


def test_conquista_solo_victory_after_any_turn() -> None:
    centers = sorted(load_map("conquista").centers)
    game = at(Game.new(edition="conquista", seed=1), "S1916M", {
        "units": {"RUSSIA": ["A UKR"], "TURKEY": ["A ANK"]},
        "centers": {"RUSSIA": [c for c in centers if c not in ("RUM", "ANK")][:17],
                    "TURKEY": ["ANK"]},
    })  # fmt: skip
    game.submit("RUSSIA", ["A UKR - RUM"])
    game.process()  # a Spring turn: conquista's owners change at the end of every turn
    assert game.is_over and game.winners == ("RUSSIA",)
    assert game.result is not None and "18 supply centres (needed 18)" in game.result.reason


def test_grow_shortened_game() -> None:
    game = Game.new(edition="grow", players=5, last_year=1901, seed=2)
    game.submit("FRANCE", ["A PAR - BUR", "A MAR - SPA", "F BRE - MAO"])
    game.process()
    game.submit("FRANCE", ["A BUR - BEL", "F MAO - POR", "A SPA H"])
    game.process()
    game.submit("FRANCE", ["A PAR B", "A MAR B", "F BRE B"])
    game.process()
    assert game.result is not None and game.result.kind == "shortened"
    assert game.winners == ("FRANCE",) and "most units" in game.result.reason
    # the reason names who won, as a victory's does ("FRANCE: 18 units (needed 18)")
    assert game.result.reason == "FRANCE: most units on the board at the agreed end (6)"


def test_a_shortened_game_of_two_players_names_the_player() -> None:
    game = Game.new(edition="1971", players=["ann", "bob"], last_year=1914, seed=2)
    while not game.is_over:
        game.process()
    assert game.result is not None and game.result.kind == "shortened"
    assert game.result.reason == "player bob: most units on the board at the agreed end (13)"


def test_a_player_named_by_default_is_not_named_player_twice() -> None:
    """A table of two dealt by count has players "player 1" and "player 2": its end said
    "player player 2: most units ..." (and "player player 1: 25 units (needed 24)" for a
    conquista victory seen playing it)."""
    game = Game.new(edition="1971", players=2, last_year=1914, seed=2)
    while not game.is_over:
        game.process()
    assert game.result is not None and game.result.reason.startswith("player 2: most units")


@pytest.mark.parametrize(
    ("edition", "players", "count", "needed", "per"),
    [
        ("classic", 7, "centers", 18, "power"), ("classic", 3, "centers", 18, "power"),
        ("classic", 2, "centers", 24, "player"), ("1971", 7, "centers", 18, "power"),
        ("1971", 2, "units", 24, "player"), ("grow", 7, "units", 18, "power"),
        ("grow", 6, "units", 18, "power"),
        ("conquista", 7, "centers", 18, "power"), ("conquista", 2, "units", 24, "player"),
    ],
)  # fmt: skip
def test_victory_condition_per_edition_and_table(edition, players, count, needed, per) -> None:
    game = Game.new(edition=edition, players=players, seed=1)
    victory = game.edition.victory_for(game.setup)
    assert (victory.count, victory.needed(game.game_map), victory.per) == (count, needed, per)
    assert (victory.alliance_years is not None) == (edition == "conquista" and players > 2)


def test_a_finished_game_asks_for_nothing() -> None:
    """Once a victory ends the game in the Fall, the adjustment phase it stops at owes no
    builds and waits on nobody (``builds_due`` gave the winner's build, and ``realpolitik
    legal`` and the view's ``adjustments`` said so)."""
    data = {"units": {"FRANCE": ["A PIC", "A BUR"], "GERMANY": ["A RUH"]},
            "centers": {"FRANCE": [c for c in EIGHTEEN if c not in ("MUN", "BEL")] + ["VEN"],
                        "GERMANY": ["MUN"]}}  # fmt: skip
    game = at(Game.new(seed=1), "F1905M", data)
    game.submit("FRANCE", ["A PIC - BEL", "A BUR - MUN"])
    game.process()
    assert game.is_over and game.phase.is_adjustments
    position = game.position
    assert len(position.centers_of("FRANCE")) == 19 and len(position.units_of("FRANCE")) == 2
    assert game.builds_due() == {} and game.must_order() == []
    assert game.legal_orders() == {} and game.view()["adjustments"] == {}


# --- conquista: no civil disorder (RULES.md §5) ----------------------------------------------
LEAVER = {"units": {"FRANCE": ["A SPA", "A PIC"], "GERMANY": ["A HOL", "A RUH"],
                    "ENGLAND": ["A YOR"]},
          "centers": {"FRANCE": ["PAR", "MAR", "BRE"],
                      "GERMANY": ["MUN", "BER", "KIE"]}}  # fmt: skip


def test_conquista_player_who_leaves_leaves_a_power_without_orders() -> None:
    """La Conquista has no civil disorder: "a power without orders holds and still gets its
    Spring reinforcements". France's player leaves in Fall 1914 after ordering: its orders
    are gone, its units hold, and it is not in civil disorder; in Spring 1915 its
    reinforcement is due as for a power that missed its orders, and placed by an order: its
    returning player's (nobody orders for a power whose player is away)."""
    game = at(Game.new(edition="conquista", seed=1), "F1914M", LEAVER)
    game.submit("FRANCE", ["A PIC - BEL"])
    game.set_civil_disorder("FRANCE")
    assert game.orders("FRANCE") == [] and game.civil_disorder == frozenset()
    assert game.status.disorder == {"FRANCE"}  # its player left
    with pytest.raises(GameError, match="FRANCE's player has left"):
        game.submit("FRANCE", ["A PIC H"])
    assert "FRANCE" not in game.waiting_for() and "FRANCE" not in game.must_order()
    game.submit("GERMANY", ["A RUH - BEL"])
    game.process()
    record = game.history[0]
    assert record.disorder == frozenset() and record.events == ()
    assert _result(game, "A PIC H") == "stands" and _result(game, "A SPA H") == "stands"
    assert game.phase_name() == "Spring 1915 reinforcements"
    assert game.builds_due() == {"FRANCE": 1, "GERMANY": 2}
    assert game.waiting_for() == ["GERMANY"]
    assert game.view()["civil_disorder"] == []
    game.set_civil_disorder("FRANCE", on=False)  # back in time to place it
    assert game.waiting_for() == ["FRANCE", "GERMANY"]
    game.submit("FRANCE", ["A PAR B"])
    game.submit("GERMANY", ["A MUN B", "A BER B"])
    game.process()
    assert game.position.units["PAR"].power == "FRANCE" and str(game.phase) == "S1915M"


def test_conquista_conceded_power_holds_without_civil_disorder() -> None:
    """A conceded power is not in civil disorder either: its units hold; it leaves for good
    (no orders, no say in a draw, no share of a win). Under classic the same concession is
    civil disorder."""
    conquista = at(Game.new(edition="conquista", seed=1), "F1914M", LEAVER)
    assert not conquista.concede("FRANCE")
    assert conquista.civil_disorder == frozenset() and "FRANCE" not in conquista.voters()
    with pytest.raises(GameError, match="conceded"):
        conquista.submit("FRANCE", [])
    conquista.process()
    assert conquista.history[0].disorder == frozenset()
    assert _result(conquista, "A PIC H") == "stands"
    classic = at(Game.new(seed=1), "F1901M", LEAVER)
    classic.concede("FRANCE")
    assert classic.civil_disorder == {"FRANCE"}
    classic.process()
    assert "FRANCE" in classic.history[0].disorder


@pytest.mark.parametrize("name", ["classic", "1971", "grow"])
def test_a_player_who_leaves_is_in_civil_disorder_in_the_other_editions(name: str) -> None:
    game = Game.new(edition=name, seed=1)
    game.set_civil_disorder("FRANCE")
    assert game.civil_disorder == {"FRANCE"} and game.edition.leaving == "disorder"
    with pytest.raises(GameError, match="FRANCE is in civil disorder"):
        game.submit("FRANCE", [])


def test_the_last_player_on_the_board_wins() -> None:
    """Grow's three-player board has 16 centres: 18 units cannot be reached there, and a
    game whose other powers were eliminated went on for ever. The last player left wins."""
    centres = ["BEL", "BER", "BRE", "DEN", "EDI", "HOL", "KIE", "LON", "LVP", "MAR", "MUN",
               "NWY", "PAR", "POR", "SPA"]  # fmt: skip
    data = {"units": {"FRANCE": ["A BUR", "A RUH"], "GERMANY": ["A MUN"]},
            "centers": {"FRANCE": centres}}  # fmt: skip
    game = at(Game.new(edition="grow", players=3, seed=1), "F1905M", data)
    game.submit("FRANCE", ["A BUR - MUN", "A RUH S A BUR - MUN"])
    game.process()  # Germany's army, dislodged, still has its retreats
    assert not game.is_over and game.phase.is_retreats
    game.submit("GERMANY", ["A MUN D"])
    game.process()
    assert not game.is_over and game.phase.is_adjustments  # the game ends with the year
    game.submit("FRANCE", ["A PAR B", "A MAR B"])
    game.process()
    assert game.result is not None and game.result.kind == "victory"
    assert game.winners == ("FRANCE",) and str(game.result.phase) == "W1905A"
    assert game.result.reason == "player 1 is the last player on the board"


def test_a_power_with_a_centre_and_no_unit_is_still_in_the_game() -> None:
    """A power without units that owns a centre may build: the game goes on."""
    data = {"units": {"FRANCE": ["A BUR", "A RUH"], "GERMANY": ["A MUN"]},
            "centers": {"FRANCE": ["PAR", "MAR", "BRE"], "GERMANY": ["BER"]}}  # fmt: skip
    game = at(Game.new(edition="grow", players=3, seed=1), "F1905M", data)
    game.submit("FRANCE", ["A BUR - MUN", "A RUH S A BUR - MUN"])
    game.process()
    game.submit("GERMANY", ["A MUN D"])
    game.process()
    assert not game.is_over


def test_a_player_in_civil_disorder_is_still_on_the_board() -> None:
    """Only elimination or concession leaves a player alone: one who left may return."""
    game = Game.new(edition="classic", players=["ann", "bob"], seed=3)
    bob = game.players["bob"][0]
    game.set_civil_disorder(bob)
    _hold_all(game)
    assert not game.is_over


def test_a_draw_voted_by_every_power_but_one_is_agreed_when_that_power_is_eliminated() -> None:
    """France and Germany voted for a draw, England did not: when England's last unit is
    disbanded, those still in have all agreed, and the game is drawn at once."""
    game = at(Game.new(seed=1), "S1905M", {
        "units": {"ENGLAND": ["A BEL"], "FRANCE": ["A PIC", "A BUR"], "GERMANY": ["A MUN"]},
        "centers": {"ENGLAND": ["LON"], "FRANCE": ["PAR"], "GERMANY": ["MUN"]},
    })  # fmt: skip
    assert not game.vote_draw("FRANCE") and not game.vote_draw("GERMANY")
    game.submit("FRANCE", ["A PIC - BEL", "A BUR S A PIC - BEL"])
    game.submit("ENGLAND", [])
    game.submit("GERMANY", [])
    game.process()
    assert not game.is_over and str(game.phase) == "S1905R"
    game.submit("ENGLAND", ["A BEL D"])
    game.process()
    assert game.result is not None and game.result.kind == "draw"
    assert game.winners == ("FRANCE", "GERMANY") and str(game.result.phase) == "S1905R"
    assert game.history[-1].events[-1] == Event(EventKind.GAME_OVER, reason=game.result.reason)
