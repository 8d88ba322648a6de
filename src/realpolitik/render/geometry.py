"""Small plane geometry for the picture: curved order paths, trimming, arrowheads, a mark
moved clear of a box.

Paths are polylines of points in SVG pixels; curves are sampled (a quadratic Bézier bent to
the right of the direction of travel, so that two opposite moves never lie on each other;
a Catmull-Rom spline through the fleets of a convoy route).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

Point = tuple[float, float]
Box = tuple[float, float, float, float]
"""A box's left, top, right and bottom, about its centre (left and top below zero)."""


def distance(a: Point, b: Point) -> float:
    return math.hypot(b[0] - a[0], b[1] - a[1])


def lerp(a: Point, b: Point, t: float) -> Point:
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)


def bent(a: Point, b: Point, bend: float = 0.14, samples: int = 20) -> list[Point]:
    """A quadratic curve from ``a`` to ``b`` whose middle is pushed ``bend`` × length to the
    right of the direction of travel."""
    length = distance(a, b)
    if length == 0:
        return [a, b]
    nx, ny = -(b[1] - a[1]) / length, (b[0] - a[0]) / length
    mid = lerp(a, b, 0.5)
    ctrl = (mid[0] + nx * bend * length, mid[1] + ny * bend * length)
    out = []
    for k in range(samples + 1):
        t = k / samples
        u = 1 - t
        out.append(
            (
                u * u * a[0] + 2 * u * t * ctrl[0] + t * t * b[0],
                u * u * a[1] + 2 * u * t * ctrl[1] + t * t * b[1],
            )
        )
    return out


def spline(points: Sequence[Point], samples: int = 10) -> list[Point]:
    """A Catmull-Rom curve through ``points``."""
    if len(points) < 3:
        return list(points)
    pts = [points[0], *points, points[-1]]
    out: list[Point] = [points[0]]
    for i in range(1, len(pts) - 2):
        p0, p1, p2, p3 = pts[i - 1], pts[i], pts[i + 1], pts[i + 2]
        for k in range(1, samples + 1):
            t = k / samples
            out.append(
                (_catmull(p0[0], p1[0], p2[0], p3[0], t), _catmull(p0[1], p1[1], p2[1], p3[1], t))
            )
    return out


def through(a: Point, points: Sequence[Point], b: Point, aside: float) -> list[Point]:
    """A Catmull-Rom curve from ``a`` to ``b`` through ``points``, each moved ``aside``
    pixels to the right of the way there, so that two opposite arrows stay apart."""
    stops = [a, *points, b]
    moved = [a]
    for before, p, after in zip(stops, stops[1:], stops[2:], strict=False):
        length = distance(before, after) or 1.0
        dx, dy = (after[0] - before[0]) / length, (after[1] - before[1]) / length
        moved.append((p[0] - dy * aside, p[1] + dx * aside))
    return spline([*moved, b])


def _catmull(a: float, b: float, c: float, d: float, t: float) -> float:
    return 0.5 * (
        2 * b + (c - a) * t + (2 * a - 5 * b + 4 * c - d) * t * t + (3 * b - a - 3 * c + d) * t**3
    )


def length_of(points: Sequence[Point]) -> float:
    return sum(distance(a, b) for a, b in itertools.pairwise(points))


def trim(points: Sequence[Point], start: float, end: float) -> list[Point]:
    """The polyline without its first ``start`` and last ``end`` pixels (by arc length)."""
    total = length_of(points)
    if total <= start + end + 1:
        keep = max(total - 1, 0.0) / 2
        start = end = min(start, end, keep)
    return _cut_end(_cut_end(list(points), start)[::-1], end)[::-1]


def _cut_end(points: list[Point], amount: float) -> list[Point]:
    """Drop ``amount`` pixels from the start of the polyline."""
    if amount <= 0:
        return points
    gone = 0.0
    for i in range(len(points) - 1):
        seg = distance(points[i], points[i + 1])
        if gone + seg >= amount:
            t = (amount - gone) / seg if seg else 0.0
            return [lerp(points[i], points[i + 1], t), *points[i + 1 :]]
        gone += seg
    return points[-2:]


def at(points: Sequence[Point], fraction: float) -> Point:
    """The point ``fraction`` of the way along the polyline."""
    total = length_of(points)
    goal = total * fraction
    gone = 0.0
    for a, b in itertools.pairwise(points):
        seg = distance(a, b)
        if gone + seg >= goal and seg > 0:
            return lerp(a, b, (goal - gone) / seg)
        gone += seg
    return points[-1]


def arrowhead(points: Sequence[Point], size: float) -> tuple[list[Point], list[Point]]:
    """The polyline shortened to the arrowhead's base, and the head's triangle."""
    tip = points[-1]
    base_line = trim(points, 0, size)
    base = base_line[-1]
    length = distance(base, tip) or 1.0
    ux, uy = (tip[0] - base[0]) / length, (tip[1] - base[1]) / length
    half = size * 0.55
    left = (base[0] - uy * half, base[1] + ux * half)
    right = (base[0] + uy * half, base[1] - ux * half)
    return base_line, [tip, left, right]


def clear_of(spot: Point, centre: Point, box: Box, radius: float) -> Point:
    """``spot``, or, when a circle of ``radius`` there would reach into ``box`` (left, top,
    right, bottom about ``centre``), the nearest spot clear of it: to its left or right, above
    or below it."""
    left, top, right, bottom = box
    dx, dy = spot[0] - centre[0], spot[1] - centre[1]
    if not (left - radius < dx < right + radius and top - radius < dy < bottom + radius):
        return spot
    ways = [
        (centre[0] + left - radius, spot[1]),
        (centre[0] + right + radius, spot[1]),
        (spot[0], centre[1] + top - radius),
        (spot[0], centre[1] + bottom + radius),
    ]
    return min(ways, key=lambda way: distance(way, spot))


def fmt(value: float) -> str:
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def path_d(points: Sequence[Point], closed: bool = False) -> str:
    body = " ".join(f"{fmt(x)},{fmt(y)}" for x, y in points)
    return f"M{body}{'Z' if closed else ''}"
