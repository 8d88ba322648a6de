"""The search bot: only legal orders in every edition and table (retreats, builds,
removals, Grow's Summer and Winter, Conquista's reinforcements), the right number of
adjustments, a time limit it keeps, and more centres than the heuristic bot in its seat."""

from __future__ import annotations

import math
import re
import time
from collections import Counter

import pytest

from realpolitik.bots import Bot, PowerView, SearchBot, make_bot
from realpolitik.bots.search import _Search
from realpolitik.bots.tournament import Config, play_trial
from realpolitik.bots.values import values
from realpolitik.game import Game
from realpolitik.game.editions import edition
from realpolitik.orders import Build, Disband, Move, Retreat, SupportHold, SupportMove, Waive

TABLES = [
    (name, setup.id, setup.players)
    for name in ("classic", "1971", "grow", "conquista")
    for setup in edition(name).setups
]


def _play_checked(game: Game, bots: dict[str, Bot], last_year: int, seen: Counter[str]) -> None:
    """Play ``game`` to the end of ``last_year``, checking every order the bots give."""
    while not game.is_over and game.phase.year <= last_year:
        due = game.builds_due()
        for power, legal in game.legal_orders().items():
            if not legal:
                continue
            view = PowerView(power, game.phase, game.position, game.game_map, game.rules)
            orders = bots[power].orders(view, legal)
            allowed = {o for options in legal.values() for o in options}
            assert [o for o in orders if o not in allowed] == [], (game.phase, power)
            units = [o.unit.province for o in orders if not isinstance(o, (Waive, str))]
            assert len(units) == len(set(units)), (game.phase, power, orders)
            if game.phase.is_adjustments and power in due:
                builds = sum(isinstance(o, Build | Waive) for o in orders)
                removals = sum(isinstance(o, Disband) for o in orders)
                assert builds <= max(due[power], 0), (game.phase, power, orders)
                assert removals == max(-due[power], 0), (game.phase, power, orders)
                seen["builds" if builds else "removals" if removals else "none"] += 1
            if game.phase.is_retreats:
                seen["retreats"] += any(isinstance(o, Retreat) for o in orders)
            if game.phase.is_movement:
                seen["supports"] += any(isinstance(o, SupportHold | SupportMove) for o in orders)
            game.submit(power, orders)
        game.process()


@pytest.mark.parametrize(("name", "setup", "players"), TABLES)
def test_only_legal_orders_in_every_edition_and_table(name: str, setup: str, players: int) -> None:
    wanted = {"builds", "supports"} | ({"retreats"} if name != "conquista" else set())
    seen: Counter[str] = Counter()
    for seed in (5, 6, 7, 8):  # until builds, supports and retreats were all played
        game = Game.new(edition=name, setup=setup, players=players, seed=seed)
        # search bots among random ones: the random bots lose units and centres, so that
        # retreats and removals come early
        bots: dict[str, Bot] = {
            p: make_bot("search" if k % 2 == 0 else "random", seed=seed + k, strength=40)
            for k, p in enumerate(game.powers)
        }
        _play_checked(game, bots, game.phase.year + 3, seen)
        if all(seen[kind] for kind in wanted):
            break
    # (no retreats in conquista: dislodged units are destroyed)
    assert all(seen[kind] for kind in wanted), seen


def test_conquista_reinforcements_come_in_spring() -> None:
    game = Game.new(edition="conquista", seed=3)
    bots: dict[str, Bot] = {p: SearchBot(k, strength=40) for k, p in enumerate(game.powers)}
    seen: Counter[str] = Counter()
    _play_checked(game, bots, game.phase.year + 1, seen)
    spring_builds = [
        r for r in game.history if r.phase.is_adjustments and r.phase.season.value == "S"
    ]
    assert spring_builds and any(
        isinstance(o.order, Build) for r in spring_builds for o in r.outcomes
    )


def test_the_time_limit_stops_the_search() -> None:
    game = Game.new(seed=1)
    legal = game.legal_orders("FRANCE")["FRANCE"]
    view = PowerView("FRANCE", game.phase, game.position, game.game_map, game.rules)
    bot = SearchBot(1, strength=10**9, time_limit=0.3)
    started = time.perf_counter()
    orders = bot.orders(view, legal)
    assert time.perf_counter() - started < 3.0  # 10**9 adjudications would take days
    assert len(orders) == 3


def test_bad_settings() -> None:
    with pytest.raises(ValueError, match="strength"):
        SearchBot(strength=-1)
    with pytest.raises(ValueError, match="time_limit"):
        SearchBot(time_limit=0)
    # Python's "'<=' not supported between 'str' and 'int'"; NaN was taken: no time limit
    for wrong in ("0.4", math.nan, math.inf, True):
        with pytest.raises(ValueError, match=re.escape(
            f"time_limit must be a positive number of seconds, not {wrong!r}"
        )):  # fmt: skip
            SearchBot(time_limit=wrong)  # type: ignore[arg-type]
    assert SearchBot(time_limit=None).time_limit is None  # no clock: the strength alone


def test_moves_towards_centres_in_spring_1901() -> None:
    game = Game.new(seed=1)
    legal = game.legal_orders("FRANCE")["FRANCE"]
    view = PowerView("FRANCE", game.phase, game.position, game.game_map, game.rules)
    orders = SearchBot(2).orders(view, legal)
    targets = {o.destination.split("/")[0] for o in orders if isinstance(o, Move)}
    assert targets & {"SPA", "POR", "BEL", "BUR", "PIC", "GAS", "MAO"}


def test_more_centres_than_the_heuristic_bot_in_the_same_seats() -> None:
    config = Config(bot="search", seeds=1, years=4, jobs=1)
    seats = ("AUSTRIA", "FRANCE", "ITALY", "TURKEY")
    base = play_trial(config, None, 1)
    ours = [play_trial(config, seat, 1) for seat in seats]
    assert all(r.illegal == 0 for r in [base, *ours])
    mine = sum(r.centres[seat] for r, seat in zip(ours, seats, strict=True))
    theirs = sum(base.centres[seat] for seat in seats)
    assert mine >= 1.3 * theirs, (mine, theirs)


def test_the_search_predicts_no_orders_for_powers_nobody_plays() -> None:
    """Their units only hold: a prediction of their orders would be a threat that is not
    there (Germany and Italy at a table of five)."""
    game = Game.new(players=5, seed=1)
    view = PowerView.of(game, "FRANCE")
    legal = game.legal_orders("FRANCE")["FRANCE"]
    search = _Search(
        SearchBot(seed=1), view, legal, values(game.game_map, game.position, "FRANCE"), math.inf
    )
    predicted = search._predict()
    assert {"GERMANY", "ITALY"} == game.unplayed()
    for prediction in predicted:
        assert set(prediction) == set(game.powers) - game.unplayed() - {"FRANCE"}
