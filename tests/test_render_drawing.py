"""The map drawing agrees with the map data: shared borders are adjacencies, anchors lie
inside their own province, units never overlap."""

from __future__ import annotations

import math
from collections import defaultdict
from itertools import combinations

import pytest

from realpolitik.maps import ProvinceType, load_map
from realpolitik.render.drawing import Drawing, Point, Ring, drawing_for, load_drawing
from realpolitik.render.svg import label_lines
from realpolitik.render.words import Words

# Borders each drawing shows that are no adjacency, and adjacencies it does not show as a
# border (impassable Switzerland is left out of the comparison). The standard drawing has
# none: it fills the Danish straits and the Bosporus with land (Denmark touches Sweden;
# Skagerrak does not touch the Baltic; the Black Sea does not touch the Aegean). The
# conquista board (seed 004) has Denmark's shores that are no passage: "para salir de allí
# deberá: a) Salir al mar de Dinamarca ..." (a fleet leaves Denmark only into the Sea of
# Denmark, whose way to the Baltic is the Great Belt).
DRAWN_NOT_ADJACENT: dict[str, set[frozenset[str]]] = {
    "standard": set(),
    "conquista": {frozenset(("DEN", sea)) for sea in ("NTH", "HEL", "SKA", "BAL")},
}
ADJACENT_NOT_DRAWN: dict[str, set[frozenset[str]]] = {"standard": set(), "conquista": set()}
BOARDS = sorted(DRAWN_NOT_ADJACENT)


@pytest.fixture(scope="module", params=BOARDS)
def board(request: pytest.FixtureRequest) -> str:
    """The name of a board with a drawing of its own (and of that drawing)."""
    name: str = request.param
    return name


@pytest.fixture(scope="module")
def drawing(board: str) -> Drawing:
    return load_drawing(board)


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


def test_every_province_is_drawn(board: str, drawing: Drawing) -> None:
    game_map = load_map(board)
    assert set(drawing.provinces) == set(game_map.provinces)
    kinds = {"island", "land", "lake"} | ({"canal"} if board == "conquista" else set())
    assert {d.kind for d in drawing.decorations} == kinds


def test_conquista_draws_the_kiel_canal() -> None:
    """Seed 004: "La flota alemana anclada en Kiel puede pasar en un sólo movimiento por
    costa a Dinamarca a través del canal marcado en el tablero": the canal crosses Kiel."""
    drawing = load_drawing("conquista")
    (canal,) = [d for d in drawing.decorations if d.kind == "canal"]
    points = [p for ring in canal.rings for p in ring]
    middle = (sum(x for x, _ in points) / len(points), sum(y for _, y in points) / len(points))
    assert inside(middle, drawing.provinces["KIE"].rings)


def test_shared_borders_are_the_adjacencies(board: str, drawing: Drawing) -> None:
    game_map = load_map(board)
    impassable = {p for p, i in game_map.provinces.items() if i.type is ProvinceType.IMPASSABLE}
    want = {frozenset((p, q)) for p, near in game_map.any_adjacency.items() for q in near if p != q}
    got = {pair for pair in shared_borders(drawing) if not pair & impassable}
    assert got - want == DRAWN_NOT_ADJACENT[board]
    assert want - got == ADJACENT_NOT_DRAWN[board]


def test_switzerland_is_drawn_among_its_neighbours(drawing: Drawing) -> None:
    near = {q for pair in shared_borders(drawing) if "SWI" in pair for q in pair} - {"SWI"}
    assert near == {"MAR", "BUR", "MUN", "TYR", "PIE"}


def test_anchors_lie_inside_their_province(drawing: Drawing) -> None:
    for pid in sorted(drawing.provinces):
        _anchors_lie_inside(drawing, pid)


def _anchors_lie_inside(drawing: Drawing, pid: str) -> None:
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


def test_two_coast_provinces_show_each_coast(board: str, drawing: Drawing) -> None:
    game_map = load_map(board)
    # the sea that only one coast touches: that coast's fleet stands next to it
    own_sea = {
        ("STP", "NC"): "BAR",
        ("STP", "SC"): "BOT",
        ("BUL", "EC"): "BLA",
        ("BUL", "SC"): "AEG",
        ("SPA", "SC"): "WES",
    }
    if board == "conquista":  # London's and Brest's coasts (seed 004, "doble costa")
        own_sea.update(
            {("LON", "SC"): "ENG", ("LON", "EC"): "NTH", ("BRE", "SC"): "MAO", ("BRE", "NC"): "ENG"}
        )
    two_coasts = sorted(p for p, info in game_map.provinces.items() if info.coasts)
    assert two_coasts == sorted({p for p, _ in own_sea})
    for pid in two_coasts:
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


@pytest.mark.parametrize(
    ("board", "drawn_by"),
    [
        ("standard", "standard"),
        ("grow_3", "standard"),
        ("standard_neutral_italy", "standard"),
        ("conquista", "conquista"),
        ("conquista_neutral_italy", "conquista"),
    ],
)
def test_every_edition_board_is_drawn(board: str, drawn_by: str) -> None:
    """The standard map's boards by the standard drawing; the conquista board and the
    two-player conquista board (Italy cut off) by the conquista drawing."""
    assert drawing_for(load_map(board)).name == drawn_by


# DejaVu Sans Bold, the picture's font: no letter is wider than 0.8 of the size on average
# over a name (Chromium measures the map's widest, "Rome", at 0.80 and the mean at 0.63)
LETTER_WIDTH = 0.8


@pytest.mark.parametrize("labels", ["short", "long"])
@pytest.mark.parametrize("language", ["en", "es", "fr", "pt"])
def test_province_names_never_overlap(
    board: str, drawing: Drawing, language: str, labels: str
) -> None:
    """Each name, written as the picture writes it at its anchor (at most 0.8 of the font
    size per letter), clears every other: long English names wrote "Clyde" into
    "Edinburgh"."""
    game_map = load_map(board)
    words = Words(language, game_map=game_map)
    boxes = []
    for pid in sorted(game_map.provinces):
        x, y = drawing.provinces[pid].label
        size, lines = label_lines(words.province(pid, labels), labels, y)
        half = max(len(line) for line, _ in lines) * size * LETTER_WIDTH / 2
        top, bottom = lines[0][1] - size * 0.75, lines[-1][1] + size * 0.2
        boxes.append((pid, x - half, top, x + half, bottom))
    for (a, ax0, ay0, ax1, ay1), (b, bx0, by0, bx1, by1) in combinations(boxes, 2):
        apart = ax1 <= bx0 or bx1 <= ax0 or ay1 <= by0 or by1 <= ay0
        assert apart, (words.province(a, labels), words.province(b, labels))
