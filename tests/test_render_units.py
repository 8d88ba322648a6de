"""Unit tokens: a unit being built (a ghost) stands out on its builder's own land."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from realpolitik import ARMY, FLEET, load_map
from realpolitik.render import style
from realpolitik.render.units import unit_token
from realpolitik.vocab import UnitType

# each power's colour and its land's: the standard powers', and a spare colour's
GROUNDS = [(style.power_colour(p), style.power_tint(p)) for p in load_map("standard").powers]
GROUNDS += [(colour, style.tint(colour)) for colour in style.SPARE_COLOURS]


def luminance(colour: str) -> float:
    """The relative luminance of an sRGB colour (WCAG 2)."""

    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    value = colour.lstrip("#")
    r, g, b = (linear(int(value[k : k + 2], 16) / 255) for k in (0, 2, 4))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    """The WCAG contrast ratio of two colours (1 to 21)."""
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_contrast_of_known_colours() -> None:
    assert contrast("#ffffff", "#000000") == pytest.approx(21)
    assert contrast("#777777", "#777777") == pytest.approx(1)


@pytest.mark.parametrize("unit_type", [ARMY, FLEET])
@pytest.mark.parametrize(("colour", "ground"), GROUNDS)
def test_a_ghost_stands_out_on_its_builder_s_land(
    unit_type: UnitType, colour: str, ground: str
) -> None:
    """A build is drawn where it will stand, on its builder's home centre: land of the
    builder's own hue. A ghost drawn three-quarters opaque with a dashed edge was hard to
    see there (France's light blue on light blue, Russia's white on lavender). It is opaque
    and set apart by an unbroken band round its body that contrasts with that land."""
    token = ET.fromstring(unit_token(unit_type, 0, 0, colour, ghost=True))
    assert all(float(e.get("opacity", 1)) == 1 for e in token.iter())
    body = next(token.iter("path"))
    assert body.get("fill") == colour and body.get("stroke-dasharray") is None
    band = float(body.get("stroke-width", 0))
    assert band >= 3 and contrast(body.get("stroke", ""), ground) >= 4.5, (band, body.attrib)
    assert "ghost" in token.get("class", "").split()
    plain = next(ET.fromstring(unit_token(unit_type, 0, 0, colour)).iter("path"))
    assert plain.get("stroke-dasharray") is None and float(plain.get("stroke-width", 0)) < 2
