"""Build the standard map drawing (``render/data/standard_drawing.json``) from public-domain
geography and the project's own design (``tools/drawing_design.json``).

Geography: Natural Earth admin-0 countries at 1:50m (public domain), as redistributed in
the npm package ``world-atlas`` (TopoJSON). It is fetched at build time only, with the npm
client (``npm pack world-atlas@2.0.2``) unless ``--atlas DIR`` names an unpacked copy; the
generated drawing is committed, so nothing here runs at play time.

Method: the map is projected (Lambert conformal conic) and cropped; each modern country is
split among the provinces the design lists for it, by the nearest of their seed points
(a Voronoi partition); seas are split the same way among the sea seeds. Pieces that hold
none of their province's seeds are merged into their longest-bordering neighbour (islands
with no seed become impassable decoration; enclosed water becomes a lake). The pieces are
dissolved into one polygon set per province, simplified as a coverage (neighbours keep
exactly the same shared border), and each province gets unit, label, centre and coast
anchors inside its shape.

A board with a picture of its own (``conquista``) has a design of its own,
``tools/drawing_design_<board>.json``, written as changes to the standard design (``base``):
countries, seeds and anchors replaced per key (``null`` deletes), patches dropped by their
comment, other keys replaced whole; ``canals`` are drawn as water lines over the land
(conquista's Kiel canal, "marcado en el tablero"). Its drawing is
``render/data/<board>_drawing.json``.

Needs ``shapely>=2.1`` (``pip install -e '.[drawing]'``). Run::

    python tools/build_drawing.py [--atlas DIR] [--board NAME]

It prints the differences between the drawn adjacency and the map data's adjacency.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import tarfile
import tempfile
from collections import defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import shapely  # type: ignore[import-untyped, import-not-found, unused-ignore]
from shapely import ops  # type: ignore[import-untyped, import-not-found, unused-ignore]
from shapely.geometry import (  # type: ignore[import-untyped, import-not-found, unused-ignore]
    LineString,
    MultiPoint,
    Point,
    Polygon,
    box,
)
from shapely.strtree import STRtree  # type: ignore[import-untyped, import-not-found, unused-ignore]

ROOT = Path(__file__).resolve().parent.parent
TOOLS = ROOT / "tools"
DRAWINGS = ROOT / "src" / "realpolitik" / "render" / "data"
ATLAS_PACKAGE = "world-atlas@2.0.2"
EARTH_RADIUS_KM = 6371.0

UNNAMED = "_unnamed"
ISLAND = "_island"
LAKE = "_lake"
SEA = "sea"


# --- geography in ----------------------------------------------------------------------
def fetch_atlas(workdir: Path) -> Path:
    """``npm pack`` the world-atlas package into ``workdir`` and unpack it."""
    subprocess.run(
        ["npm", "pack", ATLAS_PACKAGE, "--silent"], cwd=workdir, check=True, capture_output=True
    )
    tarball = next(workdir.glob("world-atlas-*.tgz"))
    with tarfile.open(tarball) as tar:
        tar.extractall(workdir, filter="data")
    return workdir / "package"


def read_countries(atlas: Path) -> dict[str, list[list[list[tuple[float, float]]]]]:
    """Country name -> polygons -> rings of (lon, lat), decoded from TopoJSON."""
    topo = json.loads((atlas / "countries-50m.json").read_text(encoding="utf-8"))
    (sx, sy), (tx, ty) = topo["transform"]["scale"], topo["transform"]["translate"]
    arcs: list[list[tuple[float, float]]] = []
    for arc in topo["arcs"]:
        x = y = 0
        points = []
        for dx, dy in arc:
            x += dx
            y += dy
            points.append((x * sx + tx, y * sy + ty))
        arcs.append(points)

    def ring(indices: list[int]) -> list[tuple[float, float]]:
        points: list[tuple[float, float]] = []
        for i in indices:
            arc = arcs[i] if i >= 0 else arcs[~i][::-1]
            points.extend(arc if not points else arc[1:])
        return points

    out: dict[str, list[list[list[tuple[float, float]]]]] = {}
    for geom in topo["objects"]["countries"]["geometries"]:
        if geom["type"] == "Polygon":
            polys = [geom["arcs"]]
        elif geom["type"] == "MultiPolygon":
            polys = geom["arcs"]
        else:
            continue
        out[geom["properties"]["name"]] = [[ring(r) for r in poly] for poly in polys]
    return out


class Projection:
    """Spherical Lambert conformal conic, in km, y pointing down (screen order)."""

    def __init__(self, lon0: float, lat0: float, parallels: Sequence[float]) -> None:
        f1, f2 = (math.radians(p) for p in parallels)
        self.lon0 = lon0
        self.n = math.log(math.cos(f1) / math.cos(f2)) / math.log(
            math.tan(math.pi / 4 + f2 / 2) / math.tan(math.pi / 4 + f1 / 2)
        )
        self.f: float = math.cos(f1) * math.tan(math.pi / 4 + f1 / 2) ** self.n / self.n
        self.rho0 = self._rho(lat0)

    def _rho(self, lat: float) -> float:
        scale: float = math.tan(math.pi / 4 + math.radians(lat) / 2) ** self.n
        return EARTH_RADIUS_KM * self.f / scale

    def __call__(self, lon: float, lat: float) -> tuple[float, float]:
        rho = self._rho(lat)
        theta = self.n * math.radians(lon - self.lon0)
        return rho * math.sin(theta), -(self.rho0 - rho * math.cos(theta))


class Warp:
    """The projection followed by smooth local magnifications ("bumps"): each pushes points
    away from its centre by ``amount`` × distance × a Gaussian of the distance, which
    enlarges crowded regions (Britain, the Low Countries, the Straits) and, with a negative
    amount, shrinks empty ones. Small amounts keep the map one-to-one."""

    def __init__(self, projection: Projection, bumps: list[dict[str, Any]]) -> None:
        self.projection = projection
        self.bumps = [
            (projection(*b["center"]), float(b["sigma_km"]), float(b["amount"])) for b in bumps
        ]

    def __call__(self, lon: float, lat: float) -> tuple[float, float]:
        x, y = self.projection(lon, lat)
        dx = dy = 0.0
        for (cx, cy), sigma, amount in self.bumps:
            ux, uy = x - cx, y - cy
            weight = amount * math.exp(-(ux * ux + uy * uy) / (2 * sigma * sigma))
            dx += ux * weight
            dy += uy * weight
        return x + dx, y + dy


# --- the partition ---------------------------------------------------------------------
class Builder:
    """The design and the geography, projected: countries, patches, seeds; and the labelled
    pieces (province, polygon) they make."""

    def __init__(self, design: dict[str, Any], countries: dict[str, Any], game: dict[str, Any]):
        self.design = design
        self.proj = Warp(
            Projection(
                design["projection"]["lon0"],
                design["projection"]["lat0"],
                design["projection"]["parallels"],
            ),
            design.get("warp", []),
        )
        x0, y0, x1, y1 = design["extent_km"]
        self.rect = box(x0, y0, x1, y1)
        self.kinds = {p["id"]: p["type"] for p in game["provinces"]}
        self.countries = self._project_countries(countries)
        self.patches = [
            (patch["province"], Polygon([self.proj(*q) for q in patch["ring"]]))
            for patch in design.get("patches", [])
        ]
        self.seeds: dict[str, list[tuple[float, float]]] = {
            prov: [self.proj(*q) for q in pts] for prov, pts in design["seeds"].items()
        }

    def _project_countries(self, countries: dict[str, Any]) -> dict[str, Any]:
        out = {}
        lon_lat_box = box(-45, 20, 75, 85)
        for name, polys in countries.items():
            parts = []
            for rings in polys:
                if not Polygon(rings[0]).intersects(lon_lat_box):
                    continue
                shell = [self.proj(*q) for q in rings[0]]
                holes = [[self.proj(*q) for q in r] for r in rings[1:]]
                parts.append(shapely.make_valid(Polygon(shell, holes)))
            if not parts:
                continue
            geom = shapely.unary_union(parts).intersection(self.rect)
            if geom.area > 0:
                if name not in self.design["countries"]:
                    raise SystemExit(f"country {name!r} is on the map but not in the design")
                out[name] = geom
        return out

    def _voronoi_cells(
        self, provinces: Iterable[str], *, wiggle: bool = True
    ) -> list[tuple[str, Any]]:
        points = [(p, xy) for p in sorted(provinces) for xy in self.seeds[p]]
        if len(points) == 1:
            return [(points[0][0], self.rect.buffer(10))]
        cells = shapely.voronoi_polygons(
            MultiPoint([xy for _, xy in points]), extend_to=self.rect.buffer(10)
        )
        out = []
        for cell in cells.geoms:
            for prov, xy in points:
                if cell.contains(Point(xy)):
                    out.append((prov, self._wiggle(cell) if wiggle else cell))
                    break
        return out

    def _wiggle(self, cell: Any) -> Any:
        """The cell with its straight edges bent by a smooth noise field (the same field
        for every cell, so neighbours keep a common border)."""
        amp = float(self.design.get("wiggle_km", 0.0))
        if amp <= 0:
            return cell
        dense = shapely.segmentize(cell, 6.0)
        return shapely.transform(dense, lambda xy: _noise(xy, amp))

    def labelled_pieces(self) -> list[tuple[str, Any]]:
        """(label, polygon) pieces covering the whole rectangle."""
        pieces: list[tuple[str, Any]] = []
        land_parts = []
        patch_union = shapely.unary_union([g for _, g in self.patches])
        for name, geom in self.countries.items():
            allowed = self.design["countries"][name]
            geom = geom.difference(patch_union)
            land_parts.append(geom)
            if not allowed:
                pieces.append((UNNAMED, geom))
                continue
            for prov, cell in self._voronoi_cells(allowed):
                part = geom.intersection(cell)
                if part.area > 0:
                    pieces.append((prov, part))
        for prov, patch in self.patches:
            pieces.append((prov, patch))
            land_parts.append(patch)
        land = shapely.unary_union(land_parts)
        water = self.rect.difference(land)
        seas = [p for p, kind in self.kinds.items() if kind == "sea"]
        for prov, cell in self._voronoi_cells(seas, wiggle=False):
            part = water.intersection(cell)
            if part.area > 0:
                pieces.append((prov, part))
        return pieces


def _noise(xy: Any, amp: float) -> Any:
    """A smooth displacement: a few sine waves of wavelengths 150-250 km."""
    import numpy  # type: ignore[import-not-found, unused-ignore]  # shapely's own dependency

    x, y = xy[:, 0], xy[:, 1]
    waves = ((0.021, 0.013, 1.3), (-0.017, 0.029, 0.4), (0.035, -0.024, 2.2), (0.011, 0.041, 5.0))
    dx = sum(numpy.sin(a * x + b * y + c) for a, b, c in waves) * amp / 3
    dy = sum(numpy.cos(b * x - a * y + 2 * c) for a, b, c in waves) * amp / 3
    return numpy.column_stack([x + dx, y + dy])


def polygons_of(geom: Any) -> list[Any]:
    if geom.is_empty:
        return []
    if geom.geom_type == "Polygon":
        return [geom]
    out = []
    for g in getattr(geom, "geoms", []):
        out.extend(polygons_of(g))
    return out


def node_and_label(pieces: list[tuple[str, Any]], rect: Any) -> list[tuple[str, Any]]:
    """Re-node every piece boundary together so that neighbours share exact vertices; each
    resulting face takes the label of the piece it lies in."""
    lines = [rect.boundary] + [g.boundary for _, g in pieces]
    noded = shapely.unary_union(shapely.set_precision(lines, 0.001))
    faces = list(shapely.polygonize(list(ops.linemerge(noded).geoms)).geoms)
    tree = STRtree([g for _, g in pieces])
    out = []
    for face in faces:
        point = face.representative_point()
        hits = tree.query(point, predicate="intersects")
        if len(hits) == 0:
            continue
        best = max(hits, key=lambda i: pieces[i][1].intersection(face).area)
        out.append((pieces[best][0], face))
    return out


class Partition:
    """Labelled faces grouped into connected parts per label, with orphan repair."""

    def __init__(self, faces: list[tuple[str, Any]], builder: Builder) -> None:
        self.faces = faces
        self.builder = builder
        self.kinds = builder.kinds

    def parts(self) -> list[tuple[str, Any]]:
        by_label: dict[str, list[Any]] = defaultdict(list)
        for label, face in self.faces:
            by_label[label].append(face)
        out = []
        for label, faces in sorted(by_label.items()):
            for poly in polygons_of(shapely.unary_union(faces)):
                out.append((label, poly))
        return out

    def is_water(self, label: str) -> bool:
        return label == LAKE or self.kinds.get(label) == SEA

    def repair(self) -> list[tuple[str, Any]]:
        """Merge seedless parts into their longest neighbour, until none is left."""
        min_island = self.builder.design["min_island_km2"]
        for _ in range(20):
            parts = self.parts()
            tree = STRtree([g for _, g in parts])
            settled = [self._settled(label, poly) for label, poly in parts]
            relabel: dict[int, str] = {}
            for i, (label, poly) in enumerate(parts):
                if settled[i]:
                    continue
                water = self.is_water(label)
                best, best_len, touching = None, 0.0, False
                for j in tree.query(poly, predicate="intersects"):
                    other, geom = parts[j]
                    if j == i or other == label or self.is_water(other) != water:
                        continue
                    touching = True
                    shared = poly.boundary.intersection(geom.boundary).length
                    if settled[j] and shared > best_len:
                        best, best_len = other, shared
                if best is None and touching:
                    continue
                relabel[i] = best or self._no_neighbour(poly, water, parts, min_island)
            if not relabel:
                # groups of seedless parts touching only each other: islands (or lakes)
                for i, (label, poly) in enumerate(parts):
                    if not settled[i]:
                        relabel[i] = self._no_neighbour(
                            poly, self.is_water(label), parts, min_island
                        )
                if not relabel:
                    return parts
            self.faces = [(relabel.get(i, label), poly) for i, (label, poly) in enumerate(parts)]
        raise SystemExit("orphan repair did not settle")

    def _no_neighbour(self, poly: Any, water: bool, parts: list[Any], min_island: float) -> str:
        if water:
            return LAKE
        return ISLAND if poly.area >= min_island else self._sea_around(poly, parts)

    def _settled(self, label: str, poly: Any) -> bool:
        if label in (UNNAMED, ISLAND, LAKE):
            return True
        return any(poly.covers(Point(xy)) for xy in self.builder.seeds.get(label, []))

    def _sea_around(self, poly: Any, parts: list[tuple[str, Any]]) -> str:
        best, best_len = LAKE, 0.0
        for label, geom in parts:
            if self.is_water(label) and label != LAKE:
                shared = poly.boundary.intersection(geom.boundary).length
                if shared > best_len:
                    best, best_len = label, shared
        return best


# --- anchors -----------------------------------------------------------------------------
def pole(poly: Any, tolerance: float = 1.0) -> Any:
    return ops.polylabel(poly, tolerance=tolerance)


def main_part(geom: Any) -> Any:
    return max(polygons_of(geom), key=lambda p: p.area)


# preferred directions (degrees, y down) of the label, centre and dislodged unit around the
# unit, and the half sizes (px) of their boxes
LABEL_DIRS = (90, 270, 0, 180, 60, 120, 300, 240)
CENTER_DIRS = (330, 210, 30, 150, 270, 90, 0, 180)
DISLODGED_DIRS = (40, 140, 320, 220, 0, 180, 90, 270)
UNIT_BOX = (14.0, 10.0)
LABEL_BOX = (13.0, 6.0)
CENTER_BOX = (7.0, 7.0)
DISLODGED_BOX = (12.0, 10.0)


def anchors_for(prov: str, geom: Any, builder: Builder, px: float) -> dict[str, Any]:
    """Unit, label, centre and dislodged-unit anchors, inside the shape and apart from each
    other: the unit at the most interior point, the others as near to it as they fit, in
    a preferred direction (``px`` is km per pixel)."""
    design = builder.design.get("anchors", {}).get(prov, {})
    body = main_part(geom)

    def at_design(key: str) -> Any:
        return Point(builder.proj(*design[key])) if key in design else None

    unit = at_design("unit") or pole(body, tolerance=px)
    taken = [_box(unit, UNIT_BOX[0] * px, UNIT_BOX[1] * px)]

    def place(key: str, dirs: Sequence[int], half: tuple[float, float]) -> Any:
        spot = at_design(key)
        if spot is None:
            spot = _search(unit, body, taken, dirs, half, px)
        taken.append(_box(spot, half[0] * px, half[1] * px))
        return spot

    label = place("label", LABEL_DIRS, LABEL_BOX)
    center = place("center", CENTER_DIRS, CENTER_BOX)
    dislodged = place("dislodged", DISLODGED_DIRS, DISLODGED_BOX)
    out: dict[str, Any] = {"unit": unit, "label": label, "center": center, "dislodged": dislodged}
    coasts = {
        c: _snap_inside(Point(builder.proj(*xy)), geom, 11 * px)
        for c, xy in design.get("coasts", {}).items()
    }
    if coasts:
        out["coasts"] = coasts
    return out


def _search(
    unit: Any,
    body: Any,
    taken: list[Any],
    dirs: Sequence[int],
    half: tuple[float, float],
    px: float,
) -> Any:
    """The nearest spot around ``unit`` whose box fits in ``body`` without touching the
    boxes already taken; directions in ``dirs`` order at each distance."""
    for margin in (1.5, 0.0):
        inner = body.buffer(-margin * px)
        for dist in range(4, 80, 2):
            for deg in (*dirs, *(d + 22 for d in dirs)):
                angle = math.radians(deg)
                spot = Point(
                    unit.x + math.cos(angle) * dist * px, unit.y + math.sin(angle) * dist * px
                )
                area = _box(spot, half[0] * px, half[1] * px)
                if inner.contains(area) and not any(area.intersects(t) for t in taken):
                    return spot
    return pole(body.difference(shapely.unary_union(taken)), tolerance=px)


def _snap_inside(point: Any, geom: Any, margin: float) -> Any:
    """``point``, or the nearest point at least ``margin`` inside ``geom``."""
    inner = geom.buffer(-margin)
    if inner.is_empty or inner.contains(point):
        return point
    return ops.nearest_points(inner, point)[0]


def _box(p: Any, half_w: float, half_h: float) -> Any:
    return box(p.x - half_w, p.y - half_h, p.x + half_w, p.y + half_h)


# --- output ------------------------------------------------------------------------------
class Writer:
    def __init__(self, builder: Builder) -> None:
        x0, y0, x1, y1 = builder.design["extent_km"]
        self.x0, self.y0 = x0, y0
        self.scale = builder.design["px_per_km"]
        self.width = round((x1 - x0) * self.scale)
        self.height = round((y1 - y0) * self.scale)

    def xy(self, x: float, y: float) -> list[float]:
        return [round((x - self.x0) * self.scale, 1), round((y - self.y0) * self.scale, 1)]

    def rings(self, geom: Any) -> list[list[float]]:
        out = []
        for poly in polygons_of(geom):
            for ring in (poly.exterior, *poly.interiors):
                flat: list[float] = []
                last = None
                for x, y in list(ring.coords)[:-1]:
                    pt = self.xy(x, y)
                    if pt != last:
                        flat.extend(pt)
                    last = pt
                if len(flat) >= 6:
                    out.append(flat)
        return out

    def point(self, p: Any) -> list[float]:
        return self.xy(p.x, p.y)


def build(design: dict[str, Any], atlas: Path, game: dict[str, Any]) -> dict[str, Any]:
    builder = Builder(design, read_countries(atlas), game)
    check_seeds(builder)
    faces = node_and_label(builder.labelled_pieces(), builder.rect)
    parts = Partition(faces, builder).repair()
    labels: dict[str, list[Any]] = defaultdict(list)
    extras: list[tuple[str, Any]] = []
    for label, poly in parts:
        if label in (ISLAND, LAKE, UNNAMED):
            extras.append((label, poly))
        else:
            labels[label].append(poly)
    names = sorted(labels)
    geoms = [shapely.unary_union(labels[n]) for n in names] + [g for _, g in extras]
    simplified = shapely.coverage_simplify(geoms, design["simplify_km"], simplify_boundary=False)
    if not shapely.coverage_is_valid(simplified):
        print("warning: the simplified coverage is not valid", file=sys.stderr)
    writer = Writer(builder)
    km_per_px = 1 / writer.scale
    provinces: dict[str, Any] = {}
    for name, geom in zip(names, simplified, strict=False):
        anchors = anchors_for(name, geom, builder, km_per_px)
        entry: dict[str, Any] = {"rings": writer.rings(geom)}
        for key in ("unit", "label", "center", "dislodged"):
            entry[key] = writer.point(anchors[key])
        if "coasts" in anchors:
            entry["coasts"] = {c: writer.point(p) for c, p in anchors["coasts"].items()}
        provinces[name] = entry
    decorations = []
    for (label, _), geom in zip(extras, simplified[len(names) :], strict=False):
        kind = {ISLAND: "island", LAKE: "lake", UNNAMED: "land"}[label]
        decorations.append({"kind": kind, "rings": writer.rings(geom)})
    for canal in design.get("canals", []):
        line = LineString([builder.proj(*q) for q in canal["line"]])
        decorations.append({"kind": "canal", "rings": writer.rings(line.buffer(canal["width_km"]))})
    return {
        "comment": design.get(
            "output_comment",
            "Generated by tools/build_drawing.py from tools/drawing_design.json and "
            "Natural Earth 1:50m countries (public domain). Do not edit by hand.",
        ),
        "width": writer.width,
        "height": writer.height,
        "provinces": provinces,
        "decorations": decorations,
    }


def check_seeds(builder: Builder) -> None:
    land = shapely.unary_union(list(builder.countries.values()))
    for prov, points in builder.design["seeds"].items():
        water = builder.kinds.get(prov) == SEA
        for lon_lat in points:
            on_land = land.covers(Point(builder.proj(*lon_lat)))
            if on_land == water:
                where = "land" if on_land else "water"
                print(f"note: seed of {prov} at {lon_lat} is on {where}", file=sys.stderr)


def drawn_adjacency(drawing: dict[str, Any]) -> set[frozenset[str]]:
    edges: dict[tuple[tuple[float, float], tuple[float, float]], set[str]] = defaultdict(set)
    for prov, entry in drawing["provinces"].items():
        for flat in entry["rings"]:
            pts = list(zip(flat[::2], flat[1::2], strict=True))
            for a, b in zip(pts, pts[1:] + pts[:1], strict=True):
                edges[(a, b) if a < b else (b, a)].add(prov)
    return {frozenset(s) for s in edges.values() if len(s) == 2}


def report(drawing: dict[str, Any], game: dict[str, Any]) -> None:
    want = {frozenset(pair) for pair in game["army"]}
    want |= {frozenset(p.split("/")[0] for p in pair) for pair in game["fleet"]}
    impassable = {p["id"] for p in game["provinces"] if p["type"] == "impassable"}
    got = {pair for pair in drawn_adjacency(drawing) if not pair & impassable}
    for pair in sorted(sorted(p) for p in got - want):
        print("drawn but not adjacent:", "-".join(pair))
    for pair in sorted(sorted(p) for p in want - got):
        print("adjacent but not drawn:", "-".join(pair))


# --- designs and boards --------------------------------------------------------------------
def load_design(board: str) -> dict[str, Any]:
    """The design of ``board``'s drawing: the standard one, or a board's own changes to it."""
    name = "drawing_design.json" if board == "standard" else f"drawing_design_{board}.json"
    design: dict[str, Any] = json.loads((TOOLS / name).read_text(encoding="utf-8"))
    base = design.pop("base", None)
    return design if base is None else derive_design(load_design(base), design)


def derive_design(base: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key in ("countries", "seeds", "anchors"):
        merged = dict(base.get(key, {}))
        for name, value in changes.get(key, {}).items():
            if value is None:
                merged.pop(name)
            else:
                merged[name] = value
        out[key] = merged
    dropped = set(changes.get("drop_patches", ()))
    out["patches"] = [p for p in base.get("patches", []) if p["comment"] not in dropped]
    out["patches"] += changes.get("patches", [])
    for key, value in changes.items():
        if key not in ("countries", "seeds", "anchors", "drop_patches", "patches"):
            out[key] = value
    return out


def board_data(board: str) -> dict[str, Any]:
    """The board's provinces (id, type) and army and fleet edges, as the map data writes
    them (``realpolitik`` must be importable: run with the project's environment)."""
    from realpolitik.maps import load_map

    game_map = load_map(board)
    provinces = [{"id": p, "type": info.type.value} for p, info in game_map.provinces.items()]
    army = {tuple(sorted((p, q))) for p, near in game_map.army_adjacency.items() for q in near}
    fleet = {tuple(sorted((a, b))) for a, near in game_map.fleet_adjacency.items() for b in near}
    return {"provinces": provinces, "army": sorted(army), "fleet": sorted(fleet)}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--atlas", type=Path, help="an unpacked world-atlas package")
    parser.add_argument("--board", default="standard", help="the board drawn (default standard)")
    parser.add_argument("--output", type=Path, help="default render/data/<board>_drawing.json")
    args = parser.parse_args(argv)
    design = load_design(args.board)
    game = board_data(args.board)
    args.output = args.output or DRAWINGS / f"{args.board}_drawing.json"
    if args.atlas is not None:
        drawing = build(design, args.atlas, game)
    else:
        with tempfile.TemporaryDirectory() as tmp:
            drawing = build(design, fetch_atlas(Path(tmp)), game)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(drawing, separators=(",", ":")) + "\n", encoding="utf-8")
    report(drawing, game)
    return 0


if __name__ == "__main__":
    sys.exit(main())
