"""The legend beside the map (:mod:`realpolitik.render.legend`)."""

from __future__ import annotations

import re

import pytest

from realpolitik.game import Game
from realpolitik.game.victory import Alliance
from realpolitik.phase import Phase
from realpolitik.render.legend import legend_svg
from realpolitik.render.words import Words

ALLIANCE_LETTERS = 22
"""The most letters of an alliance's line that stay clear of its centres' count (bold 12 px
text, from the legend's left margin to the count's column)."""


@pytest.mark.parametrize("language", ["en", "es", "fr", "pt"])
def test_an_alliance_of_three_is_written_clear_of_its_count(language: str) -> None:
    """Three members' names ran into the centres' count after them ("Austria + Alemania +
    Rusia18"): the names are cut into lines, every member named, the count on the first."""
    game = Game.new(edition="conquista", seed=1)
    members = ("AUSTRIA", "GERMANY", "RUSSIA")
    alliance = Alliance(members, Phase.parse("F1924M"))
    words = Words(language, game_map=game.game_map)
    svg = legend_svg(
        game.game_map, game.position, game.phase, [], x=0, height=1400, words=words,
        alliances=[alliance],
    )  # fmt: skip
    lines = re.findall(r'<text[^>]*class="alliance"[^>]*>([^<]*)</text>', svg)
    assert all(len(line) <= ALLIANCE_LETTERS for line in lines), lines
    assert " ".join(lines).split(" + ") == [words.power(p) for p in members]
    count = sum(len(game.position.centers_of(p)) for p in members)
    assert re.search(rf'class="alliance"[^>]*>[^<]*</text>\s*<text[^>]*>{count}</text>', svg)
