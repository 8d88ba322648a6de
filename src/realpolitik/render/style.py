"""Colours and sizes of the map picture.

The powers' colours are those of the 2000 rulebook's table (seed 000): Austria red, England
dark blue, France light blue, Germany black, Italy green, Russia white, Turkey yellow;
Italy's a dark green, which a player without green cones tells from Austria's red (the
rulebook's mid green was the same olive to them). Powers of other variants get colours
from a spare list, in order.
"""

from __future__ import annotations

from collections.abc import Sequence

from realpolitik.vocab import Power

POWER_COLOURS: dict[Power, str] = {
    "AUSTRIA": "#c8202f",
    "ENGLAND": "#1d3f91",
    "FRANCE": "#63aee8",
    "GERMANY": "#262626",
    "ITALY": "#1f6e2b",
    "RUSSIA": "#ffffff",
    "TURKEY": "#f3c51c",
}
SPARE_COLOURS = ("#8e44ad", "#e67e22", "#16a085", "#7f5539", "#d35d9b", "#5d6d7e")

# The land tints of the powers' provinces, each of its power's hue, chosen to be told apart
# at a glance: every pair at least 25 apart in CIELAB and each at least 12 from the land,
# sea and out-of-play grounds, and every pair at least 12 apart as a colour-blind player
# sees them (tests/test_render_style.py). England's is a clear blue, not blue-grey, so that
# it is not Germany's grey; France's a sky blue lighter than England's; Russia's (white)
# lavender and Germany's (black) mid grey, seen under their units. Austria's red is darker
# than Italy's green (without green cones both are brown: they differ in lightness), and
# France's sky blue darker than Russia's lavender (without red cones, both pale blues).
POWER_TINTS: dict[Power, str] = {
    "AUSTRIA": "#d98a7f",
    "ENGLAND": "#7f8fd8",
    "FRANCE": "#66bddf",
    "GERMANY": "#8c8c8c",
    "ITALY": "#acd492",
    "RUSSIA": "#e3d5f4",
    "TURKEY": "#f2d77e",
}

LAND = "#efe5cb"
SEA = "#b7d2e8"
LAKE = "#c3dbee"
ISLAND = "#ddd3b8"
UNNAMED = "#d9d3c4"
IMPASSABLE = "#bdb6a6"
INACTIVE = "#d2cec4"
BORDER = "#7a6a52"
COAST = "#5b6f80"
SEA_BORDER = "#8db0cc"
TEXT = "#3a2f1d"
SEA_TEXT = "#2b5c86"
FAIL = "#d0021b"
HALO = "#fbf8f0"
INK = "#161616"


def power_colour(power: Power, powers: Sequence[Power] = ()) -> str:
    """The colour of ``power`` (a spare one, by its place in ``powers``, if it has none)."""
    found = POWER_COLOURS.get(power.upper())
    if found is not None:
        return found
    index = list(powers).index(power) if power in powers else abs(hash(power))
    return SPARE_COLOURS[index % len(SPARE_COLOURS)]


def _rgb(colour: str) -> tuple[int, int, int]:
    value = colour.lstrip("#")
    return int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16)


def mix(colour: str, other: str, amount: float) -> str:
    """``amount`` of ``colour`` blended into ``other`` (0: other, 1: colour)."""
    a, b = _rgb(colour), _rgb(other)
    out = (round(x * amount + y * (1 - amount)) for x, y in zip(a, b, strict=True))
    return "#" + "".join(f"{v:02x}" for v in out)


def is_light(colour: str) -> bool:
    r, g, b = _rgb(colour)
    return 0.299 * r + 0.587 * g + 0.114 * b > 150


def contrast(colour: str) -> str:
    """Ink for marks drawn on ``colour`` (black on light colours, white on dark ones)."""
    return INK if is_light(colour) else "#ffffff"


def tint(colour: str) -> str:
    """The pale land tint of ``colour`` (a power's without one in ``POWER_TINTS``)."""
    if colour.lower() == "#ffffff":
        return "#fbfaf6"
    amount = 0.3 if is_light(colour) else 0.38
    return mix(colour, LAND, amount)


def power_tint(power: Power, powers: Sequence[Power] = ()) -> str:
    """The land tint of ``power``'s provinces (of its spare colour, if it has none)."""
    found = POWER_TINTS.get(power.upper())
    return found if found is not None else tint(power_colour(power, powers))
