"""The server's order check (engine.judge_orders): every legal order of random games in every
edition passes, in every language; the illegal orders players meet are refused, each named,
with the reason in the player's language."""

from __future__ import annotations

import random

import pytest

from realpolitik.game import Game
from realpolitik.game.editions import EDITIONS
from realpolitik.server import engine


def classic() -> Game:
    return Game.new(
        variant="standard", edition="classic", players=[f"p{k}" for k in range(7)], seed=1
    )


@pytest.mark.parametrize("edition", list(EDITIONS))
def test_every_legal_order_of_random_games_passes(edition: str) -> None:
    rng = random.Random(edition)
    game = engine.new_game(variant="standard", edition=edition, seats=7, seed=3)
    checked = 0
    for _ in range(14):
        if game.is_over:
            break
        for power in engine.powers_to_act(game):
            options = engine.legal(game, power)
            chosen = [rng.choice(opts) for key, opts in options.items() if key != "WAIVE"]
            # one unit's every option alone, in one language; then a whole set of orders
            key = rng.choice(sorted(options))
            language = rng.choice(["en", "es", "fr", "pt"])
            for option in options[key]:
                text = engine.format_order(option, language, game)
                canonical, refused = engine.judge_orders(game, power, [text], language)
                assert not refused, (str(game.phase), power, text, refused)
                checked += 1
            if game.phase.kind.name == "ADJUSTMENTS":  # as many as are due
                chosen = chosen[: abs(game.builds_due().get(power, 0))]
            texts = [str(o) for o in chosen]
            canonical, refused = engine.judge_orders(game, power, texts, "en")
            assert not refused, (str(game.phase), power, refused)
            game.submit(power, canonical)
        game.process()
    assert checked > 100


@pytest.mark.parametrize(
    ("text", "language", "reason"),
    [
        ("A MOS - PAR", "en", "the army in Moscow cannot reach Paris"),
        ("F STP - NWY", "en", "the fleet in St Petersburg (south coast) cannot reach Norway"),
        ("F MOS - STP", "en", "the unit in Moscow is an army, not a fleet"),
        ("E Mos - Par", "es", "el ejército de Moscú no puede llegar a París"),
        ("A Mos - Par", "fr", "ne peut pas atteindre Paris"),
        ("A PAR - BUR", "en", "Paris"),
        ("A PRU - BER", "en", "there is no unit in Prussia"),
    ],
)
def test_illegal_orders_are_refused_with_the_reason(text: str, language: str, reason: str) -> None:
    canonical, refused = engine.judge_orders(classic(), "RUSSIA", [text], language, ["A WAR - PRU"])
    assert canonical == [] and [r["order"] for r in refused] == [text]
    assert reason in refused[0]["reason"], refused


def test_each_refused_order_is_named() -> None:
    texts = ["A MOS - PAR", "A WAR - PRU", "F STP - NWY", "F SEV - BLA"]
    _, refused = engine.judge_orders(classic(), "RUSSIA", texts, "en")
    assert [r["order"] for r in refused] == ["A MOS - PAR", "F STP - NWY"]


def test_a_good_order_is_completed_and_merged() -> None:
    canonical, refused = engine.judge_orders(
        classic(), "RUSSIA", ["F STP - BOT", "A MOS - UKR"], "en", ["A MOS H", "A WAR - PRU"]
    )
    assert not refused and canonical == ["A WAR - PRU", "F STP/SC - BOT", "A MOS - UKR"]


def test_a_build_is_checked_against_the_homes_and_the_count() -> None:
    game = classic()
    game.submit("GERMANY", ["F KIE - DEN", "A MUN - RUH", "A BER - KIE"])
    game.process()
    game.submit("GERMANY", ["A RUH - HOL", "F DEN H", "A KIE H"])
    game.process()
    assert str(game.phase) == "W1901A" and game.builds_due()["GERMANY"] == 2
    _, refused = engine.judge_orders(game, "GERMANY", ["A WAR B", "A SIL B"], "en")
    assert [r["order"] for r in refused] == ["A WAR B", "A SIL B"]
    assert "home" in refused[1]["reason"], refused
    _, refused = engine.judge_orders(game, "GERMANY", ["A BER B", "A MUN B", "WAIVE"], "en")
    assert [r["order"] for r in refused] == ["WAIVE"], refused
    canonical, refused = engine.judge_orders(game, "GERMANY", ["A BER B", "A MUN B"], "en")
    assert not refused and canonical == ["A BER B", "A MUN B"]


def test_conquista_supports_across_the_shore_are_judged_by_its_rule() -> None:
    """La Conquista: "Una flota en un mar puede apoyar a un ejército que ocupa un territorio
    adyacente a ese mar, y viceversa": the server's check reads supports by the game's rules
    (A BRE S F MAO given; A WAL S F ENG - MAO refused: Wales does not border the Atlantic)."""
    from tests.gamekit import at

    units = {"FRANCE": ["A BRE", "F MAO"], "ENGLAND": ["F ENG", "A WAL"]}
    game = at(Game.new(edition="conquista", seed=1), "S1914M", {"units": units})
    given, refused = engine.judge_orders(game, "FRANCE", ["A BRE S F MAO"], "en")
    assert given == ["A BRE S F MAO"] and not refused
    given, refused = engine.judge_orders(game, "ENGLAND", ["A WAL S F ENG - MAO"], "es")
    assert not given and len(refused) == 1
    assert "limítrofe" in refused[0]["reason"], refused
