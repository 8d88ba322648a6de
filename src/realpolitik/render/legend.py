"""The legend beside the map: phase, the powers with their centres and units, the orders
with their results, and a key to the symbols."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from realpolitik.adjudicator import builds_due
from realpolitik.adjudicator.results import OrderResult
from realpolitik.game.victory import Alliance
from realpolitik.maps import GameMap
from realpolitik.orders import Hold
from realpolitik.phase import Phase, PhaseKind
from realpolitik.position import Position
from realpolitik.render import style
from realpolitik.render.geometry import fmt
from realpolitik.render.marks import burst, cross
from realpolitik.render.scene import DrawnOrder
from realpolitik.render.svgutil import Element
from realpolitik.render.units import unit_token
from realpolitik.render.words import Words
from realpolitik.rules import Dislodging, Rules
from realpolitik.vocab import ARMY, FLEET, Power

WIDTH = 300.0
ALLIANCE_LETTERS = 22
"""An alliance's members are cut into lines of this many letters, clear of its count."""


def legend_width() -> float:
    return WIDTH


def phase_name(phase: Phase, words: Words | None = None) -> str:
    """``"Spring 1901 Movement"``, ``"Otoño de 1901, retiradas"`` (a movement outside
    English: its date alone, ``"Otoño de 1901"``)."""
    words = words or Words()
    kind = words.kind(phase)
    if not kind:
        return words.date(phase)
    return words.legend("phase", date=words.date(phase), kind=kind, lower=kind.lower())


def _text(x: float, y: float, text: str, size: float, **attrs: str | None) -> str:
    el = Element("text", text=text).set(x=fmt(x), y=fmt(y), font_size=fmt(size))
    return el.set(**{"fill": style.TEXT, **attrs}).svg()


def _lines(text: str, width: int) -> list[str]:
    """``text`` cut into lines of at most ``width`` characters, at spaces."""
    lines: list[str] = []
    for word in text.split():
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines or [""]


def legend_svg(
    game_map: GameMap,
    position: Position,
    phase: Phase | None,
    drawn: Sequence[DrawnOrder],
    *,
    x: float,
    height: float,
    title: str | None = None,
    id_prefix: str = "",
    blank: bool = False,
    words: Words | None = None,
    rules: Rules | None = None,
    unplayed: frozenset[Power] = frozenset(),
    unread: Mapping[Power, Sequence[str]] | None = None,
    alliances: Sequence[Alliance] = (),
) -> str:
    """The legend beside the map: the phase, each power's centres and units (and, in an
    adjustment phase, its builds or removals by ``rules``: conquista's reinforcements),
    those nobody plays (``unplayed``) apart below them, the ``alliances`` standing
    (conquista: their members' centres together, since when), the orders (and the texts
    that could not be read, ``unread``) and the key."""
    words = words or Words(game_map=game_map)
    out = [f'<g id="{id_prefix}legend" class="legend">']
    out.append(
        f'<rect x="{fmt(x)}" y="0" width="{fmt(WIDTH)}" height="{fmt(height)}" fill="#f6f1e3"/>'
        f'<path d="M{fmt(x)},0V{fmt(height)}" stroke="{style.BORDER}" stroke-width="2"/>'
    )
    left = x + 18
    y = 30.0
    # the board's title whole (French ones take four lines), a long given one cut at five
    heading = _lines(title or words.title(game_map), 36)
    if len(heading) > 5:
        heading = [*heading[:4], heading[4] + " …"]
    for line in heading:
        out.append(_text(left, y, line, 12, font_weight="bold"))
        y += 15
    y += 21
    if blank:
        out.append(_text(left, y + 8, words.legend("blank"), 15))
        y += 26
    elif phase is not None:
        out.append(_text(left, y, words.date(phase), 24, font_weight="bold"))
        y += 24
        out.append(_text(left, y, words.kind(phase), 16, fill="#6b5a3e"))
        y += 14
    y += 18
    deltas = (
        builds_due(game_map, position, rules)
        if phase is not None and phase.kind is PhaseKind.ADJUSTMENTS
        else {}
    )
    out.append(_text(left, y, words.legend("power"), 10, fill="#7a6a52"))
    out.append(
        _text(x + WIDTH - 86, y, words.legend("centres"), 10, fill="#7a6a52", text_anchor="end")
    )
    out.append(
        _text(x + WIDTH - 22, y, words.legend("units"), 10, fill="#7a6a52", text_anchor="end")
    )
    y += 8
    played = [p for p in game_map.powers if p not in unplayed]
    apart = [p for p in game_map.powers if p in unplayed]
    for power in played + apart:
        if apart and power == apart[0]:  # those nobody plays, apart under their heading
            y += 20
            out.append(_text(left, y, words.legend("unplayed"), 10, fill="#7a6a52"))
        colour = style.power_colour(power, game_map.powers)
        centres = len(position.centers_of(power))
        units = len(position.units_of(power)) + sum(
            1 for d in position.dislodged.values() if d.unit.power == power
        )
        y += 26
        alive = (centres or units or blank) and power not in unplayed
        out.append(unit_token(ARMY, left + 10, y - 5, colour, classes="swatch"))
        out.append(
            _text(
                left + 30,
                y,
                words.power(power),
                14,
                font_weight="bold",
                fill=style.TEXT if alive else "#a89c86",
            )
        )
        if blank:
            for right in (86, 22):
                out.append(
                    f'<path d="M{fmt(x + WIDTH - right - 26)},{fmt(y + 3)}h26" '
                    'stroke="#8a7b62" stroke-width="1"/>'
                )
            continue
        out.append(_text(x + WIDTH - 86, y, str(centres), 14, text_anchor="end"))
        out.append(_text(x + WIDTH - 22, y, str(units), 14, text_anchor="end"))
        delta = deltas.get(power, 0)
        if delta:
            sign = "+" if delta > 0 else "−"
            out.append(
                _text(
                    x + WIDTH - 60,
                    y,
                    f"{sign}{abs(delta)}",
                    12,
                    fill="#2f7d32" if delta > 0 else style.FAIL,
                    font_weight="bold",
                    text_anchor="middle",
                )
            )
    if alliances and not blank:
        y += 20
        out.append(_text(left, y, words.legend("alliances"), 10, fill="#7a6a52"))
        for alliance in alliances:
            y += 22
            members = " + ".join(words.power(p) for p in alliance.members)
            centres = sum(len(position.centers_of(p)) for p in alliance.members)
            for k, line in enumerate(_lines(members, ALLIANCE_LETTERS)):  # clear of the count
                y += 15 if k else 0
                out.append(_text(left, y, line, 12, font_weight="bold", class_="alliance"))
                if not k:
                    out.append(_text(x + WIDTH - 86, y, str(centres), 14, text_anchor="end"))
            y += 14
            since = words.legend("since", date=words.date(alliance.formed))
            out.append(_text(left, y, since, 10, fill="#6b5a3e"))
    y += 30
    key_top = height - 250
    y = _orders(out, _rows(drawn, unread or {}, words), words, left, y, key_top - 16)
    retreats = rules is None or rules.dislodged is not Dislodging.DESTROYED
    _key(out, words, left, key_top, retreats=retreats)
    out.append("</g>")
    return "\n".join(out)


UNREAD_LETTERS = 40
"""An order text that could not be read is cut to this many letters in the legend."""


def _rows(
    drawn: Sequence[DrawnOrder], unread: Mapping[Power, Sequence[str]], words: Words
) -> list[tuple[Power, str, str, bool]]:
    """The legend's orders, each power's together: its power, text, result and whether it
    failed. A unit given no order holds, unlisted (as on the map); but a removal or disband
    nobody ordered (civil disorder, no retreat given) is listed with the ✗ the map shows;
    a text that could not be read is listed illegal after the power's orders."""
    rows: dict[Power, list[tuple[Power, str, str, bool]]] = {}
    for d in drawn:
        if not (d.implied and isinstance(d.order, Hold)):
            mark = "" if d.result is None else words.result(d.result)
            rows.setdefault(d.power, []).append((d.power, words.order(d.order), mark, d.failed))
    for power, texts in unread.items():
        for text in texts:
            cut = text if len(text) <= UNREAD_LETTERS else text[: UNREAD_LETTERS - 1] + "…"
            rows.setdefault(power, []).append((power, cut, words.result(OrderResult.ILLEGAL), True))
    return [row for power_rows in rows.values() for row in power_rows]


def _orders(
    out: list[str],
    shown: Sequence[tuple[Power, str, str, bool]],
    words: Words,
    left: float,
    y: float,
    bottom: float,
) -> float:
    if not shown:
        return y
    out.append(_text(left, y, words.legend("orders"), 13, font_weight="bold"))
    y += 6
    power = None
    for k, (of, text, mark, failed) in enumerate(shown):
        lines = _order_lines(text, mark)
        if y + 16 + 13 * len(lines) > bottom:
            out.append(
                _text(left, y + 14, words.legend("more", n=len(shown) - k), 10, fill="#7a6a52")
            )
            break
        if of != power:
            power = of
            y += 17
            out.append(_text(left, y, words.power(power), 11, font_weight="bold", fill="#5b4a30"))
        fill = style.FAIL if failed else style.TEXT
        for n, line in enumerate(lines):
            y += 14 if n == 0 else 12
            if line:
                out.append(
                    _text(
                        left + (10 if n == 0 else 20),
                        y,
                        line,
                        10.5,
                        fill=fill,
                        font_family="DejaVu Sans Mono, monospace",
                    )
                )
        if mark:
            out.append(
                _text(left + 264, y, mark, 9.5, fill=fill, text_anchor="end", font_style="italic")
            )
    return y


# The orders' column: 254 px from the order to the result's right end; an order's letters
# are 10.5 px DejaVu Sans Mono (0.602 em each), a result's 9.5 px italic (about 0.55 em).
ORDER_ROOM = 254.0
ORDER_LETTER = 10.5 * 0.602
RESULT_LETTER = 9.5 * 0.55


def _order_lines(text: str, mark: str) -> list[str]:
    """An order's lines in the legend, its result at the end of the last: the order cut at
    spaces where it is too long for the column (Portuguese writes ``E da Ser. apoia E da
    Bul. para Rum.``), and an empty last line where the result does not fit beside it
    (they were written over each other)."""
    lines = _lines(text, int((ORDER_ROOM - 10) // ORDER_LETTER))  # (later ones 10 px in)
    last = len(lines[-1]) * ORDER_LETTER + (10 if len(lines) > 1 else 0)
    if mark and last + 8 + len(mark) * RESULT_LETTER > ORDER_ROOM:
        lines.append("")
    return lines


def _key(out: list[str], words: Words, left: float, top: float, *, retreats: bool) -> None:
    """The key to the symbols (the ring of a unit awaiting its retreats only where dislodged
    units retreat: not in La Conquista, which destroys them)."""
    out.append(_text(left, top, words.legend("key"), 13, font_weight="bold"))
    rows = top + 24
    out.append(unit_token(ARMY, left + 12, rows - 4, "#ffffff", classes="key"))
    out.append(_text(left + 30, rows, words.legend("army"), 11))
    out.append(unit_token(FLEET, left + 142, rows - 4, "#ffffff", classes="key"))
    out.append(_text(left + 164, rows, words.legend("fleet"), 11))
    rows += 26
    out.append(
        f'<path d="M{fmt(left)},{fmt(rows - 4)}h26" stroke="#555" stroke-width="3.2"/>'
        f'<path d="M{fmt(left + 26)},{fmt(rows - 9)}l8,5l-8,5z" fill="#555"/>'
    )
    out.append(_text(left + 44, rows, words.legend("move"), 11))
    out.append(
        f'<path d="M{fmt(left + 128)},{fmt(rows - 4)}h28" stroke="#555" stroke-width="1.8"/>'
        f'<circle cx="{fmt(left + 158)}" cy="{fmt(rows - 4)}" r="3.4" fill="#555"/>'
    )
    out.append(_text(left + 168, rows, words.legend("support"), 11))
    rows += 26
    out.append(
        f'<circle cx="{fmt(left + 12)}" cy="{fmt(rows - 4)}" r="9" fill="none" stroke="#555" '
        'stroke-width="2.4"/>'
    )
    out.append(_text(left + 30, rows, words.legend("hold"), 11))
    out.append(
        f'<circle cx="{fmt(left + 142)}" cy="{fmt(rows - 4)}" r="9" fill="none" stroke="#555" '
        'stroke-width="2.2" stroke-dasharray="2 3"/>'
    )
    out.append(_text(left + 160, rows, words.legend("convoy"), 11))
    rows += 26
    out.append(
        f'<path d="M{fmt(left)},{fmt(rows - 4)}h30" stroke="#555" stroke-width="3" '
        'stroke-dasharray="7 4"/>'
        f'<path d="M{fmt(left + 11)},{fmt(rows - 8)}l8,8M{fmt(left + 19)},{fmt(rows - 8)}l-8,8" '
        f'stroke="{style.FAIL}" stroke-width="2.6" stroke-linecap="round"/>'
    )
    out.append(_text(left + 40, rows, words.legend("failed"), 11))
    out.append(burst(left + 128, rows - 4, 0.75, cls="key-standoff"))
    out.append(_text(left + 144, rows, words.legend("standoff"), 11))
    rows += 26
    # a build ordered (its ghost), and a unit struck out: dislodged, disbanded or removed
    out.append(unit_token(ARMY, left + 12, rows - 4, "#ffffff", classes="key", ghost=True))
    out.append(_text(left + 30, rows, words.legend("build"), 11))
    rows += 26
    out.append(
        '<g class="key struck">'
        + unit_token(ARMY, left + 12, rows - 4, "#ffffff", classes="key")
        + cross(left + 12, rows - 4, 12, style.FAIL, width=3, cls="key-cross")
        + "</g>"
    )
    out.append(_text(left + 30, rows, words.legend("struck"), 11))
    rows += 26
    if retreats:
        out.append(
            f'<circle cx="{fmt(left + 12)}" cy="{fmt(rows - 4)}" r="10" fill="#fff" '
            f'stroke="{style.FAIL}" stroke-width="2" stroke-dasharray="4 2"/>'
        )
        out.append(_text(left + 30, rows, words.legend("dislodged"), 11))
        rows += 26
    star = f"M{fmt(left + 12)},{fmt(rows - 11)}l2,5h5l-4,3l2,5l-5,-3l-5,3l2,-5l-4,-3h5z"
    out.append(f'<path d="{star}" fill="none" stroke="#3d3424" stroke-width="1.1"/>')
    out.append(_text(left + 30, rows, words.legend("centre"), 11))
