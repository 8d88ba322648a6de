"""Every edition's specials and tables, played through Game (RULES.md §2-§5)."""

from __future__ import annotations

import re

import pytest

from realpolitik import parse_order
from realpolitik.errors import GameError
from realpolitik.game import Game
from realpolitik.game.records import Event, EventKind
from realpolitik.maps import load_map
from realpolitik.orders import Build, UnitRef
from realpolitik.vocab import ARMY, FLEET
from tests.gamekit import at

STANDARD = load_map("standard")


def _result(game: Game, order: str) -> str:
    record = next(r for r in reversed(game.history) if not r.skipped)
    for outcome in record.outcomes:
        if str(outcome.order) == order:
            return outcome.result.value
    raise KeyError(order)


def _hold_all(game: Game) -> None:
    for power in game.must_order():
        game.submit(power, [])
    game.process()


# --- classic: 6 and 5 players, the powers out -------------------------------------------------
def test_six_players_italy_is_out_for_the_whole_game() -> None:
    game = at(Game.new(players=6, seed=1), "F1901M", {
        "units": {"ITALY": ["A VEN", "A ROM", "F NAP"], "AUSTRIA": ["A TRI", "A TYR", "A VIE"],
                  "FRANCE": ["A PIE"]},
        "centers": {"ITALY": ["VEN", "ROM", "NAP"], "AUSTRIA": ["VIE", "BUD", "TRI"],
                    "FRANCE": ["PAR"]},  # (none: France's one unit removed, the game over)
    })  # fmt: skip
    assert "ITALY" not in game.must_order() and game.controller("ITALY") is None
    assert "ITALY" in game.civil_disorder and game.view()["out"] == ["ITALY"]
    game.submit("AUSTRIA", ["A TRI - VEN", "A TYR S A TRI - VEN"])
    game.submit("FRANCE", ["A PIE S A VEN"])  # anyone may support Italy to hold
    game.process()
    assert _result(game, "A PIE S A VEN") == "given"
    assert _result(game, "A TRI - VEN") == "fails"
    game = at(game, "F1902M", {
        "units": {"ITALY": ["A VEN", "A ROM"], "AUSTRIA": ["A TRI", "A TYR", "A VIE"],
                  "FRANCE": ["A PAR"]},
        "centers": {"ITALY": ["VEN", "ROM", "NAP", "TUN"], "AUSTRIA": ["VIE", "BUD", "TRI"],
                    "FRANCE": ["PAR"]},
    })  # fmt: skip
    game.submit("AUSTRIA", ["A TRI - VEN", "A TYR S A TRI - VEN"])
    game.process()  # Italy's unit is not asked to retreat; Italy, owed a build, builds nothing
    assert "VEN" not in game.position.dislodged
    assert [str(r.phase) for r in game.history[-2:]] == ["F1902M", "F1902R"]
    assert game.history[-1].skipped and game.history[-1].outcomes[0].implied
    assert str(game.phase) == "W1902A" and game.builds_due()["ITALY"] == 1
    assert game.waiting_for() == ["AUSTRIA"]
    game.submit("AUSTRIA", ["A BUD B"])
    game.process()
    assert len(game.position.units_of("ITALY")) == 1 and str(game.phase) == "S1903M"


def test_five_players_two_powers_out() -> None:
    game = Game.new(players=5, seed=1)
    assert set(game.setup.out) == {"ITALY", "GERMANY"}
    assert set(game.must_order()) == set(game.powers) - {"ITALY", "GERMANY"}
    old = Game.new(edition="1971", players=5, seed=1)
    assert set(old.setup.out) == {"ITALY", "GERMANY"}
    conquista = Game.new(edition="conquista", players=5, seed=1)
    assert set(conquista.setup.out) == {"ITALY", "TURKEY"}


def test_out_power_removals_follow_the_edition_rule() -> None:
    data = {
        "units": {"ITALY": ["A VEN", "F TYS", "F WES"], "FRANCE": ["A ROM"]},
        "centers": {"ITALY": ["VEN"], "FRANCE": ["ROM", "PAR", "MAR", "BRE"]},
    }
    classic = at(Game.new(players=6, seed=1), "W1901A", data)
    classic.submit("FRANCE", ["A PAR B", "A MAR B", "F BRE B"])
    classic.process()
    assert {str(u) for u in classic.position.units_of("ITALY")} == {"A VEN"}


# --- classic and 1971: tables of 4, 3 and 2 ------------------------------------------------------
def test_one_player_several_powers_centres_stay_per_power() -> None:
    game = Game.new(players=["ann", "bob", "cy", "dee"], seed=4)
    player = next(n for n, ps in game.players.items() if len(ps) == 2)
    first, second = game.players[player]
    game = at(game, "W1901A", {
        "units": {first: [], second: []},
        "centers": {first: list(game.game_map.homes[first]),
                    second: list(game.game_map.homes[second])},
    })  # fmt: skip
    assert set(game.builds_due()) == {first, second}
    assert game.waiting_for() == sorted([first, second])


def test_1971_three_player_options() -> None:
    a = Game.new(edition="1971", players=["x", "y", "z"], seed=2)
    b = Game.new(edition="1971", players=["x", "y", "z"], setup="3b", seed=2)
    assert a.setup.id == "3a" and ("RUSSIA",) in a.players.values()
    assert b.setup.id == "3b" and ("RUSSIA", "ITALY") in b.players.values()
    with pytest.raises(GameError, match="3 players"):
        Game.new(edition="1971", players=4, setup="3b")


@pytest.mark.parametrize(("edition", "setup"), [("classic", None), ("1971", None),
                                                ("grow", "2-extra")])  # fmt: skip
def test_two_players_first_world_war(edition: str, setup: str | None) -> None:
    game = Game.new(edition=edition, players=["allies", "centrals"], seed=9, setup=setup)
    assert str(game.phase) == "S1914M" and game.controller("ITALY") is None
    assert sorted(map(sorted, game.players.values())) == [
        ["AUSTRIA", "GERMANY", "TURKEY"], ["ENGLAND", "FRANCE", "RUSSIA"],
    ]  # fmt: skip
    assert len(game.position.units_of("ITALY")) == 3  # Italy stands, neutral
    allies = next(n for n, ps in game.players.items() if "FRANCE" in ps)
    game.submit("FRANCE", ["A MAR - PIE"])
    game.submit("AUSTRIA", ["A VIE - TYR", "F TRI S A VEN"])
    game.process()
    assert _result(game, "A MAR - PIE") == "illegal"  # Italy cannot be entered
    assert _result(game, "F TRI S A VEN") == "illegal"
    assert game.legal_orders("FRANCE")["FRANCE"]["MAR"] == [
        o for o in game.legal_orders("FRANCE")["FRANCE"]["MAR"] if "PIE" not in str(o)
    ]
    _hold_all(game)  # Fall 1914: the coin is tossed before the adjustments
    toss = game.status.coin_toss
    assert toss is not None and toss.power == "ITALY" and toss.from_year == 1915
    tossed = Event(EventKind.COIN_TOSS, ("ITALY",), toss.player, 1915)
    assert [e for r in game.history for e in r.events if e.kind is EventKind.COIN_TOSS] == [tossed]
    assert str(tossed) == f"coin toss: ITALY goes to {toss.player} from 1915"
    again = Game.new(edition=edition, players=["allies", "centrals"], seed=9, setup=setup)
    for _ in range(2):
        _hold_all(again)
    assert again.status.coin_toss == toss  # recorded and reproducible from the seed
    while game.phase.year < 1915:
        _hold_all(game)
    assert str(game.phase) == "S1915M" and game.game_map.name != f"{edition}_neutral_italy"
    assert game.controller("ITALY") == toss.player
    assert "ITALY" in game.players[toss.player] and "ITALY" in game.must_order()
    game.submit("ITALY", ["A VEN - PIE"])
    game.process()
    assert game.position.units["PIE"].power == "ITALY"
    assert allies in game.players


@pytest.mark.parametrize("edition", ["classic", "1971", "conquista"])
def test_two_players_neutral_italy_is_said_not_to_be_entered(edition: str) -> None:
    """The two-player game: "Italia es neutral y no se puede entrar en su territorio" (000);
    "l'on ne peut pas pénétrer sur son territoire" (001); "como Suiza en un territorio
    impasable" (004). A move into Italy is refused as the books say it: the province cannot
    be entered. It said "PIE is not adjacent to MAR and no convoy can reach it", which the
    board contradicts."""
    from realpolitik.notation import explain

    game = Game.new(edition=edition, players=2, seed=9)
    at(game, "S1914M", {"units": {"FRANCE": ["A MAR", "F TYS"], "AUSTRIA": ["A TRI"],
                                  "ITALY": ["A VEN", "F NAP"]}})  # fmt: skip
    france = game.submit("FRANCE", ["A MAR - PIE", "F TYS - ROM"])
    austria = game.submit("AUSTRIA", ["A TRI - VEN"])
    said = {**game.illegal_orders("FRANCE", france), 2: game.illegal_orders("AUSTRIA", austria)[0]}
    assert [str(r) for r in said.values()] == [
        "PIE cannot be entered", "ROM cannot be entered", "VEN cannot be entered",
    ]  # fmt: skip
    assert explain(said[0], "es") == "no se puede entrar en el Piamonte"
    game.process()
    assert _result(game, "A MAR - PIE") == "illegal" and "PIE" not in game.position.units


def test_two_players_victory_sums_the_powers_of_a_player() -> None:
    game = Game.new(players=["allies", "centrals"], seed=9)
    allies = next(n for n, ps in game.players.items() if "FRANCE" in ps)
    centers = [c for c in sorted(game.game_map.centers)]
    data = {
        "units": {"FRANCE": ["A BUR"], "ENGLAND": ["F NTH"], "RUSSIA": ["A UKR"],
                  "GERMANY": ["A SIL"], "ITALY": ["A TUS"]},
        "centers": {"FRANCE": centers[:10], "ENGLAND": centers[10:18], "RUSSIA": centers[18:24],
                    "GERMANY": centers[24:]},
    }  # fmt: skip
    game = at(game, "F1916M", data)
    _hold_all(game)
    assert game.is_over and game.result is not None and game.result.kind == "victory"
    assert set(game.winners) == {"ENGLAND", "FRANCE", "RUSSIA"}
    assert game.result.players == (allies,)


def test_1971_two_players_need_24_units() -> None:
    game = Game.new(edition="1971", players=2, seed=3)
    board = game.game_map
    homes = set(board.homes["RUSSIA"])
    land = sorted(p for p, i in board.provinces.items() if i.is_land and p not in homes)
    land = [p for p in land if p not in ("PIE", "VEN", "TUS", "ROM", "APU", "NAP")][:23]
    owned = sorted(homes | {p for p in land if p in board.centers})
    owned += [c for c in sorted(board.centers) if c not in owned][: 25 - len(owned)]
    game = at(game, "F1916M", {"units": {"RUSSIA": [f"A {p}" for p in land],
                                         "TURKEY": ["A SYR"]},  # the other player's last
                               "centers": {"RUSSIA": owned}})  # fmt: skip
    _hold_all(game)
    assert not game.is_over  # 25 centres, but 23 units on the board
    assert str(game.phase) == "W1916A"
    game.submit("RUSSIA", ["A MOS B"])
    game.process()
    assert game.result is not None and "24 units" in game.result.reason


def test_shortened_game_most_units_win() -> None:
    game = Game.new(edition="1971", last_year=1901, seed=1)
    game.submit("FRANCE", ["A PAR - BUR", "A MAR - SPA", "F BRE - MAO"])
    game.process()
    game.submit("FRANCE", ["A BUR - BEL", "F MAO - POR"])
    game.submit("RUSSIA", ["F SEV - RUM", "A WAR - GAL"])
    game.process()
    assert str(game.phase) == "W1901A" and not game.is_over
    game.submit("FRANCE", ["A PAR B", "A MAR B", "F BRE B"])
    game.submit("RUSSIA", ["A WAR B"])
    game.process()
    assert game.is_over and game.result is not None and game.result.kind == "shortened"
    assert game.winners == ("FRANCE",)
    with pytest.raises(GameError, match="over"):
        game.submit("FRANCE", [])


# --- grow ----------------------------------------------------------------------------------
def test_grow_names_and_italian_fleets() -> None:
    game = Game.new(edition="grow", seed=1)
    assert game.phase_name() == "Winter 1901"
    assert {str(u) for u in game.position.units_of("ITALY")} == {"A VEN", "F ROM", "F NAP"}
    game.submit("ITALY", ["F ROM - TYS"])
    game.process()
    assert game.phase_name() == "Summer 1901" and game.position.units["TYS"].power == "ITALY"


@pytest.mark.parametrize(
    ("players", "board", "powers", "needed"),
    [(7, "grow", 7, 18), (6, "grow_6", 6, 18), (5, "grow_5", 5, 18), (4, "grow_4", 4, 18),
     (3, "grow_3", 3, 18)],
)  # fmt: skip
def test_grow_reduced_maps(players: int, board: str, powers: int, needed: int) -> None:
    game = Game.new(edition="grow", players=players, seed=1)
    assert game.game_map.name == board and len(game.powers) == powers
    assert game.setup.out == () and set(game.must_order()) == set(game.powers)
    assert game.edition.victory_for(game.setup).needed(game.game_map) == needed
    assert game.view()["victory"].startswith(f"{needed} units")


def test_grow_six_players_black_sea_to_aegean() -> None:
    game = Game.new(edition="grow", players=6, seed=1)
    game.submit("RUSSIA", ["F SEV - BLA"])
    game.process()
    game.submit("RUSSIA", ["F BLA - AEG"])
    game.process()
    assert game.position.units["AEG"].power == "RUSSIA"
    game.submit("RUSSIA", ["A MOS - ANK"])  # understood, but Ankara is off the board
    game.process()
    assert _result(game, "A MOS - ANK") == "illegal"


# --- conquista -----------------------------------------------------------------------------
def test_conquista_start() -> None:
    game = Game.new(edition="conquista", seed=1)
    assert str(game.phase) == "S1914M" and len(game.game_map.centers) == 36
    assert len(game.position.units) == 24 and len(game.position.centers) == 24
    assert game.position.units["SIL"].power == "GERMANY"
    assert game.position.units["SYR"].power == "TURKEY"


def test_conquista_no_retreats_and_centres_every_turn() -> None:
    game = Game.new(edition="conquista", seed=1)
    game.submit("GERMANY", ["A MUN - BUR"])
    game.submit("FRANCE", ["A PAR - PIC"])
    game.process()
    assert game.position.centers.get("BUR") is None
    game.submit("AUSTRIA", ["A VIE - GAL", "A BUD - SER"])
    game.process()
    assert str(game.phase) == "S1915A"  # Germany may reinforce... Austria owns Serbia
    assert game.position.centers["SER"] == "AUSTRIA"  # owned at the end of the turn
    game = at(Game.new(edition="conquista", seed=1), "S1915M", {
        "units": {"FRANCE": ["A BUR", "A MAR"], "GERMANY": ["A MUN", "A RUH"]},
        "centers": {"FRANCE": ["PAR"], "GERMANY": ["MUN"]},
    })  # fmt: skip
    game.submit("GERMANY", ["A MUN - BUR", "A RUH S A MUN - BUR"])
    game.submit("FRANCE", [])
    resolution = game.process()
    bur = resolution.outcome_of(parse_order("A BUR H", game_map=STANDARD))
    assert bur.result.value == "destroyed"
    assert str(game.phase) == "F1915M" and not any(r.phase.is_retreats for r in game.history)
    assert "BUR" not in game.position.dislodged and game.position.units["BUR"].power == "GERMANY"
    assert game.position.centers["PAR"] == "FRANCE" and game.position.centers["MUN"] == "GERMANY"


def test_conquista_spring_reinforcements() -> None:
    game = at(Game.new(edition="conquista", seed=1), "F1915M", {
        "units": {"GERMANY": ["A HOL", "A BEL", "A DEN", "F KIE", "A WAR", "A MOS", "A SEV",
                              "A STP"],
                  "FRANCE": ["A PAR", "A MAR", "F BRE/SC", "A SPA", "A POR"]},
        "centers": {"GERMANY": ["KIE", "MUN", "SIL"], "FRANCE": ["PAR", "MAR", "BRE"]},
    })  # fmt: skip
    _hold_all(game)
    assert str(game.phase) == "S1916A" and game.phase_name() == "Spring 1916 reinforcements"
    # Germany: 7 foreign centres, but only MUN and SIL free at home (KIE occupied): 2.
    # France: 2 foreign centres, no free home centre: none. No upkeep: nobody removes.
    assert game.builds_due() == {"GERMANY": 2}
    assert game.waiting_for() == ["GERMANY"]
    legal = game.legal_orders("GERMANY")["GERMANY"]
    assert set(legal) == {"MUN", "SIL", "WAIVE"}
    assert Build(UnitRef(ARMY, "SIL")) in legal["SIL"]
    assert Build(UnitRef(FLEET, "SIL")) not in legal["SIL"]
    game.submit("GERMANY", ["A MUN B", "A SIL B"])
    game.process()
    assert str(game.phase) == "S1916M"
    assert len(game.position.units_of("GERMANY")) == 10
    assert len(game.position.units_of("FRANCE")) == 5  # more units than centres: kept


def test_conquista_first_spring_has_no_reinforcements_phase_when_none_is_due() -> None:
    game = Game.new(edition="conquista", seed=1)
    _hold_all(game)
    _hold_all(game)
    assert [str(r.phase) for r in game.history] == ["S1914M", "F1914M", "S1915A"]
    assert game.history[-1].skipped and str(game.phase) == "S1915M"


def test_conquista_support_of_another_power_needs_acceptance() -> None:
    data = {
        "units": {"AUSTRIA": ["A BUD", "A SER"], "TURKEY": ["A BUL", "A RUM"],
                  "RUSSIA": ["A UKR", "A SEV"]},
    }  # fmt: skip
    game = at(Game.new(edition="conquista", seed=1), "S1915M", data)
    game.submit("TURKEY", ["A BUL S A RUM"])
    game.submit("RUSSIA", ["A UKR - RUM", "A SEV S A UKR - RUM"])
    game.process()
    assert _result(game, "A BUL S A RUM") == "given"  # its own unit: no acceptance needed
    assert game.position.units["RUM"].power == "TURKEY"
    game = at(Game.new(edition="conquista", seed=1), "S1915M", data)
    game.submit("AUSTRIA", ["A SER S TURKEY A RUM"])
    game.submit("RUSSIA", ["A UKR - RUM", "A SEV S A UKR - RUM"])
    game.process()
    assert _result(game, "A SER S TURKEY A RUM") == "invalid"  # not accepted by Turkey
    assert game.position.units["RUM"].power == "RUSSIA"
    game = at(Game.new(edition="conquista", seed=1), "S1915M", data)
    game.submit("AUSTRIA", ["A SER S A RUM"])
    game.submit("TURKEY", [])
    assert game.accept_support("TURKEY", ["A SER"]) == ["SER"]
    game.submit("RUSSIA", ["A UKR - RUM", "A SEV S A UKR - RUM"])
    game.process()
    assert _result(game, "A SER S A RUM") == "given"
    assert game.position.units["RUM"].power == "TURKEY"
    with pytest.raises(GameError, match="its own unit"):
        game.accept_support("TURKEY", ["A RUM"])
    with pytest.raises(GameError, match="no unit"):
        game.accept_support("TURKEY", ["A TYR"])
    # a unit written in the rulebooks' notation ("E Var", Spanish) was "no unit in 'E Var'"
    with pytest.raises(GameError, match=r"TURKEY: 'E Var' names no province \(a unit to "
                       r"accept is written as the board has it: 'A GAL' or 'GAL'\)"):  # fmt: skip
        game.accept_support("TURKEY", ["E Var"])
    with pytest.raises(GameError, match="conquista"):
        Game.new(seed=1).accept_support("TURKEY", ["A SMY"])


def test_conquista_own_support_needs_no_acceptance() -> None:
    game = Game.new(edition="conquista", seed=1)
    game.submit("GERMANY", ["A MUN - BUR", "A SIL S A MUN"])
    game.submit("FRANCE", ["A PAR - BUR", "A MAR S A PAR - BUR"])
    game.process()
    assert _result(game, "A MAR S A PAR - BUR") == "given"
    assert game.position.units["BUR"].power == "FRANCE"


def test_conquista_out_powers_may_be_supported() -> None:
    data = {"units": {"ITALY": ["A VEN"], "AUSTRIA": ["A TRI", "A TYR"], "FRANCE": ["A PIE"]}}
    game = at(Game.new(edition="conquista", players=6, seed=1), "S1915M", data)
    game.submit("AUSTRIA", ["A TRI - VEN", "A TYR S A TRI - VEN"])
    game.submit("FRANCE", ["A PIE S A VEN"])
    game.process()
    assert _result(game, "A PIE S A VEN") == "given"
    assert game.position.units["VEN"].power == "ITALY"


def test_conquista_alliances_win_when_two_years_old() -> None:
    game = Game.new(edition="conquista", seed=1)
    game.submit("FRANCE", [])
    game.declare_alliance("FRANCE", ["ENGLAND"])
    game.submit("ENGLAND", [])
    game.declare_alliance("ENGLAND", ["france", "GERMANY"])  # not the same alliance
    game.process()
    assert not game.status.alliances
    game.declare_alliance("FRANCE", ["ENGLAND"])
    game.declare_alliance("ENGLAND", ["FRANCE"])
    assert game.view("ENGLAND")["declared"] == ["ENGLAND", "FRANCE"]
    assert game.view("FRANCE")["declared"] == ["ENGLAND", "FRANCE"]
    game.process()  # formed in Fall 1914
    assert [a.members for a in game.status.alliances] == [("ENGLAND", "FRANCE")]
    formed = Event(EventKind.ALLIANCE_FORMED, ("ENGLAND", "FRANCE"))
    assert [e for r in game.history for e in r.events] == [formed]
    assert str(formed) == "alliance formed: ENGLAND+FRANCE"
    centers = sorted(game.game_map.centers)
    data = {"units": {"FRANCE": ["A PAR"], "ENGLAND": ["F LON/SC"], "GERMANY": ["A BER"]},
            "centers": {"FRANCE": centers[:10], "ENGLAND": centers[10:18],
                        "GERMANY": centers[18:20]}}  # fmt: skip
    game = at(game, "S1916M", data)
    _hold_all(game)  # a year and a half old: not yet
    assert not game.is_over
    game = at(game, "F1916M", data)
    _hold_all(game)  # Fall 1916: two years old, 18 centres together
    assert game.is_over and game.winners == ("ENGLAND", "FRANCE")
    assert "alliance" in game.result.reason  # type: ignore[union-attr]
    with pytest.raises(GameError, match="no alliance"):
        Game.new(seed=1).declare_alliance("FRANCE", ["ENGLAND"])


def test_conquista_an_alliance_with_oneself_alone_is_refused() -> None:
    """``orders --ally AUSTRIA`` by Austria named no partner and silently left Austria's
    alliance (the empty declaration); naming oneself among the members stays allowed."""
    game = Game.new(edition="conquista", seed=1)
    game.declare_alliance("AUSTRIA", ["GERMANY"])
    with pytest.raises(GameError, match="AUSTRIA cannot declare an alliance with itself"):
        game.declare_alliance("AUSTRIA", ["austria"])
    assert game.pending_declared()["AUSTRIA"] == ("AUSTRIA", "GERMANY")
    assert game.declare_alliance("AUSTRIA", ["AUSTRIA", "GERMANY"]) == ("AUSTRIA", "GERMANY")
    assert game.declare_alliance("AUSTRIA", []) == ()  # leaving is said so


def test_conquista_an_alliance_is_made_between_players() -> None:
    """La Conquista: "Para constituir una alianza, los jugadores que la integran deben darlo
    a conocer junto con las instrucciones para sus ejércitos" (the *players* who form it
    make it known), and the victory is "realizado por un solo jugador, o por una alianza";
    with four players (RULES.md §5) Austria and France are one player's, and a power wins
    alone with 18. Declaring an alliance of one's own two powers made one player's 10 + 8
    centres an alliance victory two years later; it is refused, naming the player. An
    alliance with another player's power (the pair's powers with it, or not) stands."""
    game = Game.new(edition="conquista", players=["ann", "bob", "cy", "dee"], seed=1,
                    assignment={"ann": ["AUSTRIA", "FRANCE"], "dee": ["ENGLAND"]})  # fmt: skip
    with pytest.raises(GameError, match="AUSTRIA and FRANCE are both played by ann"):
        game.declare_alliance("AUSTRIA", ["FRANCE"])
    assert "AUSTRIA" not in game.pending_declared()
    assert game.declare_alliance("AUSTRIA", ["FRANCE", "ENGLAND"]) == (
        "AUSTRIA", "ENGLAND", "FRANCE",
    )  # fmt: skip
    assert game.declare_alliance("FRANCE", ["ENGLAND"]) == ("ENGLAND", "FRANCE")


def test_conquista_an_alliance_declared_again_keeps_its_age() -> None:
    """La Conquista: the alliance is made known "en la ronda en que la constituyan" and wins
    with "una antigüedad de al menos 2 años". Its members declaring it again with later
    orders (as the web form and ``orders --ally`` invite) confirm it: it is not formed
    anew, and wins two years after Spring 1914 (it never aged when each turn re-formed it)."""
    centers = sorted(Game.new(edition="conquista", seed=1).game_map.centers)
    data = {"units": {"FRANCE": ["A PAR"], "ENGLAND": ["F LON/SC"], "GERMANY": ["A BER"]},
            "centers": {"FRANCE": centers[:9], "ENGLAND": centers[9:18],
                        "GERMANY": centers[18:20]}}  # fmt: skip
    game = at(Game.new(edition="conquista", seed=1), "S1914M", data)
    for _ in range(12):  # S1914M ... F1916M at most
        if game.is_over:
            break
        if game.phase.is_movement:
            game.declare_alliance("FRANCE", ["ENGLAND"])
            game.declare_alliance("ENGLAND", ["FRANCE"])
        _hold_all(game)
    assert game.is_over and game.winners == ("ENGLAND", "FRANCE")
    assert str(game.history[-1].phase) == "S1916A"  # two years after Spring 1914
    assert [str(a.formed) for a in game.status.alliances] == ["S1914M"]
    formed = [e for r in game.history for e in r.events if e.kind != EventKind.GAME_OVER]
    assert formed == [Event(EventKind.ALLIANCE_FORMED, ("ENGLAND", "FRANCE"))]


def test_conquista_leaving_an_alliance() -> None:
    game = Game.new(edition="conquista", seed=1)
    game.declare_alliance("FRANCE", ["ENGLAND"])
    game.declare_alliance("ENGLAND", ["FRANCE"])
    game.process()
    game.declare_alliance("ENGLAND", [])
    game.process()
    assert not game.status.alliances
    assert [e for r in game.history for e in r.events] == [
        Event(EventKind.ALLIANCE_FORMED, ("ENGLAND", "FRANCE")),
        Event(EventKind.ALLIANCE_ENDED, ("ENGLAND", "FRANCE")),
    ]


def test_conquista_an_alliance_with_a_conceded_member_cannot_win() -> None:
    """A power that concedes "cannot win" (``Game.concede``): its alliance, two years old
    with 18 centres, won with it all the same, the conceded France among the winners."""
    centers = sorted(Game.new(edition="conquista", seed=1).game_map.centers)
    data = {"units": {"FRANCE": ["A PAR"], "ENGLAND": ["F LON/SC"], "GERMANY": ["A BER"]},
            "centers": {"FRANCE": centers[:9], "ENGLAND": centers[9:18],
                        "GERMANY": centers[18:20]}}  # fmt: skip
    game = at(Game.new(edition="conquista", seed=1), "S1914M", data)
    game.declare_alliance("FRANCE", ["ENGLAND"])
    game.declare_alliance("ENGLAND", ["FRANCE"])
    _hold_all(game)
    game.concede("FRANCE")
    for _ in range(8):  # to Fall 1916: two years and more
        _hold_all(game)
    assert not game.is_over and game.phase.year == 1917
    assert [a.members for a in game.status.alliances] == [("ENGLAND", "FRANCE")]


def test_conquista_two_players_italy_until_1915() -> None:
    game = Game.new(edition="conquista", players=2, seed=4)
    assert str(game.phase) == "S1914M" and game.game_map.name == "conquista_neutral_italy"
    _hold_all(game)
    _hold_all(game)
    toss = game.status.coin_toss
    assert toss is not None and str(toss.phase) == "S1915A"
    assert game.controller("ITALY") == toss.player and game.game_map.name == "conquista"


@pytest.mark.parametrize(("edition", "setup"), [("classic", None), ("1971", None),
                                                ("grow", "2-extra")])  # fmt: skip
def test_a_two_player_game_begun_past_the_coin_toss_has_made_it(
    edition: str, setup: str | None
) -> None:
    """A game begun at a position of 1916 (a bot's look-ahead from what the server shows)
    has tossed the coin, as the game it comes from had: Italy is played and ordered. It had
    no toss, and Italy stood unordered for ever; the winner may be named."""
    position = {"units": {"ITALY": ["A ROM"], "FRANCE": ["A PAR"], "TURKEY": ["A CON"]},
                "centers": {"ITALY": ["ROM"], "FRANCE": ["PAR"], "TURKEY": ["CON"]}}  # fmt: skip
    table = {"edition": edition, "players": ["allies", "centrals"], "setup": setup}
    game = Game.from_position(position, "S1916M", seed=9, **table)  # type: ignore[arg-type]
    toss = game.status.coin_toss
    assert toss is not None and toss.power == "ITALY" and game.controller("ITALY") == toss.player
    assert "ITALY" in game.must_order() and game.legal_orders("ITALY")["ITALY"]["ROM"]
    for winner in ("allies", "centrals"):
        named = Game.from_position(position, "S1916M", coin_toss=winner, **table)  # type: ignore[arg-type]
        assert named.controller("ITALY") == winner and "ITALY" in named.players[winner]
    early = {"units": {"FRANCE": ["A PAR"]}, "centers": {"FRANCE": ["PAR"]}}
    before = Game.from_position(early, "S1914M", **table)  # type: ignore[arg-type]
    assert before.status.coin_toss is None and before.controller("ITALY") is None
    for shown, phase, winner, problem in (
        (position, "S1916M", "axis",
         "the coin toss is won by one of the players (allies, centrals), not 'axis'"),
        (early, "S1914M", "allies", "no coin is tossed by S1914M (ITALY is neutral until 1915)"),
    ):  # fmt: skip
        with pytest.raises(GameError, match=re.escape(problem)):
            Game.from_position(shown, phase, coin_toss=winner, **table)  # type: ignore[arg-type]
    with pytest.raises(GameError, match=re.escape("there is no coin toss at this table")):
        Game.from_position(position, "S1916M", edition=edition, coin_toss="allies")
