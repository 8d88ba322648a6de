"""The SVG picture: well-formed, one clickable element per province, units, centres,
orders and results drawn, golden files for the example games' phases."""

from __future__ import annotations

import json
import os
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from realpolitik import (
    ARMY,
    FLEET,
    Build,
    Disband,
    Position,
    SupportHold,
    SupportMove,
    UnitRef,
    load_map,
    parse_order,
)
from realpolitik.adjudicator.results import OrderResult
from realpolitik.data import shipped
from realpolitik.formats.replay import load_game_record
from realpolitik.game import Game
from realpolitik.notation import format_date, format_order, language_data
from realpolitik.notation.formatter import unit_phrase
from realpolitik.phase import Phase
from realpolitik.render import render
from realpolitik.render.drawing import load_drawing
from realpolitik.render.frames import Frame, frames_from_game, frames_from_record
from realpolitik.render.legend import phase_name
from realpolitik.render.words import Words

STANDARD = load_map("standard")
STANDARD_DRAWING = load_drawing("standard")

NS = "{http://www.w3.org/2000/svg}"
GOLDEN = Path(__file__).parent / "data" / "render"
UPDATE = os.environ.get("REALPOLITIK_UPDATE_GOLDEN") == "1"


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def classed(root: ET.Element, word: str) -> list[ET.Element]:
    return [e for e in root.iter() if word in e.get("class", "").split()]


def frames(name: str) -> dict[str, Frame]:
    return {str(f.phase): f for f in frames_from_record(load_game_record(name))}


def draw(frame: Frame, **options: object) -> str:
    return render(
        frame.position,
        game_map=frame.game_map,
        orders=frame.orders,
        results=frame.resolution,
        phase=frame.phase,
        **options,  # type: ignore[arg-type]
    )


def test_start_position_is_well_formed_with_one_element_per_province() -> None:
    game_map = load_map("standard")
    root = parse(render(Position.initial(game_map)))
    ids = [e.get("id") for e in root.iter() if e.get("id")]
    assert len(ids) == len(set(ids))
    provinces = classed(root, "province")
    assert {e.get("id") for e in provinces} == set(game_map.provinces)
    assert all(e.tag == f"{NS}path" for e in provinces)
    assert len(classed(root, "unit")) == 22
    assert len(classed(root, "army")) == 13
    assert len(classed(root, "fleet")) == 9
    assert len(classed(root, "center")) == 34
    assert len(classed(root, "neutral")) == 12
    assert len(classed(root, "russia")) == 4 + 4  # units and centres


def texts(svg: str) -> set[str | None]:
    return {e.text for e in parse(svg).iter(f"{NS}text")}


def test_labels_short_long_and_given_names() -> None:
    start = Position.initial(load_map("standard"))
    assert "LON" in texts(render(start))
    assert "London" in texts(render(start, labels="long"))
    assert "Londres" in texts(render(start, labels="long", names={"LON": "Londres"}))
    with pytest.raises(ValueError):
        render(start, labels="tiny")


def test_words_in_other_languages() -> None:
    frame = frames("classic_1901_1902")["F1901M"]
    spanish = texts(draw(frame, language="es", labels="long"))
    assert {"Londres", "Otoño de 1901", "Alemania"} <= spanish
    assert any(t and "fracasa" in t for t in spanish)
    french = texts(draw(frame, language="fr"))
    assert "Automne 1901" in french
    grow = texts(draw(frame, language="pt", edition="grow"))
    assert "Verão de 1901" in grow
    with pytest.raises(ValueError):
        draw(frame, language="xx")


def test_the_conquista_board_is_labelled_with_its_books_names_in_spanish() -> None:
    """La Conquista's book says "Escocia", "Atlántico Sur", "Sebastópolis" (the classic
    "Edimburgo", "Atlántico Central", "Sebastopol" were drawn), in the labels and the
    legend's orders; the standard board keeps the classic names."""
    conquista = load_map("conquista")
    start = Position.initial(conquista)
    order = SupportMove(UnitRef(FLEET, "EDI"), UnitRef(FLEET, "LON/EC"), "NTH")
    svg = {
        e.text
        for e in parse(render(start, game_map=conquista, language="es", labels="long")).iter()
    }
    assert {"Escocia", "Atlántico Sur", "Sebastópolis", "Sur"} <= svg  # titles, labels' lines
    assert not {"Edimburgo", "Atlántico Central", "Sebastopol", "Central"} & svg
    short = render(start, game_map=conquista, language="es", orders={"ENGLAND": [order]})
    assert {"Esc", "AtS", "F Esc A F CE Lon-MNt"} <= texts(short)
    classic = texts(render(Position.initial(STANDARD), language="es", labels="long"))
    assert {"Edimburgo", "Sebastopol"} <= classic


LEGEND_IN_ENGLISH = {
    "Power",
    "units",
    "Orders",
    "Key",
    "army",
    "fleet",
    "move",
}  # ("centres": fr too)
LEGEND_IN_ENGLISH |= {
    "support",
    "hold",
    "convoy",
    "failed",
    "standoff",
    "Standard map (Europe 1901)",
}
LEGEND = {
    "es": {"Potencia", "centros", "Órdenes", "Leyenda", "ejército", "Mapa estándar (Europa 1901)"},
    "fr": {"Puissance", "unités", "Ordres", "Légende", "soutien", "Carte standard (Europe 1901)"},
    "pt": {"Potência", "unidades", "Ordens", "Legenda", "armada", "Mapa padrão (Europa 1901)"},
}


TITLES = {
    "es": "Mapa estándar (Europa 1901)",
    "fr": "Carte standard (Europe 1901)",
    "pt": "Mapa padrão (Europa 1901)",
}
FALL_1901 = {"es": "Otoño de 1901", "fr": "Automne 1901", "pt": "Outono de 1901"}
RETREATS = {"es": "retiradas", "fr": "retraites", "pt": "retrocedimentos"}


@pytest.mark.parametrize("language", sorted(LEGEND))
def test_the_legend_and_the_board_s_title_in_the_language(language: str) -> None:
    said = texts(draw(frames("classic_1901_1902")["F1901M"], language=language))
    assert LEGEND[language] <= said and not said & LEGEND_IN_ENGLISH, said
    board = parse(draw(frames("classic_1901_1902")["F1901M"], language=language))
    title = board.find(f"{NS}title")
    assert title is not None and title.text == f"{TITLES[language]} — {FALL_1901[language]}"
    retreats = phase_name(Phase.parse("F1901R"), Words(language))  # not "Otoño de 1901 Retiradas"
    assert retreats == f"{FALL_1901[language]}, {RETREATS[language]}", retreats
    # every board has its title in the language
    boards = {p.stem for p in shipped("maps", "data").rglob("*.json")}
    for name in boards:
        assert Words(language).title(load_map(name)) != load_map(name).title, name


REINFORCEMENTS = {
    "en": "Spring 1915 Reinforcements",
    "es": "Primavera de 1915, refuerzos",
    "fr": "Printemps 1915, renforts",
    "pt": "Primavera de 1915, reforços",
}


@pytest.mark.parametrize("language", sorted(REINFORCEMENTS))
def test_la_conquista_s_spring_adjustments_are_named_its_reinforcements(language: str) -> None:
    """La Conquista's adjustment phase is its Spring reinforcements ("incorporación de
    tropas", "no podrá incorporar refuerzos"): not "Primavera de 1915, ajustes" as the
    other editions' Winter builds and removals (which keep their name)."""
    spring = Phase.parse("S1915A")
    assert phase_name(spring, Words(language, edition="conquista")) == REINFORCEMENTS[language]
    word = REINFORCEMENTS[language].split(" ")[-1].lower()
    assert word in format_date(spring, language, "conquista")
    winter = phase_name(Phase.parse("W1901A"), Words(language, edition="classic"))
    assert winter.split(" ")[-1].lower() == language_data(language)["phase_kinds"]["A"], winter


def test_id_prefix_keeps_ids_apart() -> None:
    root = parse(render(Position.initial(load_map("standard")), id_prefix="a-"))
    assert root.find(".//*[@id='a-LON']") is not None
    assert root.find(".//*[@id='LON']") is None


def test_orders_and_results_of_spring_1901() -> None:
    frame = frames("classic_1901_1902")["S1901M"]
    root = parse(draw(frame))
    moves = classed(root, "move")
    assert len(moves) == 22  # every unit moved
    failed = {e.find(f"{NS}title").text for e in classed(root, "failed")}  # type: ignore[union-attr]
    assert failed == {
        "Austria: A BUD - GAL — fails",
        "Russia: A WAR - GAL — fails",
        "Russia: F SEV - BLA — fails",
        "Turkey: F ANK - BLA — fails",
    }
    assert len(classed(root, "standoff")) == 2  # Galicia and the Black Sea
    assert classed(root, "fail")  # the ✗ marks


def test_supports_convoys_and_holds_are_drawn() -> None:
    frame = frames("classic_1901_1902")["F1902M"]
    root = parse(draw(frame))
    assert frame.resolution is not None
    supports = [
        o for o in frame.resolution.outcomes if isinstance(o.order, SupportHold | SupportMove)
    ]
    assert len(classed(root, "support")) == len(supports)
    assert classed(root, "hold")  # F GRE H
    grow = frames("grow_1901_1902")["F1901M"]
    root = parse(draw(grow))
    assert len(classed(root, "convoy")) == 1  # F NTH C A YOR - NWY


def test_retreat_phase_shows_dislodged_units_and_their_retreats() -> None:
    frame = frames("classic_1901_1902")["F1902R"]
    root = parse(draw(frame))
    dislodged = classed(root, "dislodged")
    assert len(dislodged) == len(frame.position.dislodged)
    assert classed(root, "retreat")


def test_retreat_options_without_orders() -> None:
    game_map = load_map("standard")
    frame = frames("classic_1901_1902")["F1902R"]
    root = parse(render(frame.position, game_map=game_map))
    options = sum(len(d.retreats) for d in frame.position.dislodged.values())
    assert len(classed(root, "retreat-option")) == options


def test_builds_are_drawn_as_new_units() -> None:
    game_map = load_map("standard")
    start = Position.initial(game_map)
    empty_paris = Position({p: u for p, u in start.units.items() if p != "PAR"}, start.centers)
    svg = render(
        empty_paris,
        game_map=game_map,
        orders={"FRANCE": [parse_order("A PAR B", game_map=STANDARD)]},
    )
    assert len(classed(parse(svg), "unit")) == 22


def test_reduced_and_larger_boards() -> None:
    """Grow's smaller tables take provinces away (Turkey, Russia... with fewer players):
    they are drawn out of play and not named (their names were written, greyed, as if
    they were on the board); the conquista board has its two more centres."""
    grow3 = load_map("grow_3")
    svg = render(Position.initial(grow3), game_map=grow3, labels="long")
    inactive = {e.get("id") for e in classed(parse(svg), "inactive")}
    assert inactive == set(grow3.removed) and {"VIE", "ROM", "TUN", "MOS"} <= inactive
    named = texts(svg)
    assert not {"Vienna", "Rome", "Tunis", "Moscow"} & named, named
    assert {"Switzerland", "Paris", "London"} <= named  # (Switzerland, impassable, is the board's)
    grow6 = load_map("grow_6")
    six = texts(render(Position.initial(grow6), game_map=grow6))
    assert "ANK" not in six and "BUL" not in six and "SEV" in six
    conquista = load_map("conquista")
    root = parse(render(Position.initial(conquista), game_map=conquista))
    centres = {e.get("data-province") for e in classed(root, "center")}
    assert len(centres) == 36 and {"SIL", "SYR"} <= centres


GOLDEN_PHASES = [
    ("classic_1901_1902", "S1901M"),
    ("classic_1901_1902", "F1902M"),
    ("classic_1901_1902", "F1902R"),
    ("classic_1901_1902", "W1902A"),
    ("grow_1901_1902", "F1901M"),
]


@pytest.mark.parametrize(("game", "phase"), GOLDEN_PHASES)
def test_golden_pictures(game: str, phase: str) -> None:
    svg = draw(frames(game)[phase])
    path = GOLDEN / f"{game}_{phase}.svg"
    if UPDATE:
        path.write_text(svg, encoding="utf-8")
    assert path.read_text(encoding="utf-8") == svg, (
        f"{path.name} changed: look at the new picture, then REALPOLITIK_UPDATE_GOLDEN=1"
    )


def legend_texts(svg: str) -> list[str]:
    legend = parse(svg).find(".//*[@id='legend']")
    assert legend is not None
    return [e.text or "" for e in legend.iter(f"{NS}text")]


@pytest.mark.parametrize("language", ["en", "es", "fr", "pt"])
def test_the_key_explains_the_retreats_only_where_there_are_retreats(language: str) -> None:
    """La Conquista destroys a dislodged unit at once: no unit waits for a retreat, ringed
    with its retreats dotted, as the key said (the destroyed unit is marked ✗, like a
    dislodged one in a movement's picture of the other editions)."""
    said = Words(language).legend("dislodged")
    conquista = load_map("conquista")
    assert said not in legend_texts(
        render(Position.initial(conquista), game_map=conquista, language=language,
               edition="conquista")
    )  # fmt: skip
    assert said in legend_texts(render(Position.initial(load_map("standard")), language=language))


def test_text_xml_cannot_hold_is_written_as_a_replacement_character() -> None:
    """An order text that could not be read is written in the legend as given, and XML
    holds no control character (nor half a surrogate pair, which JSON's ``\\ud800`` gives):
    ``A PAR - \\x01`` made a picture no browser or XML reader opens."""
    svg = render(
        Position.initial(load_map("standard")),
        title="A\x1bB",
        unread={"FRANCE": ["A PAR - \x01X\ud800"]},
        names={"PAR": "Pa\x0bris"},
        labels="long",
    )
    texts = [e.text for e in parse(svg).iter(f"{NS}text")]
    assert "A PAR - \ufffdX\ufffd" in texts and "Pa\ufffdris" in texts
    assert "A\ufffdB" in legend_texts(svg)
    svg.encode("utf-8")  # (written to a file as UTF-8)


def test_the_legend_lists_the_removals_and_disbands_nobody_ordered() -> None:
    """A power in civil disorder loses a unit, and a dislodged unit given no retreat is
    disbanded: the map marks each with ✗, and the legend lists it too (it listed only the
    orders given, so the ✗ went unexplained); a movement's implied holds stay unlisted."""
    position = {
        "units": {"ITALY": ["A VEN", "F ION"], "AUSTRIA": ["A TRI"]},
        "centers": {"ITALY": ["VEN"], "AUSTRIA": ["TRI", "ROM"]},
    }
    game = Game.from_position(position, "W1901A", seed=1)
    game.set_civil_disorder("ITALY")
    game.process()
    frame = frames_from_game(game)[0]
    assert frame.resolution is not None
    (removal,) = [o for o in frame.resolution.outcomes if o.power == "ITALY"]
    assert removal.implied and isinstance(removal.order, Disband)
    assert str(removal.order) in legend_texts(draw(frame))
    assert format_order(removal.order, "fr") in legend_texts(draw(frame, language="fr"))
    retreats = frames("classic_1901_1902")["F1902R"]
    assert retreats.resolution is not None
    game = Game.from_position(retreats.position, "F1902R", seed=1)
    game.process()  # nobody retreats: every dislodged unit is disbanded
    frame = frames_from_game(game)[0]
    assert frame.resolution is not None
    disbands = [str(o.order) for o in frame.resolution.outcomes]
    assert disbands and set(disbands) <= set(legend_texts(draw(frame)))
    game = Game.from_position(position, "F1901M", seed=1)
    game.process()  # nobody orders: every unit holds
    movement = frames_from_game(game)[0]
    assert movement.resolution is not None
    holds = [str(o.order) for o in movement.resolution.outcomes if o.implied]
    assert len(holds) == 3 and not set(holds) & set(legend_texts(draw(movement)))


def test_larger_units_keep_their_rings_and_the_arrows_ends_clear() -> None:
    """The web page's board draws units twice the size (``unit_scale=2``): the rings round
    them and the arrows' ends at them grow with them. Drawn at the plain size and enlarged
    by the page, a hold ring (radius 16) lay under its army (18 wide each side) and a move
    to an occupied province ended its arrowhead under the unit there."""
    position = Position.from_json({"units": {"FRANCE": ["A PAR"], "GERMANY": ["F KIE"]}}, STANDARD)
    orders = {
        "FRANCE": [parse_order("A PAR H", game_map=STANDARD)],
        "GERMANY": [parse_order("F KIE - PAR", game_map=STANDARD)],  # (illegal: drawn all the same)
    }
    root = parse(render(position, game_map=STANDARD, orders=orders, unit_scale=2))
    army = next(e for e in classed(root, "unit") if "army" in e.get("class", ""))
    assert "scale(2)" in army.get("transform", "")
    ring = classed(root, "hold")[0].find(f"{NS}circle")
    assert ring is not None and float(ring.get("r", 0)) > 2 * 9 * 2**0.5  # beyond the corners
    head = classed(root, "move")[0].findall(f"{NS}path")[-1].get("d", "")
    tip = [float(v) for v in head[1:].split(" ")[0].split(",")]
    x, y = STANDARD_DRAWING.point("PAR")
    assert max(abs(tip[0] - x), abs(tip[1] - y)) > 2 * 9  # outside the doubled army
    with pytest.raises(ValueError, match="unit_scale"):
        render(position, unit_scale=0)


def test_enlarged_a_dislodged_unit_lies_under_the_unit_that_took_its_place() -> None:
    """Enlarged (the web page's board), a dislodged unit's ring reaches the unit standing
    in its province: drawn after it, its pale fill washed that unit out (the pictures tour,
    a retreat on the page). The standing unit is painted over the dislodged one, which is
    a little smaller."""
    retreat = frames("classic_1901_1902")["F1902R"]
    root = parse(render(retreat.position, game_map=STANDARD, unit_scale=2))
    units = root.find(".//*[@id='units']")
    assert units is not None
    layer = list(units)
    rings = [k for k, e in enumerate(layer) if "dislodged-ring" in e.get("class", "")]
    standing = [k for k, e in enumerate(layer) if e.get("class", "").split()[:1] == ["unit"]
                and "dislodged" not in e.get("class", "")]  # fmt: skip
    assert rings and standing and max(rings) < min(standing)
    aside = next(e for e in layer if "dislodged" in e.get("class", "").split())
    assert "scale(1.6)" in aside.get("transform", "")


def star_boxes(root: ET.Element) -> dict[str, tuple[float, float, float, float]]:
    """Each supply centre's star: its box (left, top, right, bottom), by province."""
    out = {}
    for star in classed(root, "center"):
        d = star.get("d", "").replace("M", " ").replace("L", " ").replace("Z", "")
        xs, ys = zip(*(map(float, p.split(",")) for p in d.split()), strict=True)
        out[star.get("data-province", "")] = (min(xs), min(ys), max(xs), max(ys))
    return out


def overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def token_boxes(root: ET.Element) -> list[tuple[float, float, float, float]]:
    """Each unit token's box as drawn (an army ±9, a fleet ±15 by -12 to 6.5, scaled)."""
    out = []
    for unit in classed(root, "unit"):
        found = re.match(r"translate\(([-\d.]+),([-\d.]+)\)(?: scale\(([\d.]+)\))?",
                         unit.get("transform", ""))  # fmt: skip
        assert found is not None
        x, y, k = float(found[1]), float(found[2]), float(found[3] or 1)
        left, top, right, bottom = (-9, -9, 9, 9) if "army" in unit.get("class", "") else (
            -15, -12, 15, 6.5)  # fmt: skip
        out.append((x + left * k, y + top * k, x + right * k, y + bottom * k))
    return out


@pytest.mark.parametrize("scale", [1, 2, 2.4])
def test_a_centre_s_star_shows_beside_the_unit_standing_on_it(scale: float) -> None:
    """The stars of the supply centres lay partly under the units standing on them (the web
    page's larger units hid most of each star; Edinburgh's fleet hid its star at any size),
    and under the builds ordered and the units dislodged. A star is moved just clear of them;
    one with no unit on it stays in its place."""
    pictures = [render(Position.initial(STANDARD), game_map=STANDARD, unit_scale=scale)]
    for name in ("F1902R", "W1902A"):
        frame = frames("classic_1901_1902")[name]
        pictures.append(draw(frame, unit_scale=scale))
    for svg in pictures:
        root = parse(svg)
        stars, tokens = star_boxes(root), token_boxes(root)
        under = [p for p, star in stars.items() if any(overlap(star, t) for t in tokens)]
        assert not under, (scale, under)
    left, top, right, _ = star_boxes(parse(pictures[0]))["SWE"]  # (nobody in Sweden)
    x, y = STANDARD_DRAWING.provinces["SWE"].center
    assert ((left + right) / 2, top) == pytest.approx((x, y - 6.5), abs=0.1)


def label_boxes(root: ET.Element) -> dict[str, tuple[float, float, float, float]]:
    """Each province name's box as written (its lines centred on ``x``, bold letters at
    least 0.6 em wide, capitals 0.7 em tall above the baseline), keyed by its text."""
    out = {}
    for label in classed(root, "label"):
        x, y, size = (float(label.get(k, 0)) for k in ("x", "y", "font-size"))
        half = len(label.text or "") * size * 0.6 / 2
        out[f"{label.text}@{x},{y}"] = (x - half, y - 0.7 * size, x + half, y)
    return out


@pytest.mark.parametrize("scale", [1, 2, 2.4])
@pytest.mark.parametrize("labels", ["short", "long"])
def test_a_province_s_name_shows_beside_the_units_drawn_there(scale: float, labels: str) -> None:
    """The web page's board draws units twice as large (a phone's 2.4 times): a name
    written just under its unit's spot lay under the unit (Holland, Ruhr, Munich, Galicia,
    Sevastopol at 2; at 2.4 nearly every name with a unit on it), so a player could not
    read where a unit stood. A name is moved just clear of the units, the units set aside
    and the builds drawn over it."""
    pictures = [render(Position.initial(STANDARD), game_map=STANDARD, unit_scale=scale,
                       labels=labels)]  # fmt: skip
    for name in ("S1902M", "F1902R", "W1902A"):
        pictures.append(draw(frames("classic_1901_1902")[name], unit_scale=scale, labels=labels))
    for svg in pictures:
        root = parse(svg)
        names, tokens = label_boxes(root), token_boxes(root)
        under = [n for n, box in names.items() if any(overlap(box, t) for t in tokens)]
        assert not under, (scale, under)


@pytest.mark.parametrize("language", ["en", "es", "fr", "pt"])
def test_every_unit_drawn_says_whose_it_is_and_where(language: str) -> None:
    """A unit was shapes and a colour only: no text said whose it was or where it stood, so
    a player who cannot see the picture (a screen reader) or tell its colours apart had
    nothing to read of the units of a position with no orders. Each token has a title in the
    picture's language: the power and the unit in words; a dislodged one says so, a build
    ordered is its order."""
    words = Words(language, game_map=STANDARD)
    colon = language_data(language)["messages"]["colon"]
    start = parse(render(Position.initial(STANDARD), game_map=STANDARD, language=language))
    titles = {(e.findtext(f"{NS}title") or "") for e in classed(start, "unit")}
    paris = unit_phrase(UnitRef(ARMY, "PAR"), language, game_map=STANDARD)
    assert f"{words.power('FRANCE')}{colon}{paris}" in titles
    assert len(titles) == 22 and "" not in titles
    if language == "fr":
        assert "France : l'armée de Paris" in titles
    if language == "en":
        assert "Russia: the fleet in St Petersburg (south coast)" in titles
    retreat = parse(draw(frames("classic_1901_1902")["F1902R"], language=language))
    dislodged = [e.findtext(f"{NS}title") or "" for e in classed(retreat, "dislodged")
                 if "unit" in e.get("class", "").split()]  # fmt: skip
    rumania = unit_phrase(UnitRef(FLEET, "RUM"), language, game_map=STANDARD)
    assert f"{words.power('RUSSIA')}{colon}{rumania} — {words.result(OrderResult.DISLODGED)}" in (
        dislodged
    )
    builds = parse(draw(frames("classic_1901_1902")["W1902A"], language=language))
    ghosts = [e.findtext(f"{NS}title") or "" for e in classed(builds, "ghost")]
    london = Build(UnitRef(FLEET, "LON"))
    assert f"{words.power('ENGLAND')}{colon}{words.order(london)}" in ghosts


def test_the_legend_sets_apart_the_powers_nobody_plays() -> None:
    """At a table of five, Germany and Italy are out: their units only hold. The legend
    listed them among the powers in play; now they come last, under a heading saying
    nobody plays them (in the picture's language), their names greyed. A power not of the
    board is refused."""
    start = Position.initial(STANDARD)
    said = legend_texts(render(start, unplayed={"ITALY", "GERMANY"}))
    heading = "not played: their units only hold"
    names = {"Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey", heading}
    assert [t for t in said if t in names] == [
        *("Austria", "England", "France", "Russia", "Turkey", heading, "Germany", "Italy")
    ]
    assert "sin jugador: sus unidades solo se mantienen" in legend_texts(
        render(start, unplayed={"ITALY"}, language="es")
    )
    assert not any("not played" in t for t in legend_texts(render(start)))
    with pytest.raises(ValueError, match="SPAIN"):
        render(start, unplayed={"SPAIN"})


@pytest.mark.parametrize("language", ["en", "es", "fr", "pt"])
def test_the_key_explains_a_build_and_a_unit_struck_out(language: str) -> None:
    """An adjustment picture draws each build ordered as a ghost unit with a "+" and strikes
    out each unit removed with a red ✗ (a dislodged or disbanded unit too), and the key
    explained neither: its only ✗ was on a dashed line, 'failed', so a removal read as an
    order that failed. The key shows the ghost ('build') and a unit struck out ('dislodged
    or removed'), in the picture's language."""
    words = Words(language)
    legend = parse(draw(frames("classic_1901_1902")["W1902A"], language=language)).find(
        ".//*[@id='legend']"
    )
    assert legend is not None
    ghosts = [e for e in classed(legend, "ghost") if "key" in e.get("class", "").split()]
    struck = [e for e in classed(legend, "struck") if "key" in e.get("class", "").split()]
    texts = [e.text for e in legend.iter(f"{NS}text")]
    assert len(ghosts) == 1 and words.legend("build") in texts
    assert len(struck) == 1 and words.legend("struck") in texts
    assert struck[0].find(".//*[@class='key-cross']") is not None


def test_the_key_s_standoff_is_the_map_s_burst() -> None:
    """The map marks a standoff with a sixteen-point burst; the key showed a plain orange
    disc, which the map never draws. The key draws the burst, smaller."""
    root = parse(draw(frames("classic_1901_1902")["S1902M"]))
    legend = root.find(".//*[@id='legend']")
    assert legend is not None
    on_map = [e for e in classed(root, "standoff") if e not in set(legend.iter())]
    (key,) = classed(legend, "key-standoff")
    corners = [len(e.get("d", "").split()) for e in (*on_map, key)]
    assert on_map and corners == [16] * len(corners)
    assert {e.get("fill") for e in (*on_map, key)} == {"#ffb347"}


def test_the_legend_s_words_fit_in_it() -> None:
    """The key's words are written at 11 px from where their symbol ends (two columns) to
    the 300 px legend's edge, the heading of the powers nobody plays at 10 px from 18 px:
    at DejaVu Sans' half an em a letter on average they end inside it (the French supply
    centre's words ran to its edge)."""
    words = json.loads((shipped("render", "data") / "legend_words.json").read_text("utf-8"))
    starts = {"army": 48, "move": 62, "hold": 48, "failed": 58, "dislodged": 48, "centre": 48,
              "fleet": 182, "support": 186, "convoy": 178, "standoff": 162, "build": 48,
              "struck": 48}  # fmt: skip
    for language, said in words.items():
        for key, start in starts.items():
            assert start + len(said[key]) * 11 * 0.5 <= 300 - 6, (language, said[key])
        assert 18 + len(said["unplayed"]) * 10 * 0.5 <= 300 - 6, (language, said["unplayed"])


def test_the_provinces_nobody_may_enter_yet_are_hatched() -> None:
    """On the two-player board Italy is neutral until 1915: its provinces cannot be
    entered, but they were drawn as any power's land. They are hatched (the pattern's id
    prefixed, as every id); the full board has nothing hatched."""
    neutral = load_map("standard_neutral_italy")
    root = parse(render(Position.initial(neutral), game_map=neutral, id_prefix="n-"))
    hatched = {e.get("data-province") for e in classed(root, "cut-off")}
    assert hatched == {"PIE", "VEN", "TUS", "ROM", "APU", "NAP"}
    assert all(e.get("fill") == "url(#n-cut-off-hatch)" for e in classed(root, "cut-off"))
    assert root.find(".//*[@id='n-cut-off-hatch']") is not None
    assert not classed(parse(render(Position.initial(STANDARD))), "cut-off")


@pytest.mark.parametrize("language", ["en", "es", "fr", "pt"])
def test_the_legend_s_orders_and_results_are_not_written_over_each_other(language: str) -> None:
    """Portuguese writes its orders long ("E da Ser. apoia E da Bul. para Rum."): in the
    legend they ran under their results and past its edge. An order too long for its line
    is cut, and its result goes below it (widths by DejaVu Sans Mono's 0.602 em a letter,
    and about 0.55 em for the results' italics)."""
    svg = draw(frames("classic_1901_1902")["F1902M"], language=language)
    legend = parse(svg).find(".//*[@id='legend']")
    assert legend is not None
    edge = float(legend.find(f"{NS}rect").get("x", 0)) + 300  # type: ignore[union-attr]
    orders: dict[float, tuple[float, float]] = {}
    results: dict[float, tuple[float, float]] = {}
    for e in legend.iter(f"{NS}text"):
        size, x, y, text = (
            float(e.get("font-size", 0)),
            float(e.get("x", 0)),
            float(e.get("y", 0)),
            e.text or "",
        )
        if "Mono" in (e.get("font-family") or ""):
            orders[y] = (x, x + len(text) * 0.602 * size)
            assert orders[y][1] <= edge - 6, (language, text)
        elif e.get("font-style") == "italic":
            results[y] = (x - len(text) * 0.55 * size, x)
    assert len(results) > 30
    for y, (start, _end) in results.items():
        if y in orders:
            assert orders[y][1] + 4 <= start, (language, y)


def test_the_legend_writes_the_board_s_title_whole() -> None:
    """The French titles of the neutral-Italy boards take four lines: the fourth, "1915)"
    (until when Italy is neutral), was dropped. A long title given is cut at five lines."""
    neutral = load_map("standard_neutral_italy")
    said = legend_texts(render(Position.initial(neutral), game_map=neutral, language="fr"))
    assert "1915)" in said
    long = legend_texts(render(Position.initial(STANDARD), title="mot " * 60))
    assert long[4].endswith(" …") and not long[5].startswith("mot")
