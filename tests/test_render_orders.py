"""The orders drawn on the map (render/orders.py): what a player must see of each order,
whatever the order in which the orders were given."""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence

import pytest

from realpolitik import ARMY, Hold, Position, UnitRef, adjudicate, load_map, parse_order
from realpolitik.orders import Order
from realpolitik.phase import Phase
from realpolitik.render import render
from realpolitik.render.drawing import drawing_for, load_drawing
from realpolitik.rules import rules_for
from realpolitik.vocab import Power

STANDARD = load_map("standard")
DRAWING = load_drawing("standard")
NS = "{http://www.w3.org/2000/svg}"


def classed(root: ET.Element, word: str) -> list[ET.Element]:
    return [e for e in root.iter() if word in e.get("class", "").split()]


def orders_of(texts: Mapping[Power, Sequence[str]]) -> dict[Power, list[Order]]:
    return {p: [parse_order(t, game_map=STANDARD) for t in ts] for p, ts in texts.items()}


def position(units: Mapping[Power, Sequence[str]]) -> Position:
    return Position.from_json({"units": units, "centers": {}}, STANDARD)


def orders_layer(svg: str) -> list[str]:
    """The map's order drawings, as sorted text (the same drawings in any order)."""
    layer = ET.fromstring(svg).find(".//*[@id='orders']")
    assert layer is not None
    return sorted(ET.tostring(e, encoding="unicode") for e in layer)


def ends(group: ET.Element) -> list[tuple[float, float]]:
    """The last point of each path of an order drawing."""
    out = []
    for path in group.iter(f"{NS}path"):
        last = path.get("d", "").replace("M", " ").replace("L", " ").split()[-1]
        x, y = last.rstrip("Z").split(",")
        out.append((float(x), float(y)))
    return out


def near(points: Sequence[tuple[float, float]], spot: tuple[float, float], within: float) -> bool:
    return any((x - spot[0]) ** 2 + (y - spot[1]) ** 2 <= within**2 for x, y in points)


def test_a_convoy_shows_where_it_carries_the_army_whatever_the_order_of_the_orders() -> None:
    """The fleet's convoy alone (the army's move not given yet, or in a list not drawn)
    draws the army's way through the fleet to its destination; with the move given, in
    any order and in any power's list, the picture is the same (the move through the
    fleet). It drew only a line to the army: no destination."""
    start = position({"ENGLAND": ["F NTH"], "FRANCE": ["A BEL"]})
    alone = ET.fromstring(render(start, orders=orders_of({"ENGLAND": ["F NTH C A BEL - NWY"]})))
    routes = classed(alone, "convoy-route")
    assert len(routes) == 1
    assert near(ends(routes[0]), DRAWING.point("NWY"), 14)
    title = routes[0].find(f"{NS}title")
    assert title is not None and title.text == "England: F NTH C A BEL - NWY"

    convoy, move = "F NTH C A BEL - NWY", "A BEL - NWY"
    for first, second in (
        ({"ENGLAND": [convoy], "FRANCE": [move]}, {"FRANCE": [move], "ENGLAND": [convoy]}),
        ({"ENGLAND": [convoy, move]}, {"ENGLAND": [move, convoy]}),
    ):
        svg = render(start, orders=orders_of(first))
        assert orders_layer(svg) == orders_layer(render(start, orders=orders_of(second)))
        root = ET.fromstring(svg)
        assert not classed(root, "convoy-route")  # the move goes through the fleet
        (arrow,) = classed(root, "move")
        assert near(ends(arrow), DRAWING.point("NWY"), 14)


def test_a_chain_of_convoys_is_drawn_once_through_its_fleets_in_any_order() -> None:
    """Three fleets carrying an army from London to Tunis, their move not given: one
    way, through the three fleets in sea order, the same for every order of the convoys."""
    start = position({"ENGLAND": ["A LON", "F ENG", "F MAO"], "FRANCE": ["F WES"]})
    convoys = ["F ENG C A LON - TUN", "F MAO C A LON - TUN", "F WES C A LON - TUN"]
    pictures = set()
    for order in itertools.permutations(convoys):
        lists: dict[Power, list[str]] = {}
        for text in order:
            lists.setdefault("FRANCE" if "WES" in text else "ENGLAND", []).append(text)
        svg = render(start, orders=orders_of(lists))
        routes = classed(ET.fromstring(svg), "convoy-route")
        assert len(routes) == 1
        assert near(ends(routes[0]), DRAWING.point("TUN"), 14)
        pictures.add(tuple(orders_layer(svg)))
    assert len(pictures) == 1


def test_a_support_of_a_move_nobody_made_shows_the_move_and_that_it_did_not_match() -> None:
    """France's army in Picardy supports Paris to Burgundy, but Paris moves to Brest;
    Germany's Munich supports Berlin to Kiel, but Berlin holds (no order). The support's
    line ended at an empty spot between the two provinces: now the move it names is drawn
    (a thin dashed arrow to the destination, the line reaching it), crossed out ✗ as a
    failed order is, with or without the results. An ally's move not drawn (the board
    shows only the player's own orders) is drawn, not crossed."""
    start = position({"FRANCE": ["A PAR", "A PIC"], "GERMANY": ["A MUN", "A BER"]})
    orders = orders_of(
        {"FRANCE": ["A PIC S A PAR - BUR", "A PAR - BRE"], "GERMANY": ["A MUN S A BER - KIE"]}
    )
    resolution = adjudicate(STANDARD, start, orders, rules_for("classic"), Phase.parse("S1901M"))
    for svg in (
        render(start, orders=orders, results=resolution),
        render(
            start,
            orders={
                "FRANCE": orders["FRANCE"],
                "GERMANY": [*orders["GERMANY"], Hold(UnitRef(ARMY, "BER"))],
            },
        ),
    ):
        root = ET.fromstring(svg)
        unmade = classed(root, "supported-move")
        assert {e.find(f"{NS}title").text.split(":")[0] for e in unmade} == {"France", "Germany"}  # type: ignore[union-attr]
        assert all("unmatched" in e.get("class", "") for e in unmade)
        assert near(ends(unmade[0]) + ends(unmade[1]), DRAWING.point("BUR"), 16)
        assert near(ends(unmade[0]) + ends(unmade[1]), DRAWING.point("KIE"), 16)
        assert len(classed(root, "fail")) >= 2
    ally = ET.fromstring(render(start, orders={"GERMANY": orders["GERMANY"]}))
    (unknown,) = classed(ally, "supported-move")
    assert "unmatched" not in unknown.get("class", "")
    assert near(ends(unknown), DRAWING.point("KIE"), 16)
    assert not classed(ally, "fail")


def points_of(group: ET.Element) -> list[tuple[float, float]]:
    """Every point of every path of a drawing."""
    out = []
    for path in group.iter(f"{NS}path"):
        for item in path.get("d", "").replace("M", " ").replace("L", " ").replace("Z", "").split():
            x, y = item.split(",")
            out.append((float(x), float(y)))
    return out


def cross_centres(root: ET.Element) -> list[tuple[float, float]]:
    """Where the ✗ marks are (the middle of their first stroke)."""
    out = []
    for mark in classed(root, "fail"):
        path = mark.find(f"{NS}path")
        assert path is not None
        (x0, y0), (x1, y1) = (
            tuple(map(float, p.split(","))) for p in path.get("d", "").split("M")[1].split("L")
        )
        out.append(((x0 + x1) / 2, (y0 + y1) / 2))
    return out


def test_moves_into_a_standoff_keep_their_heads_out_of_its_burst() -> None:
    """Burgundy and Piedmont bounce in Marseilles: the standoff's burst covered both
    arrowheads, so the moves seemed to go nowhere. Their heads stop short of it (drawn
    over the names, as a name under a unit hid the head of an arrow reaching it)."""
    start = position({"FRANCE": ["A BUR"], "ITALY": ["A PIE"]})
    orders = orders_of({"FRANCE": ["A BUR - MAR"], "ITALY": ["A PIE - MAR"]})
    resolution = adjudicate(STANDARD, start, orders, rules_for("classic"), Phase.parse("S1901M"))
    root = ET.fromstring(render(start, orders=orders, results=resolution))
    (standoff,) = classed(root, "standoff")
    assert standoff.tag == f"{NS}path"
    centre = DRAWING.provinces["MAR"].unit
    moves, heads = classed(root, "move"), classed(root, "head")
    assert len(moves) == len(heads) == 2
    for drawn in moves + heads:
        assert not near(points_of(drawn), centre, 13)


def test_a_failed_supported_move_s_cross_is_not_on_the_support_s_dot() -> None:
    """A supported move that fails: its ✗ was drawn over the dot where the support's line
    meets the move, so the support looked failed too."""
    start = position({"FRANCE": ["A BUR", "F PIC"], "GERMANY": ["A BEL", "A RUH", "F HOL"]})
    orders = orders_of(
        {
            "FRANCE": ["A BUR - BEL", "F PIC S A BUR - BEL"],
            "GERMANY": ["A RUH S A BEL", "F HOL S A BEL"],
        }
    )
    resolution = adjudicate(STANDARD, start, orders, rules_for("classic"), Phase.parse("S1901M"))
    root = ET.fromstring(render(start, orders=orders, results=resolution))
    dots = [
        (float(c.get("cx", 0)), float(c.get("cy", 0)))
        for c in root.iter(f"{NS}circle")
        if c.get("r") == "3.6"
    ]
    assert len(dots) == 1
    crosses = cross_centres(root)
    assert crosses and not near(crosses, dots[0], 8)


def test_arrow_heads_are_drawn_over_the_names() -> None:
    """A name is written under its unit, where an arrow coming up to that unit ends: the
    name hid the arrow's head (Burgundy to Belgium). The lines stay under the names (they
    would cross them out), the heads over them."""
    start = position({"FRANCE": ["A BUR"]})
    root = ET.fromstring(render(start, orders=orders_of({"FRANCE": ["A BUR - BEL"]})))
    layers = [e.get("id") for e in root]
    assert layers.index("orders") < layers.index("labels") < layers.index("heads")
    heads = root.find(".//*[@id='heads']")
    assert heads is not None and len(classed(heads, "head")) == 1


def test_a_standoff_s_burst_leaves_the_province_s_name_readable() -> None:
    """The burst of a standoff was drawn over everything, on the province's name (GAL
    half hidden in the rulebook's Spring 1901): it lies over the orders' lines and under
    the names."""
    start = position({"AUSTRIA": ["A BUD"], "RUSSIA": ["A WAR"]})
    orders = orders_of({"AUSTRIA": ["A BUD - GAL"], "RUSSIA": ["A WAR - GAL"]})
    resolution = adjudicate(STANDARD, start, orders, rules_for("classic"), Phase.parse("S1901M"))
    root = ET.fromstring(render(start, orders=orders, results=resolution))
    under = root.find(".//*[@id='orders']")
    assert under is not None
    drawn = list(under)
    (standoff,) = classed(under, "standoff")
    assert all(drawn.index(move) < drawn.index(standoff) for move in classed(under, "move"))


def test_a_build_refused_in_an_occupied_province_is_drawn_beside_its_unit() -> None:
    """France builds an army in Paris, where its army stands: the refused build's ghost
    and its ✗ were drawn over the army, which looked destroyed. They stand beside it."""
    start = Position.from_json(
        {"units": {"FRANCE": ["A PAR"]}, "centers": {"FRANCE": ["PAR", "BRE", "MAR"]}}, STANDARD
    )
    orders = orders_of({"FRANCE": ["A PAR B", "F BRE B"]})
    resolution = adjudicate(STANDARD, start, orders, rules_for("classic"), Phase.parse("W1901A"))
    root = ET.fromstring(render(start, orders=orders, results=resolution))
    army = DRAWING.point("PAR")
    places = [translation(u) for u in classed(root, "army")]
    assert len(places) == 2 and len([p for p in places if near([p], army, 1)]) == 1
    crosses = cross_centres(root)
    assert len(crosses) == 1 and not near(crosses, army, 12)
    assert len(classed(root, "fleet")) == 1  # the build in Brest, in its place


def translation(unit: ET.Element) -> tuple[float, float]:
    """Where a unit token stands (its ``translate(x,y)``)."""
    x, y = unit.get("transform", "")[len("translate(") :].split(")")[0].split(",")
    return float(x), float(y)


def test_an_arrow_to_a_fleet_from_the_side_ends_clear_of_its_hull() -> None:
    """A fleet's hull is wider (±15) than the ring an arrow stopped at (13): an attack
    from the side ended under the hull, its head hidden. From the Ionian Sea to the
    Aegean, and at the web board's double size, the arrow and its head end outside it."""
    start = position({"TURKEY": ["F AEG"], "ITALY": ["F ION"]})
    orders = orders_of({"ITALY": ["F ION - AEG"]})
    for scale in (1.0, 2.0):
        root = ET.fromstring(render(start, orders=orders, unit_scale=scale))
        (fleet,) = [u for u in classed(root, "fleet") if "turkey" in u.get("class", "")]
        x, y = translation(fleet)
        drawn = points_of(classed(root, "move")[0]) + points_of(classed(root, "head")[0])
        inside = [
            (px, py)
            for px, py in drawn
            if abs(px - x) < 15 * scale and -12 * scale < py - y < 6.5 * scale
        ]
        assert not inside, (scale, inside)


def test_two_retreats_that_bounce_are_marked_as_a_standoff() -> None:
    """Germany's army dislodged from Munich and Italy's from Tyrolia both retreat to
    Bohemia: they bounce and both are disbanded. Two moves that bounce are marked by a
    burst, two retreats were not: they get the same burst, the arrows' heads short of it."""
    start = Position.from_json(
        {
            "units": {"FRANCE": ["A MUN"], "AUSTRIA": ["A TYR"]},
            "dislodged": {
                "GERMANY": [{"unit": "A MUN", "attacker_from": "BUR", "retreats": ["BOH"]}],
                "ITALY": [{"unit": "A TYR", "attacker_from": "VIE", "retreats": ["BOH"]}],
            },
        },
        STANDARD,
    )
    orders = orders_of({"GERMANY": ["A MUN R BOH"], "ITALY": ["A TYR R BOH"]})
    resolution = adjudicate(STANDARD, start, orders, rules_for("classic"), Phase.parse("S1901R"))
    assert len(resolution.removed) == 2  # (both disbanded)
    root = ET.fromstring(render(start, orders=orders, results=resolution))
    (standoff,) = classed(root, "standoff")
    bohemia = DRAWING.provinces["BOH"].unit
    assert near(points_of(standoff), bohemia, 14)
    for retreat in classed(root, "retreat"):
        assert not near(points_of(retreat), bohemia, 14)
    assert len(classed(root, "head")) == 2
    for head in classed(root, "head"):
        assert not near(points_of(head), bohemia, 14)


def test_a_fleet_s_move_to_a_province_of_two_coasts_ends_at_the_coast_it_can_reach() -> None:
    """A fleet's move naming no coast (``F WES - SPA``: the situation's text, read without
    the board) went to the province's first coast, whatever the fleet could reach: across
    Spain to its north coast, across Finland to St Petersburg's north coast, through
    Constantinople to Bulgaria's east coast. So did a support of such a move, and a
    retreat."""
    cases = [
        ({"FRANCE": ["F WES"]}, "F WES - SPA", "SPA/SC"),
        ({"FRANCE": ["F GAS"]}, "F GAS - SPA", "SPA/NC"),
        ({"RUSSIA": ["F BOT"]}, "F BOT - STP", "STP/SC"),
        ({"RUSSIA": ["F BAR"]}, "F BAR - STP", "STP/NC"),
        ({"TURKEY": ["F AEG"]}, "F AEG - BUL", "BUL/SC"),
        ({"TURKEY": ["F BLA"]}, "F BLA - BUL", "BUL/EC"),
        ({"TURKEY": ["F AEG", "F GRE"]}, "F GRE S F AEG - BUL", "BUL/SC"),
    ]
    for units, text, coast in cases:
        svg = render(position(units), orders=orders_of({next(iter(units)): [text]}))
        root = ET.fromstring(svg)
        drawn = classed(root, "supported-move" if " S " in text else "move")
        assert len(drawn) == 1, text
        assert near(ends(drawn[0]), DRAWING.point(coast), 20), (text, ends(drawn[0]))
    game = Position.from_json(
        {"units": {"RUSSIA": ["A FIN"]}, "centers": {},
         "dislodged": {"RUSSIA": [{"unit": "F BOT", "attacker_from": "BAL"}]}},
        STANDARD,
    )  # fmt: skip
    svg = render(game, orders=orders_of({"RUSSIA": ["F BOT R STP"]}), phase=Phase.parse("F1901R"))
    (retreat,) = classed(ET.fromstring(svg), "retreat")
    assert near(ends(retreat), DRAWING.point("STP/SC"), 20), ends(retreat)


def test_a_move_to_its_own_province_is_drawn_as_the_illegal_order_it_is() -> None:
    """``F EDI - EDI`` (illegal: a unit cannot move to its own province) stopped the
    picture with a ZeroDivisionError: the arrow's end was to clear the fleet's hull, seen
    from no direction at all."""
    start = position({"ENGLAND": ["F EDI", "A LON"]})
    orders = orders_of({"ENGLAND": ["F EDI - EDI", "A LON - LON"]})
    phase = Phase.parse("S1901M")
    result = adjudicate(STANDARD, start, orders, rules_for("classic"), phase)
    root = ET.fromstring(render(start, orders=orders, results=result))
    assert len(classed(root, "move")) == 2
    texts = [e.text for e in root.iter(f"{NS}text")]
    assert texts.count("illegal") == 2


def _points(group: ET.Element) -> list[tuple[float, float]]:
    """Every point of every path of an order drawing."""
    out = []
    for path in group.iter(f"{NS}path"):
        for pair in path.get("d", "").replace("M", " ").replace("L", " ").split():
            x, y = pair.rstrip("Z").split(",")
            out.append((float(x), float(y)))
    return out


def test_a_convoyed_army_is_drawn_by_the_route_that_carried_it() -> None:
    """DATC 6.F.9: of the two routes from London to Belgium, through the English Channel
    (its fleet dislodged, the convoy disrupted) and through the North Sea, the army landed
    by the North Sea; its arrow went through the Channel's dislodged fleet, as if that
    had carried it, and the North Sea's convoy drew a way of its own beside it. Where no
    route is left, the move that failed is drawn through the fleets that were to carry it."""
    start = position({"ENGLAND": ["F ENG", "A LON", "F NTH"], "FRANCE": ["F BRE", "F MAO"]})
    texts = {
        "ENGLAND": ["F ENG C A LON - BEL", "F NTH C A LON - BEL", "A LON - BEL"],
        "FRANCE": ["F BRE S F MAO - ENG", "F MAO - ENG"],
    }
    orders = orders_of(texts)
    phase = Phase.parse("S1901M")
    result = adjudicate(STANDARD, start, orders, rules_for("datc"), phase)
    root = ET.fromstring(render(start, orders=orders, results=result))
    (arrow,) = [g for g in classed(root, "move") if "A LON" in (g.findtext(f"{NS}title") or "")]
    assert near(_points(arrow), DRAWING.point("NTH"), 20)
    assert not near(_points(arrow), DRAWING.point("ENG"), 40)
    (route,) = classed(root, "convoy-route")  # the Channel's convoy: its own dotted way
    assert "F ENG C A LON - BEL" in (route.findtext(f"{NS}title") or "")

    texts["ENGLAND"] = ["F ENG C A LON - BEL", "A LON - BEL"]
    orders = orders_of(texts)
    start = position({"ENGLAND": ["F ENG", "A LON"], "FRANCE": ["F BRE", "F MAO"]})
    result = adjudicate(STANDARD, start, orders, rules_for("datc"), phase)
    root = ET.fromstring(render(start, orders=orders, results=result))
    (arrow,) = [g for g in classed(root, "move") if "A LON" in (g.findtext(f"{NS}title") or "")]
    assert near(_points(arrow), DRAWING.point("ENG"), 20)  # disrupted: still by the Channel


def _inside(point: tuple[float, float], rings: Sequence[Sequence[tuple[float, float]]]) -> bool:
    """Even-odd: is ``point`` within the rings?"""
    x, y = point
    crossings = 0
    for ring in rings:
        for (x1, y1), (x2, y2) in zip(ring, (*ring[1:], ring[0]), strict=True):
            if (y1 > y) != (y2 > y) and x < x1 + (x2 - x1) * (y - y1) / (y2 - y1):
                crossings += 1
    return crossings % 2 == 1


def _to_outline(
    point: tuple[float, float], rings: Sequence[Sequence[tuple[float, float]]]
) -> float:
    """How far ``point`` is from the rings' lines."""
    px, py = point
    best = float("inf")
    for ring in rings:
        for (x1, y1), (x2, y2) in zip(ring, (*ring[1:], ring[0]), strict=True):
            dx, dy = x2 - x1, y2 - y1
            t = ((px - x1) * dx + (py - y1) * dy) / (dx * dx + dy * dy or 1.0)
            t = min(max(t, 0.0), 1.0)
            best = min(best, ((px - x1 - t * dx) ** 2 + (py - y1 - t * dy) ** 2) ** 0.5)
    return best


def land_crossed(svg: str, cls: str, ends: set[str], board: str = "standard") -> list[str]:
    """The provinces, other than ``ends``, over whose land the picture's arrows of class
    ``cls`` pass (deeper than a line's width over a coast: a strait is narrow)."""
    game_map, drawing = load_map(board), drawing_for(load_map(board))
    points = [p for e in classed(ET.fromstring(svg), cls) for p in _points(e)]
    return sorted(
        {
            pid
            for pid, shape in drawing.provinces.items()
            if pid not in ends and game_map.provinces[pid].type.value != "sea"
            for point in points
            if _inside(point, shape.rings) and _to_outline(point, shape.rings) > 2.5
        }
    )


@pytest.mark.parametrize(
    ("board", "scale"), [("standard", 1.0), ("standard", 2.0), ("conquista", 1.0)]
)
def test_a_fleet_s_arrow_keeps_to_the_sea(board: str, scale: float) -> None:
    """Every fleet move of each drawing's board is drawn off the land of any province but
    its two own: ``F MAO - WES`` by Gibraltar, ``F NTH - ENG`` by Dover, ``F NWY - STP/NC``
    round the North Cape; with the web page's larger units (``scale`` 2) too. Their arrows
    were curves straight across Spain, England and Sweden: 58 of the standard board's
    fleet moves crossed another province's land."""
    game_map = load_map(board)
    crossing = {}
    for loc, dsts in sorted(game_map.fleet_adjacency.items()):
        start = Position.from_json({"units": {"FRANCE": [f"F {loc}"]}, "centers": {}}, game_map)
        for dst in sorted(dsts):
            move = {"FRANCE": [parse_order(f"F {loc} - {dst}", game_map=game_map)]}
            svg = render(start, game_map=game_map, orders=move, unit_scale=scale)
            crossed = land_crossed(svg, "move", {loc[:3], dst[:3]}, board)
            if crossed:
                crossing[f"F {loc} - {dst}"] = crossed
    assert crossing == {}


def test_a_convoy_and_a_retreat_keep_to_the_sea() -> None:
    """A convoyed army's way from Gascony to Tunis goes round Spain and through the Strait
    of Gibraltar (it crossed Spain), and a fleet dislodged in the Mid-Atlantic retreats to
    the Western Mediterranean the same way, its options too."""
    convoy = {"FRANCE": ["F MAO C A GAS - TUN", "F WES C A GAS - TUN", "A GAS - TUN"]}
    start = position({"FRANCE": ["F MAO", "F WES", "A GAS"]})
    svg = render(start, orders=orders_of(convoy))
    assert land_crossed(svg, "move", {"GAS", "TUN"}) == []
    svg = render(start, orders=orders_of({"FRANCE": convoy["FRANCE"][:2]}))
    assert land_crossed(svg, "convoy-route", {"GAS", "TUN"}) == []

    taken = Position.from_json(
        {
            "units": {"ENGLAND": ["F MAO"]},
            "dislodged": {
                "FRANCE": [{"unit": "F MAO", "attacker_from": "BRE", "retreats": ["WES"]}]
            },
            "centers": {},
        },
        STANDARD,
    )
    assert land_crossed(render(taken), "retreat-option", {"MAO", "WES"}) == []
    retreat = orders_of({"FRANCE": ["F MAO R WES"]})
    assert land_crossed(render(taken, orders=retreat), "retreat", {"MAO", "WES"}) == []


def test_an_order_s_tooltip_is_said_with_the_language_s_colon() -> None:
    """French sets a space before its colon ("France : A Par-Bur"); the picture's tooltip
    joined the power and its order with the English colon in every language."""
    start = position({"FRANCE": ["A PAR"]})
    said = {}
    for language in ("en", "es", "fr", "pt"):
        root = ET.fromstring(
            render(start, orders=orders_of({"FRANCE": ["A PAR - BUR"]}), language=language)
        )
        (arrow,) = classed(root, "move")
        said[language] = arrow.findtext(f"{NS}title")
    assert said == {
        "en": "France: A PAR - BUR",
        "es": "Francia: E Par-Bor",
        "fr": "France : A Par-Bur",
        "pt": "França: E de Par. para Bur.",
    }


def test_a_refused_build_is_marked_as_a_failed_order_not_as_a_removed_unit() -> None:
    """A build in Belgium (no home centre) is illegal: its ghost bore the large ✗ over
    the token that the key gives a unit dislodged or removed. It bears the small ✗ of a
    failed or illegal order, beside the token, as a failed convoy's does."""
    start = Position.from_json(
        {"units": {"FRANCE": ["A PAR"]}, "centers": {"FRANCE": ["PAR", "BRE", "BEL"]}}, STANDARD
    )
    orders = orders_of({"FRANCE": ["A BEL B"]})
    resolution = adjudicate(STANDARD, start, orders, rules_for("classic"), Phase.parse("W1901A"))
    root = ET.fromstring(render(start, orders=orders, results=resolution))
    (ghost,) = [g for g in classed(root, "ghost") if "key" not in g.get("class", "")]
    (mark,) = classed(root, "fail")
    path = mark.find(f"{NS}path")
    assert path is not None
    (x0, y0), (x1, _) = (
        tuple(map(float, p.split(","))) for p in path.get("d", "").split("M")[1].split("L")
    )
    gx, gy = translation(ghost)
    centre = ((x0 + x1) / 2, y0 + (x1 - x0) / 2)
    assert x1 - x0 <= 8  # the key's failed ✗ (8 wide), not the removal's (11 and more)
    assert not near([centre], (gx, gy), 10)  # beside the token, not over it
