"""PNG export, the flip-book of a whole game, order sheets and the map pad."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from realpolitik import Position, SituationError, load_map
from realpolitik.formats.replay import load_game_record
from realpolitik.render import render
from realpolitik.render.flipbook import flipbook_html
from realpolitik.render.frames import frame_from_situation, frames_from_json, frames_from_record
from realpolitik.render.png import svg_to_png
from realpolitik.render.sheets import map_pad, order_sheet, order_sheets

NS = "{http://www.w3.org/2000/svg}"


def test_png_export() -> None:
    pytest.importorskip("resvg_py")
    png = svg_to_png(render(Position.initial(load_map("standard"))))
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    width = int.from_bytes(png[16:20], "big")
    assert width == 1851
    double = svg_to_png('<svg xmlns="http://www.w3.org/2000/svg" width="4" height="3"/>', scale=2)
    assert int.from_bytes(double[16:20], "big") == 8


def test_frames_of_the_example_game_chain_phase_to_phase() -> None:
    frames = frames_from_record(load_game_record("classic_1901_1902"))
    phases = [str(f.phase) for f in frames]
    assert phases == [
        "S1901M", "F1901M", "W1901A", "S1902M", "F1902M", "F1902R", "W1902A", "S1903M"
    ]  # fmt: skip
    assert frames[-1].resolution is None
    assert frames[5].position.dislodged  # the retreat phase starts with dislodged units


def test_frames_of_a_saved_game() -> None:
    from realpolitik.formats.savegame import game_to_json
    from realpolitik.game import Game

    game = Game.new(seed=1)
    game.submit("FRANCE", ["A PAR - BUR"])
    game.process()
    frames = frames_from_json(game_to_json(game))
    assert [str(f.phase) for f in frames] == ["S1901M", "F1901M"]
    assert frames[0].resolution is not None
    assert "FRANCE" in frames[0].orders


def test_flipbook_has_every_phase() -> None:
    frames = frames_from_record(load_game_record("grow_1901_1902"))
    html = flipbook_html(frames, title="Grow example")
    sections = re.findall(r'<section class="frame" id="([^"]+)"', html)
    assert sections == [str(f.phase) for f in frames]
    for svg in re.findall(r"<svg .*?</svg>", html, flags=re.S):
        ET.fromstring(svg)
    ids = re.findall(r' id="([^"]+)"', html)
    assert len(ids) == len(set(ids))
    with pytest.raises(ValueError):
        flipbook_html([])


def test_a_flipbook_in_another_language_says_its_own_words() -> None:
    """A flip-book in Portuguese said "(now)", "previous phase" and lang="en" around its
    Portuguese maps."""
    frames = frames_from_record(load_game_record("classic_1901_1902"))
    html = flipbook_html(frames[-2:], title="jogo", language="pt")
    assert '<html lang="pt">' in html
    assert "(agora)</option>" in html and 'title="fase anterior (←)"' in html
    assert "(now)" not in html and "previous phase" not in html and "next phase" not in html
    english = flipbook_html(frames[-1:])
    assert '<html lang="en">' in english and "(now)</option>" in english


def test_situation_frame_is_adjudicated() -> None:
    frame = frame_from_situation(
        {
            "phase": "S1901M",
            "units": {"ENGLAND": ["F NTH", "A LON"], "FRANCE": ["A BEL"]},
            "orders": {"ENGLAND": ["F NTH C A LON - BEL", "A LON - BEL"]},
        }
    )
    assert frame.resolution is not None
    results = {str(o.order): o.result.value for o in frame.resolution.outcomes}
    assert results["A LON - BEL"] == "fails"


def test_a_situation_picture_refuses_dislodged_units_outside_a_retreat_phase() -> None:
    """As ``realpolitik adjudicate`` does: the movement phase would not draw them."""
    situation = {
        "phase": "F1901M",
        "units": {"FRANCE": ["A BUR"]},
        "dislodged": {"GERMANY": [{"unit": "A MUN", "attacker_from": "BUR"}]},
    }
    with pytest.raises(SituationError, match=r"dislodged units \(A MUN\) given in F1901M"):
        frame_from_situation(situation)


def test_order_sheet() -> None:
    game_map = load_map("standard")
    sheet = order_sheet("france", position=Position.initial(game_map), year=1901)
    root = ET.fromstring(sheet)
    texts = [e.text for e in root.iter(f"{NS}text")]
    assert "France" in texts and "Year 1901" in texts
    assert {"A PAR", "A MAR", "F BRE"} <= set(texts)
    assert "17." in texts
    assert set(order_sheets()) == set(game_map.powers)
    with pytest.raises(ValueError):
        order_sheet("ATLANTIS")


def _sheet_headings(sheet: str) -> list[str]:
    root = ET.fromstring(sheet)
    return [e.text or "" for e in root.iter(f"{NS}text") if e.get("font-weight") == "bold"]


@pytest.mark.parametrize(
    ("edition", "year", "headings"),
    [
        (None, None, ["SPRING", "FALL", "RETREATS", "WINTER ADJUSTMENTS"]),
        ("1971", 1901, ["SPRING", "FALL", "RETREATS", "WINTER ADJUSTMENTS"]),
        ("grow", 1901, ["WINTER", "SUMMER", "RETREATS", "SUMMER ADJUSTMENTS"]),
        ("conquista", 1915, ["SPRING", "FALL", "SPRING REINFORCEMENTS"]),
    ],
)
def test_an_order_sheet_has_its_edition_s_year(
    edition: str | None, year: int | None, headings: list[str]
) -> None:
    """Every sheet had classic's year: Spring, Fall, retreats and winter adjustments, on a
    grow table (Winter and Summer turns, adjustments in Summer) and a conquista one (no
    retreats, reinforcements before the Spring turn) alike."""
    game_map = load_map("conquista" if edition == "conquista" else "standard")
    sheet = order_sheet("FRANCE", game_map=game_map, year=year, edition=edition)
    assert _sheet_headings(sheet)[2:] == headings  # after ORDER SHEET and France
    retreat_example = "A PAR R BUR  ·  A PAR D" in sheet
    assert retreat_example is ("RETREATS" in headings)


def test_map_pad_is_blank() -> None:
    root = ET.fromstring(map_pad())
    classes = [e.get("class", "") for e in root.iter()]
    assert not any("unit" in c.split() for c in classes)
    centres = [c for c in classes if c.startswith("center")]
    assert len(centres) == 34 and all("neutral" in c for c in centres)
