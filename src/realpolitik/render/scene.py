"""The state shared by the picture's drawing steps: the board, the drawing, the position,
the orders to draw and where each unit stands."""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field

from realpolitik.adjudicator.results import OrderResult, Resolution
from realpolitik.maps import GameMap
from realpolitik.maps.model import ProvinceInfo
from realpolitik.orders import Build, Order
from realpolitik.position import Position
from realpolitik.render.drawing import Drawing
from realpolitik.render.geometry import Point, bent, spline, through
from realpolitik.render.words import Words
from realpolitik.vocab import FLEET, Location, Power, Province, Unit, UnitType, province_of

FAILED = {
    OrderResult.FAILS,
    OrderResult.CUT,
    OrderResult.DISRUPTED,
    OrderResult.ILLEGAL,
    OrderResult.INVALID,
    OrderResult.DISLODGED,
    OrderResult.DESTROYED,
}
UNIT_RADIUS = 12.0
WAY_ASIDE = 3.0
"""How far to the right of its way an arrow passes the points of a way at sea (whatever
the units' size: ``tools/build_ways.py`` checks the curve so, each way, in the straits)."""
FLEET_REACH = (16.0, 13.0)
"""A fleet token's half width and half height (render/units.py's hull, ±15, and sail)."""


@dataclass(frozen=True, slots=True)
class DrawnOrder:
    """An order to draw, with its result when known."""

    power: Power
    order: Order
    result: OrderResult | None = None
    fate: OrderResult | None = None
    implied: bool = False

    @property
    def failed(self) -> bool:
        return self.result in FAILED


@dataclass(frozen=True, slots=True)
class Token:
    """A unit's token as the picture draws it: where, how large, and whether the unit is
    dislodged (set aside) or being built (a ghost)."""

    unit: Unit
    at: Point
    scale: float
    dislodged: bool = False
    ghost: bool = False


@dataclass
class Layers:
    provinces: list[str] = field(default_factory=list)
    decorations: list[str] = field(default_factory=list)
    centers: list[str] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)
    orders: list[str] = field(default_factory=list)
    heads: list[str] = field(default_factory=list)  # the arrows' heads, over the names
    units: list[str] = field(default_factory=list)
    marks: list[str] = field(default_factory=list)


class Scene:
    """What one picture draws, and where its units stand."""

    def __init__(
        self,
        game_map: GameMap,
        drawing: Drawing,
        position: Position,
        drawn: list[DrawnOrder],
        results: Resolution | None,
        id_prefix: str,
        words: Words,
        *,
        unit_scale: float = 1.0,
    ) -> None:
        self.map = game_map
        self.drawing = drawing
        self.position = position
        self.drawn = drawn
        self.results = results
        self.prefix = id_prefix
        self.words = words
        self.scale = unit_scale  # the units' size, and the rings and ends of orders with it
        self.radius = UNIT_RADIUS * unit_scale
        self.move_paths: dict[tuple[Province, Province], list[Point]] = {}
        # the fleets each drawn move goes through (a convoy on it draws no way of its own)
        self.move_routes: dict[tuple[Province, Province], set[Province]] = {}

    def title(self, d: DrawnOrder) -> str:
        """The tooltip of an order: power, order and result in the picture's language."""
        colon = self.words.data["messages"]["colon"]  # French: "France : A Par-Bur"
        text = f"{self.words.power(d.power)}{colon}{self.words.order(d.order)}"
        return text + (f" — {self.words.result(d.result)}" if d.result is not None else "")

    def on_board(self, pid: Province) -> ProvinceInfo | None:
        """The province ``pid`` of this board, or ``None`` for one it has not (a province
        of the drawing only, or one a smaller board took away: drawn out of play, unnamed)."""
        return None if pid in self.map.removed else self.map.provinces.get(pid)

    def unit_point(self, loc: str, *, retreating: bool = False) -> Point:
        prov = province_of(loc)
        if retreating and prov in self.position.dislodged:
            return self.drawing.provinces[prov].dislodged
        unit = self.position.units.get(prov)
        if unit is not None:
            return self.drawing.point(unit.location)
        return self.drawing.point(loc)

    def clearance(self, prov: Province, before: Point, end: Point) -> float:
        """How far short of ``end`` an arrow arriving from ``before`` stops: clear of the
        unit standing in ``prov`` (a fleet's hull is wider than it is tall: an arrow
        coming from the side stopped under it), else just short of the spot."""
        unit = self.position.units.get(prov)
        if unit is None:
            return 3.0
        if unit.type is not FLEET:
            return self.radius + 1
        dx, dy = end[0] - before[0], end[1] - before[1]
        length = math.hypot(dx, dy)
        across, along = FLEET_REACH  # an ellipse round the hull and the sail
        if length == 0:  # from nowhere (an illegal move to its own province): the widest
            return across * self.scale + 1
        edge = across * along / math.hypot(along * dx / length, across * dy / length)
        return edge * self.scale + 1

    def tokens(self) -> list[Token]:
        """Every unit token drawn, in drawing order: the dislodged units first, set aside
        beside the unit that took their place and under it (enlarged, a little smaller: their
        ring reaches that unit), then the units, then the builds ordered."""
        aside = 1.0 if self.scale == 1 else 0.8 * self.scale
        out = [
            Token(dis.unit, self.drawing.provinces[prov].dislodged, aside, dislodged=True)
            for prov, dis in sorted(self.position.dislodged.items())
            if prov in self.drawing.provinces
        ]
        for unit in sorted(self.position.units.values(), key=lambda u: u.location):
            if self.drawable(unit.location):
                out.append(Token(unit, self.drawing.point(unit.location), self.scale))
        for d in self.drawn:
            if isinstance(d.order, Build) and d.order.unit.type is not None:
                unit = Unit(d.power, d.order.unit.type, d.order.unit.location)
                out.append(Token(unit, self.build_point(unit.location), self.scale, ghost=True))
        return out

    def build_point(self, loc: str) -> Point:
        """Where a build at ``loc`` is drawn: in its place, or beside the unit already
        there (a build refused as the province is occupied: not over that unit)."""
        prov = province_of(loc)
        if prov in self.position.units:
            return self.drawing.provinces[prov].dislodged
        return self.drawing.point(loc)

    def dest_point(
        self, loc: str, unit_type: UnitType | None, origin: Location | None = None
    ) -> Point:
        """Where an order going to ``loc`` ends: a fleet's, naming no coast, at the coast
        it can reach from ``origin`` (where the unit stands, or stood before it was
        dislodged), else at the province's first coast."""
        return self.drawing.point(self.dest_location(loc, unit_type, origin))

    def dest_location(
        self, loc: str, unit_type: UnitType | None, origin: Location | None = None
    ) -> Location:
        """The location :meth:`dest_point` draws an order going to ``loc`` to."""
        if "/" in loc or unit_type is not FLEET:
            return loc
        coasts = self.map.coasts(province_of(loc))
        if coasts:
            reach = () if origin is None else self.map.fleet_destinations(origin, loc)
            return reach[0] if len(reach) == 1 else f"{loc}/{coasts[0]}"
        return loc

    def standing(self, loc: Location, *, retreating: bool = False) -> Location:
        """Where the unit ordered at ``loc`` stands, its coast named (an order may name
        none: ``F SPA``); ``retreating``: the dislodged one's."""
        prov = province_of(loc)
        dislodged = self.position.dislodged.get(prov) if retreating else None
        unit = dislodged.unit if dislodged is not None else self.position.units.get(prov)
        return unit.location if unit is not None else loc

    def standoffs(self) -> frozenset[Province]:
        """The provinces left empty by a standoff, each marked by a burst: those of this
        movement phase's result, or, in a retreat phase, those the position remembers (no
        retreat may go there) and those two retreats bounced in (both disbanded)."""
        if self.results is not None and self.results.phase.is_movement:
            return self.results.position.contested
        if not self.position.dislodged:
            return frozenset()
        bounced = {
            o.reason.province
            for o in (self.results.outcomes if self.results is not None else ())
            if o.reason is not None and o.reason.key == "retreats_bounced"
        }
        return self.position.contested | bounced

    def fleet_way(
        self, src: Location, dst: Location, ends: tuple[Point, Point], bend: float
    ) -> list[Point]:
        """A fleet's arrow from ``src`` to ``dst`` (drawn between the points ``ends``):
        bent (see :func:`bent`), or through the drawing's way between them where a curve
        would cross a third province's land (``F MAO - WES``: by Gibraltar, not over Spain)."""
        way = self.drawing.ways.get((src, dst))
        if way is None:
            return bent(*ends, bend)
        return through(ends[0], way, ends[1], WAY_ASIDE)  # (as tools/build_ways.py checked it)

    def sea_route(self, stops: list[tuple[Location, Point]]) -> list[Point]:
        """A convoyed army's arrow through its stops (its province, the fleets, the
        destination), by the drawing's ways between stops where a straight line would
        cross a third province's land."""
        points = [stops[0][1]]
        for (a, _), (b, q) in itertools.pairwise(stops):
            points += [*self.drawing.ways.get((a, b), ()), q]
        return spline(points)

    def drawable(self, *locs: str) -> bool:
        return all(province_of(loc) in self.drawing.provinces for loc in locs)
