"""Unit tokens: an army is a square piece with a cannon, a fleet a ship (the rulebook's
square and long pieces), both in the power's colour."""

from __future__ import annotations

from realpolitik.render import style
from realpolitik.render.geometry import Box, fmt
from realpolitik.render.svgutil import esc
from realpolitik.vocab import ARMY, FLEET, UnitType

_ARMY_BODY = "M-9,-7.5Q-9,-9 -7.5,-9L7.5,-9Q9,-9 9,-7.5L9,7.5Q9,9 7.5,9L-7.5,9Q-9,9 -9,7.5Z"
_ARMY_GLYPH = "M-5.5,2.5L5.5,-4.5"
_ARMY_WHEEL = (-2.5, 3.6, 2.6)
_FLEET_HULL = "M-15,0L15,0L10.5,6.5L-11.5,6.5Z"
_FLEET_SAIL = "M-1,-1L-1,-11L8,-1Z"
_FLEET_MAST = "M-1,0L-1,-12"
GHOST_BAND = 3.6
"""The width of the dark band round a unit being built."""
_BOXES: dict[UnitType, Box] = {ARMY: (-9.0, -9.0, 9.0, 9.0), FLEET: (-15.0, -12.0, 15.0, 6.5)}


def token_box(unit_type: UnitType, scale: float = 1.0) -> Box:
    """The box a token takes about its centre (a fleet's: its hull and its mast)."""
    left, top, right, bottom = _BOXES[unit_type]
    return (left * scale, top * scale, right * scale, bottom * scale)


def unit_token(
    unit_type: UnitType,
    x: float,
    y: float,
    colour: str,
    *,
    classes: str = "unit",
    ghost: bool = False,
    scale: float = 1.0,
    title: str | None = None,
) -> str:
    """The token of a unit centred at ``(x, y)``; ``ghost`` draws a unit being built: a
    "+" by it, and round it a dark band dashed in white, which sets it apart from any
    ground (its builder's land is of its own hue: a see-through ghost with a dashed edge was
    lost on it, France's light blue on light blue). ``title``: the words that say which unit
    it is (a text alternative of the shapes)."""
    ink = style.contrast(colour)
    outline = "#111111" if colour.lower() != "#111111" else "#ffffff"
    edge = f'stroke="{outline}" stroke-width="1.4"'
    if ghost:
        edge = f'stroke="{style.INK}" stroke-width="{GHOST_BAND}"'
        classes += " ghost"
    transform = f"translate({fmt(x)},{fmt(y)})" + (f" scale({scale})" if scale != 1 else "")
    parts = [f'<g class="{classes}" transform="{transform}">']
    if title is not None:
        parts.append(f"<title>{esc(title)}</title>")
    body, join = (
        (_ARMY_BODY, "") if unit_type is ARMY else (_FLEET_HULL, ' stroke-linejoin="round"')
    )
    parts.append(f'<path d="{body}" fill="{colour}" {edge}{join}/>')
    if ghost:
        parts.append(
            f'<path d="{body}" fill="none" stroke="#ffffff" stroke-width="1.6" '
            'stroke-dasharray="3 2"/>'
        )
    if unit_type is ARMY:
        wx, wy, wr = _ARMY_WHEEL
        parts.append(
            f'<path d="{_ARMY_GLYPH}" stroke="{ink}" stroke-width="3" stroke-linecap="round"/>'
            f'<circle cx="{wx}" cy="{wy}" r="{wr}" fill="{ink}"/>'
        )
    else:
        parts.append(
            f'<path d="{_FLEET_MAST}" stroke="{outline}" stroke-width="1.3"/>'
            f'<path d="{_FLEET_SAIL}" fill="{colour}" stroke="{outline}" stroke-width="1.1" '
            f'stroke-linejoin="round"/>'
        )
    if ghost:
        parts.append(
            f'<path d="M-13,-15v8M-17,-11h8" stroke="{style.INK}" stroke-width="2.2" '
            'stroke-linecap="round"/>'
        )
    parts.append("</g>")
    return "".join(parts)
