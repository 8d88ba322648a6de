"""Printable paper for a table game: an order sheet per power and a blank map pad
(SVG pages, A4; print them from a browser or convert them to PDF)."""

from __future__ import annotations

from realpolitik.game.calendar import phases_of_year
from realpolitik.game.editions import edition as edition_named
from realpolitik.maps import GameMap, load_map
from realpolitik.phase import Phase, PhaseKind
from realpolitik.position import Position
from realpolitik.render import style
from realpolitik.render.geometry import fmt
from realpolitik.render.svg import render
from realpolitik.render.svgutil import Element, esc
from realpolitik.render.units import unit_token
from realpolitik.vocab import ARMY, Power

# A4 portrait in millimetres
PAGE_W, PAGE_H = 210.0, 297.0
PX_PER_MM = 96 / 25.4
EXAMPLES = (
    ("Hold", "A PAR H"),
    ("Move", "A PAR - BUR"),
    ("Support", "A MAR S A PAR - BUR"),
    ("Support a hold", "A MUN S A BER"),
    ("Convoy", "F NTH C A LON - BEL"),
    ("Move by convoy", "A LON - BEL VIA"),
    ("Retreat / disband", "A PAR R BUR  ·  A PAR D"),
    ("Build / remove", "F STP/NC B  ·  A WAR D"),
)
RETREATS = ("RETREATS", 4)
"""The retreats' heading and lines (not on the sheet of an edition without retreats)."""


def _t(x: float, y: float, text: str, size: float, **attrs: str | None) -> str:
    el = Element("text", text=text).set(x=fmt(x), y=fmt(y), font_size=fmt(size))
    return el.set(**{"fill": style.TEXT, **attrs}).svg()


def _line(x1: float, y1: float, x2: float, y2: float, width: float = 0.25) -> str:
    return (
        f'<path d="M{fmt(x1)},{fmt(y1)}L{fmt(x2)},{fmt(y2)}" stroke="#8a7b62" '
        f'stroke-width="{fmt(width)}"/>'
    )


def _year(edition: str | None) -> tuple[list[str], list[tuple[str, int]]]:
    """The headings of a year of ``edition`` (default classic; ``datc``: classic's calendar)
    on the sheet: its two turns' columns, then its retreats (none where dislodged units are
    destroyed) and adjustments, each with its lines (:func:`phases_of_year`)."""
    ed = edition_named("classic" if edition in (None, "datc") else edition)
    phases = phases_of_year(ed, ed.rules, ed.start_year)
    columns = [ed.seasons[p.season.value].upper() for p in phases if p.kind is PhaseKind.MOVEMENT]
    sections = [
        (f"{ed.seasons[p.season.value]} {ed.kinds[p.kind.value]}".upper(), 6)
        for p in phases
        if p.kind is PhaseKind.ADJUSTMENTS
    ]
    if any(p.kind is PhaseKind.RETREATS for p in phases):
        sections.insert(0, RETREATS)
    return columns, sections


def order_sheet(
    power: Power,
    *,
    game_map: GameMap | None = None,
    position: Position | None = None,
    year: int | None = None,
    rows: int = 17,
    edition: str | None = None,
) -> str:
    """One power's order sheet for a year of ``edition`` (default classic): a column of
    numbered lines for each turn, Spring and Fall (the power's units written in when
    ``position`` is given), then the retreats and the adjustments, as its calendar has
    them (grow: Winter and Summer, adjustments in Summer; conquista: no retreats, the
    reinforcements before the Spring turn)."""
    game_map = game_map or load_map("standard")
    power = power.upper()
    if power not in game_map.powers:
        raise ValueError(f"unknown power {power!r} (one of {', '.join(game_map.powers)})")
    columns, sections = _year(edition)
    examples = [e for e in EXAMPLES if e[0] != "Retreat / disband" or sections[:1] == [RETREATS]]
    colour = style.power_colour(power, game_map.powers)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{fmt(PAGE_W * PX_PER_MM)}" '
        f'height="{fmt(PAGE_H * PX_PER_MM)}" viewBox="0 0 {fmt(PAGE_W)} {fmt(PAGE_H)}" '
        'font-family="DejaVu Sans, Verdana, Arial, sans-serif">',
        f"<title>Order sheet — {esc(power.title())}</title>",
        f'<rect width="{fmt(PAGE_W)}" height="{fmt(PAGE_H)}" fill="#ffffff"/>',
        f'<g transform="translate(22,19) scale(0.45)">'
        f"{unit_token(ARMY, 0, 0, colour, classes='swatch')}</g>",
        _t(30, 22, "ORDER SHEET", 7, font_weight="bold", letter_spacing="0.6"),
        _t(188, 22, f"{power.title()}", 8, font_weight="bold", text_anchor="end"),
        _t(
            188,
            29,
            f"Year {year}" if year is not None else "Year ________",
            4.2,
            text_anchor="end",
        ),
        _line(15, 33, 195, 33, 0.5),
    ]
    y = 40.0
    for k, (what, example) in enumerate(examples):
        x = 15 if k % 2 == 0 else 108
        out.append(_t(x, y, what, 3.1, fill="#7a6a52"))
        out.append(_t(x + 30, y, example, 3.3, font_family="DejaVu Sans Mono, monospace"))
        if k % 2 == 1 or k == len(examples) - 1:  # (a last one alone on its row too)
            y += 5.2
    y += 2
    out.append(_line(15, y, 195, y, 0.5))
    units = [str(u) for u in position.units_of(power)] if position is not None else []
    top = y + 9
    for col, season in enumerate(columns):
        x = 15 + col * 93
        out.append(_t(x, top, season, 4.4, font_weight="bold"))
        for row in range(rows):
            ly = top + 8 + row * 8.2
            out.append(_t(x, ly, f"{row + 1:02d}.", 3.4, fill="#7a6a52"))
            if col == 0 and row < len(units):
                out.append(
                    _t(x + 9, ly, units[row], 3.6, font_family="DejaVu Sans Mono, monospace")
                )
            out.append(_line(x + 8, ly + 1.2, x + 86, ly + 1.2))
    y = top + 8 + rows * 8.2 + 6
    for title, count in sections:
        out.append(_t(15, y, title, 4.4, font_weight="bold"))
        for row in range(count):
            x = 15 + (row % 2) * 93
            ly = y + 8 + (row // 2) * 8.2
            out.append(_line(x, ly + 1.2, x + 86, ly + 1.2))
        y += 8 + ((count + 1) // 2) * 8.2 + 5
    out.append(_t(105, PAGE_H - 8, "realpolitik", 2.8, fill="#a89c86", text_anchor="middle"))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def order_sheets(
    *, game_map: GameMap | None = None, position: Position | None = None, year: int | None = None
) -> dict[Power, str]:
    """An order sheet for every power of the map."""
    game_map = game_map or load_map("standard")
    return {
        power: order_sheet(power, game_map=game_map, position=position, year=year)
        for power in game_map.powers
    }


def map_pad(
    *,
    game_map: GameMap | None = None,
    labels: str = "short",
    phase: Phase | None = None,
    language: str = "en",
    edition: str | None = None,
) -> str:
    """A blank map to write on: provinces, names and supply centres, no units, no owners;
    the legend leaves the phase and the centre counts blank (its key: ``edition``'s)."""
    game_map = game_map or load_map("standard")
    empty = Position({}, {})
    return render(
        empty,
        game_map=game_map,
        labels=labels,
        phase=phase,
        blank=True,
        language=language,
        edition=edition,
    )
