"""Build the ways at sea of a map drawing (``render/data/<drawing>_ways.json``): where the
picture's arrow for a fleet's move (or retreat), or a convoyed army's leg, turns so as not
to cross another province's land. Most such arrows are a plain curve between the two
provinces' points and need no way; the others (``F MAO - WES``, whose curve crossed Spain,
``F NTH - ENG`` across England, ``F NWY - STP/NC`` across Sweden) get the points the
arrow passes through.

Method: for each pair of points an arrow may join (every fleet move of the boards drawn
with the drawing, and every leg between an army's coastal province and a sea next to it),
if the straight line or the move's curve crosses land of a third province, the cheapest
path is searched on a grid of the water and the two provinces' own ground (water cheaper,
and dearer near land), then pulled tight: each point kept is as far along the path as a
straight line from the last one, kept clear of the other land, can reach. The runtime
draws a Catmull-Rom curve through the points (``render/scene.py``); the test
``test_render_orders`` checks that every fleet's arrow keeps off third provinces' land.

Needs ``shapely>=2.1`` and numpy (``pip install -e '.[drawing]' numpy``). Run::

    python tools/build_ways.py [--drawing NAME]
"""

from __future__ import annotations

import argparse
import heapq
import itertools
import json
import math
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import shapely  # type: ignore[import-untyped, import-not-found, unused-ignore]
from shapely.geometry import (  # type: ignore[import-untyped, import-not-found, unused-ignore]
    LineString,
    Polygon,
)

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from realpolitik.maps import load_map  # noqa: E402
from realpolitik.maps.loader import BOARDS  # noqa: E402
from realpolitik.maps.model import GameMap, ProvinceType  # noqa: E402
from realpolitik.render.drawing import Drawing, drawing_for, load_drawing  # noqa: E402
from realpolitik.render.geometry import bent, through  # noqa: E402
from realpolitik.render.scene import WAY_ASIDE  # noqa: E402
from realpolitik.vocab import province_of  # noqa: E402

DRAWINGS = ROOT / "src" / "realpolitik" / "render" / "data"
CELL = 5.0  # the grid's cell, px
CLEAR = 6.0  # how far a pulled line keeps from other land, px (where it can)
NEAR = 16.0  # water this close to other land costs more, the closer the more
TOUCH = 2.0  # how far a drawn curve may reach over a coast, px (in a strait, narrower)
MOVE_BEND = 0.14  # the bend of a move's curve (render/orders.py)
Point = tuple[float, float]


def shape(rings: Iterable[Sequence[Point]]) -> Any:
    """The rings (outer rings and holes, even-odd) as one shapely geometry."""
    out = None
    for ring in rings:
        piece = Polygon(ring).buffer(0)
        out = piece if out is None else out.symmetric_difference(piece)
    return out


class Waters:
    """The drawing's provinces as shapes, which are sea, and each piece of land's distance
    from the cells of a grid (up to :data:`NEAR`)."""

    def __init__(self, drawing: Drawing, seas: set[str]) -> None:
        self.drawing = drawing
        self.shapes = {pid: shape(d.rings) for pid, d in drawing.provinces.items()}
        self.seas = seas
        islands = [shape(d.rings) for d in drawing.decorations if d.kind != "lake"]
        self.islands = shapely.union_all(islands) if islands else Polygon()
        xs = np.arange(CELL / 2, drawing.width, CELL)
        ys = np.arange(CELL / 2, drawing.height, CELL)
        self.gx, self.gy = np.meshgrid(xs, ys)
        water = shapely.union_all([self.shapes[s] for s in seas]).difference(self.islands)
        self.grid_water = shapely.contains_xy(water, self.gx, self.gy)
        self.gaps = {pid: self._gap(g) for pid, g in self.shapes.items() if pid not in seas}
        self.island_gap = self._gap(self.islands)

    def _gap(self, land: Any) -> Any:
        """Each cell's distance from ``land``, up to :data:`NEAR` (0 within it)."""
        gap = np.full(self.gx.shape, NEAR, dtype=np.float32)
        near = shapely.contains_xy(land.buffer(NEAR), self.gx, self.gy)
        gap[near] = shapely.distance(land, shapely.points(self.gx[near], self.gy[near]))
        return gap

    def blocked(self, own: set[str]) -> Any:
        """The land an arrow between two provinces must not cross: islands, and the land
        of provinces not ``own`` (theirs, or out of play)."""
        land = [g for pid, g in self.shapes.items() if pid not in self.seas and pid not in own]
        return shapely.union_all([*land, self.islands])

    def way(self, a: Point, b: Point, own: set[str], blocked: Any) -> list[Point]:
        """The points an arrow from ``a`` to ``b`` passes through, clear of ``blocked``,
        over water or ``own`` provinces' ground."""
        gap = np.minimum.reduce(
            [self.island_gap, *(g for pid, g in self.gaps.items() if pid not in own)]
        )
        ground = shapely.contains_xy(
            shapely.union_all([self.shapes[p] for p in own]), self.gx, self.gy
        )
        free = (self.grid_water | ground) & (gap > 0)
        cost = np.where(self.grid_water, 1.0, 3.0) + 8.0 * (1.0 - gap / NEAR)
        cells = self._search(self._cell(a), self._cell(b), free, cost)
        return _pull([a, *((self.gx[c], self.gy[c]) for c in cells[1:-1]), b], blocked)

    def _cell(self, p: Point) -> tuple[int, int]:
        rows, cols = self.gx.shape
        return (
            min(max(int(p[1] // CELL), 0), rows - 1),
            min(max(int(p[0] // CELL), 0), cols - 1),
        )

    def _search(
        self, start: tuple[int, int], goal: tuple[int, int], free: Any, cost: Any
    ) -> list[tuple[int, int]]:
        """The cheapest 8-connected path of free cells (the ends always allowed)."""
        rows, cols = free.shape
        best = {start: 0.0}
        previous: dict[tuple[int, int], tuple[int, int]] = {}
        queue = [(0.0, start)]
        steps = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc]
        while queue:
            spent, here = heapq.heappop(queue)
            if here == goal:
                break
            if spent > best[here]:
                continue
            for dr, dc in steps:
                there = (here[0] + dr, here[1] + dc)
                if not (0 <= there[0] < rows and 0 <= there[1] < cols):
                    continue
                if not free[there] and there != goal:
                    continue
                step = math.hypot(dr, dc) * float(cost[there])
                if spent + step < best.get(there, math.inf):
                    best[there] = spent + step
                    previous[there] = here
                    heapq.heappush(queue, (spent + step, there))
        if goal not in previous:
            raise SystemExit(f"no way at sea from {start} to {goal}")
        cells = [goal]
        while cells[-1] != start:
            cells.append(previous[cells[-1]])
        return cells[::-1]


def _pull(path: list[Point], blocked: Any) -> list[Point]:
    """The inner points of ``path`` pulled tight: from each point kept, the furthest point
    of the path that a straight line reaches clear of ``blocked`` by :data:`CLEAR` (else
    clear of it at all). Where the curve drawn through them swings onto ``blocked``, more
    of the path's points are kept, halfway between those kept, until it does not."""
    roomy = blocked.buffer(CLEAR)

    def reach(i: int, shape: Any) -> int | None:
        for j in range(len(path) - 1, i, -1):
            if not LineString([path[i], path[j]]).intersects(shape):
                return j
        return None

    kept = [0]
    while kept[-1] < len(path) - 1:
        i = kept[-1]
        kept.append(reach(i, roomy) or reach(i, blocked) or i + 1)
    inner_land = blocked.buffer(-TOUCH)
    while True:
        inner = [path[k] for k in kept[1:-1]]
        if not any(  # the arrow as drawn, each way round
            LineString(through(path[0], inner, path[-1], aside)).intersects(inner_land)
            for aside in (WAY_ASIDE, -WAY_ASIDE)
        ):
            return [(round(x, 1), round(y, 1)) for x, y in inner]
        denser = [k for a, b in itertools.pairwise(kept) for k in (a, (a + b) // 2)]
        denser = sorted({*denser, kept[-1]})
        if denser == kept:
            print(f"warning: the curve still touches land ({len(inner)} points)", file=sys.stderr)
            return [(round(x, 1), round(y, 1)) for x, y in inner]
        kept = denser


def pairs(drawing: Drawing, boards: list[GameMap]) -> dict[tuple[str, str], frozenset[str]]:
    """The locations an arrow may join: each board's fleet moves, and each leg of a convoy
    between a coastal province (where an army stands) and a sea next to it; each with the
    provinces out of play on every board that has it (an arrow may cross them: on grow's
    smaller boards, fleets pass from the Aegean to the Black Sea where Turkey was)."""
    out: dict[tuple[str, str], frozenset[str]] = {}
    for game_map in boards:
        found: set[tuple[str, str]] = set()
        for loc, dsts in game_map.fleet_adjacency.items():
            found |= {(loc, dst) for dst in dsts}
        for pid, info in game_map.provinces.items():
            if info.type is not ProvinceType.SEA or pid in game_map.removed:
                continue
            for other in game_map.any_adjacency.get(pid, ()):
                if game_map.provinces[other].type is ProvinceType.COASTAL:
                    found |= {(pid, other), (other, pid)}
        removed = frozenset(game_map.removed)
        for pair in found:
            if {province_of(pair[0]), province_of(pair[1])} <= set(drawing.provinces):
                out[pair] = out[pair] & removed if pair in out else removed
    return out


def build(name: str) -> dict[str, Any]:
    drawing = load_drawing(name)
    boards = [m for m in map(load_map, BOARDS) if drawing_for(m).name == name]
    seas = {p for m in boards for p, i in m.provinces.items() if i.type is ProvinceType.SEA}
    waters = Waters(drawing, seas)
    ways: dict[str, list[Point]] = {}
    for (a, b), removed in sorted(pairs(drawing, boards).items()):
        ends = (province_of(a), province_of(b))
        blocked = waters.blocked({*ends, *removed})
        start, end = drawing.point(a), drawing.point(b)
        if not (
            LineString([start, end]).intersects(blocked)
            or LineString(bent(start, end, MOVE_BEND)).intersects(blocked)
        ):
            continue
        ways[f"{a} {b}"] = waters.way(start, end, {*ends, *removed}, blocked)
        print(f"{a} - {b}: {len(ways[f'{a} {b}'])} points", file=sys.stderr)
    return {
        "comment": f"Generated by tools/build_ways.py from {name}_drawing.json. Do not edit "
        "by hand. Each key is two locations an arrow joins; each value the points it passes.",
        "ways": ways,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--drawing", default="standard", help="the drawing (default standard)")
    args = parser.parse_args(argv)
    out = DRAWINGS / f"{args.drawing}_ways.json"
    data = build(args.drawing)
    out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {len(data['ways'])} ways to {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
