"""Orders drawn on the map: move arrows (bent, so that opposite moves stay apart), convoy
routes through the fleets (a convoy whose move is not drawn through it draws the army's
way itself), support lines ending at the supported move or unit (a move not drawn is
drawn for the support, thin and dashed, ✗ when it was not made), hold and convoy rings,
retreats and retreat options; failed orders dashed and marked ✗."""

from __future__ import annotations

from collections.abc import Sequence

from realpolitik.adjudicator.results import OrderResult
from realpolitik.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Retreat,
    SupportHold,
    SupportMove,
    UnitRef,
    Waive,
)
from realpolitik.render import style
from realpolitik.render.geometry import Point, arrowhead, at, bent, fmt, path_d, trim
from realpolitik.render.marks import SHORT_OF_BURST, cross
from realpolitik.render.scene import DrawnOrder, Layers, Scene
from realpolitik.render.svgutil import Element, esc
from realpolitik.vocab import FLEET, Location, Province, UnitType, province_of


class OrderPainter(Scene):
    """Draws the orders of a :class:`Scene` into its layers."""

    def draw_orders(self, layers: Layers) -> None:
        occupied = {province_of(u.location) for u in self.position.units.values()}
        standoffs = self.standoffs()
        # moves first: supports and convoys point at them
        for d in self.drawn:
            if isinstance(d.order, Move) and self.drawable(d.order.unit.location):
                self._move(layers, d, occupied, standoffs)
        for d in self.drawn:
            order = d.order
            if isinstance(order, Move | Waive) or not self.drawable(order.unit.location):
                continue
            if isinstance(order, Hold):
                if not d.implied:
                    self._ring(layers, d, self.unit_point(order.unit.location), dash=d.failed)
            elif isinstance(order, SupportHold):
                self._support_hold(layers, d)
            elif isinstance(order, SupportMove):
                self._support_move(layers, d)
            elif isinstance(order, Convoy):
                self._convoy(layers, d)
            elif isinstance(order, Retreat):
                self._retreat(layers, d, standoffs)
            elif isinstance(order, Disband):
                retreating = province_of(order.unit.location) in self.position.dislodged
                p = self.unit_point(order.unit.location, retreating=retreating)
                layers.marks.append(cross(p[0], p[1], 11 * self.scale, style.FAIL, width=3.2))
            elif isinstance(order, Build) and d.failed:  # refused: a failed order's small ✗
                p = self.build_point(order.unit.location)  # by the ghost, not a removal's over it
                corner = 13 * self.scale
                layers.marks.append(cross(p[0] + corner, p[1] - corner, 6.5, style.FAIL))
        self._retreat_options(layers)

    def _line_style(self, d: DrawnOrder) -> tuple[str, str]:
        colour = style.power_colour(d.power, self.map.powers)
        return colour, style.contrast(colour) if not style.is_light(colour) else "#1a1a1a"

    def _stroke(
        self,
        layers: Layers,
        d: DrawnOrder,
        points: Sequence[Point],
        width: float,
        *,
        head: bool,
        cls: str,
        dash: str | None = None,
        title: str | None = None,
    ) -> None:
        colour, halo = self._line_style(d)
        if not style.is_light(colour):
            halo = "#ffffff"
        dash = "7 4" if d.failed else dash
        line = list(points)
        tri: list[Point] = []
        if head:
            line, tri = arrowhead(points, max(width * 3.2, 9.0))
        group = Element(
            "g", class_=f"order {cls} {d.power.lower()}" + (" failed" if d.failed else "")
        )
        group.children.append(f"<title>{esc(title or self.title(d))}</title>")
        # the head apart, over the names: a name under the unit an arrow reaches hid it
        head_group = Element("g", class_=f"head {d.power.lower()}")
        for stroke, w in ((halo, width + 2.4), (colour, width)):
            group.children.append(
                Element(
                    "path",
                    d=path_d(line),
                    fill="none",
                    stroke=stroke,
                    stroke_width=fmt(w),
                    stroke_linecap="round" if not dash else "butt",
                    stroke_linejoin="round",
                    stroke_dasharray=dash,
                ).svg()
            )
            if tri:
                head_group.children.append(
                    Element(
                        "path",
                        d=path_d(tri, closed=True),
                        fill=colour if stroke == colour else halo,
                        stroke=stroke,
                        stroke_width=fmt(1.2 if stroke == halo else 0.1),
                        stroke_linejoin="round",
                    ).svg()
                )
        layers.orders.append(group.svg())
        if tri:
            layers.heads.append(head_group.svg())

    def _move(
        self,
        layers: Layers,
        d: DrawnOrder,
        occupied: set[Province],
        standoffs: frozenset[Province],
    ) -> None:
        order = d.order
        assert isinstance(order, Move)
        src = self.unit_point(order.unit.location)
        if not self.drawable(order.destination):
            return
        standing = self.standing(order.unit.location)
        to = self.dest_location(order.destination, order.unit.type, standing)
        dst = self.drawing.point(to)
        into = province_of(order.destination)
        route = self._convoy_route(order)
        self.move_routes[(order.unit.province, into)] = set(route)
        if route:
            stops = [(f, self.unit_point(f)) for f in route]
            points = self.sea_route([(standing, src), *stops, (to, dst)])
        else:
            points = self._way(self._kind(order.unit), (standing, to), (src, dst), 0.14)
        if into in occupied:
            end = self.clearance(into, at(points, 0.9), dst)
        elif into in standoffs:
            end = SHORT_OF_BURST
        else:
            end = 3.0
        points = trim(points, self.radius - 1, end)
        self.move_paths[(order.unit.province, province_of(order.destination))] = points
        self._stroke(layers, d, points, 3.4, head=True, cls="move")
        if d.failed:  # (past the middle, where supports end: the ✗ not on their dot)
            x, y = at(points, 0.72)
            layers.marks.append(cross(x, y, 6.5, style.FAIL))

    def _way(
        self,
        kind: UnitType | None,
        locations: tuple[Location, Location],
        ends: tuple[Point, Point],
        bend: float,
    ) -> list[Point]:
        """The arrow of a unit of ``kind`` moving (or retreating) between two locations,
        drawn between ``ends``: a fleet's keeps to the sea (see :meth:`fleet_way`), any
        other is bent."""
        if kind is FLEET:
            return self.fleet_way(*locations, ends, bend)
        return bent(*ends, bend)

    def _kind(self, unit: UnitRef) -> UnitType | None:
        """The type of the unit an order names: as named, else of the unit standing there."""
        standing = self.position.units.get(unit.province)
        return unit.type if unit.type is not None or standing is None else standing.type

    def _convoy_route(self, order: Move) -> list[Province]:
        """The convoying fleets, in route order, when the army goes by sea."""
        src, dst = order.unit.province, province_of(order.destination)
        if not order.via_convoy and dst in self.map.army_adjacency.get(src, frozenset()):
            return []
        return self._chain(src, dst)

    def _convoys_of(self, src: Province, dst: Province) -> dict[Province, DrawnOrder]:
        """The drawn convoys of the army in ``src`` to ``dst``, by fleet."""
        found = {}
        for d in self.drawn:
            order = d.order
            if (
                isinstance(order, Convoy)
                and order.convoyed.province == src
                and province_of(order.destination) == dst
                and self.drawable(order.unit.location)
            ):
                found[order.unit.province] = d
        return dict(sorted(found.items()))

    def _chain(self, src: Province, dst: Province) -> list[Province]:
        """The shortest chain of fleets convoying the army in ``src`` to ``dst``, from the
        army's side, or ``[]``: whatever order the convoys were given in. A chain of
        convoys not disrupted first (the route that carried the army: DATC 6.F.9), else
        of them all (the route the move that failed was to take)."""
        convoys = self._convoys_of(src, dst)
        working = {fleet for fleet, d in convoys.items() if not d.failed}
        return self._search(src, dst, working) or self._search(src, dst, set(convoys))

    def _search(self, src: Province, dst: Province, fleets: set[Province]) -> list[Province]:
        """The shortest chain of ``fleets`` from the army in ``src`` to ``dst``, or ``[]``."""
        if not fleets:
            return []
        # breadth-first search from the army through convoying fleets to the destination
        adjacency = self.map.any_adjacency
        previous: dict[Province, Province] = {}
        frontier = [src]
        seen = {src}
        while frontier:
            nxt = []
            for here in frontier:
                for there in sorted(adjacency.get(here, frozenset())):
                    if there in seen:
                        continue
                    if there == dst and here != src:
                        chain = [here]
                        while chain[-1] in previous and previous[chain[-1]] != src:
                            chain.append(previous[chain[-1]])
                        return list(reversed(chain))
                    if there in fleets:
                        seen.add(there)
                        previous[there] = here
                        nxt.append(there)
            frontier = nxt
        return []

    def _ring(self, layers: Layers, d: DrawnOrder, p: Point, *, dash: bool) -> None:
        cls = "hold" + (" failed" if dash else "")
        self._haloed_circle(layers, d, p, cls, 16 * self.scale, (5.0, 2.8), "6 4" if dash else None)

    def _haloed_circle(
        self,
        layers: Layers,
        d: DrawnOrder,
        p: Point,
        cls: str,
        radius: float,
        widths: tuple[float, float],
        dash: str | None,
    ) -> None:
        """A ring round a unit in the power's colour over a contrasting halo."""
        colour, _ = self._line_style(d)
        halo = "#1a1a1a" if style.is_light(colour) else "#ffffff"
        group = Element("g", class_=f"order {cls.split()[0]} {d.power.lower()}"
                        + "".join(f" {c}" for c in cls.split()[1:]))  # fmt: skip
        group.children.append(f"<title>{esc(self.title(d))}</title>")
        for stroke, w in ((halo, widths[0]), (colour, widths[1])):
            group.children.append(
                Element(
                    "circle",
                    cx=fmt(p[0]),
                    cy=fmt(p[1]),
                    r=fmt(radius),
                    fill="none",
                    stroke=stroke,
                    stroke_width=fmt(w),
                    stroke_dasharray=dash,
                ).svg()
            )
        layers.orders.append(group.svg())

    def _support_hold(self, layers: Layers, d: DrawnOrder) -> None:
        order = d.order
        assert isinstance(order, SupportHold)
        if not self.drawable(order.supported.location):
            return
        src = self.unit_point(order.unit.location)
        target = self.unit_point(order.supported.location)
        points = trim(bent(src, target, 0.08), self.radius - 1, 17 * self.scale)
        self._stroke(layers, d, points, 1.9, head=False, cls="support")
        colour, _ = self._line_style(d)
        layers.orders.append(
            Element(
                "circle",
                cx=fmt(target[0]),
                cy=fmt(target[1]),
                r=fmt(16 * self.scale),
                fill="none",
                stroke=colour if not style.is_light(colour) else "#1a1a1a",
                stroke_width="1.6",
                stroke_dasharray="3 2" if d.failed else None,
            ).svg()
        )
        if d.failed:
            x, y = at(points, 0.35)
            layers.marks.append(cross(x, y, 5.5, style.FAIL))

    def _support_move(self, layers: Layers, d: DrawnOrder) -> None:
        order = d.order
        assert isinstance(order, SupportMove)
        if not self.drawable(order.supported.location, order.destination):
            return
        src = self.unit_point(order.unit.location)
        key = (order.supported.province, province_of(order.destination))
        path = self.move_paths.get(key)
        unmatched = False
        if path is None:
            path, unmatched = self._unmade_move(layers, d)
        target = at(path, 0.5)  # (the ✗ of a failed move is further on)
        points = trim(bent(src, target, 0.08), self.radius - 1, 2.5)
        self._stroke(layers, d, points, 1.9, head=False, cls="support")
        colour, _ = self._line_style(d)
        layers.orders.append(
            Element(
                "circle",
                cx=fmt(target[0]),
                cy=fmt(target[1]),
                r="3.6",
                fill=colour,
                stroke="#1a1a1a" if style.is_light(colour) else "#ffffff",
                stroke_width="1.2",
            ).svg()
        )
        if unmatched:  # the ✗ on the move that was not made
            x, y = at(path, 0.72)
            layers.marks.append(cross(x, y, 6.5, style.FAIL))
        elif d.failed:
            x, y = at(points, 0.35)
            layers.marks.append(cross(x, y, 5.5, style.FAIL))

    def _unmade_move(self, layers: Layers, d: DrawnOrder) -> tuple[list[Point], bool]:
        """The move a support names, drawn when nobody drew it: a thin dashed arrow from
        the supported unit to the destination, which the support's line reaches (not an
        empty spot). Returns its points, and whether it is known not to be made: the
        support's result says so, or the supported unit is given another order (it holds,
        or moves elsewhere). A move not known (an ally's order not shown) is not marked."""
        order = d.order
        assert isinstance(order, SupportMove)
        supported = order.supported.province
        start = self.unit_point(order.supported.location)
        standing = self.standing(order.supported.location)
        to = self.dest_location(order.destination, order.supported.type, standing)
        end = self.drawing.point(to)
        into = province_of(order.destination)
        path = self._way(self._kind(order.supported), (standing, to), (start, end), 0.14)
        path = trim(path, self.radius - 1, self.clearance(into, at(path, 0.9), end))
        others = [
            o.order
            for o in self.drawn
            if o is not d and not isinstance(o.order, Waive) and o.order.unit.province == supported
        ]
        unmatched = d.result is OrderResult.INVALID or bool(others)
        self._stroke(
            layers,
            d,
            path,
            1.5,
            head=True,
            cls="supported-move" + (" unmatched" if unmatched else ""),
            dash="5 4",
        )
        return path, unmatched

    def _convoy(self, layers: Layers, d: DrawnOrder) -> None:
        order = d.order
        assert isinstance(order, Convoy)
        p = self.unit_point(order.unit.location)
        self._haloed_circle(layers, d, p, "convoy", 17 * self.scale, (4.4, 2.4), "2 3")
        fleet = order.unit.province
        src, dst = order.convoyed.province, province_of(order.destination)
        if fleet not in self.move_routes.get((src, dst), ()) and self.drawable(
            order.convoyed.location, order.destination
        ):
            self._convoy_route_line(layers, d)
        if d.failed:
            corner = 12 * self.scale
            layers.marks.append(cross(p[0] + corner, p[1] - corner, 5.5, style.FAIL))

    def _convoy_route_line(self, layers: Layers, d: DrawnOrder) -> None:
        """The army's way through the convoying fleets to its destination, drawn by the
        convoy when that move is not drawn through this fleet (not ordered yet, another
        power's order not shown, or a move by land): a thin dotted arrow, once for the
        fleets of one chain, so that a convoy always shows where it carries the army."""
        order = d.order
        assert isinstance(order, Convoy)
        src, dst = order.convoyed.province, province_of(order.destination)
        fleet = order.unit.province
        chain = self._chain(src, dst)
        if fleet in chain:
            if fleet != chain[0]:
                return  # the chain's first fleet draws it
        else:
            chain = [fleet]  # a fleet off any chain: its own way
        convoys = self._convoys_of(src, dst)
        start = self.unit_point(order.convoyed.location)
        end = self.dest_point(order.destination, None)
        stops = [(f, self.unit_point(f)) for f in chain]
        army = self.standing(order.convoyed.location)
        points = self.sea_route([(army, start), *stops, (order.destination, end)])
        points = trim(points, self.radius - 1, self.clearance(dst, at(points, 0.9), end))
        title = "\n".join(self.title(convoys[f]) for f in chain if f in convoys)
        self._stroke(layers, d, points, 1.6, head=True, cls="convoy-route", dash="2 4", title=title)

    def _retreat(self, layers: Layers, d: DrawnOrder, standoffs: frozenset[Province]) -> None:
        order = d.order
        assert isinstance(order, Retreat)
        if not self.drawable(order.destination):
            return
        src = self.unit_point(order.unit.location, retreating=True)
        standing = self.standing(order.unit.location, retreating=True)
        to = self.dest_location(order.destination, order.unit.type, standing)
        dst = self.drawing.point(to)
        end = SHORT_OF_BURST if province_of(order.destination) in standoffs else 4
        dislodged = self.position.dislodged.get(order.unit.province)
        kind = dislodged.unit.type if dislodged is not None else order.unit.type
        points = trim(self._way(kind, (standing, to), (src, dst), 0.1), self.radius, end)
        self._stroke(layers, d, points, 3.0, head=True, cls="retreat")
        if d.failed:
            x, y = at(points, 0.6)
            layers.marks.append(cross(x, y, 6.5, style.FAIL))

    def _retreat_options(self, layers: Layers) -> None:
        ordered = {
            province_of(d.order.unit.location)
            for d in self.drawn
            if isinstance(d.order, Retreat | Disband)
        }
        for prov, dis in sorted(self.position.dislodged.items()):
            if prov in ordered or prov not in self.drawing.provinces:
                continue
            src = self.drawing.provinces[prov].dislodged
            for loc in dis.retreats:
                if not self.drawable(loc):
                    continue
                ends = (src, self.drawing.point(loc))
                way = self._way(dis.unit.type, (dis.unit.location, loc), ends, 0.1)
                points = trim(way, self.radius + 3, 6)
                line, tri = arrowhead(points, 7)
                layers.orders.append(
                    Element(
                        "g",
                        class_="retreat-option",
                        children=[
                            Element(
                                "path",
                                d=path_d(line),
                                fill="none",
                                stroke=style.FAIL,
                                stroke_width="1.6",
                                stroke_dasharray="2 3",
                            ).svg(),
                            Element("path", d=path_d(tri, closed=True), fill=style.FAIL).svg(),
                        ],
                    ).svg()
                )
            if not dis.retreats:
                x, y = self.drawing.provinces[prov].dislodged
                layers.marks.append(cross(x, y, 11 * self.scale, style.FAIL, width=3.2))

    # --- marks -------------------------------------------------------------------------
