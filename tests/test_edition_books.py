"""The Grow (seed 003, Portuguese) and La Conquista (seed 004, Spanish) editions, rule by
rule as their books write them (issue 17). Each test quotes the book's words it checks;
docs/editions.md lists the same rules and the readings chosen where a book is silent."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from realpolitik import Phase, Position, adjudicate, load_map, parse_order, rules_for
from realpolitik.adjudicator.results import Resolution
from realpolitik.errors import GameError, IllegalOrderError
from realpolitik.game import Game
from realpolitik.rules import Rules
from tests.gamekit import at

STANDARD = load_map("standard")


def play(units: dict[str, list[str]], orders: dict[str, list[str]], rules: Rules) -> Resolution:
    position = Position.from_json({"units": units}, STANDARD)
    parsed = {p: [parse_order(o, game_map=STANDARD) for o in os] for p, os in orders.items()}
    return adjudicate(STANDARD, position, parsed, rules, Phase.parse("S1901M"))


# --- Grow (003) ------------------------------------------------------------------------------
def test_grow_any_attack_cuts_support() -> None:
    """Grow, "BLOQUEIO DE APOIO": "Se uma unidade que está apoiando é atacada, o apoio fica
    imediatamente anulado. Mesmo que a unidade atacante seja mais fraca e não possa
    completar seu movimento, ainda assim o apoio é anulado." No exception for an attack
    from the province the support is aimed at: under Grow nothing moves; under classic
    A PRU takes WAR."""
    units = {"GERMANY": ["A PRU", "A SIL"], "RUSSIA": ["A WAR"]}
    orders = {"GERMANY": ["A PRU - WAR", "A SIL S A PRU - WAR"], "RUSSIA": ["A WAR - SIL"]}
    grow = play(units, orders, rules_for("grow"))
    assert {str(o.order): o.result.value for o in grow.outcomes} == {
        "A PRU - WAR": "fails",
        "A SIL S A PRU - WAR": "cut",
        "A WAR - SIL": "fails",
    }
    assert grow.position.units["WAR"].power == "RUSSIA" and not grow.position.dislodged
    classic = play(units, orders, rules_for("classic"))
    assert classic.position.units["WAR"].power == "GERMANY"
    assert "WAR" in classic.position.dislodged


def test_grow_support_cut_is_the_grow_preset_only() -> None:
    assert rules_for("grow").support_cut == "any_attack"
    for name in ("classic", "datc", "1971", "conquista"):
        assert rules_for(name).support_cut == "classic"


# --- La Conquista (004) ----------------------------------------------------------------------
TWO_ROUTES = {"ITALY": ["A NAP", "F TYS", "F ION"], "TURKEY": ["F AEG", "F GRE"]}
TWO_ROUTE_ORDERS = {
    "ITALY": ["A NAP - TUN", "F TYS C A NAP - TUN", "F ION C A NAP - TUN"],
    "TURKEY": ["F AEG - ION", "F GRE S F AEG - ION"],
}


def test_conquista_any_fleet_attacked_stops_the_convoy() -> None:
    """La Conquista, "Transportes": "en caso de que alguna de las flotas sea atacada con
    éxito durante el transporte, el ejército regresa a su territorio de partida, mientras
    que la flota atacada es retirada del tablero." Two routes (TYS, ION), ION dislodged:
    the army stays in Naples and the fleet is removed; classic lands it through TYS."""
    conquista = play(TWO_ROUTES, TWO_ROUTE_ORDERS, rules_for("conquista"))
    assert conquista.position.units["NAP"].power == "ITALY"
    assert "TUN" not in conquista.position.units
    assert conquista.position.units["ION"].power == "TURKEY"
    assert not conquista.position.dislodged  # destroyed, not retreating
    classic = play(TWO_ROUTES, TWO_ROUTE_ORDERS, rules_for("classic"))
    assert classic.position.units["TUN"].power == "ITALY"


def test_conquista_convoy_rule_in_a_game() -> None:
    """The same through a conquista game: no retreat phase follows, the fleet is gone."""
    game = at(Game.new(edition="conquista", seed=1), "S1914M", {"units": TWO_ROUTES})
    for power, orders in TWO_ROUTE_ORDERS.items():
        game.submit(power, orders)
    game.process()
    assert str(game.phase) == "F1914M"
    italy = {str(u) for u in game.position.units.values() if u.power == "ITALY"}
    assert italy == {"A NAP", "F TYS"}
    assert game.position.units["ION"].power == "TURKEY" and not game.position.dislodged


# --- missed orders: Grow (003) and La Conquista (004) ------------------------------------------
def test_grow_missed_orders_hold_and_still_build_in_summer() -> None:
    """Grow, "AS ORDENS": "Cada jogador pode dar ordens a todas, algumas ou nenhuma de suas
    unidades"; a country falls only "Se um jogador resolve abandonar o jogo". France gives
    no Summer orders: its units hold, and it still builds in the Summer adjustments (under
    classic the same power falls into civil disorder and gets no build)."""
    position = {"units": {"FRANCE": ["A SPA", "A MAR", "F BRE"], "ENGLAND": ["F EDI"]},
                "centers": {"FRANCE": ["PAR", "MAR", "BRE"], "ENGLAND": ["EDI"]}}  # fmt: skip
    grow = at(Game.new(edition="grow", seed=1), "F1901M", position)
    grow.process()
    assert grow.phase_name() == "Summer 1901 adjustments"
    assert grow.civil_disorder == frozenset() and grow.waiting_for() == ["FRANCE"]
    assert grow.builds_due() == {"FRANCE": 1}
    grow.submit("FRANCE", ["A PAR B"])
    grow.process()
    assert grow.position.units["PAR"].power == "FRANCE"
    classic = at(Game.new(edition="classic", seed=1), "F1901M", position)
    classic.process()
    assert str(classic.phase) == "S1902M" and "PAR" not in classic.position.units


def test_conquista_missed_orders_still_get_spring_reinforcements() -> None:
    """La Conquista has no civil disorder: "En cada jugada se deben dar órdenes de combate a
    todas las fuerzas" names no penalty, and reinforcements come "al iniciar cada ronda de
    primavera". France gives no Fall orders: its units hold, and it still gets its Spring
    1915 reinforcement for Spain."""
    position = {"units": {"FRANCE": ["A SPA", "A PIC"], "ENGLAND": ["F EDI"]},
                "centers": {"FRANCE": ["PAR", "MAR", "BRE"], "ENGLAND": ["EDI"]}}  # fmt: skip
    game = at(Game.new(edition="conquista", seed=1), "F1914M", position)
    game.process()
    assert game.phase_name() == "Spring 1915 reinforcements"
    assert game.civil_disorder == frozenset() and game.builds_due() == {"FRANCE": 1}
    game.submit("FRANCE", ["A PAR B"])
    game.process()
    assert game.position.units["PAR"].power == "FRANCE" and str(game.phase) == "S1915M"


@pytest.mark.parametrize(
    ("written", "read"),
    [("Incorporar un ejército en París", "A PAR B"),
     ("Incorpora una flota en Marsella", "F MAR B"),
     ("Se incorpora un ejército en París", "A PAR B"),
     ("Incorporación de una flota en Marsella", "F MAR B")],
)  # fmt: skip
def test_conquista_reinforcements_read_as_its_book_names_them(written: str, read: str) -> None:
    """La Conquista names its builds reinforcements, "incorporaciones": "Para la
    incorporación de nuevas fuerzas es necesario escribir las órdenes correspondientes
    aclarando el lugar de ubicación y si es flota o ejército"; "Cuando se incorporan nuevas
    tropas, cada jugador puede elegir entre ejércitos o flotas". A reinforcement written
    with the book's verb is a build (it was refused: 'palabra desconocida "incorpora"')."""
    position = {"units": {"FRANCE": ["A SPA", "A BEL"]},
                "centers": {"FRANCE": ["PAR", "MAR", "BRE", "SPA", "BEL"]}}  # fmt: skip
    game = at(Game.new(edition="conquista", seed=1), "S1915A", position)
    assert [str(o) for o in game.submit("FRANCE", [written], language="es")] == [read]


# --- Grow's victory (003) ----------------------------------------------------------------------
GROW4_CENTRES = ["LON", "EDI", "LVP", "PAR", "MAR", "BRE", "BER", "MUN", "KIE", "VIE", "TRI",
                 "BEL", "HOL", "DEN", "SWE", "SPA", "POR", "TUN"]  # fmt: skip
GROW4_UNITS = ["A MAR", "F BRE", "A BUR", "A PIC", "A GAS", "A BEL", "A HOL", "A RUH", "A SPA",
               "A POR", "A LON", "A EDI", "A LVP", "A KIE", "A BER", "A MUN", "A DEN"]  # fmt: skip


def test_grow_victory_is_18_units_whatever_the_table() -> None:
    """Grow, "OBJETIVO": "é necessário que o jogador tenha a maioria de peças no tabuleiro ou
    seja 18 unidades (entre exércitos e armadas)"; the rules for fewer than seven players
    shrink the board but do not change it. On the four-player board (22 centres) 12 units
    are not a win; the 18th unit, built in Summer, is."""
    game = Game.new(edition="grow", players=4, seed=1)
    assert game.edition.victory_for(game.setup).needed(game.game_map) == 18
    twelve = {"units": {"FRANCE": GROW4_UNITS[:12], "GERMANY": ["A NWY"]},
              "centers": {"FRANCE": GROW4_CENTRES[:12], "GERMANY": ["NWY"]}}  # fmt: skip
    at(game, "F1905M", twelve).process()
    assert not game.is_over and len(game.position.units_of("FRANCE")) == 12
    eighteen = {"units": {"FRANCE": GROW4_UNITS, "GERMANY": ["A NWY"]},
                "centers": {"FRANCE": GROW4_CENTRES, "GERMANY": ["NWY"]}}  # fmt: skip
    at(game, "F1906M", eighteen).process()
    assert game.phase_name() == "Summer 1906 adjustments" and not game.is_over
    game.submit("FRANCE", ["A PAR B"])
    game.process()
    assert game.is_over and game.winners == ("FRANCE",)
    assert game.result is not None and "18 units (needed 18)" in game.result.reason


def test_grow_small_boards_end_by_the_time_limit() -> None:
    """Grow, "OBJETIVO": "recomenda-se estabelecer um prazo para o final do jogo ... O jogador
    que no final deste prazo tiver maior número de peças no tabuleiro será o vencedor." The
    three-player board has 16 centres: 18 units cannot be reached, the time limit decides."""
    game = Game.new(edition="grow", players=3, seed=1, last_year=1905)
    position = {"units": {"FRANCE": ["A BUR", "A PIC", "A GAS"], "GERMANY": ["A MUN"]},
                "centers": {"FRANCE": ["PAR", "MAR", "BRE"], "GERMANY": ["MUN"]}}  # fmt: skip
    at(game, "F1905M", position).process()
    assert game.is_over and game.winners == ("FRANCE",)
    assert game.result is not None and game.result.kind == "shortened"


# --- Grow's tables (003) -------------------------------------------------------------------------
def test_grow_is_for_three_to_seven_players() -> None:
    """Grow: "O jogo da Diplomacia pode ser jogado por três e até 7 pessoas". Its two-player
    table (the First World War) is not in the book: only as the named extra ``2-extra``,
    never offered for two players, nor by the server."""
    from realpolitik.game.editions import edition
    from realpolitik.server.routes import meta

    assert edition("grow").tables() == [3, 4, 5, 6, 7]
    with pytest.raises(GameError, match=r"3 to 7 players, not 2 .*setup 2-extra"):
        Game.new(edition="grow", players=2, seed=1)
    extra = Game.new(edition="grow", players=2, setup="2-extra", seed=1)
    assert extra.setup.extra and "not in the Grow book" in extra.setup.title
    assert meta()["players"]["grow"] == [3, 4, 5, 6, 7]
    assert meta()["players"]["conquista"] == [2, 3, 4, 5, 6, 7]


GROW_READING = ["ENGLAND", "GERMANY", "RUSSIA", "TURKEY", "AUSTRIA", "ITALY", "FRANCE"]
ONE_MOVE_EACH = {"AUSTRIA": "A VIE - GAL", "ENGLAND": "A LVP - YOR", "FRANCE": "A PAR - BUR",
                 "GERMANY": "A MUN - RUH", "ITALY": "A VEN - PIE", "RUSSIA": "A MOS - UKR",
                 "TURKEY": "A CON - BUL"}  # fmt: skip


def test_grow_orders_are_read_from_england_clockwise_to_france(tmp_path) -> None:
    """Grow, "A FASE DE ESCRITA": "os jogadores começam a ler suas ordens, iniciando pela
    Inglaterra e seguindo em sentido horário até a França" (the book's example game lists
    England, Germany, Russia, Turkey, Austria-Hungary, Italy, France). ``realpolitik
    process`` and ``history`` read the results in that order, and a game's view lists them
    so; classic keeps alphabetical order."""
    import io

    from realpolitik.cli import main
    from realpolitik.formats.savegame import save_game

    for name, expected in (("grow", GROW_READING), ("classic", sorted(GROW_READING))):
        game = Game.new(edition=name, seed=1)
        for power, order in ONE_MOVE_EACH.items():
            game.submit(power, [order])
        path = tmp_path / f"{name}.json"
        save_game(game, path)
        for command in ("process", "history"):
            out = io.StringIO()
            assert main([command, str(path)], stdin=io.StringIO(), stdout=out) == 0
            lines = [line.split() for line in out.getvalue().splitlines()]
            read = [words[0] for words in lines if words and words[0] in ONE_MOVE_EACH]
            assert read == expected, (name, command)
        game.process()
        assert list(game.view()["history"][0]["results"]) == expected


# --- La Conquista's two players (004) ------------------------------------------------------------
def test_conquista_two_players_without_diplomacy() -> None:
    """La Conquista, 2 players: "En esta variante sin Diplomacia y de pura Guerra, gana el
    jugador que llegue a poseer un total de 24 ejércitos y flotas": no diplomacy time on
    its clock, no messages; the other tables keep the book's "hasta 15 minutos"."""
    two = Game.new(edition="conquista", players=2, seed=1)
    assert two.view()["clock"] == {"diplomacy": 0, "writing": 5} and not two.view()["press"]
    with pytest.raises(GameError, match="no messages"):
        two.send_message("FRANCE", "GLOBAL", "peace?")
    seven = Game.new(edition="conquista", seed=1)
    assert seven.view()["clock"] == {"diplomacy": 15, "writing": 5} and seven.view()["press"]
    seven.send_message("FRANCE", "GLOBAL", "peace?")


def test_conquista_two_players_at_the_table(tmp_path) -> None:
    """``realpolitik new``: the two-player clock has no diplomacy, and neutral Italy is
    played by nobody (La Conquista has no civil disorder)."""
    import io

    from realpolitik.cli import main

    out = io.StringIO()
    args = ["new", str(tmp_path / "g.json"), "--edition", "conquista", "--players", "2"]
    assert main(args, stdin=io.StringIO(), stdout=out) == 0
    assert "Clock: no diplomacy, writing 5 min" in out.getvalue()
    assert "Played by nobody (units hold): ITALY" in out.getvalue()
    assert "Civil disorder" not in out.getvalue()


# --- builds written as the books write them (000, 002, 003) ------------------------------------
WINTER = {"units": {"ENGLAND": ["F LON", "A LVP"],
                    "RUSSIA": ["A GAL", "A MOS", "A WAR", "F SEV", "A UKR"]},
          "centers": {"ENGLAND": ["LON", "EDI", "LVP"],
                      "RUSSIA": ["MOS", "WAR", "SEV", "STP"]}}  # fmt: skip


@pytest.mark.parametrize(
    ("language", "build", "removal"),
    [("en", "F Edi", "A Gal"), ("es", "F Edi", "E Gal"), ("fr", "F Edi", "A Gal"),
     ("pt", "A Edi", "E Gal")],
)  # fmt: skip
def test_bare_units_are_builds_and_removals(language: str, build: str, removal: str) -> None:
    """The 2000 example game (seed 000): 'Inglaterra construye una nueva Flota en Edimburgo
    ("F Edi")' and 'Rusia retira "E Gal"'; Grow writes its builds the same way ("coloca uma
    armada em Edimburgo", an "A" being a fleet in Portuguese). In an adjustment phase a
    bare unit is a build, or for a unit on the board a removal, in every language."""
    game = at(Game.new(seed=1), "W1901A", WINTER)
    assert [str(o) for o in game.submit("ENGLAND", [build], language=language)] == ["F EDI B"]
    assert [str(o) for o in game.submit("RUSSIA", [removal], language=language)] == ["A GAL D"]
    game.process()
    assert game.position.units["EDI"].power == "ENGLAND" and "GAL" not in game.position.units


def test_bare_builds_through_the_cli_and_the_server(tmp_path) -> None:
    """The same through ``realpolitik orders`` and the server's order check (grow's Summer
    adjustments: "A Inglaterra coloca uma armada em Edimburgo")."""
    import io

    from realpolitik.cli import main
    from realpolitik.formats.savegame import load_game, save_game
    from realpolitik.server.engine import judge_orders

    game = at(Game.new(edition="grow", seed=1), "W1901A", WINTER)
    assert game.phase_name() == "Summer 1901 adjustments"
    assert judge_orders(game.copy(), "ENGLAND", ["A Edi"], "pt") == (["F EDI B"], [])
    assert judge_orders(game.copy(), "RUSSIA", ["E Gal"], "es") == (["A GAL D"], [])
    path = tmp_path / "game.json"
    save_game(game, path)
    out = io.StringIO()
    code = main(["orders", str(path), "RUSSIA", "E Gal", "--language", "es"],
                stdin=io.StringIO(), stdout=out)  # fmt: skip
    assert code == 0, out.getvalue()
    assert [str(o) for o in load_game(path).orders("RUSSIA")] == ["A GAL D"]


def test_a_build_written_with_the_power_reads_as_its_language_writes_it() -> None:
    """Grow writes "A Inglaterra coloca uma armada em Edimburgo": the power's name says who
    builds, it is no part of the build. The build is stored "F EDI B" and read back in
    Portuguese "Construir A em Edi." (it was "ENGLAND F EDI B", "Construir A inglesa em
    Edi."), through Game.submit and the server's order check; a build naming another power
    is refused. The unit ordered likewise sheds its own power's name ("E inglês de Lvp.")."""
    from realpolitik.errors import IllegalOrderError
    from realpolitik.notation import format_order
    from realpolitik.server.engine import format_order as shown
    from realpolitik.server.engine import judge_orders

    game = at(Game.new(edition="grow", seed=1), "W1901A", WINTER)
    for text in ("A Inglaterra coloca uma armada em Edimburgo", "Inglaterra: A Edi constrói"):
        built = game.copy().submit("ENGLAND", [text], language="pt")
        assert [str(o) for o in built] == ["F EDI B"], text
        assert format_order(built[0], "pt") == "Construir A em Edi."
        assert judge_orders(game.copy(), "ENGLAND", [text], "pt") == (["F EDI B"], [])
        assert shown("F EDI B", "pt", game) == "Construir A em Edi."
    with pytest.raises(IllegalOrderError, match="de origem da Rússia"):
        game.copy().submit("ENGLAND", ["A Rússia coloca uma armada em Edimburgo"], language="pt")
    moving = at(Game.new(seed=1), "S1902M", WINTER)
    held = moving.submit("ENGLAND", ["E inglês de Lvp. para Yor."], language="pt")
    assert [str(o) for o in held] == ["A LVP - YOR"]
    supported = moving.submit("RUSSIA", ["A GAL S ENGLISH A LVP - YOR"])
    assert [str(o) for o in supported] == ["A GAL S ENGLAND A LVP - YOR"]  # a foreign unit's


# --- the adjustments' name as the books give it (000, 001, 003) ----------------------------------
@pytest.mark.parametrize(
    ("edition", "language", "name"),
    [("classic", "es", "Otoño de 1901, ajustes"),
     ("1971", "fr", "Automne 1901, ajustements"),
     ("grow", "pt", "Verão de 1901, acertos"),
     ("classic", "en", "Winter 1901 Adjustments")],
)  # fmt: skip
def test_the_adjustments_are_named_for_the_turn_they_follow(
    edition: str, language: str, name: str
) -> None:
    """The adjustments end the Fall turn in the books; none of them has a Winter. 2000
    (000): "Turno de Otoño de cinco fases ... 5. Fase de Construcción y Eliminación de
    Unidades", "Antes de los ajustes de otoño de 1914"; 1971 (001): "Avant les ajustements
    d'automne 1914"; Grow (003): "No final de cada ofensiva de verão é feito o acerto". The
    Spanish and French names of W1901A were "Invierno de 1901, ajustes" and "Hiver 1901,
    ajustements"; the code W and English's "Winter" (the DATC's) stay."""
    from realpolitik.server.engine import edition_phase_title

    assert edition_phase_title(edition, "W1901A", language) == name


# --- La Conquista: acknowledged supports and alliances through every door (004) -----------------
RUMANIA = {"units": {"AUSTRIA": ["A BUD"], "RUSSIA": ["A GAL"], "TURKEY": ["A BUL"]}}
RUMANIA_ORDERS = {"AUSTRIA": ["A BUD - RUM"], "RUSSIA": ["A GAL S A BUD - RUM"],
                  "TURKEY": ["A BUL - RUM"]}  # fmt: skip


def test_conquista_foreign_support_counts_only_when_acknowledged(tmp_path) -> None:
    """La Conquista, "Orden de apoyar": "Un ejército de una potencia puede apoyar al de otra
    potencia. Esto tendrá validez solo en el caso en que ambas potencias lo hagan constar en
    sus órdenes." Russia supports Austria into Rumania against Turkey: a standoff unless
    Austria accepts, in the library and through ``realpolitik orders --accept``."""
    import io

    from realpolitik.cli import main
    from realpolitik.formats.savegame import load_game, save_game

    for accept in ([], ["A GAL"]):
        game = at(Game.new(edition="conquista", seed=1), "S1914M", RUMANIA)
        for power, orders in RUMANIA_ORDERS.items():
            game.submit(power, orders)
        if accept:
            assert game.accept_support("AUSTRIA", accept) == ["GAL"]
        game.process()
        assert ("RUM" in game.position.units) == bool(accept)
    game = at(Game.new(edition="conquista", seed=1), "S1914M", RUMANIA)
    path = tmp_path / "game.json"
    save_game(game, path)
    for power, orders in RUMANIA_ORDERS.items():
        extra = ["--accept", "A GAL"] if power == "AUSTRIA" else []
        args = ["orders", str(path), power, *orders, *extra]
        assert main(args, stdin=io.StringIO(), stdout=io.StringIO()) == 0
    assert main(["process", str(path)], stdin=io.StringIO(), stdout=io.StringIO()) == 0
    assert load_game(path).position.units["RUM"].power == "AUSTRIA"


def test_conquista_a_support_is_accepted_in_the_language_of_the_orders(tmp_path) -> None:
    """Seed 004 is Spanish: the support counts when "ambas potencias lo hagan constar en sus
    órdenes", so Austria writes the Russian army in Galicia as its orders do, "E Gli" (or
    "el ejército de Galicia"), with ``--language es``: it was "'E Gli' names no province"
    (only the board's ids were read), and the orders given with it were lost."""
    import io

    from realpolitik.cli import main
    from realpolitik.formats.savegame import load_game, save_game

    for text in ("E Gli", "el ejército de Galicia"):
        game = at(Game.new(edition="conquista", seed=1), "S1914M", RUMANIA)
        assert game.accept_support("AUSTRIA", [text], language="es") == ["GAL"]
    game = at(Game.new(edition="conquista", seed=1), "S1914M", RUMANIA)
    with pytest.raises(GameError, match="no unit"):  # Spanish "Gal" is Wales
        game.accept_support("AUSTRIA", ["E Gal"], language="es")
    path = tmp_path / "game.json"
    save_game(game, path)
    spanish = {"AUSTRIA": ["E Bud-Rum", "--accept", "E Gli"], "RUSSIA": ["E Gli A E Bud-Rum"],
               "TURKEY": ["E Bul-Rum"]}  # fmt: skip
    for power, args in spanish.items():
        argv = ["orders", str(path), power, "--language", "es", *args]
        assert main(argv, stdin=io.StringIO(), stdout=io.StringIO()) == 0
    assert main(["process", str(path)], stdin=io.StringIO(), stdout=io.StringIO()) == 0
    assert load_game(path).position.units["RUM"].power == "AUSTRIA"


def test_conquista_alliances_are_declared_with_the_orders(tmp_path) -> None:
    """La Conquista: "Para constituir una alianza, los jugadores que la integran deben darlo
    a conocer junto con las instrucciones para sus ejércitos en la ronda en que la
    constituyan." ``realpolitik orders --ally``: formed when both declare it that turn."""
    import io

    from realpolitik.cli import main
    from realpolitik.formats.savegame import load_game, save_game

    path = tmp_path / "game.json"
    save_game(Game.new(edition="conquista", seed=1), path)
    for power, partner in (("ENGLAND", "FRANCE"), ("FRANCE", "ENGLAND")):
        args = ["orders", str(path), power, "--ally", partner]
        assert main(args, stdin=io.StringIO(), stdout=io.StringIO()) == 0
    out = io.StringIO()
    assert main(["process", str(path)], stdin=io.StringIO(), stdout=out) == 0
    assert "alliance formed: ENGLAND+FRANCE" in out.getvalue()
    assert [a.members for a in load_game(path).status.alliances] == [("ENGLAND", "FRANCE")]


# --- La Conquista: supports across the shore ---------------------------------------------------
def test_conquista_supports_only_where_the_supporter_could_move() -> None:
    """La Conquista, "Para las flotas": "Una flota en un mar puede apoyar a un ejército que
    ocupa un territorio adyacente a ese mar, y viceversa. En la imagen vemos que el ejército
    francés en Brest está en condiciones de apoyar a la flota francesa en el Atlántico Sur."
    RULES.md, which wins where it and a book disagree, keeps for every edition "Support:
    only into a province the supporter could move to" (§1; §5 names no exception for
    conquista): A BRE S F MAO is illegal and the English attack takes the Atlantic. The
    book's reach ("limítrofe": "El ejército en Gales no puede apoyar el ataque, pues no es
    limítrofe con el Atlántico, pero si podría apoyar defensivamente a la flota en el Canal
    de la Mancha") stays a table's option: ``support_reach=borders``."""
    units = {"FRANCE": ["A BRE", "F MAO"], "ENGLAND": ["F ENG", "F IRI", "A WAL"]}
    orders = {
        "FRANCE": ["A BRE S F MAO", "F MAO H"],
        "ENGLAND": ["F ENG - MAO", "F IRI S F ENG - MAO", "A WAL S F ENG - MAO"],
    }
    for rules in (rules_for("conquista"), rules_for("classic")):
        played = play(units, orders, rules)
        results = {str(o.order): o.result.value for o in played.outcomes}
        assert results["A BRE S F MAO"] == "illegal", rules.name
        assert results["A WAL S F ENG - MAO"] == "illegal"
        assert played.position.units["MAO"].power == "ENGLAND"
    for name in ("classic", "datc", "1971", "grow", "conquista"):
        assert rules_for(name).support_reach == "can_move"
    book = play(units, orders, rules_for("conquista", support_reach="borders"))
    results = {str(o.order): o.result.value for o in book.outcomes}
    assert results["A BRE S F MAO"] == "given"
    assert results["A WAL S F ENG - MAO"] == "illegal"  # Wales does not border the Atlantic
    assert book.position.units["MAO"].power == "FRANCE"


def test_conquista_reach_of_supports_in_the_order_reader() -> None:
    """The reader's position check takes the same rule: Wales supporting the Channel fleet
    is read with the book's reach (a table's option), refused otherwise, conquista's preset
    included (RULES.md §1); Wales supporting into the Atlantic ("E Gal A F CMa-AtC") is
    refused, saying it does not border it."""
    position = Position.from_json({"units": {"ENGLAND": ["A WAL", "F ENG"]}}, STANDARD)
    conquista = rules_for("conquista", support_reach="borders")
    read = parse_order("A WAL S F ENG", game_map=STANDARD, position=position, rules=conquista)
    assert str(read) == "A WAL S F ENG"
    for rules in (None, rules_for("conquista")):
        with pytest.raises(IllegalOrderError):
            parse_order("A WAL S F ENG", game_map=STANDARD, position=position, rules=rules)
    with pytest.raises(IllegalOrderError, match="limítrofe"):
        parse_order(
            "E Gal A F CMa-AtC", game_map=STANDARD, language="es", position=position,
            rules=conquista,
        )  # fmt: skip


# --- every edition through ``realpolitik adjudicate`` (the JSON contract) -----------------------
def adjudicate_cli(situation: Mapping[str, Any], *flags: str) -> dict[str, Any]:
    import io
    import json

    from realpolitik.cli import main

    out = io.StringIO()
    code = main(["adjudicate", *flags], stdin=io.StringIO(json.dumps(situation)), stdout=out)
    assert code == 0, out.getvalue()
    result: dict[str, Any] = json.loads(out.getvalue())
    return result


def results_of(result: Mapping[str, Any]) -> dict[str, str]:
    return {o["order"]: o["result"] for entries in result["orders"].values() for o in entries}


def test_adjudicate_conquista_applies_the_whole_edition() -> None:
    """La Conquista through the JSON contract: "El objetivo del juego es ocupar 18 de los 36
    centros de producción" (Silesia is a centre); "el ejército rojo es eliminado del mapa y
    Munich ocupa Silesia" (no retreats); a foreign support counts "solo en el caso en que
    ambas potencias lo hagan constar en sus órdenes" (``accept``)."""
    situation: dict[str, Any] = {
        "phase": "S1914M",
        "units": {"GERMANY": ["A MUN", "A BOH", "A PRU"], "AUSTRIA": ["A SIL"],
                  "RUSSIA": ["A GAL"], "TURKEY": ["A BUD"]},
        "centers": {"GERMANY": ["SIL"]},
        "orders": {"GERMANY": ["A MUN - SIL", "A BOH S A MUN - SIL", "A PRU S A MUN - SIL"],
                   "RUSSIA": ["A GAL S A BUD"], "TURKEY": ["A BUD H"]},
    }  # fmt: skip
    result = adjudicate_cli(situation, "--rules", "conquista")
    assert results_of(result)["A SIL H"] == "destroyed" and result["dislodged"] == {}
    assert results_of(result)["A GAL S A BUD"] == "invalid"  # Turkey did not accept it
    assert result["next_phase"] == "F1914M"  # no retreat phase
    centers = result["centers"]
    assert isinstance(centers, dict) and "SIL" in centers["GERMANY"]
    accepted = adjudicate_cli(situation | {"accept": {"TURKEY": ["A GAL"]}}, "--rules",
                              "conquista")  # fmt: skip
    assert results_of(accepted)["A GAL S A BUD"] == "given"
    named = adjudicate_cli(situation | {"edition": "conquista"})  # the situation names it
    assert named == result
    classic = adjudicate_cli(situation | {"edition": "conquista", "centers": {}}, "--rules",
                             "classic")  # the flag overrides  # fmt: skip
    assert classic["dislodged"] != {} and classic["next_phase"] == "S1914R"
    assert results_of(classic)["A GAL S A BUD"] == "given"


def test_adjudicate_conquista_plays_on_its_own_board() -> None:
    """La Conquista, "Sobre accidentes geográficos": "al comienzo del juego la flota Inglesa
    de Londres deberá salir al Canal de la Mancha, antes de pasar a otros mares o costas"."""
    situation: dict[str, Any] = {
        "phase": "S1914M", "edition": "conquista", "units": {"ENGLAND": ["F LON/SC"]},
        "orders": {"ENGLAND": ["F LON - NTH"]},
    }  # fmt: skip
    assert results_of(adjudicate_cli(situation))["F LON - NTH"] == "illegal"
    channel = situation | {"orders": {"ENGLAND": ["F LON - ENG"]}}
    assert results_of(adjudicate_cli(channel))["F LON - ENG"] == "succeeds"
    classic = {"phase": "S1901M", "units": {"ENGLAND": ["F LON"]},
               "orders": {"ENGLAND": ["F LON - NTH"]}}  # fmt: skip
    assert results_of(adjudicate_cli(classic))["F LON - NTH"] == "succeeds"


def test_adjudicate_conquista_calendar_and_alliances() -> None:
    """La Conquista: "las incorporaciones de tropas se harán al iniciar cada ronda de
    primavera", and an alliance is declared "junto con las instrucciones para sus
    ejércitos" (``ally``; the result lists the alliances formed)."""
    situation: dict[str, Any] = {
        "phase": "F1914M", "edition": "conquista",
        "units": {"FRANCE": ["A SPA"], "ENGLAND": ["F NTH"]},
        "centers": {"FRANCE": ["PAR", "MAR", "BRE"], "ENGLAND": ["LON", "EDI", "LVP"]},
        "ally": {"FRANCE": ["ENGLAND"], "ENGLAND": ["FRANCE"]},
    }  # fmt: skip
    result = adjudicate_cli(situation)
    assert result["next_phase"] == "S1915A" and result["alliances"] == [["ENGLAND", "FRANCE"]]
    centers = result["centers"]
    assert isinstance(centers, dict) and "SPA" in centers["FRANCE"]


@pytest.mark.parametrize(
    ("rules", "phase", "known"),
    [("conquista", "S1914R", "S1914A, S1914M, F1914M"),  # "no hay retiradas"
     ("conquista", "F1914R", "S1914A, S1914M, F1914M"),
     ("conquista", "F1914A", "S1914A, S1914M, F1914M"),  # reinforcements come in Spring
     ("conquista", "W1914A", "S1914A, S1914M, F1914M"),
     ("classic", "S1901A", "S1901M, S1901R, F1901M, F1901R, W1901A"),
     ("classic", "W1901M", "S1901M, S1901R, F1901M, F1901R, W1901A"),
     ("grow", "F1901A", "S1901M, S1901R, F1901M, F1901R, W1901A")],
)  # fmt: skip
def test_adjudicate_refuses_a_phase_the_edition_does_not_have(
    rules: str, phase: str, known: str
) -> None:
    """La Conquista has no retreats ("el ejército rojo es eliminado del mapa") and its
    reinforcements come "al iniciar cada ronda de primavera": a retreat or a Fall
    adjustment phase is not one of its phases, so the contract refuses it (it used to play
    classic retreats, and F1914A went on to S1914M) rather than judge it by another
    edition's rules. Every edition likewise refuses a phase its calendar never has."""
    from realpolitik.errors import SituationError
    from realpolitik.formats.situation import adjudicate_situation

    situation: dict[str, Any] = {
        "phase": phase,
        "units": {"GERMANY": ["A MUN"]},
        "dislodged": {"AUSTRIA": [{"unit": "A BOH", "attacker_from": "MUN"}]},
        "centers": {"GERMANY": ["BER", "MUN"]},
    }
    with pytest.raises(SituationError, match=f"{rules} has no phase {phase}.*{known}"):
        adjudicate_situation(situation, rules)


def test_adjudicate_takes_every_phase_of_the_calendar() -> None:
    """The phases each edition's calendar has are taken: conquista's Spring reinforcements;
    classic's retreats and Winter adjustments; a retreat phase of a situation naming
    conquista but judged by ``--rules classic`` (the flag's calendar)."""
    reinforcements = {"phase": "S1915A", "edition": "conquista", "units": {},
                      "centers": {"GERMANY": ["BER", "HOL"]},
                      "orders": {"GERMANY": ["A BER B"]}}  # fmt: skip
    result = adjudicate_cli(reinforcements)
    assert results_of(result)["A BER B"] == "succeeds" and result["next_phase"] == "S1915M"
    retreat: dict[str, Any] = {
        "phase": "S1914R", "edition": "conquista", "units": {"GERMANY": ["A MUN"]},
        "dislodged": {"AUSTRIA": [{"unit": "A BOH", "attacker_from": "MUN"}]},
        "orders": {"AUSTRIA": ["A BOH R VIE"]},
    }  # fmt: skip
    assert results_of(adjudicate_cli(retreat, "--rules", "classic"))["A BOH R VIE"] == "succeeds"
    winter = {"phase": "W1901A", "units": {}, "centers": {"GERMANY": ["BER"]},
              "orders": {"GERMANY": ["A BER B"]}}  # fmt: skip
    assert results_of(adjudicate_cli(winter))["A BER B"] == "succeeds"


def test_adjudicate_grow_cuts_support_from_the_target() -> None:
    """Grow through the JSON contract: "Se uma unidade que está apoiando é atacada, o apoio
    fica imediatamente anulado" (``--rules grow``; classic: A PRU takes WAR)."""
    situation: dict[str, Any] = {
        "phase": "S1901M",
        "units": {"GERMANY": ["A PRU", "A SIL"], "RUSSIA": ["A WAR"]},
        "orders": {"GERMANY": ["A PRU - WAR", "A SIL S A PRU - WAR"], "RUSSIA": ["A WAR - SIL"]},
    }
    grow = adjudicate_cli(situation, "--rules", "grow")
    assert results_of(grow)["A SIL S A PRU - WAR"] == "cut" and grow["dislodged"] == {}
    assert adjudicate_cli(situation | {"edition": "grow"}) == grow
    classic = adjudicate_cli(situation)
    assert results_of(classic)["A PRU - WAR"] == "succeeds"


def test_adjudicate_rejects_what_an_edition_does_not_have() -> None:
    import pytest as _pytest

    from realpolitik.errors import SituationError
    from realpolitik.formats.situation import adjudicate_situation

    base: dict[str, Any] = {"phase": "S1901M", "units": {"AUSTRIA": ["A BUD"], "RUSSIA": ["A GAL"]}}
    cases: list[tuple[dict[str, Any], str]] = [
        ({"edition": "diplomacy2"}, "unknown edition"),
        ({"accept": {"AUSTRIA": ["A GAL"]}}, "conquista"),
        ({"ally": {"AUSTRIA": ["RUSSIA"]}}, "conquista"),
        ({"edition": "conquista", "accept": {"AUSTRIA": ["A VIE"]}}, "no unit"),
        ({"edition": "conquista", "accept": {"AUSTRIA": ["A BUD"]}}, "its own unit"),
        ({"edition": "conquista", "accept": {"PRUSSIA": ["A BUD"]}}, "unknown power"),
        ({"edition": "conquista", "ally": {"AUSTRIA": ["PRUSSIA"]}}, "unknown power"),
    ]
    for extra, word in cases:
        with _pytest.raises(SituationError, match=word):
            adjudicate_situation(base | extra)


def test_adjudicate_conquista_army_supports_only_where_it_could_move() -> None:
    """Seed 004's example 004-E9 through the JSON contract: "el ejército francés en Brest
    está en condiciones de apoyar a la flota francesa en el Atlántico Sur"; RULES.md §1
    (every edition: "only into a province the supporter could move to") wins: the support
    is illegal under conquista as under classic, and the Atlantic falls (no retreat)."""
    situation: dict[str, Any] = {
        "phase": "S1914M", "units": {"FRANCE": ["A BRE", "F MAO"], "ENGLAND": ["F ENG", "F IRI"]},
        "orders": {"FRANCE": ["A BRE S F MAO", "F MAO H"],
                   "ENGLAND": ["F ENG - MAO", "F IRI S F ENG - MAO"]},
    }  # fmt: skip
    for given in (adjudicate_cli(situation, "--rules", "conquista"),
                  adjudicate_cli(situation | {"edition": "conquista"})):  # fmt: skip
        assert results_of(given)["A BRE S F MAO"] == "illegal"
        assert results_of(given)["F ENG - MAO"] == "succeeds"
        assert given["units"]["FRANCE"] == ["A BRE"]
        assert given["dislodged"] == {} and given["next_phase"] == "F1914M"
    classic = adjudicate_cli(situation, "--rules", "classic")
    assert results_of(classic)["A BRE S F MAO"] == "illegal"
    assert results_of(classic)["F ENG - MAO"] == "succeeds"


@pytest.mark.parametrize(
    ("written", "order"),
    [("El ejército de Bohemia apoya el ataque de Silesia contra Eslovaquia", "A BOH S SIL - SLO"),
     ("Ejército de Bohemia, que apoye el ataque de Silesia contra Eslovaquia", "A BOH S SIL - SLO"),
     ("El ejército de Bohemia apoya la defensa de Munich", "A BOH S MUN"),
     ("El ejército de Bohemia que apoye la defensa de Munich", "A BOH S MUN")],
)  # fmt: skip
def test_conquista_supports_read_as_its_book_words_them(written: str, order: str) -> None:
    """La Conquista words an order of support so: "si ordeno al ejército de Bohemia que
    apoye el ataque de Silesia contra Eslovaquia, no puedo pedirle también que apoye la
    defensa de Munich" (Reglas de hierro de la guerra). Both read, on its board."""
    board = load_map("conquista")
    assert parse_order(written, language="es", game_map=board) == parse_order(order, game_map=board)
