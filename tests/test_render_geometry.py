"""Plane geometry of the order paths."""

from __future__ import annotations

import math

from realpolitik.render.geometry import arrowhead, at, bent, clear_of, length_of, spline, trim


def test_bent_curves_bow_to_the_right_of_travel() -> None:
    east = bent((0.0, 0.0), (100.0, 0.0), 0.2)
    west = bent((100.0, 0.0), (0.0, 0.0), 0.2)
    assert east[0] == (0.0, 0.0) and east[-1] == (100.0, 0.0)
    # y grows downwards on screen: travelling east, "right" is +y; west, -y
    assert at(east, 0.5)[1] > 5 and at(west, 0.5)[1] < -5


def test_trim_shortens_both_ends_by_arc_length() -> None:
    line = [(0.0, 0.0), (50.0, 0.0), (100.0, 0.0)]
    cut = trim(line, 10, 20)
    assert cut[0] == (10.0, 0.0) and cut[-1] == (80.0, 0.0)
    assert math.isclose(length_of(cut), 70)
    tiny = trim([(0.0, 0.0), (4.0, 0.0)], 10, 10)
    assert length_of(tiny) > 0


def test_arrowhead_sits_on_the_tip() -> None:
    shaft, head = arrowhead([(0.0, 0.0), (100.0, 0.0)], 10)
    assert head[0] == (100.0, 0.0)
    assert math.isclose(shaft[-1][0], 90)
    assert {round(p[1]) for p in head[1:]} == {-6, 6}


def test_spline_passes_through_its_points() -> None:
    points = [(0.0, 0.0), (50.0, 40.0), (100.0, 0.0)]
    curve = spline(points)
    assert curve[0] == points[0] and curve[-1] == points[-1]
    assert any(math.dist(p, points[1]) < 1e-9 for p in curve)


def test_a_spot_under_a_box_moves_the_least_way_out() -> None:
    box = (-9.0, -9.0, 9.0, 9.0)
    assert clear_of((0, -30), (0, 0), box, 6) == (0, -30)  # clear already: unmoved
    assert clear_of((20, 0), (0, 0), box, 6) == (20, 0)
    assert clear_of((0, -10), (0, 0), box, 6) == (0, -15)  # up
    assert clear_of((13, -2), (0, 0), box, 6) == (15, -2)  # right
    assert clear_of((-13, 2), (0, 0), box, 6) == (-15, 2)  # left
    assert clear_of((1, 12), (0, 0), box, 6) == (1, 15)  # down
    assert clear_of((21, -3), (0, 0), (-15.0, -12.0, 15.0, 6.5), 8) == (23, -3)
