"""The pictures of a game's phases (:mod:`realpolitik.render.frames`)."""

from __future__ import annotations

from realpolitik.game import Game
from realpolitik.render.frames import frames_from_game
from tests.gamekit import won_by_france


def test_a_won_game_s_last_picture_is_the_phase_that_won_it() -> None:
    """A game won in a phase ends there: its last picture is that phase, its orders and
    results; the phase that would have come next, never played, was drawn as the game's
    present ("Primavera de 1927, Refuerzos" after a conquista alliance won in Fall 1926)."""
    won = won_by_france()
    assert won.is_over and str(won.phase) != "F1901M"
    frames = frames_from_game(won)
    assert [str(f.phase) for f in frames] == ["F1901M"]
    assert frames[-1].resolution is not None and frames[-1].position == won.history[-1].position


def test_a_game_drawn_before_its_phase_was_played_ends_on_that_phase() -> None:
    """A draw agreed in a phase not played: that phase, as it stands, is the last picture."""
    drawn = Game.new(seed=1)
    drawn.process()
    for power in drawn.voters():
        drawn.vote_draw(power)
    frames = frames_from_game(drawn)
    assert [str(f.phase) for f in frames] == ["S1901M", "F1901M"]
    assert frames[-1].resolution is None and frames[-1].position == drawn.position
