"""The map's colours: every power's land tint is clearly apart from every other's and from
the grounds beside it (land, sea, out-of-play), on every board, and apart from every other's
to eyes that lack one kind of cone (colour-blind players)."""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET

import pytest

from realpolitik.game.game import Game
from realpolitik.maps import BOARDS, load_map
from realpolitik.render import render, style

# CIE76 distances in CIELAB: about 2.3 is just noticeable; 25 is plainly another colour
APART = 25.0
FROM_GROUND = 12.0
APART_COLOUR_BLIND = 12.0
UNITS_APART_COLOUR_BLIND = 15.0  # (a token is small: smaller differences are lost on it)

# How a dichromat sees linear RGB (Machado, Oliveira and Fernandes 2009, severity 1): without
# the long (protanopia), middle (deuteranopia) or short (tritanopia) wavelength cones
DICHROMATS = {
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}


def lab(colour: str) -> tuple[float, float, float]:
    """``#rrggbb`` (sRGB, D65) in CIELAB."""
    value = colour.lstrip("#")
    srgb = [int(value[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    r, g, b = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in srgb]
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def seen_by(colour: str, eyes: str) -> str:
    """``colour`` as a dichromat of the kind ``eyes`` sees it (see ``DICHROMATS``)."""
    value = colour.lstrip("#")
    srgb = [int(value[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    rgb = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in srgb]
    seen = [min(max(sum(m * c for m, c in zip(row, rgb, strict=True)), 0.0), 1.0)
            for row in DICHROMATS[eyes]]  # fmt: skip
    out = [12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055 for c in seen]
    return "#" + "".join(f"{round(c * 255):02x}" for c in out)


def distance(a: str, b: str) -> float:
    return float(sum((p - q) ** 2 for p, q in zip(lab(a), lab(b), strict=True)) ** 0.5)


def test_lab_of_known_colours() -> None:
    assert lab("#ffffff") == pytest.approx((100, 0, 0), abs=0.1)
    assert lab("#000000") == pytest.approx((0, 0, 0), abs=0.1)
    assert lab("#ff0000") == pytest.approx((53.2, 80.1, 67.2), abs=0.3)


@pytest.mark.parametrize("board", BOARDS)
def test_every_pair_of_land_tints_is_clearly_apart(board: str) -> None:
    powers = load_map(board).powers
    tints = {p: style.power_tint(p, powers) for p in powers}
    for a, b in itertools.combinations(powers, 2):
        gap = distance(tints[a], tints[b])
        assert gap >= APART, f"{board}: {a} {tints[a]} and {b} {tints[b]} only {gap:.1f} apart"
    grounds = [style.LAND, style.SEA, style.IMPASSABLE, style.INACTIVE, style.UNNAMED]
    for power, ground in itertools.product(powers, grounds):
        gap = distance(tints[power], ground)
        assert gap >= FROM_GROUND, f"{board}: {power} {tints[power]} near ground {ground}"


def test_dichromats_see_the_same_colours() -> None:
    assert seen_by("#ffffff", "deuteranopia") == "#ffffff"
    assert seen_by("#000000", "protanopia") == "#000000"
    assert distance(seen_by("#ff0000", "deuteranopia"), seen_by("#00a000", "deuteranopia")) < 25


@pytest.mark.parametrize("eyes", sorted(DICHROMATS))
@pytest.mark.parametrize("board", BOARDS)
def test_colour_blind_players_tell_every_pair_of_land_tints_apart(board: str, eyes: str) -> None:
    """Austria's red land and Italy's green, side by side on every board, were the same
    brown to a player without green cones (4.7 apart), France's sky blue and Russia's
    lavender the same to one without red cones (6.9): a player could not tell whose
    centres they were. The tints keep their hues, a little lighter or darker."""
    powers = load_map(board).powers
    tints = {p: style.power_tint(p, powers) for p in powers}
    for a, b in itertools.combinations(powers, 2):
        gap = distance(seen_by(tints[a], eyes), seen_by(tints[b], eyes))
        assert gap >= APART_COLOUR_BLIND, f"{board}, {eyes}: {a} and {b} only {gap:.1f} apart"


@pytest.mark.parametrize("eyes", sorted(DICHROMATS))
def test_colour_blind_players_tell_every_pair_of_units_apart(eyes: str) -> None:
    """Austria's red units and Italy's green, which meet at Trieste, Venice and Tyrolia,
    were 12 apart to a player without green cones (deuteranopia): the same olive on a
    small token. Italy's units are a darker green: every pair of the seven powers' unit
    colours is at least 15 apart as each kind of dichromat sees them."""
    colours = style.POWER_COLOURS
    for a, b in itertools.combinations(colours, 2):
        gap = distance(seen_by(colours[a], eyes), seen_by(colours[b], eyes))
        assert gap >= UNITS_APART_COLOUR_BLIND, f"{eyes}: {a} and {b} only {gap:.1f} apart"


def test_the_map_paints_each_power_s_centres_in_its_tint() -> None:
    game = Game.new(variant="standard", edition="classic", players=[f"p{k}" for k in range(7)])
    root = ET.fromstring(render(game.position, game_map=game.game_map))
    fills = {e.get("id"): e.get("fill") for e in root.iter() if "province" in e.get("class", "")}
    for pid, power in game.position.centers.items():
        assert fills[pid] == style.power_tint(power, game.game_map.powers), pid
