"""The tournament: the games it plays, the table it prints, the command."""

from __future__ import annotations

import io
import re
import sys
from dataclasses import replace
from typing import Any

import pytest

from realpolitik import Game, parse_order
from realpolitik.bots import HeuristicBot, PowerView, make_bot
from realpolitik.bots.base import LegalOrders
from realpolitik.bots.tournament import Config, Trial, checked, play_trial, run, tabulate
from realpolitik.cli import main
from realpolitik.errors import BotError
from realpolitik.orders import Hold, Order


class Holding:
    """A bot of one's own, as a bot builder writes it: every unit holds."""

    name = "holding"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def orders(self, view: PowerView, legal: LegalOrders) -> list[Order]:
        return [o for options in legal.values() for o in options if isinstance(o, Hold)]


HOLDING = f"{__name__}:Holding"


def test_a_seat_is_compared_with_the_baseline_in_the_same_seat_and_seeds() -> None:
    # a budget the search spends far inside its time limit (about 11 ms of 400 a decision),
    # even on a loaded machine: a search cut short by the clock would play other orders in
    # the other process (seen once with 60, under a load of 14)
    config = Config(bot="search", seeds=2, years=1, seats=("ITALY",), jobs=2, strength=20)
    table = run(config)
    (row,) = table.rows
    assert row.seat == "ITALY"
    for k, seed in enumerate((1, 2)):
        assert row.bot[k] == play_trial(config, "ITALY", seed).centres["ITALY"]
        assert row.baseline[k] == play_trial(config, None, seed).centres["ITALY"]
    assert table.illegal == 0


def test_the_baseline_game_has_the_same_opponents() -> None:
    # a bot against itself is the baseline game again, seat for seat
    config = Config(bot="heuristic", seeds=1, years=2, seats=("RUSSIA",), jobs=1)
    assert play_trial(config, "RUSSIA", 1).centres == play_trial(config, None, 1).centres


def test_table_means_intervals_and_ratio() -> None:
    config = Config(seeds=3, seats=("FRANCE",))
    results = [Trial(None, s, {"FRANCE": 4}, (), 0) for s in (1, 2, 3)] + [
        Trial("FRANCE", s, {"FRANCE": n}, (), 0) for s, n in ((1, 6), (2, 8), (3, 10))
    ]
    table = tabulate(config, ("FRANCE",), results)
    assert table.ratio() == pytest.approx(2.0)
    text = table.render()
    # mean 8, sd 2, t(2) = 4.30: 8 ± 4.97
    assert re.search(r"FRANCE\s+8\.00 \[ 3\.03, 12\.97\]\s+4\.00 \[ 4\.00,  4\.00\]\s+2\.00", text)
    low, high = table.ratio_interval()
    assert 1.5 <= low <= 2.0 <= high <= 2.5
    assert "illegal orders: 0" in text


def test_an_interval_stops_at_no_centres() -> None:
    config = Config(seeds=3, seats=("FRANCE",))
    results = [Trial(None, s, {"FRANCE": n}, (), 0) for s, n in ((1, 0), (2, 0), (3, 3))]
    results += [Trial("FRANCE", s, {"FRANCE": 5}, (), 0) for s in (1, 2, 3)]
    text = tabulate(config, ("FRANCE",), results).render()
    # baseline: mean 1, sd 1.73, t(2) = 4.30: 1 - 4.30 would be below no centres at all
    assert re.search(r"FRANCE\s+5\.00 \[ 5\.00,  5\.00\]\s+1\.00 \[ 0\.00,  5\.30\]", text), text


@pytest.mark.parametrize(
    ("edition", "players", "most"),
    [("classic", None, 34), ("grow", 3, 16), ("conquista", None, 36)],
)
def test_an_interval_stops_at_the_boards_centres(edition: str, players: int | None, most: int):
    """A few seeds and a wide t: the interval's top was written past every centre of the
    board (mean 11.33, sd 19.63, t(2) = 4.30: up to 60.0 of classic's 34). It stops at the
    table's board's centres: 34, 16 on grow's three-player board, 36 in conquista."""
    seat = "ENGLAND"
    config = Config(seeds=3, seats=(seat,), edition=edition, players=players)
    results = [Trial(None, s, {seat: 4}, (), 0) for s in (1, 2, 3)]
    results += [Trial(seat, s, {seat: n}, (), 0) for s, n in ((1, 0), (2, 0), (3, most))]
    lines = tabulate(config, (seat,), results).render().splitlines()
    mean = most / 3
    row = next(line for line in lines if line.startswith(seat))
    assert re.match(rf"{seat}\s+{mean:5.2f} \[ 0\.00, {most:5.2f}\]\s+4\.00", row), row
    every = next(line for line in lines if line.startswith("all"))
    assert f"[ 0.00, {most:5.2f}]" in every, every


def test_a_seat_whose_baseline_ends_with_no_centres_has_no_ratio_of_billions() -> None:
    """A baseline bot wiped out in its seat (a mean of 0 centres): the ratio is infinite,
    written ``inf`` in its column; both at 0: no ratio, ``-``. It was divided by 1e-9 and
    written ``20000000000.00``, which pushed the wins out of their column."""
    seats = ("FRANCE", "ITALY", "RUSSIA")
    config = Config(seeds=1, seats=seats)
    results = [Trial(None, 1, {"FRANCE": 0, "ITALY": 0, "RUSSIA": 4}, (), 0)]
    results += [Trial("FRANCE", 1, {"FRANCE": 20, "ITALY": 0, "RUSSIA": 1}, ("FRANCE",), 0)]
    results += [Trial("ITALY", 1, {"FRANCE": 5, "ITALY": 0, "RUSSIA": 3}, (), 0)]
    results += [Trial("RUSSIA", 1, {"FRANCE": 5, "ITALY": 0, "RUSSIA": 6}, (), 0)]
    lines = tabulate(config, seats, results).render().splitlines()
    france, italy, russia = lines[3:6]
    assert re.fullmatch(r"FRANCE\s+20\.00\s+0\.00\s+inf\s+1/0", france), france
    assert re.fullmatch(r"ITALY\s+0\.00\s+0\.00\s+-\s+0/0", italy), italy
    assert re.fullmatch(r"RUSSIA\s+6\.00\s+4\.00\s+1\.50\s+0/0", russia), russia
    # the columns stay where a seat with a ratio has them
    assert france.index("/") == italy.index("/") == russia.index("/")


def test_one_seed_gives_the_ratio_without_an_interval() -> None:
    """With one seed per seat there is nothing to resample: the bootstrap said "95% CI
    [1.00, 1.00]" of any ratio, certainty from one game a seat (a seat's row already
    gives its one game's centres without an interval)."""
    config = Config(seeds=1, seats=("FRANCE", "ITALY"))
    results = [Trial(None, 1, {"FRANCE": 4, "ITALY": 5}, (), 0)]
    results += [Trial("FRANCE", 1, {"FRANCE": 6, "ITALY": 5}, (), 0)]
    results += [Trial("ITALY", 1, {"FRANCE": 4, "ITALY": 3}, (), 0)]
    lines = tabulate(config, ("FRANCE", "ITALY"), results).render().splitlines()
    assert "ratio of the means: 1.00 (one seed per seat: no interval)" in lines


def test_the_command_prints_the_table() -> None:
    out = io.StringIO()
    argv = ["tournament", "--seeds", "1", "--years", "1", "--seats", "england",
            "--jobs", "2", "--quiet"]  # fmt: skip
    assert main(argv, stdout=out) == 0
    text = out.getvalue()
    assert "search vs heuristic: classic, 1 seed per seat, 1 year\n" in text
    assert re.search(r"^ENGLAND\s+\d", text, re.M)
    assert "illegal orders: 0" in text
    assert re.search(
        r"^search: \d+ decisions, [\d.]+ m?s on average, the slowest [\d.]+ m?s, \d+ over 1 s$",
        text,
        re.M,
    )


def test_the_command_plays_a_table_named_by_its_setup() -> None:
    """Grow's two-player table is an extra, named by its setup: ``--players 2`` is refused
    with "setup 2-extra", which the tournament did not take (nor 1971's or conquista's
    3b, the second table of three)."""
    out = io.StringIO()
    argv = ["tournament", "--edition", "grow", "--setup", "2-extra", "--bot", "random",
            "--baseline", "random", "--seeds", "1", "--years", "1", "--jobs", "1",
            "--quiet"]  # fmt: skip
    assert main(argv, stdout=out) == 0
    text = out.getvalue()
    assert text.startswith("random vs random: grow (table 2-extra), 1 seed per seat, 1 year\n")
    seats = re.findall(r"^([A-Z]+) ", text, re.M)
    assert seats == ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
    table = run(Config(bot="random", baseline="random", seeds=1, years=1, edition="conquista",
                       setup="3b", jobs=1))  # fmt: skip
    assert "ITALY" not in [r.seat for r in table.rows]  # 3b: Italy left out


def test_a_fast_bots_time_is_not_written_as_nothing() -> None:
    """A random bot decides in microseconds: its times are written in milliseconds, where
    seconds would say ``0.000 s``."""
    config = Config(seeds=1, seats=("FRANCE",), bot="random")
    results = [Trial("FRANCE", 1, {"FRANCE": 4}, (), 0, 3, 0.00006, 0.00004, 0)]
    results += [Trial(None, 1, {"FRANCE": 5}, (), 0)]
    text = tabulate(config, ("FRANCE",), results).render()
    assert "random: 3 decisions, 0.02 ms on average, the slowest 0.04 ms, 0 over 1 s" in text
    one = [Trial("FRANCE", 1, {"FRANCE": 4}, (), 0, 1, 0.00004, 0.00004, 0), results[1]]
    text = tabulate(config, ("FRANCE",), one).render()  # English's singular, as the seeds'
    assert "random: 1 decision, 0.04 ms on average, the slowest 0.04 ms, 0 over 1 s" in text


def test_bad_configurations() -> None:
    with pytest.raises(ValueError, match="unknown seat ATLANTIS;"):
        run(Config(seeds=1, seats=("ATLANTIS",)))
    with pytest.raises(ValueError, match="unknown seats ATLANTIS, MU;"):
        run(Config(seeds=1, seats=("ATLANTIS", "MU")))
    with pytest.raises(ValueError, match="seeds"):
        run(Config(seeds=0))
    with pytest.raises(ValueError, match="years"):
        run(Config(years=0))
    with pytest.raises(ValueError, match="jobs"):
        run(Config(jobs=0))
    # the search bot's budget, with no search bot: the table's title said "strength 5"
    said = "strength is the search bot's budget, and neither heuristic nor random is it"
    with pytest.raises(ValueError, match=said):
        run(Config(bot="heuristic", baseline="random", strength=5))
    # Python's "'<' not supported" or "'float' object cannot be interpreted as an integer"
    wrongs: list[tuple[dict[str, Any], str]] = [
        ({"seeds": "2"}, "seeds must be a whole number from 1, not '2'"),
        ({"years": None}, "years must be a whole number from 1, not None"),
        ({"jobs": 1.5}, "jobs must be a whole number from 1, not 1.5"),
    ]
    for wrong, said in wrongs:
        with pytest.raises(ValueError, match=re.escape(said)):
            run(Config(**wrong))


def test_the_seats_are_the_powers_someone_plays_at_the_table() -> None:
    """Five players of classic: Italy and Germany are played by nobody (their units hold
    all game). The bot gave no order there, and its row (its centres the baseline's)
    pulled the ratio of the means towards 1; named, such a seat is refused."""
    config = Config(bot="random", baseline="random", seeds=1, years=1, players=5, jobs=1)
    table = run(config)
    assert [r.seat for r in table.rows] == ["AUSTRIA", "ENGLAND", "FRANCE", "RUSSIA", "TURKEY"]
    with pytest.raises(ValueError, match="seat ITALY is played by nobody at this table; seats: "
                       "AUSTRIA, ENGLAND, FRANCE, RUSSIA, TURKEY"):  # fmt: skip
        run(replace(config, seats=("ITALY", "FRANCE")))
    # two players: Italy is neutral until the coin toss gives it to one of them: a seat
    two = run(replace(config, players=2, seats=("ITALY",)))
    assert [r.seat for r in two.rows] == ["ITALY"]


def test_a_seat_named_twice_is_played_once() -> None:
    """``--seats FRANCE,france``: each game of the seat was played twice and counted in
    two rows, each row's interval taking the copies for other games (n = 4 from 2
    seeds: narrower than the games say)."""
    config = Config(bot="heuristic", baseline="random", seeds=2, years=1, jobs=1)
    twice = run(replace(config, seats=("FRANCE", "FRANCE")))
    once = run(replace(config, seats=("FRANCE",)))
    assert twice.rows == once.rows and len(once.rows[0].bot) == 2
    assert twice.decisions == once.decisions


def test_a_bot_of_ones_own_plays_by_its_module_and_name() -> None:
    config = Config(bot=HOLDING, baseline="random", seeds=2, years=1, seats=("RUSSIA",), jobs=2)
    table = run(config)
    assert table.illegal == 0 and table.decisions == 4  # 2 games, 2 movement phases
    (row,) = table.rows
    # holding, nothing is built: Russia keeps its 4 home centres at most
    assert all(n <= 4 for n in row.bot)
    assert row.bot == tuple(play_trial(config, "RUSSIA", s).centres["RUSSIA"] for s in (1, 2))
    header = table.render().splitlines()[2]
    assert header.split() == ["seat", f"{HOLDING}", "centres", "random", "centres", "ratio", "wins"]
    with pytest.raises(ValueError, match="bot 'nowhere:Bot': no module 'nowhere'"):
        run(Config(bot="nowhere:Bot", seeds=1))


def test_the_command_takes_a_bot_from_the_current_folder(tmp_path, monkeypatch, capsys) -> None:
    (tmp_path / "mybots.py").write_text(
        "from realpolitik.orders import Hold\n"
        "class Holder:\n"
        "    name = 'holder'\n"
        "    def __init__(self, seed=None): pass\n"
        "    def orders(self, view, legal):\n"
        "        return [o for os in legal.values() for o in os if isinstance(o, Hold)]\n",
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.path", [p for p in sys.path if p not in ("", str(tmp_path))])
    out = io.StringIO()
    argv = ["tournament", "--bot", "mybots:Holder", "--seeds", "1", "--years", "1",
            "--seats", "turkey", "--jobs", "1", "--quiet"]  # fmt: skip
    assert main(argv, stdout=out) == 0
    assert "mybots:Holder vs heuristic" in out.getvalue()
    assert "illegal orders: 0" in out.getvalue()
    with pytest.raises(SystemExit) as exited:
        main(["tournament", "--bot", "mybots:Nobody", "--seeds", "1"])
    assert exited.value.code == 2
    assert "module 'mybots' has no class or function 'Nobody'" in capsys.readouterr().err
    sys.modules.pop("mybots", None)


class Sloppy:
    """A bot with a builder's mistakes: the heuristic bot's moves and a second order for
    each unit, and in adjustments every build site and a waive, whatever is due."""

    name = "sloppy"

    def __init__(self, seed: int | None = None) -> None:
        self.heuristic = HeuristicBot(seed)

    def orders(self, view: PowerView, legal: LegalOrders) -> list[Order]:
        if view.phase.is_adjustments:
            return [options[0] for options in legal.values() if options]
        return [*self.heuristic.orders(view, legal), *(o[0] for o in legal.values() if o)]


def test_a_bots_illegal_orders_are_counted_and_dropped() -> None:
    config = Config(bot=f"{__name__}:Sloppy", baseline="heuristic", seeds=1, years=2,
                    seats=("RUSSIA",), jobs=1)  # fmt: skip
    said: list[str] = []
    result = play_trial(config, "RUSSIA", 1, said.append)  # before: "a second order for MOS"
    assert said[0] == (
        "illegal orders of RUSSIA in S1901M: A MOS H (a second order), F SEV H (a second "
        "order), F STP/SC H (a second order), A WAR H (a second order)"
    )
    assert said[2] == (
        "illegal orders of RUSSIA in W1901A: A SEV B (only 1 adjustment due), A STP B "
        "(only 1 adjustment due), WAIVE (only 1 adjustment due), A WAR B (only 1 "
        "adjustment due)"
    )  # the first build, A MOS B, is kept
    assert "W1902A: F FIN D (only 1 adjustment due)" in said[5]
    assert len(said) == 6 and result.illegal == 4 + 4 + 4 + 5 + 5 + 4


def test_the_exit_status_of_illegal_orders_is_in_the_help(capsys) -> None:
    """A tournament in which a bot gave an illegal order exits with status 1 (its table is
    printed all the same); neither ``--help`` nor the README said so."""
    argv = ["tournament", "--bot", f"{__name__}:Sloppy", "--baseline", "random", "--seeds",
            "1", "--years", "1", "--seats", "RUSSIA", "--jobs", "1", "--quiet"]  # fmt: skip
    out = io.StringIO()
    assert main(argv, stdout=out) == 1
    assert "illegal orders: " in out.getvalue() and "illegal orders: 0" not in out.getvalue()
    with pytest.raises(SystemExit):
        main(["tournament", "--help"])
    said = " ".join(capsys.readouterr().out.split())
    assert "Exit status 1 if a bot gave an illegal order (counted and dropped)." in said


class Writing:
    """A bot that writes its orders as text, as ``Game.submit`` and self-play take them
    (a bot ported from the MILA package's string orders): the random bot's, as text."""

    name = "writing"

    def __init__(self, seed: int | None = None) -> None:
        self.random = make_bot("random", seed=seed)

    def orders(self, view: PowerView, legal: LegalOrders) -> list[str]:
        return [str(o).lower() for o in self.random.orders(view, legal)]


def test_a_bots_orders_as_text_are_read_as_the_game_reads_them() -> None:
    """The tournament counted every text order as 'not a legal order' and dropped it,
    though self-play and ``Game.submit`` take them: a text bot played the baseline's game
    of a bot whose units all hold."""
    config = Config(bot=f"{__name__}:Writing", baseline="random", seeds=1, years=2,
                    seats=("FRANCE",), jobs=1)  # fmt: skip
    said: list[str] = []
    result = play_trial(config, "FRANCE", 1, said.append)
    assert result.illegal == 0 and said == []
    texts = replace(config, bot="random")  # the same orders, given as values
    assert result.centres == play_trial(texts, "FRANCE", 1).centres


class Misspelling:
    """A bot whose text is not an order, or an order the board forbids."""

    name = "misspelling"

    def __init__(self, seed: int | None = None) -> None:
        pass

    def orders(self, view: PowerView, legal: LegalOrders) -> list[str]:
        return ["A PAR - XXX", "A MAR - MUN", "F BRE H"] if view.phase.is_movement else []


def test_a_bots_text_that_is_no_legal_order_is_counted_with_the_reason() -> None:
    config = Config(bot=f"{__name__}:Misspelling", baseline="random", seeds=1, years=1,
                    seats=("FRANCE",), jobs=1)  # fmt: skip
    said: list[str] = []
    result = play_trial(config, "FRANCE", 1, said.append)
    assert said[0] == (
        'illegal orders of FRANCE in S1901M: A PAR - XXX (unknown word "xxx" in order '
        '"A PAR - XXX"), A MAR - MUN (the army in Marseilles cannot reach Munich '
        '("A MAR - MUN"))'
    )
    assert result.illegal == 4


def test_a_legal_order_in_another_spelling_than_the_listings_is_legal() -> None:
    """The legal listing writes one spelling of an order: ``A LON - BEL VIA`` for the army's
    move by convoy, a support naming the province (``F GAS S F MAO - SPA``). The game, the
    adjudicator and the server take ``A LON - BEL`` and ``F GAS S F MAO - SPA/NC`` too; the
    tournament counted them illegal and dropped them (a bot's convoy lost, exit status
    1). A second order for the unit, or an order the rules refuse, is still counted."""
    position = {"units": {"ENGLAND": ["A LON", "F NTH"], "FRANCE": ["F MAO", "F GAS"]},
                "centers": {"ENGLAND": ["LON"], "FRANCE": ["BRE"]}}  # fmt: skip
    game = Game.from_position(position, "S1901M", seed=1)
    legal = game.legal_orders("ENGLAND")["ENGLAND"]
    move = parse_order("A LON - BEL", game_map=game.game_map)
    kept, bad = checked(game, "ENGLAND", legal, [move, "F NTH C A LON - BEL"])
    assert [str(o) for o in kept] == ["A LON - BEL", "F NTH C A LON - BEL"] and bad == []
    kept, bad = checked(game, "ENGLAND", legal, ["A LON - BEL", "A LON H", "F NTH - MOS"])
    assert [str(o) for o in kept] == ["A LON - BEL"]
    assert bad[0] == "A LON H (a second order)"
    assert bad[1].startswith("F NTH - MOS (") and len(bad) == 2
    legal = game.legal_orders("FRANCE")["FRANCE"]
    kept, bad = checked(game, "FRANCE", legal, ["F GAS S F MAO - SPA/NC", "F MAO - SPA/NC"])
    assert [str(o) for o in kept] == ["F GAS S F MAO - SPA/NC", "F MAO - SPA/NC"] and not bad
    kept, bad = checked(game, "FRANCE", legal, ["F MAO - SPA"])  # which coast: illegal
    assert kept == [] and bad[0].startswith("F MAO - SPA (")


class Failing:
    """A bot with a bug."""

    name = "failing"

    def __init__(self, seed: int | None = None) -> None:
        pass

    def orders(self, view: PowerView, legal: LegalOrders) -> list[Order]:
        return [next(iter(legal)).index("X")]  # type: ignore[list-item]


def test_a_bots_error_says_which_bot_power_phase_and_game(capsys) -> None:
    """A bot's exception came without a word of where: which of the seven bots, in which
    game and phase; and the command printed a bot's ValueError as one line, without the
    builder's traceback ("realpolitik: error: substring not found")."""
    config = Config(bot=f"{__name__}:Failing", seeds=1, years=1, seats=("ITALY",), jobs=1)
    with pytest.raises(BotError) as raised:
        play_trial(config, "ITALY", 3)
    assert str(raised.value) == (
        "the bot 'failing' failed writing ITALY's orders for S1901M (game seed 3): "
        "ValueError: substring not found"
    )
    assert isinstance(raised.value.__cause__, ValueError)  # the bot's own, its traceback
    for jobs in ("1", "2"):
        argv = ["tournament", "--bot", f"{__name__}:Failing", "--seeds", "1", "--years", "1",
                "--seats", "ITALY", "--jobs", jobs, "--quiet"]  # fmt: skip
        assert main(argv, stdout=io.StringIO()) == 2
        err = capsys.readouterr().err
        assert 'in orders\n    return [next(iter(legal)).index("X")]' in err  # the bot's line
        assert err.splitlines()[-1] == (
            "realpolitik: error: the bot 'failing' failed writing ITALY's orders for S1901M "
            "(game seed 1): ValueError: substring not found"
        )


class Forgetful:
    """A bot that forgets to return its orders."""

    name = "forgetful"

    def __init__(self, seed: int | None = None) -> None:
        pass

    def orders(self, view: PowerView, legal: LegalOrders) -> None:
        legal.values()


def test_a_bot_that_gives_no_list_is_told_so() -> None:
    """It was Python's "'NoneType' object is not iterable" from inside the tournament."""
    config = Config(bot=f"{__name__}:Forgetful", seeds=1, years=1, seats=("ITALY",), jobs=1)
    with pytest.raises(BotError, match=re.escape(
        "the bot 'forgetful' gave ITALY's orders for S1901M (game seed 1) as None, not a "
        "list of orders"
    )):  # fmt: skip
        play_trial(config, "ITALY", 1)


def test_the_command_says_which_orders_were_illegal(capsys) -> None:
    """The command counted illegal orders ('illegal orders: 17', exit status 1) but never
    said which: only a caller of ``play`` itself heard them."""
    argv = ["tournament", "--bot", f"{__name__}:Sloppy", "--baseline", "random", "--seeds",
            "1", "--years", "1", "--seats", "RUSSIA", "--jobs", "2"]  # fmt: skip
    assert main(argv, stdout=io.StringIO()) == 1
    err = capsys.readouterr().err.splitlines()
    assert err[1] == "[2/2] RUSSIA seed 1: " + err[1].split(": ", 1)[1]
    assert err[2].startswith("  illegal orders of RUSSIA in S1901M: A MOS H (a second order)")
    assert err[3].startswith("  illegal orders of RUSSIA in F1901M: ")
