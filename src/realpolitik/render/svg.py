"""The map picture as SVG: ``render(position, orders=..., results=...) -> str``.

A pure function of its inputs. Layers, bottom to top: provinces (one ``<path>`` per
province, ``id`` = the province id, so a browser can click it), decorations, supply
centres, orders, names, the arrows' heads, units, result marks, the legend.

>>> from realpolitik import load_map, Position
>>> svg = render(Position.initial(load_map("standard")))
>>> svg.startswith("<svg")
True
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from realpolitik.adjudicator.results import OrderResult, Resolution
from realpolitik.game.victory import Alliance
from realpolitik.maps import GameMap, load_map
from realpolitik.maps.model import ProvinceType
from realpolitik.orders import Build, Order, UnitRef, Waive
from realpolitik.phase import Phase
from realpolitik.position import Position
from realpolitik.render import style
from realpolitik.render.drawing import Drawing, drawing_for, path_data
from realpolitik.render.geometry import clear_of, fmt
from realpolitik.render.legend import legend_svg, legend_width, phase_name
from realpolitik.render.marks import STAR, burst, cross, star
from realpolitik.render.orders import OrderPainter
from realpolitik.render.scene import DrawnOrder, Layers, Token
from realpolitik.render.svgutil import Element, esc
from realpolitik.render.units import token_box, unit_token
from realpolitik.render.words import Words
from realpolitik.rules import rules_for
from realpolitik.vocab import ARMY, Power, Province, province_of


def render(
    position: Position,
    *,
    game_map: GameMap | None = None,
    orders: Mapping[Power, Sequence[Order]] | None = None,
    results: Resolution | None = None,
    phase: Phase | None = None,
    language: str = "en",
    labels: str = "short",
    names: Mapping[Province, str] | None = None,
    title: str | None = None,
    legend: bool = True,
    id_prefix: str = "",
    drawing: Drawing | None = None,
    blank: bool = False,
    edition: str | None = None,
    unit_scale: float = 1.0,
    unplayed: Collection[Power] = (),
    unread: Mapping[Power, Sequence[str]] | None = None,
    alliances: Sequence[Alliance] = (),
) -> str:
    """Draw ``position`` (units, dislodged units with their retreats, centre owners) and,
    when given, the ``orders`` of each power and their ``results`` (the resolution of
    those orders from this position: failed orders are dashed and marked ✗, dislodged
    units marked, standoffs shown). ``labels`` is ``"short"`` (``LON``) or ``"long"``
    (``London``), in ``language`` (``en``, ``es``, ``fr``, ``pt``: province names, dates,
    powers, orders and results come from the notation lexicons; ``edition`` picks its
    season words, e.g. grow's); ``names`` maps province ids to names that override them.
    ``id_prefix`` is put before every element id (several maps on one page); ``blank``
    leaves the legend's phase and counts to be written in (a map pad). ``unit_scale`` draws
    the units that many times larger, and the rings round them and the ends of the orders
    at them with them (the web page's board: 2). ``unplayed``: the powers nobody plays
    (a table's out powers, a neutral power: :meth:`Game.unplayed`), set apart in the legend
    from the powers in play. ``unread``: each power's order texts that could not be read
    (a situation's), listed in the legend as illegal, as ``realpolitik adjudicate`` says."""
    game_map = game_map or load_map("standard")
    drawing = drawing or drawing_for(game_map)
    if labels not in ("short", "long"):
        raise ValueError(f"labels must be 'short' or 'long', not {labels!r}")
    phase = phase or (results.phase if results is not None else None)
    if not 0 < unit_scale <= 4:
        raise ValueError(f"unit_scale must be above 0 and at most 4, not {unit_scale!r}")
    unknown = sorted(set(unplayed) - set(game_map.powers))
    if unknown:
        raise ValueError(f"unplayed powers {unknown} are not powers of the {game_map.name} board")
    drawn = _drawn_orders(orders, results)
    words = Words(language, game_map=game_map, names=names, edition=edition)
    scene = _Scene(
        game_map, drawing, position, drawn, results, id_prefix, words, unit_scale=unit_scale
    )
    layers = Layers()
    scene.draw_provinces(layers)
    scene.draw_centers(layers)
    scene.draw_labels(layers, labels)
    scene.draw_orders(layers)
    scene.draw_units(layers)
    scene.draw_marks(layers)
    width = drawing.width + (legend_width() if legend else 0)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{fmt(width)}" '
        f'height="{fmt(drawing.height)}" viewBox="0 0 {fmt(width)} {fmt(drawing.height)}" '
        f'font-family="DejaVu Sans, Verdana, Arial, sans-serif">',
        f"<title>{esc(title or _title(game_map, phase, words))}</title>",
        f'<rect width="{fmt(width)}" height="{fmt(drawing.height)}" fill="{style.SEA}"/>',
    ]
    layer_names = ("provinces", "decorations", "centers", "orders", "labels", "heads", "units")
    for name in (*layer_names, "marks"):
        # only the provinces take clicks: everything drawn over them lets clicks through
        events = "" if name == "provinces" else ' pointer-events="none"'
        out.append(f'<g id="{id_prefix}{name}"{events}>')
        out.extend(getattr(layers, name))
        out.append("</g>")
    if legend:
        out.append(
            legend_svg(
                game_map,
                position,
                phase,
                drawn,
                x=drawing.width,
                height=drawing.height,
                title=title,
                id_prefix=id_prefix,
                blank=blank,
                words=words,
                rules=None if edition is None else rules_for(edition),
                unplayed=frozenset(unplayed),
                unread=unread or {},
                alliances=alliances,
            )
        )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _title(game_map: GameMap, phase: Phase | None, words: Words) -> str:
    return words.title(game_map) + (f" — {phase_name(phase, words)}" if phase is not None else "")


def _drawn_orders(
    orders: Mapping[Power, Sequence[Order]] | None, results: Resolution | None
) -> list[DrawnOrder]:
    if results is not None:
        return [DrawnOrder(o.power, o.order, o.result, o.fate, o.implied) for o in results.outcomes]
    out: list[DrawnOrder] = []
    for power, items in (orders or {}).items():
        out.extend(DrawnOrder(power.upper(), order) for order in items)
    return out


class _Scene(OrderPainter):
    def draw_provinces(self, layers: Layers) -> None:
        owners = self.position.centers
        seas: list[str] = []
        lands: list[str] = []
        for pid in sorted(self.drawing.provinces):
            info = self.on_board(pid)
            classes = ["province"]
            owner = None
            if info is None:
                fill, stroke, width = style.INACTIVE, style.BORDER, 0.6
                classes.append("inactive")
            elif info.type is ProvinceType.SEA:
                fill, stroke, width = style.SEA, style.SEA_BORDER, 0.9
                classes.append("sea")
            elif info.type is ProvinceType.IMPASSABLE:
                fill, stroke, width = style.IMPASSABLE, style.BORDER, 0.8
                classes.append("impassable")
            else:
                owner = owners.get(pid) if info.center else None
                fill = style.LAND
                if owner is not None:
                    fill = style.power_tint(owner, self.map.powers)
                stroke, width = style.BORDER, 0.8
                classes.append(info.type.value)
            el = Element(
                "path",
                id=f"{self.prefix}{pid}",
                d=self.drawing.path(pid),
                fill=fill,
                stroke=stroke,
                stroke_width=fmt(width),
                stroke_linejoin="round",
                fill_rule="evenodd",
            )
            el.attrs["class"] = " ".join(classes)
            if owner is not None:  # the page's legend shows each power's tint
                el.attrs["data-owner"] = owner
            # (the province's name as a tooltip, in the picture's language)
            name = self.words.province(pid, "long") if info is not None else pid
            el.children.append(f"<title>{esc(name)}</title>")
            (seas if "sea" in classes else lands).append(el.svg())
        layers.provinces.extend(seas + lands)
        colours = {
            "island": style.ISLAND,
            "land": style.UNNAMED,
            "lake": style.LAKE,
            "canal": style.SEA,
        }
        for deco in self.drawing.decorations:
            stroke = style.COAST if deco.kind != "land" else style.BORDER
            layers.decorations.append(
                Element(
                    "path",
                    d=path_data(deco.rings),
                    fill=colours.get(deco.kind, style.UNNAMED),
                    stroke=stroke,
                    stroke_width="0.6",
                    fill_rule="evenodd",
                    class_=f"decoration {deco.kind}",
                ).svg()
            )
        self._draw_cut_off(layers)

    def _draw_cut_off(self, layers: Layers) -> None:
        """Hatch the provinces no unit of the main board can enter (a neutral Italy until
        its year): they looked like any power's land."""
        cut = sorted(p for p in self.map.cut_off if p in self.drawing.provinces)
        if not cut:
            return
        pattern = f"{self.prefix}cut-off-hatch"
        layers.decorations.append(
            f'<defs><pattern id="{pattern}" width="7" height="7" patternUnits="userSpaceOnUse"'
            ' patternTransform="rotate(45)"><path d="M0,0V7" stroke="#5b4a30" stroke-width="1.6"'
            ' stroke-opacity="0.45"/></pattern></defs>'
        )
        for pid in cut:
            layers.decorations.append(
                Element(
                    "path",
                    d=self.drawing.path(pid),
                    fill=f"url(#{pattern})",
                    stroke="none",
                    fill_rule="evenodd",
                    class_="cut-off",
                    data_province=pid,
                ).svg()
            )

    def draw_centers(self, layers: Layers) -> None:
        tokens = self.tokens()
        for pid in sorted(self.map.centers):
            prov = self.drawing.provinces.get(pid)
            if prov is None:
                continue
            owner = self.position.centers.get(pid)
            # clear of the units drawn there (larger on the web page's board: they hid it)
            x, y = prov.center
            for token in tokens:
                if province_of(token.unit.location) == pid:
                    box = token_box(token.unit.type, token.scale)
                    x, y = clear_of((x, y), token.at, box, STAR + 1.5)
            fill = style.power_colour(owner, self.map.powers) if owner else "none"
            layers.centers.append(
                Element(
                    "path",
                    d=star(x, y, STAR, 2.8),
                    fill=fill,
                    stroke="#3d3424",
                    stroke_width="1.1",
                    stroke_linejoin="round",
                    class_="center" + (f" {owner.lower()}" if owner else " neutral"),
                    data_province=pid,
                ).svg()
            )
            if not owner:
                layers.centers.append(
                    Element("circle", cx=fmt(x), cy=fmt(y), r="1.6", fill="#3d3424").svg()
                )

    def draw_labels(self, layers: Layers, labels: str) -> None:
        tokens = self.tokens()
        for pid, prov in sorted(self.drawing.provinces.items()):
            info = self.on_board(pid)
            if info is None:
                continue
            sea = info.type is ProvinceType.SEA
            name = self.words.province(pid, labels)
            size, lines = label_lines(name, labels, prov.label[1])
            # clear of the units drawn over it (larger on the web page's board: they hid it)
            wide = max(len(line) for line, _ in lines) * size * LETTER / 2
            high = (lines[-1][1] - lines[0][1]) / 2 + size * 0.4
            x, y = prov.label
            for token in tokens:
                left, top, right, bottom = token_box(token.unit.type, token.scale)
                box = (left - wide, top - high, right + wide, bottom + high)
                x, y = clear_of((x, y), token.at, box, 1.5)
            colour = style.SEA_TEXT if sea else style.TEXT
            size, baselines = label_lines(name, labels, y)
            for line, baseline in baselines:
                layers.labels.append(
                    Element(
                        "text",
                        x=fmt(x),
                        y=fmt(baseline),
                        text_anchor="middle",
                        font_size=fmt(size),
                        font_weight="bold",
                        font_style="italic" if sea else "normal",
                        fill=colour,
                        stroke=style.HALO if not sea else "#d6e6f3",
                        stroke_width="2.4",
                        stroke_linejoin="round",
                        paint_order="stroke",
                        class_="label",
                        text=line,
                    ).svg()
                )

    # --- units -------------------------------------------------------------------------
    def draw_units(self, layers: Layers) -> None:
        for token in self.tokens():
            x, y = token.at
            if token.dislodged:
                layers.units.append(
                    Element(
                        "circle",
                        cx=fmt(x),
                        cy=fmt(y),
                        r=fmt(15 * token.scale),
                        fill="#ffffff",
                        fill_opacity="0.55",
                        stroke=style.FAIL,
                        stroke_width="2",
                        stroke_dasharray="4 2",
                        class_="dislodged-ring",
                    ).svg()
                )
            unit = token.unit
            colour = style.power_colour(unit.power, self.map.powers)
            classes = f"unit {unit.power.lower()} {'army' if unit.type is ARMY else 'fleet'}"
            if token.dislodged:
                classes += " dislodged"
            layers.units.append(
                unit_token(
                    unit.type,
                    x,
                    y,
                    colour,
                    classes=classes,
                    ghost=token.ghost,
                    scale=token.scale,
                    title=self.unit_title(token),
                )
            )

    def unit_title(self, token: Token) -> str:
        """What a unit's token says in words (its text alternative): ``"France: the army in
        Paris"``; a dislodged one ``"... — dislodged"``; a build ordered, its order."""
        unit = token.unit
        colon = self.words.data["messages"]["colon"]  # French: "France : l'armée de Paris"
        ref = UnitRef(unit.type, unit.location)
        said = self.words.order(Build(ref)) if token.ghost else self.words.unit(ref)
        if token.dislodged:
            said += f" — {self.words.result(OrderResult.DISLODGED)}"
        return f"{self.words.power(unit.power)}{colon}{said}"

    # --- orders ------------------------------------------------------------------------

    def draw_marks(self, layers: Layers) -> None:
        for prov in sorted(self.standoffs()):
            if prov in self.drawing.provinces:
                spot = self.drawing.provinces[prov]
                # beside a unit still drawn there (it moved away), else in its place; over
                # the orders' lines and under the names (it hid the province's name)
                x, y = spot.dislodged if prov in self.position.units else spot.unit
                layers.orders.append(burst(x, y))
        for d in self.drawn:
            if d.fate is None:
                continue
            loc = d.order.unit.location if not isinstance(d.order, Waive) else None
            if loc is None or not self.drawable(loc):
                continue
            x, y = self.unit_point(loc)
            layers.marks.append(cross(x, y, 12 * self.scale, style.FAIL, width=3.4))


LETTER = 0.68
"""The width of a bold letter of a province's name, in em (DejaVu Sans Bold's capitals
0.62 to 1.0, most near 0.7; its small letters near 0.62)."""


def label_lines(name: str, labels: str, y: float) -> tuple[float, list[tuple[str, float]]]:
    """How a province's name is written at its label anchor's height ``y``: the font size
    and each line with its baseline (a short name of up to five letters at 10 px; a long
    one at 8.5 px, in two lines if it is long and has several words), centred on ``y``."""
    if labels == "short" and len(name) <= 5:
        lines, size = [name], 10.0
    else:
        lines, size = _wrap(name), 8.5
    top = y - (len(lines) - 1) * size * 0.55 + size * 0.36
    return size, [(line, top + k * size * 1.1) for k, line in enumerate(lines)]


def _wrap(name: str) -> list[str]:
    words = name.split()
    if len(name) <= 11 or len(words) == 1:
        return [name]
    best = [name]
    best_width = len(name)
    for k in range(1, len(words)):
        lines = [" ".join(words[:k]), " ".join(words[k:])]
        width = max(len(line) for line in lines)
        if width < best_width:
            best, best_width = lines, width
    return best
