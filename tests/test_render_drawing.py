"""The map drawing agrees with the map data: shared borders are adjacencies, anchors lie
inside their own province, units never overlap."""

from __future__ import annotations

import math
from collections import defaultdict
from itertools import combinations

import pytest

from realpolitik.maps import ProvinceType, load_map
from realpolitik.render.drawing import Drawing, Point, Ring, drawing_for, load_drawing

# Borders the drawing shows that are no adjacency, and adjacencies it does not show as a
# border. Both are empty: the drawing fills the Danish straits and the Bosporus with land
# (Denmark touches Sweden; Skagerrak does not touch the Baltic; the Black Sea does not touch
# the Aegean), and impassable Switzerland is left out of the comparison.
DRAWN_NOT_ADJACENT: set[frozenset[str]] = set()
ADJACENT_NOT_DRAWN: set[frozenset[str]] = set()


@pytest.fixture(scope="module")
def drawing() -> Drawing:
    return load_drawing("standard")


def shared_borders(drawing: Drawing) -> set[frozenset[str]]:
    """Pairs of provinces whose outlines share at least one segment."""
    owners: dict[tuple[Point, Point], set[str]] = defaultdict(set)
    for pid, prov in drawing.provinces.items():
        for ring in prov.rings:
            for a, b in zip(ring, ring[1:] + ring[:1], strict=True):
                owners[(a, b) if a < b else (b, a)].add(pid)
    return {frozenset(s) for s in owners.values() if len(s) == 2}


def inside(point: Point, rings: tuple[Ring, ...]) -> bool:
    """Even-odd point-in-polygon over all rings."""
    x, y = point
    hit = False
    for ring in rings:
        for (x1, y1), (x2, y2) in zip(ring, ring[1:] + ring[:1], strict=True):
            if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
                hit = not hit
    return hit


def edge_distance(point: Point, rings: tuple[Ring, ...]) -> float:
    best = math.inf
    px, py = point
    for ring in rings:
        for (x1, y1), (x2, y2) in zip(ring, ring[1:] + ring[:1], strict=True):
            dx, dy = x2 - x1, y2 - y1
            t = 0.0 if dx == dy == 0 else ((px - x1) * dx + (py - y1) * dy) / (dx * dx + dy * dy)
            t = max(0.0, min(1.0, t))
            best = min(best, math.hypot(px - x1 - t * dx, py - y1 - t * dy))
    return best


def test_every_province_is_drawn(drawing: Drawing) -> None:
    game_map = load_map("standard")
    assert set(drawing.provinces) == set(game_map.provinces)
    assert {d.kind for d in drawing.decorations} == {"island", "land", "lake"}


def test_shared_borders_are_the_adjacencies(drawing: Drawing) -> None:
    game_map = load_map("standard")
    impassable = {p for p, i in game_map.provinces.items() if i.type is ProvinceType.IMPASSABLE}
    want = {frozenset((p, q)) for p, near in game_map.any_adjacency.items() for q in near if p != q}
    got = {pair for pair in shared_borders(drawing) if not pair & impassable}
    assert got - want == DRAWN_NOT_ADJACENT
    assert want - got == ADJACENT_NOT_DRAWN


def test_switzerland_is_drawn_among_its_neighbours(drawing: Drawing) -> None:
    near = {q for pair in shared_borders(drawing) if "SWI" in pair for q in pair} - {"SWI"}
    assert near == {"MAR", "BUR", "MUN", "TYR", "PIE"}


@pytest.mark.parametrize("pid", sorted(load_map("standard").provinces))
def test_anchors_lie_inside_their_province(drawing: Drawing, pid: str) -> None:
    prov = drawing.provinces[pid]
    points = {"unit": prov.unit, "label": prov.label, "center": prov.center}
    points["dislodged"] = prov.dislodged
    points.update({f"coast {c}": p for c, p in prov.coasts})
    for what, point in points.items():
        assert inside(point, prov.rings), f"{pid} {what} anchor {point} is outside"
    if pid != "SWI":  # a unit token (30 x 20 px at most) stays inside its province
        assert edge_distance(prov.unit, prov.rings) >= 12, pid
    # the unit, its label and the centre marker do not sit on each other
    assert math.dist(prov.unit, prov.label) >= 12, pid
    assert math.dist(prov.unit, prov.center) >= 12, pid
    assert math.dist(prov.unit, prov.dislodged) >= 15, pid


def test_two_coast_provinces_show_each_coast(drawing: Drawing) -> None:
    game_map = load_map("standard")
    # the sea that only one coast touches: that coast's fleet stands next to it
    own_sea = {
        ("STP", "NC"): "BAR",
        ("STP", "SC"): "BOT",
        ("BUL", "EC"): "BLA",
        ("BUL", "SC"): "AEG",
        ("SPA", "SC"): "WES",
    }
    for pid in ("SPA", "STP", "BUL"):
        prov = drawing.provinces[pid]
        assert {c for c, _ in prov.coasts} == set(game_map.coasts(pid))
        a, b = (p for _, p in prov.coasts)
        assert math.dist(a, b) > 40, pid
    for (pid, coast), sea in own_sea.items():
        point = drawing.provinces[pid].coast(coast)
        assert point is not None
        assert edge_distance(point, drawing.provinces[sea].rings) < 45, (pid, coast)


def test_units_never_overlap(drawing: Drawing) -> None:
    spots = []
    for prov in drawing.provinces.values():
        spots.append((prov.id, prov.unit))
        spots.extend((f"{prov.id}/{c}", p) for c, p in prov.coasts)
    for (a, p), (b, q) in combinations(spots, 2):
        if a.split("/")[0] != b.split("/")[0]:
            assert math.dist(p, q) >= 26, (a, b)


@pytest.mark.parametrize("board", ["grow_3", "conquista", "standard_neutral_italy"])
def test_every_edition_board_is_drawn_by_the_standard_drawing(board: str) -> None:
    game_map = load_map(board)
    assert drawing_for(game_map).name == "standard"
