"""Bots: only legal orders, one per unit, the right number of builds and removals; the
heuristic bot takes neutral centres and beats the random bot clearly in a tournament."""

from __future__ import annotations

import importlib.util
import re
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import cast, get_type_hints

import pytest

from realpolitik import BotError, Game, GameError
from realpolitik.bots import Bot, HeuristicBot, PowerView, RandomBot, bot_orders, make_bot
from realpolitik.bots.selfplay import self_play
from realpolitik.legal import legal_orders
from realpolitik.maps import load_map
from realpolitik.orders import Build, Disband, Move, Order
from realpolitik.phase import Phase
from realpolitik.position import Position
from realpolitik.rules import rules_for

BOARD = load_map("standard")
RULES = rules_for("classic")
ROOT = Path(__file__).resolve().parents[1]


def _orders(bot: object, position: Position, phase: str, power: str) -> list[object]:
    p = Phase.parse(phase)
    legal = legal_orders(BOARD, position, p, RULES, power)[power]
    orders = bot.orders(PowerView(power, p, position, BOARD), legal)  # type: ignore[attr-defined]
    allowed = {o for options in legal.values() for o in options}
    assert all(o in allowed for o in orders), orders
    return list(orders)


@pytest.mark.parametrize("kind", ["random", "heuristic"])
def test_one_legal_order_per_unit(kind: str) -> None:
    start = Position.initial(BOARD)
    for power in BOARD.powers:
        orders = _orders(make_bot(kind, seed=3), start, "S1901M", power)
        units = [o.unit.province for o in orders]  # type: ignore[attr-defined]
        assert sorted(units) == sorted(u.province for u in start.units_of(power))


def test_heuristic_goes_for_neutral_centres() -> None:
    orders = _orders(HeuristicBot(1), Position.initial(BOARD), "S1901M", "FRANCE")
    targets = {o.destination.split("/")[0] for o in orders if isinstance(o, Move)}
    assert targets & {"SPA", "POR", "BEL", "BUR", "PIC", "GAS", "MAO"}


def test_builds_and_removals_count() -> None:
    start = Position.initial(BOARD)
    # France owns 5 centres, keeps 1 unit, has 2 free home centres: two builds
    centers = dict(start.centers) | {"SPA": "FRANCE", "POR": "FRANCE"}
    units = {p: u for p, u in start.units.items() if p not in ("PAR", "MAR")}
    pos = Position(units, centers)
    for bot in (HeuristicBot(2), RandomBot(2)):
        orders = _orders(bot, pos, "W1901A", "FRANCE")
        assert sum(isinstance(o, Build) for o in orders) == 2
    # Germany lost two centres: two removals
    lost = dict(start.centers) | {"MUN": "FRANCE", "KIE": "FRANCE"}
    pos = Position(start.units, lost)
    for bot in (HeuristicBot(2), RandomBot(2)):
        orders = _orders(bot, pos, "W1901A", "GERMANY")
        assert sum(isinstance(o, Disband) for o in orders) == 2


@pytest.mark.parametrize("kind", ["random", "heuristic", "search"])
def test_conquista_reinforcements_count(kind: str) -> None:
    """La Conquista's Spring reinforcements (foreign centres, capped by empty homes), not
    the classic upkeep (centres minus units: none here): the random and heuristic bots
    counted the upkeep and built nothing, or too much (orders then refused)."""
    from realpolitik.game import Game
    from tests.gamekit import at

    game = at(Game.new(edition="conquista", seed=1), "S1915A", {
        "units": {"GERMANY": ["A HOL", "F DEN", "A RUH", "A BOH", "A PRU", "F BAL"]},
        "centers": {"GERMANY": ["BER", "KIE", "MUN", "SIL", "HOL", "DEN"]},
    })  # fmt: skip
    assert game.builds_due() == {"GERMANY": 2}
    view = PowerView("GERMANY", game.phase, game.position, game.game_map, game.rules, game.edition)
    orders = make_bot(kind, seed=1).orders(view, game.legal_orders("GERMANY")["GERMANY"])
    builds = [o for o in orders if isinstance(o, Build)]
    assert len(builds) == len(orders) == 2
    assert game.illegal_orders("GERMANY", builds) == {}


def test_a_power_view_of_a_game() -> None:
    game = Game.new(edition="grow", players=4, seed=3)
    view = PowerView.of(game, "france")
    assert view == PowerView(
        "FRANCE", game.phase, game.position, game.game_map, game.rules, game.edition,
        game.setup, game.assignment, game.status, game.last_year,
    )  # fmt: skip
    with pytest.raises(GameError, match="unknown power 'SPAIN'; powers: "):
        PowerView.of(game, "Spain")


def _same_table(fork: Game, game: Game) -> None:
    assert (fork.setup, fork.players) == (game.setup, game.players)
    assert fork.unplayed() == game.unplayed()
    assert (fork.phase, fork.position, fork.game_map) == (game.phase, game.position, game.game_map)
    assert fork.must_order() == game.must_order()
    assert fork.legal_orders() == game.legal_orders()


def test_a_fork_of_a_view_plays_at_the_games_table() -> None:
    """A view shows the table, so that a fork of it (and a bot) sees the game's powers,
    board and players: a 3-player table (Germany and Italy out), a 2-player one with Italy
    neutral (cut off the board) until the coin toss gives it to a player. Made from the
    edition's name alone, a fork was a table of seven on the whole board."""
    for game in (
        Game.new(edition="1971", players=3, seed=5),
        Game.new(edition="1971", players=2, seed=4),
    ):
        view = PowerView.of(game, "FRANCE")
        assert (view.setup, view.assignment) == (game.setup, game.assignment)
        fork = view.fork(seed=1)
        _same_table(fork, game)
        for g in (game, fork):
            for power, keyed in g.legal_orders().items():  # the same orders in both
                g.submit(power, [orders[-1] for orders in keyed.values() if orders][:2])
            g.process()
        assert (fork.phase, fork.position) == (game.phase, game.position)
    position = {
        "units": {"AUSTRIA": ["A VIE"], "ENGLAND": ["F LON"]},
        "centers": {"AUSTRIA": ["VIE", "BUD"], "ENGLAND": ["LON"]},
    }
    game = Game.from_position(position, "W1914A", edition="1971", players=2, seed=1)
    game.process()  # the coin toss: Italy to player 1 (a game of seed 2 gives it player 2)
    assert game.players["player 1"][-1] == "ITALY"
    view = PowerView.of(game, "ENGLAND")
    assert view.status == game.status and view.last_year == game.last_year
    _same_table(view.fork(seed=2), game)


def test_a_view_says_which_powers_nobody_plays() -> None:
    """As the game says: a small table's out powers, a neutral power until the coin toss
    gives it to a player; a view that shows no table shows none."""
    for game, nobody in (
        (Game.new(players=5, seed=1), {"GERMANY", "ITALY"}),
        (Game.new(edition="1971", players=3, seed=5), set()),  # each player three powers
        (Game.new(edition="1971", players=2, seed=4), {"ITALY"}),
    ):
        assert PowerView.of(game, "FRANCE").unplayed() == game.unplayed() == nobody
    position = {
        "units": {"AUSTRIA": ["A VIE"], "ENGLAND": ["F LON"], "ITALY": ["A ROM"]},
        "centers": {"AUSTRIA": ["VIE", "BUD"], "ENGLAND": ["LON"], "ITALY": ["ROM"]},
    }
    game = Game.from_position(position, "W1914A", edition="1971", players=2, seed=1)
    before = PowerView.of(game, "ENGLAND").unplayed()
    game.process()  # the coin toss: Italy to a player from 1915
    assert "ITALY" in before and PowerView.of(game, "ENGLAND").unplayed() == game.unplayed()
    assert "ITALY" not in game.unplayed()
    bare = PowerView("FRANCE", game.phase, game.position, game.game_map)
    assert bare.unplayed() == frozenset()


def test_a_view_says_the_adjustments_due() -> None:
    position = {
        "units": {"FRANCE": ["A BUR", "A PIC", "F MAO"], "GERMANY": ["A MUN"]},
        "centers": {"FRANCE": ["PAR", "BRE"], "GERMANY": ["MUN", "BER", "KIE", "HOL"]},
    }
    game = Game.from_position(position, "W1905A", seed=1)
    due = {p: PowerView.of(game, p).due() for p in game.powers}
    assert due == {p: game.builds_due().get(p, 0) for p in game.powers}
    assert (due["FRANCE"], due["GERMANY"], due["ITALY"]) == (-1, 2, 0)
    view = PowerView.of(game, "GERMANY")
    assert PowerView(view.power, view.phase, view.position, view.game_map).due() == 2
    assert PowerView.of(Game.new(seed=1), "FRANCE").due() == 0  # a movement phase


def test_unknown_bot() -> None:
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("clever")
    with pytest.raises(ValueError, match="unknown bot 5"):
        make_bot(cast(str, 5))
    with pytest.raises(ValueError, match="strength must be a whole number from 0, not 'x'"):
        make_bot("search", strength=cast(int, "x"))


def test_a_bots_seed_is_a_whole_number() -> None:
    """A seed read as text ("3") or a fraction made a bot seeded by something else than
    the whole number (Python's random takes a str or a float), its games not those of
    seed 3, with no word; a game's seed is refused so (Game.new)."""
    game = Game.new(seed=1)
    legal = game.legal_orders("FRANCE")["FRANCE"]
    view = PowerView.of(game, "FRANCE")
    for kind in ("random", "heuristic", "search", f"{__name__}:_Passing"):
        for wrong in ("3", 1.5, True):
            said = f"seed must be a whole number, not {wrong!r}"
            with pytest.raises(ValueError, match=re.escape(said)):
                make_bot(kind, seed=cast(int, wrong))
    assert make_bot("random", seed=3).orders(view, legal) == RandomBot(3).orders(view, legal)


def test_self_play_names_what_is_wrong_with_its_bots() -> None:
    """A bot for a power not in the game was dropped without a word (the game played on
    without it); a list of bots, a bot that is a name, or years as text gave Python's own
    errors."""
    bot = make_bot("random", seed=1)
    with pytest.raises(ValueError, match="a bot for 'ATLANTIS': powers: AUSTRIA, ENGLAND"):
        self_play({"ATLANTIS": bot}, years=1)
    with pytest.raises(ValueError, match="bots are given by power"):
        self_play(cast(dict[str, Bot], [bot]), years=1)
    with pytest.raises(ValueError, match=r"the bot of FRANCE is no bot .*'random'"):
        self_play({"FRANCE": cast(Bot, "random")}, years=1)
    with pytest.raises(ValueError, match="years must be a whole number from 1, not '2'"):
        self_play({"FRANCE": bot}, years=cast(int, "2"))


class _Passing:
    name = "passing"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def orders(self, view: PowerView, legal: object) -> list[object]:
        return []


def _not_a_bot(seed: int | None = None) -> object:
    return seed


def test_a_bot_of_ones_own_by_module_and_name() -> None:
    bot = make_bot(f"{__name__}:_Passing", seed=5)
    assert isinstance(bot, _Passing) and bot.seed == 5
    for spec, problem in (
        ("no_such_module_here:Bot", "no module 'no_such_module_here'"),
        (f"{__name__}:Missing", f"module '{__name__}' has no class or function 'Missing'"),
        (f"{__name__}:BOARD", f"module '{__name__}' has no class or function 'BOARD'"),
        (f"{__name__}:_not_a_bot", "_not_a_bot(seed=...) made no bot"),
        # a TypeError, which `realpolitik orders --bot` said as "invalid bot_kind value"
        ("json:loads", "loads(seed=...) cannot be called so (loads() missing 1 required"),
        ("realpolitik:Game", "Game(seed=...) cannot be called so (Game.__init__() missing"),
        (":Bot", "expected 'module:name'"),
        (f"{__name__}:", "expected 'module:name'"),
    ):
        with pytest.raises(ValueError, match=re.escape(f"bot {spec!r}: {problem}")):
            make_bot(spec)


def test_heuristic_beats_random_in_self_play() -> None:
    bots = {p: make_bot("heuristic" if p in ("FRANCE", "TURKEY", "RUSSIA") else "random", seed=k)
            for k, p in enumerate(BOARD.powers)}  # fmt: skip
    result = self_play(bots, years=5)
    strong = sum(result.centers[p] for p in ("FRANCE", "TURKEY", "RUSSIA")) / 3
    weak = (
        sum(result.centers[p] for p in BOARD.powers if p not in ("FRANCE", "TURKEY", "RUSSIA")) / 4
    )
    assert strong > 2 * weak


def _random_bots(game: Game, seed: int) -> dict[str, Bot]:
    return {p: make_bot("random", seed=seed * 10 + k) for k, p in enumerate(game.powers)}


def test_rollouts_from_a_fork_leave_the_game_as_it_was() -> None:
    game = Game.new(seed=4)
    self_play(_random_bots(game, 0), years=3, game=game)  # to the middle of a game: S1904M
    game.submit("FRANCE", [])  # a pending order set and a draw vote, in the game and forks
    game.vote_draw("ENGLAND", False)
    before = (game.phase, game.position, list(game.history), game.view(), game.votes)
    results = []
    for seed in (1, 1, 2):
        fork = game.copy()
        fork.submit("GERMANY", [])
        fork.vote_draw("ITALY", True)
        result = self_play(_random_bots(game, seed), years=6, game=fork)
        assert fork.phase == result.phase and fork.position is result.position
        assert result.centers == {p: len(fork.position.centers_of(p)) for p in fork.powers}
        assert sum(result.centers.values()) <= 34
        assert result.winner == (fork.winners[0] if fork.result else None)
        assert len(fork.history) > len(game.history)
        results.append(result)
    assert (game.phase, game.position, game.history, game.view(), game.votes) == before
    assert str(game.phase) == "S1904M" and game.pending_orders() == {"FRANCE": ()}
    assert game.votes == {"ENGLAND": False}
    assert results[0] == results[1]  # the same bots' seeds, the same rollout
    assert results[0].position != results[2].position
    with pytest.raises(ValueError, match="a game to play on has its edition and rules"):
        self_play({}, years=1, game=game.copy(), edition="grow")
    with pytest.raises(ValueError, match="years must be a whole number from 1, not 0"):
        self_play({}, years=0)


def test_a_rollout_keeps_the_candidate_orders_given_to_its_fork() -> None:
    game = Game.new(seed=5)
    fork = game.copy()
    candidate = [str(o) for o in fork.submit("FRANCE", ["A PAR - PIC", "A MAR - PIE"])]
    self_play(_random_bots(game, 3), years=2, game=fork)  # FRANCE's bot too
    first, *later = [r for r in fork.history if r.phase.is_movement]
    assert [str(o) for o in first.orders["FRANCE"]] == candidate  # the bot's replaced them
    assert all(r.orders.get("FRANCE") for r in later)  # then FRANCE's bot plays on
    assert first.orders.keys() == set(game.powers)


def test_a_rollout_names_every_winner_of_a_players_victory() -> None:
    """Two players, three powers each: the victory is the player's, all of whose powers
    win (``winner`` said AUSTRIA, which had no centre left, for GERMANY's 24th centre)."""
    first = "VIE BUD TRI BER KIE MUN ANK CON SMY SER RUM BUL GRE DEN SWE NWY BEL SPA POR TUN"
    position = {
        "units": {"GERMANY": ["A RUH"], "ENGLAND": ["F LON"]},
        "centers": {"GERMANY": [*first.split(), "WAR", "SEV", "STP"],
                    "ENGLAND": ["LON", "EDI", "LVP", "BRE", "PAR", "MAR", "MOS"]},
    }  # fmt: skip
    game = Game.from_position(position, "F1914M", players=2, seed=1)
    game.submit("GERMANY", ["A RUH - HOL"])  # the 24th centre; the others give no orders
    result = self_play({}, years=1, game=game)
    assert result.centers["GERMANY"] == 24 and result.centers["AUSTRIA"] == 0
    assert result.winners == ("AUSTRIA", "GERMANY", "TURKEY") and result.winner is None
    assert result.result is not None and result.result.kind == "victory"
    assert result.result.players == ("player 1",)
    cut = self_play({}, years=1, game=Game.new(seed=1))  # not over: nobody has won
    assert (cut.winner, cut.winners, cut.result) == (None, (), None)


def test_tournament_script_reports_a_clear_win(capsys: pytest.CaptureFixture[str]) -> None:
    spec = importlib.util.spec_from_file_location(
        "bot_tournament", ROOT / "tools" / "bot_tournament.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["bot_tournament"] = module
    spec.loader.exec_module(module)
    status = module.main(["--games", "6", "--years", "6", "--seed", "7"])
    out = capsys.readouterr().out
    assert status == 0, out
    assert "heuristic beats random clearly" in out and "mean centres" in out


@pytest.mark.parametrize("name", ["classic", "conquista", "classic+reinforcements"])
def test_the_bots_know_when_centres_change_owner_from_the_calendar(name: str) -> None:
    """Both bots value a centre taken this turn by whether centres change owner at its end,
    and ask the edition's calendar (issue 16: the calendar is one module; the heuristic bot
    thought it was after Fall only, conquista included, and the search bot guessed it from
    the adjustment rule)."""
    from realpolitik.bots.heuristic import _Survey
    from realpolitik.bots.search import SearchBot, _Search
    from realpolitik.game import Game
    from realpolitik.game.calendar import turn_changes_owners

    if name == "classic+reinforcements":
        game = Game.new(edition="classic", rules={"adjustments": "reinforcements"}, seed=1)
    else:
        game = Game.new(edition=name, seed=1)
    for season in ("S", "F"):
        game.phase = Phase.parse(f"{season}1915M")
        view = PowerView(
            "FRANCE", game.phase, game.position, game.game_map, game.rules, game.edition
        )
        expected = turn_changes_owners(game.edition, game.phase)
        assert expected == (season == "F" or name == "conquista")
        assert _Survey(view).turn_changes_owners is expected
        legal = game.legal_orders("FRANCE")["FRANCE"]
        search = _Search(SearchBot(seed=1), view, legal, {}, deadline=0.0)  # type: ignore[arg-type]
        assert search.turn_changes_owners is expected


def test_a_power_the_game_does_not_have_is_the_callers_error_not_the_bots() -> None:
    """``bot_orders(bot, game, "XX", ...)`` said "the bot 'random' failed writing XX's
    orders": the view it asked the game for, not the bot, failed. The game's own error
    comes out, and the bot is not called."""
    game = Game.new(seed=1)
    called: list[str] = []

    class Spy:
        name = "spy"

        def orders(self, view: PowerView, legal: Mapping[str, Sequence[Order]]) -> list[Order]:
            called.append(view.power)
            return []

    with pytest.raises(GameError, match="unknown power 'XX'") as raised:
        bot_orders(Spy(), game, "XX", {})
    assert not isinstance(raised.value, BotError) and called == []
    assert bot_orders(Spy(), game, "france", {}) == [] and called == ["FRANCE"]


def test_a_bot_that_writes_its_orders_as_text_is_a_bot_by_its_type_too() -> None:
    """The README's bot returns "order values, or text as ``Game.submit`` reads it", and the
    loops read both; the protocol said ``list[Order]``, so ``mypy --strict`` refused a bot
    returning ``list[str]`` where a ``Bot`` is asked for. It says ``Sequence[Order | str]``
    (a bot's ``list[Order]`` or ``list[str]`` both fit: a ``Sequence`` is covariant)."""
    assert get_type_hints(Bot.orders)["return"] == Sequence[Order | str]

    class Writer:
        name = "writer"

        def orders(self, view: PowerView, legal: Mapping[str, Sequence[Order]]) -> list[str]:
            return [str(options[-1]) for options in legal.values() if options]

    game = Game.new(seed=1)
    writers: dict[str, Bot] = {p: Writer() for p in game.powers}
    result = self_play(writers, years=1, game=game)
    assert str(result.phase) == "S1902M" and len(game.history) >= 2
    assert all(not o.implied for o in game.history[0].outcomes)  # every unit was ordered
