"""La Conquista's own board (seed 004, "Sobre accidentes geográficos" and the start table),
as ``maps/data/derived/conquista.json`` declares it, and its picture.

The book's worked examples of movement on this board are adjudication cases in
``tests/data/rulebook/seed004_examples.json`` (run by ``test_rulebook_examples``)."""

from __future__ import annotations

import json
import math
from importlib import resources
from xml.etree import ElementTree

import pytest

from realpolitik.errors import OrderError
from realpolitik.game import Game
from realpolitik.game.editions import edition
from realpolitik.maps import GameMap, ProvinceType, load_map
from realpolitik.position import Position
from realpolitik.render import render
from realpolitik.render.drawing import drawing_for
from realpolitik.vocab import ARMY, FLEET


@pytest.fixture(scope="module")
def board() -> GameMap:
    return load_map("conquista")


def fleet_moves(board: GameMap, location: str) -> set[str]:
    return set(board.fleet_adjacency[location])


# --- centres and start positions -------------------------------------------------------------
def test_thirty_six_centres(board: GameMap) -> None:
    """ "El objetivo del juego es ocupar 18 de los 36 centros de producción presentes en el
    mapa": the standard 34, Silesia and Syria."""
    standard = load_map("standard")
    assert len(board.centers) == 36
    assert board.centers - standard.centers == {"SIL", "SYR"}
    assert board.homes["GERMANY"] == ("BER", "KIE", "MUN", "SIL")
    assert board.homes["TURKEY"] == ("ANK", "CON", "SMY", "SYR")
    assert not board.provinces["SLO"].center and not board.provinces["SDN"].center


# the start table, power by power, in the book's words and order
START_TABLE = {
    "ENGLAND": (
        "Un ejército en Liverpool. Una flota en Londres, sobre la costa del Canal de la Mancha. "
        "Una flota en Escocia, sobre la costa del Mar del Norte.",
        ["A LVP", "F LON/SC", "F EDI"],
    ),
    "GERMANY": (
        "Un ejército en Berlín. Un ejército en Munich. Un ejército en Silesia. Una flota en "
        "Kiel, sobre la costa, de la Ensenada de Helgoland.",
        ["A BER", "A MUN", "A SIL", "F KIE"],
    ),
    "RUSSIA": (
        "Un ejército en Moscú. Un ejército en Varsovia. Una flota en Sebastópolis, sobre la "
        "costa del Mar Negro. Una flota en San Petersburgo, sobre la costa sur, es decir sobre "
        "el Golfo de Botnia.",
        ["A MOS", "A WAR", "F SEV", "F STP/SC"],
    ),
    "ITALY": (
        "Un ejército en Roma. Un ejército en Venecia. Una flota en Nápoles, sobre la costa del "
        "Mar Tirreno.",
        ["A ROM", "A VEN", "F NAP"],
    ),
    "TURKEY": (
        "Un ejército en Constantinopla. Un ejército en Esinima. Un ejército en Siria. Una flota "
        "en Ankara, sobre la costa del Mar Negro.",
        ["A CON", "A SMY", "A SYR", "F ANK"],
    ),
    "AUSTRIA": (
        "Un ejército en Budapest. Un ejército en Viena. Una flota en Trieste, sobre la costa del "
        "Mar Adriático.",
        ["A BUD", "A VIE", "F TRI"],
    ),
    "FRANCE": (
        "Un ejército en París. Un ejército en Marsella. Una flota en Brest, sobre la costa del "
        "Atlántico Sur.",
        ["A PAR", "A MAR", "F BRE/SC"],
    ),
}


@pytest.mark.parametrize("power", sorted(START_TABLE))
def test_start_positions_as_the_book_lists_them(board: GameMap, power: str) -> None:
    """Each power's units where the book's table puts them (quoted in ``START_TABLE``)."""
    _, units = START_TABLE[power]
    assert [f"{t.value} {loc}" for t, loc in board.starts[power]] == units
    position = Game.new(edition="conquista", seed=1).position
    assert sorted(str(u) for u in position.units_of(power)) == sorted(units)


@pytest.mark.parametrize("setup", [s.id for s in edition("conquista").setups])
def test_every_table_plays_on_the_book_board(setup: str) -> None:
    """ "Independientemente de la cantidad de participantes, siempre se colocarán sobre el
    tablero las fichas de todas las potencias": every table starts with the 24 units of the
    table, on the book's board (Italy cut off in the two-player game, "como Suiza en un
    territorio impasable")."""
    game = Game.new(edition="conquista", setup=setup, seed=3)
    assert len(game.position.units) == 24 and len(game.game_map.centers) == 36
    assert game.game_map.name in ("conquista", "conquista_neutral_italy")
    assert game.position.units["LON"].location == "LON/SC"
    assert game.position.units["BRE"].location == "BRE/SC"
    assert fleet_moves(game.game_map, "LON/SC") == {"ENG"}
    assert "SLO" in game.game_map.provinces and "SDN" in game.game_map.provinces


# --- "Sobre accidentes geográficos" ----------------------------------------------------------
def test_london_fleet_must_go_out_to_the_channel(board: GameMap) -> None:
    """ "Queda claro que al comienzo del juego la flota Inglesa de Londres deberá salir al
    Canal de la Mancha, antes de pasar a otros mares o costas.\""""
    assert board.coasts("LON") == ("EC", "SC")
    assert fleet_moves(board, "LON/SC") == {"ENG"}
    assert not board.can_reach(FLEET, "LON/SC", "NTH")
    assert not board.can_reach(FLEET, "LON/SC", "WAL")
    assert not board.can_reach(FLEET, "LON/SC", "YOR")


def test_london_and_brest_are_entered_on_the_coast_of_the_sea(board: GameMap) -> None:
    """ "En posiciones posteriores, como en todos los casos de doble costa, ambos países
    podrán optar entre el Canal, el Atlántico o el mar del Norte": from the Channel a fleet
    enters London's Channel coast, from the North Sea its North Sea coast; Brest likewise
    from the Channel and the South Atlantic."""
    assert board.fleet_destinations("ENG", "LON") == ("LON/SC",)
    assert board.fleet_destinations("NTH", "LON") == ("LON/EC",)
    assert board.fleet_destinations("ENG", "BRE") == ("BRE/NC",)
    assert board.fleet_destinations("MAO", "BRE") == ("BRE/SC",)
    assert fleet_moves(board, "LON/EC") == {"NTH", "YOR"}  # a reading: see the board's data
    assert fleet_moves(board, "BRE/NC") == {"ENG", "PIC"}  # a reading: see the board's data


def test_brest_fleet_must_go_out_to_the_south_atlantic(board: GameMap) -> None:
    """ "La flota francesa de Brest deberá salir al Atlántico Sur.\""""
    assert board.coasts("BRE") == ("NC", "SC")
    assert fleet_moves(board, "BRE/SC") == {"MAO"}
    assert not board.can_reach(FLEET, "BRE/SC", "ENG")
    assert not board.can_reach(FLEET, "BRE/SC", "GAS")


def test_armies_in_london_and_brest_are_unchanged(board: GameMap) -> None:
    """Coasts are for fleets: the armies' borders of London and Brest are the standard ones."""
    standard = load_map("standard")
    for prov in ("LON", "BRE"):
        assert board.army_adjacency[prov] == standard.army_adjacency[prov]
        assert board.is_valid_location(ARMY, prov)


def test_kiel_fleet_reaches_denmark_through_the_canal(board: GameMap) -> None:
    """ "La flota alemana anclada en Kiel puede pasar en un sólo movimiento por costa a
    Dinamarca a través del canal marcado en el tablero, ocupándola.\""""
    assert board.can_move(FLEET, "KIE", "DEN")
    assert board.coasts("KIE") == ()


def test_a_fleet_leaves_denmark_only_into_the_sea_of_denmark(board: GameMap) -> None:
    """ "Pero luego, para salir de allí deberá: a) Salir al mar de Dinamarca y, luego, en otra
    jugada, pasar al mar de Skagerrak. b) Salir al mar de Dinamarca y luego, en otra jugada,
    pasar al Mar Báltico u optar por ocupar Suecia a través de su costa lindera al mar de
    Dinamarca." (Back through the canal to Kiel too: passages go both ways.)"""
    assert board.provinces["SDN"].type is ProvinceType.SEA
    assert board.provinces["SDN"].name == "Sea of Denmark"
    assert fleet_moves(board, "DEN") == {"SDN", "KIE"}
    assert fleet_moves(board, "SDN") == {"DEN", "SKA", "BAL", "SWE"}
    for sea in ("SKA", "BAL", "NTH", "HEL"):
        assert not board.can_reach(FLEET, "DEN", sea)
        assert not board.can_reach(FLEET, sea, "DEN")
    assert not board.can_reach(FLEET, "DEN", "SWE")  # a reading: see the board's data
    assert not board.can_move(FLEET, "SKA", "BAL")


def test_denmark_borders_sweden_and_kiel_not_berlin(board: GameMap) -> None:
    """ "Una flota o ejército ocupando Dinamarca puede apoyar o atacar a Suecia y a Kiel, pero
    no a Berlín, que no es limítrofe.\""""
    assert board.army_adjacency["DEN"] == {"SWE", "KIE"}
    assert board.can_reach(FLEET, "DEN", "KIE")
    assert not board.can_reach(FLEET, "DEN", "BER")
    assert "BER" not in board.any_adjacency["DEN"]


def test_spain_north_coast_borders_portugal_and_gascony_not_marseilles(board: GameMap) -> None:
    """ "Una flota que ocupe la costa norte de España, puede apoyar o atacar Portugal o
    Gascuña. Pero no a Marsella, que no es limítrofe.\""""
    assert board.can_reach(FLEET, "SPA/NC", "POR")
    assert board.can_reach(FLEET, "SPA/NC", "GAS")
    assert not board.can_reach(FLEET, "SPA/NC", "MAR")


def test_constantinople_is_one_province_crossed_directly(board: GameMap) -> None:
    """ "Constantinopla es una sola provincia y cualquier ejército puede ocupar cualquiera de
    las dos costas del estrecho que une el Mar Negro al Mar Egeo, sin necesidad de cruzarlo
    con un movimiento. Las flotas también pasarán directamente.\""""
    assert board.coasts("CON") == ()
    assert {"BUL", "ANK", "SMY"} <= board.army_adjacency["CON"]
    assert board.can_move(FLEET, "BLA", "CON") and board.can_move(FLEET, "CON", "AEG")
    assert not board.can_move(FLEET, "BLA", "AEG")


def test_switzerland_islands_and_the_caspian_cannot_be_entered(board: GameMap) -> None:
    """ "Los países sin Centro de Producción (como Albania y Africa del Norte) son ocupables
    y útiles como apoyo. En cambio no es posible pasar ni ocupar Suiza. Tampoco son
    ocupables las islas (excepto Inglaterra), ni el mar Caspio.\""""
    assert not board.provinces["SWI"].passable
    assert "SWI" not in board.army_adjacency and "SWI" not in board.fleet_adjacency
    assert all("SWI" not in near for near in board.any_adjacency.values())
    assert board.is_valid_location(ARMY, "ALB") and board.is_valid_location(ARMY, "NAF")
    names = {info.name for info in board.provinces.values()}
    for place in ("Caspian Sea", "Ireland", "Corsica", "Sardinia", "Sicily", "Crete", "Cyprus"):
        assert place not in names
    with pytest.raises(OrderError, match="caspian"):
        Game.new(edition="conquista", seed=1).submit("RUSSIA", ["F SEV - Caspian Sea"])


def test_slovakia_is_a_province_between_silesia_and_bohemia(board: GameMap) -> None:
    """ "si ordeno al ejército de Bohemia que apoye el ataque de Silesia contra Eslovaquia":
    Slovakia borders Silesia and Bohemia (and, a reading, Galicia, Budapest and Vienna)."""
    assert board.provinces["SLO"].type is ProvinceType.INLAND
    assert board.army_adjacency["SLO"] == {"BOH", "SIL", "GAL", "BUD", "VIE"}
    assert board.can_reach(ARMY, "BOH", "SLO") and board.can_move(ARMY, "SIL", "SLO")
    assert not board.can_move(ARMY, "BOH", "GAL") and not board.can_move(ARMY, "VIE", "GAL")


def test_one_order_per_unit() -> None:
    """ "Cada ejército puede recibir una sola orden por vez. Por ejemplo, si ordeno al ejército
    de Bohemia que apoye el ataque de Silesia contra Eslovaquia, no puedo pedirle también que
    apoye la defensa de Munich.\""""
    game = Game.new(edition="conquista", seed=1)
    game.position = Position.from_json(
        {"units": {"GERMANY": ["A BOH", "A SIL", "A MUN"], "AUSTRIA": ["A SLO"]}},
        game.game_map,
    )
    with pytest.raises(OrderError, match="a second order for BOH"):
        game.submit("GERMANY", ["A SIL - SLO", "A BOH S A SIL - SLO", "A BOH S A MUN"])
    assert game.submit("GERMANY", ["A SIL - SLO", "A BOH S A SIL - SLO"])


def test_the_book_names_read_as_its_provinces() -> None:
    """The book's own names, in Spanish orders on this board: "Eslovaquia", "mar de
    Dinamarca", "Escocia", "Atlántico Sur", "Ensenada de Helgoland"."""
    game = Game.new(edition="conquista", seed=1)
    orders = game.submit(
        "ENGLAND",
        ["F Escocia - Mar del Norte", "F Londres costa sur - Canal de la Mancha"],
        language="es",
    )
    assert [str(o) for o in orders] == ["F EDI - NTH", "F LON/SC - ENG"]
    orders = game.submit("FRANCE", ["F Brest costa sur - Atlántico Sur"], language="es")
    assert [str(o) for o in orders] == ["F BRE/SC - MAO"]
    orders = game.submit("GERMANY", ["E Silesia - Eslovaquia", "F Kiel - Dinamarca"], language="es")
    assert [str(o) for o in orders] == ["A SIL - SLO", "F KIE - DEN"]


# --- the board's data and its picture --------------------------------------------------------
def test_the_board_writes_down_its_readings() -> None:
    """Every place where the book is silent and a reading was chosen is in the data."""
    text = resources.files("realpolitik.maps").joinpath("data", "derived", "conquista.json")
    data = json.loads(text.read_text(encoding="utf-8"))
    about = {r["about"] for r in data["readings"]}
    assert {"London's coasts", "Brest's coasts", "Slovakia", "islands and the Caspian Sea"} <= about
    assert all(r["book"] and r["reading"] for r in data["readings"])


@pytest.mark.parametrize("name", ["conquista", "conquista_neutral_italy"])
def test_the_picture_draws_every_province_coast_and_unit(name: str) -> None:
    """The conquista drawing has every province of the board, a point for each coast of
    London and Brest apart from the other, and draws a unit at every place one can stand:
    an army in every land province, a fleet in every sea and on every coast."""
    board = load_map(name)
    drawing = drawing_for(board)
    assert drawing.name == "conquista" and set(board.provinces) <= set(drawing.provinces)
    for prov in ("LON", "BRE"):
        a, b = (drawing.provinces[prov].coast(c) for c in board.coasts(prov))
        assert a is not None and b is not None and math.dist(a, b) > 40
    armies = [f"A {p}" for p in sorted(board.army_locations)]
    seas = [f"F {p}" for p, info in sorted(board.provinces.items()) if info.is_sea]
    coasts = sorted(loc for loc in board.fleet_locations if not board.provinces[loc[:3]].is_sea)
    first = [f"F {loc}" for loc in coasts if loc[:3] not in {c[:3] for c in coasts if c < loc}]
    second = [f"F {loc}" for loc in coasts if f"F {loc}" not in first]
    assert len(first) + len(second) == len(coasts) and len(second) == 5  # SPA STP BUL LON BRE
    for units in (armies + seas, first, second):
        position = Position.from_json({"units": {"FRANCE": units}}, board)
        root = ElementTree.fromstring(render(position, game_map=board))
        tokens = [e for e in root.iter() if "unit" in e.get("class", "").split()]
        assert len(tokens) == len(units)
