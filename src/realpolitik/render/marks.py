"""Marks drawn over the map: supply-centre stars, the ✗ of a failed order, the burst of a
standoff."""

from __future__ import annotations

import math

from realpolitik.render import style
from realpolitik.render.geometry import fmt, path_d

STAR = 6.5
"""The radius of a supply centre's star."""


def star(x: float, y: float, outer: float, inner: float) -> str:
    points = []
    for k in range(10):
        r = outer if k % 2 == 0 else inner
        angle = -math.pi / 2 + k * math.pi / 5
        points.append((x + r * math.cos(angle), y + r * math.sin(angle)))
    return path_d(points, closed=True)


def cross(
    x: float, y: float, size: float, colour: str, width: float = 2.6, *, cls: str = "mark fail"
) -> str:
    """A ✗ centred at ``(x, y)`` over a white halo (``cls``: its group's class; the key's
    own is no mark on the map)."""
    s = size / 2
    d = (
        f"M{fmt(x - s)},{fmt(y - s)}L{fmt(x + s)},{fmt(y + s)}"
        f"M{fmt(x + s)},{fmt(y - s)}L{fmt(x - s)},{fmt(y + s)}"
    )
    return (
        f'<g class="{cls}"><path d="{d}" stroke="#ffffff" stroke-width="{fmt(width + 2.2)}" '
        f'stroke-linecap="round"/><path d="{d}" stroke="{colour}" stroke-width="{fmt(width)}" '
        f'stroke-linecap="round"/></g>'
    )


BURST = 13.0
"""The radius of a standoff's burst."""
SHORT_OF_BURST = BURST + 2
"""How far short of a standoff's spot an arrow into it ends: its head not under the burst."""


def burst(x: float, y: float, scale: float = 1.0, *, cls: str = "mark standoff") -> str:
    """A standoff's burst of sixteen points centred at ``(x, y)``, ``scale`` times its size
    on the map (``cls``: its class; the key's own is no mark on the map)."""
    points = []
    for k in range(16):
        r = (BURST if k % 2 == 0 else 7) * scale
        angle = k * math.pi / 8
        points.append((x + r * math.cos(angle), y + r * math.sin(angle)))
    return (
        f'<path class="{cls}" d="{path_d(points, closed=True)}" fill="#ffb347" '
        f'fill-opacity="0.85" stroke="{style.FAIL}" stroke-width="1.4" stroke-linejoin="round"/>'
    )
