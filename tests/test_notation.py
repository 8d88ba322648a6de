"""Orders in English, Spanish, French and Portuguese: reading, checking, guessing, writing."""

from __future__ import annotations

import itertools

import pytest

from realpolitik import (
    ARMY,
    FLEET,
    AmbiguousOrderError,
    Build,
    Convoy,
    Disband,
    Hold,
    IllegalOrderError,
    InvalidOrderError,
    Move,
    Order,
    OrderResult,
    Phase,
    Position,
    Retreat,
    SupportHold,
    SupportMove,
    Unit,
    UnitRef,
    Waive,
    load_map,
)
from realpolitik.notation import (
    LANGUAGES,
    STYLES,
    Style,
    candidates,
    format_date,
    format_order,
    format_place,
    format_result,
    format_unit,
    guess_language,
    language_data,
    load_lexicon,
    order_each,
    parse_order,
    parse_orders,
    place_name,
    power_name,
    read_all,
    read_order,
    read_written,
    result_name,
    season_names,
    unit_phrase,
)
from realpolitik.notation.lexicon import PROVINCE, normalize, read_power, tokenize
from realpolitik.phase import Season
from realpolitik.position import Dislodged

BOARD = load_map("standard")
START = Position.initial(BOARD)
SPRING = Phase.parse("S1901M")


def A(loc: str, power: str | None = None) -> UnitRef:
    return UnitRef(ARMY, loc, power)


def F(loc: str, power: str | None = None) -> UnitRef:
    return UnitRef(FLEET, loc, power)


def U(loc: str) -> UnitRef:
    return UnitRef(None, loc)


# --- words -------------------------------------------------------------------------------
def test_normalize_and_tokenize() -> None:
    assert normalize("Golfe du Lion") == "golfe du lion"
    assert tokenize("E Par—Bor") == ["e", "par", "-", "bor"]
    assert tokenize("E Var=Sil") == ["e", "var", "-", "sil"]
    assert tokenize("F Bre—-CMa") == ["f", "bre", "-", "cma"]
    assert tokenize("A de S. Pet. para Golfo da Bot.") == [
        "a", "de", "s", "pet", "para", "golfo", "da", "bot"
    ]  # fmt: skip
    assert tokenize("L'armée de Bourgogne") == ["l", "armee", "de", "bourgogne"]
    assert tokenize("F STP(NC) -> BOT") == ["f", "stp", "nc", "-", "bot"]
    assert tokenize("Nápoles, España; Suíça") == ["napoles", "espana", "suica"]


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("A PAR → BUR", "en"),
        ("Ejército de París → Borgoña", "es"),
        ("A Par ⇒ Bou", "fr"),
        ("E de Par. ⟶ Bur.", "pt"),
        ("A Par ➔ Bou", "fr"),
        ("E Par ➜ Bor", "es"),
    ],
)
def test_an_arrow_is_a_move(text: str, language: str) -> None:
    """A move typed with an arrow (as the map draws it, or as a keyboard turns '->' into
    '→'), as '->' and '=>' are read: it was an unknown word '→'."""
    assert parse_order(text, language=language, game_map=BOARD) == Move(A("PAR"), "BUR")


@pytest.mark.parametrize("board", ["standard", "conquista"])
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_province_has_a_short_and_a_long_name(language: str, board: str) -> None:
    """Every province of the standard map and of the conquista board (its Slovakia and
    Sea of Denmark) is named, and each name means that province alone."""
    provinces = language_data(language)["provinces"]
    assert set(provinces) == set(BOARD.provinces) | set(load_map("conquista").provinces)
    game_map = load_map(board)
    lexicon = load_lexicon(language, game_map)
    for pid, entry in provinces.items():
        if pid not in game_map.provinces:
            continue
        for form in (entry.get("short", pid), entry["long"]):
            readings = lexicon.phrases[tuple(tokenize(form))]
            cheapest = min(r.cost for r in readings if r.cls == PROVINCE)
            assert [r.value for r in readings if r.cls == PROVINCE and r.cost == cheapest] == [pid]


@pytest.mark.parametrize("board", ["standard", "conquista"])
@pytest.mark.parametrize("language", LANGUAGES)
def test_no_phrase_of_a_language_names_two_provinces(language: str, board: str) -> None:
    lexicon = load_lexicon(language, load_map(board))
    for key, readings in lexicon.phrases.items():
        places = [r.value for r in readings if r.cls == PROVINCE and r.cost == 0]
        assert len(places) <= 1, (key, places)


# La Conquista's book (seed 004) prints "Escocia", "Sebastópolis", "Ensenada de Helgoland"
# and "Atlántico Sur" where the classic one has Edimburgo, Sebastopol, Heligoland and
# Atlántico Central; it prints no abbreviations: its short forms are made as the classic
# book's are ("Esc", "AtS" as "AtN")
CONQUISTA_ORDERS = {
    SupportMove(F("EDI"), F("MAO"), "NTH"): (
        "F Esc A F AtS-MNt",
        "La flota de Escocia apoya a la flota del Atlántico Sur hacia el Mar del Norte.",
        "F Edi A F AtC-MNt",
        "La flota de Edimburgo apoya a la flota del Atlántico Central hacia el Mar del Norte.",
    ),
    Move(F("SEV"), "BLA"): (
        "F Seb-MNe",
        "La flota de Sebastópolis se mueve al Mar Negro.",
        "F Seb-MNe",
        "La flota de Sebastopol se mueve al Mar Negro.",
    ),
    Move(F("HEL"), "KIE"): (
        "F Hel-Kie",
        "La flota de la Ensenada de Helgoland se mueve a Kiel.",
        "F Hel-Kie",
        "La flota de la Ensenada de Heligoland se mueve a Kiel.",
    ),
}


@pytest.mark.parametrize("order", CONQUISTA_ORDERS)
def test_the_conquista_board_writes_its_books_names_in_spanish(order: Order) -> None:
    """On La Conquista's boards (and the one derived from it) Spanish writes the book's
    names, short and long; the standard board keeps the classic ones; both read back; the
    other languages are unchanged (the book is Spanish)."""
    short, long, classic_short, classic_long = CONQUISTA_ORDERS[order]
    for board in ("conquista", "conquista_neutral_italy"):
        game_map = load_map(board)
        assert format_order(order, "es", game_map=game_map) == short
        assert format_order(order, "es", "long", game_map=game_map) == long
        for text in (short, long, classic_short, classic_long):  # the classic names read too
            assert parse_order(text, language="es", game_map=game_map) == order, text
    assert format_order(order, "es", game_map=BOARD) == classic_short
    assert format_order(order, "es", "long", game_map=BOARD) == classic_long
    for text in (classic_short, classic_long):
        assert parse_order(text, language="es", game_map=BOARD) == order, text
    for language, style in itertools.product(("en", "fr", "pt"), STYLES):
        on_conquista = format_order(order, language, style, game_map=load_map("conquista"))
        assert on_conquista == format_order(order, language, style, game_map=BOARD)


@pytest.mark.parametrize(
    ("text", "power"),
    [("FRANCE", "FRANCE"), ("Francia", "FRANCE"), ("frança", "FRANCE"), ("alemão", "GERMANY"),
     ("Austria-Hungría", "AUSTRIA"), ("austro-hungaro", "AUSTRIA"), ("Angleterre", "ENGLAND"),
     ("Turquia", "TURKEY"), ("Atlantis", None), ("", None)],
)  # fmt: skip
def test_a_power_is_read_by_its_name_in_any_language(text: str, power: str | None) -> None:
    assert read_power(text) == power


def test_no_name_of_a_power_names_another_in_another_language() -> None:
    named: dict[tuple[str, ...], set[str]] = {}
    for language in LANGUAGES:
        for power, entry in language_data(language)["powers"].items():
            forms = [entry["name"], *entry["adjective"].values(), *entry.get("aliases", ())]
            for form in forms:
                named.setdefault(tuple(tokenize(form)), set()).add(power)
    assert {words: powers for words, powers in named.items() if len(powers) > 1} == {}


def test_accents_are_optional() -> None:
    assert parse_order("E Munich-Bohemia", language="es", game_map=BOARD) == parse_order(
        "E Múnich-Bohemia", language="es", game_map=BOARD
    )
    assert parse_order("A Paris - Bourgogne", language="fr", game_map=BOARD) == Move(
        A("PAR"), "BUR"
    )
    assert parse_order("E de Varsovia para Ucrania", language="pt", game_map=BOARD) == Move(
        A("WAR"), "UKR"
    )
    assert parse_order("F MAO - Espagne côte nord", language="fr", game_map=BOARD) == Move(
        F("MAO"), "SPA/NC"
    )
    assert parse_order("F MAO - Espagne cote nord", language="fr", game_map=BOARD) == Move(
        F("MAO"), "SPA/NC"
    )


# --- the A clash and the notations of RULES.md §6 ------------------------------------------
@pytest.mark.parametrize(
    ("language", "text", "order"),
    [
        ("en", "A Par S A Mar-Bur", SupportMove(A("PAR"), A("MAR"), "BUR")),
        ("en", "F Nth C A Lon-Nwy", Convoy(F("NTH"), A("LON"), "NWY")),
        ("es", "E Par A E Mar-Bor", SupportMove(A("PAR"), A("MAR"), "BUR")),
        ("es", "F MNe T E Ank-Seb", Convoy(F("BLA"), A("ANK"), "SEV")),
        ("es", "F Con-CE Bul", Move(F("CON"), "BUL/EC")),
        ("es", "E Ser A E turco Bul-Rum", SupportMove(A("SER"), A("BUL", "TURKEY"), "RUM")),
        ("fr", "A Bur (S) A Tyr-Mun", SupportMove(A("BUR"), A("TYR"), "MUN")),
        ("fr", "F Nth (C) A Lon-Bel", Convoy(F("NTH"), A("LON"), "BEL")),
        ("fr", "A Sil (S) Russie A War-Pru", SupportMove(A("SIL"), A("WAR", "RUSSIA"), "PRU")),
        ("pt", "E de Liv. para Yor.", Move(A("LVP"), "YOR")),
        (
            "pt",
            "A do Mar do Norte transporta E de Yor. para Nor.",
            Convoy(F("NTH"), A("YOR"), "NWY"),
        ),
        ("pt", "A de Lon. permanece", Hold(F("LON"))),
        ("pt", "A Par - Bur", Move(F("PAR"), "BUR")),
        ("es", "A Par - Bor", Move(A("PAR"), "BUR")),
        ("es", "E Par A Bor", SupportHold(A("PAR"), U("BUR"))),
    ],
)
def test_rulebook_notations(language: str, text: str, order: object) -> None:
    assert parse_order(text, language=language, game_map=BOARD) == order


# --- what a player may type -----------------------------------------------------------------
@pytest.mark.parametrize(
    ("language", "text", "order"),
    [
        ("en", "  a   par-BUR ", Move(A("PAR"), "BUR")),
        ("en", "A PAR->BUR", Move(A("PAR"), "BUR")),
        ("es", "par - bor", Move(U("PAR"), "BUR")),
        ("es", "Par-Bor", Move(U("PAR"), "BUR")),
        ("en", "A Burg - Mun", Move(A("BUR"), "MUN")),
        ("en", "F Norweg - Nth", Move(F("NWG"), "NTH")),
        ("pt", "A de Mar Neg. para Ank.", Move(F("BLA"), "ANK")),
        # a name's first word alone, when no other name begins so
        ("en", "F Con - Black", Move(F("CON"), "BLA")),
        ("en", "F Bre - English", Move(F("BRE"), "ENG")),  # not the English power
        ("es", "F Bre - Canal", Move(F("BRE"), "ENG")),
        ("pt", "A de Bre. para Canal", Move(F("BRE"), "ENG")),
        # the Ionian Sea as Portugal spells it (the Brazilian book's is "Mar Jônico"): "Mar
        # Jonio" was refused ('aparece "jonio"'), "F Mar Jonio - Tun" read from Marseilles
        ("pt", "F de Nap. para Mar Jonio", Move(F("NAP"), "ION")),
        ("pt", "F Mar Jonio - Tun", Move(F("ION"), "TUN")),
        ("pt", "F de Mar Jónio para Tun.", Move(F("ION"), "TUN")),
        ("es", "E Silecia-Boh", Move(A("SIL"), "BOH")),
        ("fr", "A WarPru", Move(A("WAR"), "PRU")),
        ("es", "F Dinamarca SF Báltico", SupportHold(F("DEN"), F("BAL"))),
        (
            "es",
            "El ejército de París apoya al ejército de Marsella que se mueve a Borgoña",
            SupportMove(A("PAR"), A("MAR"), "BUR"),
        ),
        ("es", "E Par apoya al ejército de Mar hacia Bor", SupportMove(A("PAR"), A("MAR"), "BUR")),
        ("en", "The army in Paris moves to Burgundy.", Move(A("PAR"), "BUR")),
        ("en", "A Lon - Bel by convoy", Move(A("LON"), "BEL", True)),
        ("es", "E Lon-Bel vía transporte", Move(A("LON"), "BEL", True)),
        ("fr", "A Lon-Bel par convoi", Move(A("LON"), "BEL", True)),
        ("pt", "E de Lon. para Bel. por transporte", Move(A("LON"), "BEL", True)),
        ("en", "A PAR BUR", Move(A("PAR"), "BUR")),
        ("en", "Remove A Mun", Disband(A("MUN"))),
        ("es", "Construir F SPt CN", Build(F("STP/NC"))),
        ("fr", "Construire une flotte à Saint-Pétersbourg (côte nord)", Build(F("STP/NC"))),
        ("pt", "Renunciar", Waive()),
        ("es", "E Par R Bor", Retreat(A("PAR"), "BUR")),
        ("fr", "L'armée de Paris se retire vers la Bourgogne", Retreat(A("PAR"), "BUR")),
    ],
)
def test_what_players_type(language: str, text: str, order: object) -> None:
    assert parse_order(text, language=language, game_map=BOARD) == order


@pytest.mark.parametrize(
    ("language", "text", "message"),
    [
        ("en", "", "empty order"),
        ("en", "A PAR XYZ", 'unknown word "xyz"'),
        ("es", "E Par-Xyz", 'palabra desconocida "xyz"'),
        ("fr", "A Par-Xyz", "mot inconnu « xyz »"),
        ("pt", "E de Par. para Xyz.", 'palavra desconhecida "xyz"'),
        ("en", "A PAR -", "incomplete: expected a province"),
        ("es", "E Par -", "está incompleta: falta una región"),
        ("fr", "A Par (S)", "incomplet : il manque un espace"),
        ("pt", "E de Par. para", "incompleta: falta uma província"),
        # a support or move cut off after a word that is also a filler is no hold
        ("es", "E Par A", "está incompleta: falta una región"),
        ("es", "E Par a", "está incompleta: falta una región"),
        ("en", "A PAR the", 'or the end of the order, found "the"'),
        ("pt", "E de Par. a", 'ou o fim da ordem, mas aparece "a"'),
        ("en", "A PAR - BUR BUR", 'or the end of the order, found "bur"'),
        # a hold in another province: the word is named, not "incomplete: expected a coast"
        ("en", "A PAR H BUR", 'or the end of the order, found "bur"'),
        ("es", "E Par M Bor", 'o el final de la orden y aparece "bor"'),
        ("pt", "A permanece", 'esperava-se uma província, mas aparece "permanece"'),
        ("fr", "A Par " * 30, "est trop long"),
        # more characters than an order has: too long, unread, named by its beginning
        ("en", "F Edi - " + "Nor" * 100, 'order "F Edi - ' + "Nor" * 10 + 'No…" is too long'),
        ("es", "F Edi - " + "Nor" * 100, "es demasiado larga"),
    ],
)
def test_not_understood_in_the_players_language(language: str, text: str, message: str) -> None:
    with pytest.raises(InvalidOrderError, match=message) as info:
        parse_order(text, language=language, game_map=BOARD)
    assert info.value.text == text


@pytest.mark.parametrize(
    ("language", "text", "message"),
    [
        ("en", "A Nor - Swe", "ambiguous: A NWG - SWE or A NWY - SWE"),
        ("en", "Bu - Ser", "unknown word"),  # two letters are no prefix
        ("es", "F Mar Nor M", "es ambigua: F MNo M o F MNt M"),
        ("pt", "A do Mar Nor. permanece", "ambígua: A do Mar da Nor. permanece ou A do Mar do"),
        ("en", "F Swe - Gulf", "ambiguous: F SWE - BOT or F SWE - LYO"),
        ("fr", "F Bre - Atlantique", "est ambigu : F Bre-Nat ou F Bre-MAO"),
    ],
)
def test_a_prefix_of_two_provinces_is_ambiguous(language: str, text: str, message: str) -> None:
    with pytest.raises((AmbiguousOrderError, InvalidOrderError), match=message):
        parse_order(text, language=language, game_map=BOARD)
    assert parse_order("A Nor-Swe", language="fr", game_map=BOARD) == Move(
        A("NWY"), "SWE"
    )  # Norvège only


def test_the_board_picks_among_the_names_a_first_word_begins() -> None:
    # "North": the North Sea, the North Atlantic or North Africa; only the first borders London
    with pytest.raises(AmbiguousOrderError):
        parse_order("F Lon - North", language="en", game_map=BOARD)
    on_board = parse_order(
        "F Lon - North", language="en", game_map=BOARD, position=START, power="ENGLAND"
    )
    assert on_board == Move(F("LON"), "NTH")


def test_read_written_keeps_the_order_as_written_but_one_of_its_readings() -> None:
    def read(text: str, position: Position = START) -> Order:
        return read_written(text, game_map=BOARD, language="en", position=position, power="ENGLAND")

    # as written: no type filled in, an order the board forbids kept (the adjudicator judges)
    assert read("Lvp - Yor") == Move(UnitRef(None, "LVP"), "YOR")
    assert read("A Lvp - Nwy") == Move(A("LVP"), "NWY")
    # two readings, one the board allows: that one, still as written
    assert read("Edi - Nor") == Move(UnitRef(None, "EDI"), "NWG")
    assert read("F Lon - North") == Move(F("LON"), "NTH")
    north_sea = Position.from_json({"units": {"ENGLAND": ["F NTH"]}}, BOARD)
    with pytest.raises(AmbiguousOrderError, match="F NTH - NWG or F NTH - NWY"):
        read("F Nth - Nor", north_sea)  # both
    with pytest.raises(AmbiguousOrderError, match="A NWG - SWE or A NWY - SWE"):
        read("A Nor - Swe")  # neither


def test_candidates_are_cheapest_first() -> None:
    found = candidates("A Par - Bor", "es", BOARD)
    assert found[0][0] == Move(A("PAR"), "BUR")
    assert [cost for _, cost in found] == sorted(cost for _, cost in found)


def test_older_signature_with_a_map_in_third_place() -> None:
    assert parse_order("A PAR - BUR", game_map=BOARD) == Move(A("PAR"), "BUR")


def test_parse_orders_splits_as_the_rulebooks_print() -> None:
    assert parse_orders("E Vie—Tri, E Bud—Gli; F Tri—Alb", language="es", game_map=BOARD) == [
        Move(A("VIE"), "TRI"),
        Move(A("BUD"), "GAL"),
        Move(F("TRI"), "ALB"),
    ]


def test_parse_orders_reads_a_comma_within_one_order_as_the_game_does() -> None:
    """A line that reads whole is one order, as the command line and the server take it
    (La Conquista writes a move with its support: "El ejército de Silesia ataca a Bohemia
    apoyado por el de Munich"): ``parse_orders`` split it at the comma and refused the
    second half."""
    text = "E Par - Bor, apoyado por E Mar"
    assert parse_orders(text, language="es", game_map=BOARD) == [Move(A("PAR"), "BUR")]
    assert order_each([text], language="es", game_map=BOARD) == [text]


# --- with a position ------------------------------------------------------------------------
def test_the_board_completes_the_order() -> None:
    assert parse_order("Lon - Nth", position=START, game_map=BOARD) == Move(F("LON"), "NTH")
    assert parse_order("F StP - Bot", position=START, game_map=BOARD) == Move(F("STP/SC"), "BOT")
    assert parse_order(
        "Par A Mar-Bor", language="es", position=START, game_map=BOARD
    ) == SupportMove(A("PAR"), A("MAR"), "BUR")
    assert parse_order("F Sue A SPt Nor", language="es", position=Position({
        "SWE": Unit("RUSSIA", FLEET, "SWE"), "STP": Unit("RUSSIA", ARMY, "STP")
    }), game_map=BOARD) == SupportMove(F("SWE"), A("STP"), "NWY")  # fmt: skip


def test_the_board_picks_the_only_reading_that_fits() -> None:
    russia = Position({"GAL": Unit("RUSSIA", ARMY, "GAL")})
    assert parse_order("E Gal M", language="es", game_map=BOARD) == Hold(
        A("WAL")
    )  # Gal is Wales in Spanish
    assert parse_order("E Gal M", language="es", position=russia, game_map=BOARD) == Hold(A("GAL"))
    france = Position({"PAR": Unit("FRANCE", ARMY, "PAR")})
    assert parse_order("E Par a Bor", language="es", game_map=BOARD) == SupportHold(
        A("PAR"), U("BUR")
    )
    assert parse_order("E Par a Bor", language="es", position=france, game_map=BOARD) == Move(
        A("PAR"), "BUR"
    )


@pytest.mark.parametrize(
    ("language", "text", "kwargs", "error", "message"),
    [
        ("en", "A Bur - Par", {}, IllegalOrderError, "there is no unit in Burgundy"),
        ("es", "E Bor-Par", {}, IllegalOrderError, "no hay ninguna unidad en Borgoña"),
        ("fr", "A Bur-Par", {}, IllegalOrderError, "il n'y a aucune unité dans l'espace Bourgogne"),
        ("pt", "E da Bur. para Par.", {}, IllegalOrderError, "não há nenhuma unidade na Borgonha"),
        ("en", "A Par - Bur", {"power": "GERMANY"}, IllegalOrderError, "not Germany's"),
        ("en", "F Par - Bur", {}, IllegalOrderError, "is an army, not a fleet"),
        ("es", "E Par-MNt", {}, IllegalOrderError, "un ejército no puede ir al Mar del Norte"),
        ("en", "F Bre - Par", {}, IllegalOrderError, "the fleet in Brest cannot go to Paris"),
        ("en", "A Par - Mar", {}, IllegalOrderError, "cannot reach Marseilles"),
        ("en", "A Par S A Mar - Spa", {}, IllegalOrderError, "cannot support there"),
        ("en", "F Lon C A Lvp - Bel", {}, IllegalOrderError, "only a fleet at sea can convoy"),
        ("en", "A Par - Par", {}, IllegalOrderError, "its own province"),
        ("en", "A Par R Bur", {"phase": SPRING}, IllegalOrderError, "cannot be given"),
    ],
)
def test_what_the_board_forbids(
    language: str, text: str, kwargs: dict[str, object], error: type, message: str
) -> None:
    with pytest.raises(error, match=message):
        parse_order(text, game_map=BOARD, language=language, position=START, **kwargs)  # type: ignore[arg-type]


def test_a_missing_coast_where_both_are_possible_is_ambiguous() -> None:
    fleet = Position({"MAO": Unit("FRANCE", FLEET, "MAO")})
    with pytest.raises(AmbiguousOrderError, match="north coast or south coast"):
        parse_order("F MAO - Spa", position=fleet, game_map=BOARD)
    with pytest.raises(AmbiguousOrderError, match="costa norte o costa sur"):
        parse_order("F AtC-Esp", language="es", position=fleet, game_map=BOARD)
    assert parse_order("F AtC-CN Esp", language="es", position=fleet, game_map=BOARD) == Move(
        F("MAO"), "SPA/NC"
    )
    gascony = Position({"GAS": Unit("FRANCE", FLEET, "GAS")})
    assert parse_order("F Gas - Spa", position=gascony, game_map=BOARD) == Move(F("GAS"), "SPA/NC")


def test_a_retreat_phase_reads_moves_as_retreats() -> None:
    position = Position(
        {"BUR": Unit("GERMANY", ARMY, "BUR")},
        dislodged={"BUR": Dislodged(Unit("FRANCE", ARMY, "BUR"), "RUH", ("GAS", "PAR"))},
    )
    assert parse_order("E Bor-Gas", language="es", position=position, game_map=BOARD) == Retreat(
        A("BUR"), "GAS"
    )
    assert parse_order("A Bur D", position=position, game_map=BOARD) == Disband(A("BUR"))
    with pytest.raises(IllegalOrderError, match="cannot retreat to Marseilles"):
        parse_order("A Bur - Mar", position=position, game_map=BOARD)
    with pytest.raises(IllegalOrderError, match="can only retreat or disband"):
        parse_order("A Bur H", position=position, game_map=BOARD)


def test_an_adjustment_phase_reads_bare_units_as_builds_and_removals() -> None:
    winter = Phase.parse("W1901A")
    position = Position({"MUN": Unit("GERMANY", ARMY, "MUN")}, START.centers)
    assert parse_order(
        "F Kie", language="es", position=position, game_map=BOARD, phase=winter
    ) == Build(F("KIE"))
    assert parse_order(
        "E Mun", language="es", position=position, game_map=BOARD, phase=winter
    ) == Disband(A("MUN"))
    assert parse_order(
        "E Ber", language="es", position=position, game_map=BOARD, phase=winter, power="GERMANY"
    ) == Build(A("BER"))
    assert parse_order("Mos", position=position, game_map=BOARD, phase=winter) == Build(A("MOS"))
    with pytest.raises(AmbiguousOrderError, match="in Kiel: an army or a fleet"):
        parse_order("Build Kie", position=position, game_map=BOARD, phase=winter)
    with pytest.raises(AmbiguousOrderError, match="coast of St Petersburg"):
        parse_order("Build F StP", position=position, game_map=BOARD, phase=winter)
    with pytest.raises(IllegalOrderError, match="not a home supply centre of England"):
        parse_order("Build A Ber", position=position, game_map=BOARD, phase=winter, power="ENGLAND")
    with pytest.raises(IllegalOrderError, match="Munich is occupied"):
        parse_order("Build A Mun", position=position, game_map=BOARD, phase=winter)
    assert parse_order("WAIVE", position=position, game_map=BOARD, phase=winter) == Waive()


@pytest.mark.parametrize(
    ("language", "text"),
    [("en", "A MUN H"), ("es", "E Mun M"), ("fr", "A Mun (H)"), ("pt", "E de Mun. permanece")],
)
def test_a_hold_written_out_in_an_adjustment_phase_is_no_removal(language: str, text: str) -> None:
    """The bare "E Mun" is a removal; "A MUN H" (keep it) was read as one too."""
    winter = Phase.parse("W1901A")
    position = Position({"MUN": Unit("GERMANY", ARMY, "MUN")}, START.centers)
    with pytest.raises(IllegalOrderError):
        parse_order(text, language=language, position=position, game_map=BOARD, phase=winter)
    bare = text.rsplit(" ", 1)[0]
    assert parse_order(
        bare, language=language, position=position, game_map=BOARD, phase=winter
    ) == Disband(A("MUN"))


def test_the_reader_names_places_with_their_article() -> None:
    winter = Phase.parse("W1901A")
    position = Position(
        {"BUR": Unit("GERMANY", ARMY, "BUR")},
        START.centers,
        dislodged={"BUR": Dislodged(Unit("FRANCE", ARMY, "BUR"), "RUH", ("GAS", "PAR"))},
    )
    refused = [
        ("pt", "E da Bur. permanece", position, None, None),
        ("pt", "Construir E em Hol.", START, winter, None),
        ("fr", "Construire A Por", START, winter, None),
        ("es", "Construir E Esp", START, winter, "FRANCE"),
    ]
    said = []
    for language, text, where, phase, power in refused:
        with pytest.raises(IllegalOrderError) as error:
            parse_order(
                text, language=language, position=where, game_map=BOARD, phase=phase, power=power
            )
        said.append(str(error.value))
    assert said == [
        "a unidade na Borgonha foi deslocada: só pode retroceder ou ser dissolvida"
        ' ("E da Bur. permanece")',
        'a Holanda não é um centro de abastecimento de origem ("Construir E em Hol.")',
        "le Portugal n'est pas un centre de ravitaillement d'origine (\"Construire A Por\")",
        'España no es un centro de suministro inicial de Francia ("Construir E Esp")',
    ]


# --- guessing the language --------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("A PAR - BUR", "en"),
        ("A BUD - GAL", "en"),
        ("E Par A E Mar-Bor", "es"),
        ("La flota de Londres se mueve al Mar del Norte", "es"),
        ("F Lon - MNt", "es"),
        ("A Bur (S) A Tyr-Mun", "en"),  # also English, and the same order
        ("A Bur soutient A Tyr-Mun", "fr"),
        ("Dissoudre A Par", "fr"),
        ("E de Liv. para Yor.", "pt"),
        ("A de Tri. permanece", "pt"),
        ("A do Mar do Norte transporta E de Yor. para Nor.", "pt"),
    ],
)
def test_guess_language(text: str, language: str) -> None:
    assert guess_language(text, game_map=BOARD) == language


# "Nor" is Spanish's (and Portuguese's) short name of Norway, which Edinburgh does not border;
# English reads it loosely, as Norway or the Norwegian Sea, and only the sea is legal there.
def test_guess_prefers_a_language_whose_reading_is_legal() -> None:
    assert guess_language("F Edi - Nor", game_map=BOARD) == "es"  # no board: the cheapest
    on_board = {"game_map": BOARD, "position": START, "power": "ENGLAND"}
    assert guess_language("F Edi - Nor", **on_board) == "en"  # type: ignore[arg-type]
    order = parse_order("F Edi - Nor", language=None, **on_board)  # type: ignore[arg-type]
    assert order == Move(F("EDI"), "NWG")
    nowhere = Position.from_json({"units": {"ENGLAND": ["F LON"]}}, BOARD)
    # no reading legal: the guess is the one without the board (the one that reads best)
    assert guess_language("F Edi - Nor", game_map=BOARD, position=nowhere) == "es"


@pytest.mark.parametrize(
    ("text", "power", "language", "order"),
    [
        ("E Par A E Mar-Bor", "FRANCE", "es", "A PAR S A MAR - BUR"),
        ("La flota de Londres se mueve al Mar del Norte", "ENGLAND", "es", "F LON - NTH"),
        ("F Lon - MNt", "ENGLAND", "es", "F LON - NTH"),
        ("A Mar soutient A Par-Bou", "FRANCE", "fr", "A MAR S A PAR - BUR"),
        ("A Par - Bou", "FRANCE", "fr", "A PAR - BUR"),
        ("E de Liv. para Yor.", "ENGLAND", "pt", "A LVP - YOR"),
        ("A de Tri. permanece", "AUSTRIA", "pt", "F TRI H"),
        ("A Vie - Gal", "AUSTRIA", "en", "A VIE - GAL"),
    ],
)
def test_guess_on_the_board_keeps_each_language(
    text: str, power: str, language: str, order: str
) -> None:
    assert guess_language(text, game_map=BOARD, position=START, power=power) == language
    parsed = parse_order(text, language=None, game_map=BOARD, position=START, power=power)
    assert str(parsed) == order


def test_parse_with_a_guessed_language() -> None:
    assert parse_order("A de Tri. permanece", language=None, game_map=BOARD) == Hold(F("TRI"))
    assert parse_order("A Tri H", language=None, game_map=BOARD) == Hold(A("TRI"))
    with pytest.raises(InvalidOrderError):
        parse_order("hello world", language=None, game_map=BOARD)


# --- writing -------------------------------------------------------------------------------
SUPPORT = SupportMove(A("PAR"), A("MAR"), "BUR")
CONVOY = Convoy(F("BLA"), A("ANK"), "SEV")
TO_COAST = Move(F("CON"), "BUL/EC")


@pytest.mark.parametrize(
    ("order", "language", "style", "text"),
    [
        (Move(F("LON"), "NTH"), "es", "short", "F Lon-MNt"),
        (Move(F("LON"), "NTH"), "es", "long", "La flota de Londres se mueve al Mar del Norte."),
        (SUPPORT, "en", "short", "A PAR S A MAR - BUR"),
        (SUPPORT, "es", "short", "E Par A E Mar-Bor"),
        (SUPPORT, "fr", "short", "A Par (S) A Mar-Bur"),
        (SUPPORT, "pt", "short", "E de Par. apoia E de Mar. para Bur."),
        (SUPPORT, "en", "long",
         "The army in Paris supports the army in Marseilles moving to Burgundy."),
        (SUPPORT, "es", "long",
         "El ejército de París apoya al ejército de Marsella hacia Borgoña."),
        (SUPPORT, "fr", "long",
         "L'armée de Paris soutient l'armée de Marseille vers la Bourgogne."),
        (SUPPORT, "pt", "long",
         "O exército de Paris apoia o exército de Marselha para a Borgonha."),
        (CONVOY, "es", "short", "F MNe T E Ank-Seb"),
        (CONVOY, "pt", "short", "A do Mar Neg. transporta E de Anc. para Seb."),
        (CONVOY, "fr", "long",
         "La flotte de la mer Noire convoie l'armée d'Ankara vers Sébastopol."),
        (TO_COAST, "es", "short", "F Con-CE Bul"),
        (TO_COAST, "en", "short", "F CON - BUL/EC"),
        (TO_COAST, "pt", "long", "A armada de Constantinopla vai para a Bulgária (costa leste)."),
        (Hold(A("SER")), "fr", "short", "A Ser (H)"),
        (Disband(F("NAP")), "pt", "long", "A armada de Nápoles é dissolvida."),
        (Disband(A("NAP")), "pt", "long", "O exército de Nápoles é dissolvido."),
        (Build(F("STP/NC")), "es", "long",
         "Se construye una flota en San Petersburgo (costa norte)."),
        (Retreat(A("BUR"), "GAS"), "fr", "short", "A Bur (R) Gas"),
        (Move(A("LON"), "BEL", True), "en", "short", "A LON - BEL VIA"),
        (SupportMove(A("SER"), A("BUL", "TURKEY"), "RUM"), "es", "short",
         "E Ser A E turco Bul-Rum"),
        (SupportMove(A("SIL"), A("WAR", "RUSSIA"), "PRU"), "fr", "short",
         "A Sil (S) Russie A War-Pru"),
        (Waive(), "fr", "long", "Renoncer."),
    ],
)  # fmt: skip
def test_format_order(order: object, language: str, style: str, text: str) -> None:
    assert format_order(order, language, style) == text  # type: ignore[arg-type]
    assert parse_order(text, language=language, game_map=BOARD) == order


def test_english_short_is_str() -> None:
    """One English writer: ``format_order``'s English short notation is ``str(order)``,
    nationalities included (they were written as adjectives, "TURKISH A SER", by a second
    English writer)."""
    for text in (
        "A PAR - BUR",
        "F NTH C A LON - BEL",
        "F STP/NC B",
        "A PAR R BUR",
        "WAIVE",
        "A BUD S TURKEY A SER",
        "AUSTRIA A BUD S TURKEY A SER - RUM",
        "F NTH C ENGLAND A LON - BEL",
        "ENGLAND F LON D",
    ):
        assert (
            format_order(parse_order(text, game_map=BOARD))
            == str(parse_order(text, game_map=BOARD))
            == text
        )


def test_format_result_marks_failures_as_the_rulebooks_underline_them() -> None:
    move = Move(A("PAR"), "BUR")
    assert format_result(move, OrderResult.SUCCEEDS, "es") == "E Par-Bor (tiene éxito)"
    failed = format_result(move, "fails", "es")
    assert failed.endswith("(fracasa)") and "\u0332" in failed
    assert failed.replace("\u0332", "") == "E Par-Bor (fracasa)"
    assert format_result(move, "fails", "fr", marked=False) == "A Par-Bur (échoue)"
    assert result_name("cut", "pt") == "apoio anulado"


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("style", STYLES)
def test_a_hold_that_stood_does_not_say_its_verb_twice(language: str, style: Style) -> None:
    """ "stands" is said of holds alone, after the hold's words: it says the unit was not
    dislodged, not the hold's verb again ("E de Par. permanece (permanece)", "El ejército de
    París se mantiene. (se mantiene)", "se maintient. (tient)")."""
    hold = Hold(A("PAR"))
    said = format_result(hold, "stands", language, style)
    order, word = format_order(hold, language, style), result_name("stands", language)
    assert said == f"{order} ({word})"
    verbs = {w for w in order.lower().rstrip(".").split() if len(w) > 2} - {"paris", "par"}
    assert not any(v in word.lower() or word.lower() in v for v in verbs), (order, word)


def test_the_books_names_are_the_names_the_game_writes() -> None:
    """Each book's names, as a player holding it reads them. The three Spanish books write
    "Munich" (000: "El Ejército de Munich", 002, 004: "El ejército de Munich queda en
    Munich"); the 2000 rulebook "Galicia" ("El Ejército de Viena no puede entrar en
    Galicia") and "Smirna" ("Turquia amarillo F Ankara E Constantinopla A Smirna"), La
    Conquista "Esmirna". The 1971 rules: "Mer de Norvège = nrs". Grow writes "Burgúndia",
    "MUNICH", "SMYRNA", "ANKARA" and "Mediterrâneo oeste" on its boards. The other names
    still read."""
    conquista, grow = load_map("conquista"), load_map("grow")
    assert [place_name(p, "es") for p in ("MUN", "GAL", "SMY")] == ["Munich", "Galicia", "Smirna"]
    assert [place_name(p, "es", game_map=conquista) for p in ("MUN", "SMY")] == [
        "Munich",
        "Esmirna",
    ]
    assert format_order(Move(F("EDI"), "NWG"), "fr") == "F Edi-Nrs"
    places = ("BUR", "MUN", "SMY", "ANK", "WES")
    book = ["Burgúndia", "Munich", "Smyrna", "Ankara", "Mediterrâneo Oeste"]
    for board in ("grow", "grow_4", "grow_neutral_italy"):
        assert [place_name(p, "pt", game_map=load_map(board)) for p in places] == book
    assert place_name("BUR", "pt") == "Borgonha"  # the standard board keeps Brazil's names
    old = ("E Múnich-Bohemia", "E Galitzia-Viena", "E Esmirna-Ankara", "F Edi-Nrg")
    for text, language in zip(old, ("es", "es", "es", "fr"), strict=True):
        assert parse_order(text, language=language, game_map=BOARD)
    assert parse_order("E de Mun. para Bur.", language="pt", game_map=grow) == Move(A("MUN"), "BUR")


def test_names() -> None:
    assert place_name("STP/NC", "es") == "San Petersburgo (costa norte)"
    assert power_name("GERMANY", "pt") == "Alemanha"
    assert unit_phrase(F("NTH"), "fr") == "la flotte de la mer du Nord"
    assert unit_phrase(A("PAR"), "es", indefinite=True) == "un ejército"


def test_seasons_and_dates() -> None:
    assert format_date(Phase.parse("S1901M"), "es") == "Primavera de 1901"
    assert format_date(Phase.parse("F1901M"), "es") == "Otoño de 1901"
    assert format_date(Phase.parse("F1901R"), "fr") == "Automne 1901 (retraites)"
    assert format_date(Phase.parse("S1901M"), "pt", "grow") == "Inverno de 1901"
    assert format_date(Phase.parse("F1902M"), "pt", "grow") == "Verão de 1902"
    # grow's turns are Winter and Summer in every language (variants.json), not only pt
    assert format_date(Phase.parse("S1901M"), "en", "grow") == "Winter 1901"
    assert format_date(Phase.parse("W1901A"), "en", "grow") == "Summer 1901 (adjustments)"
    assert format_date(Phase.parse("F1901M"), "es", "grow") == "Verano de 1901"
    assert format_date(Phase.parse("S1901M"), "fr", "grow") == "Hiver 1901"
    assert format_date(Phase.parse("F1901M"), "en") == "Fall 1901"
    assert season_names("fr")[Season.SPRING] == ["Printemps"]


def test_unknown_language_and_style() -> None:
    with pytest.raises(ValueError, match="unknown language"):
        parse_order("A PAR H", language="de", game_map=BOARD)
    with pytest.raises(ValueError, match="unknown style"):
        format_order(Hold(A("PAR")), "en", "tiny")  # type: ignore[arg-type]


def test_read_all_reads_each_text_as_parse_order_does() -> None:
    texts = ["A PAR - BUR", "F Bre-Mao", "WAIVE", "A Par h"]
    expected: list[Order] = [Move(UnitRef(ARMY, "PAR"), "BUR"), Move(UnitRef(FLEET, "BRE"), "MAO")]
    expected += [Waive(), Hold(UnitRef(ARMY, "PAR"))]
    assert read_all(texts, "en", BOARD) == expected
    assert [read_order(t, "en", BOARD) for t in texts] == expected
    assert [parse_order(t, game_map=BOARD) for t in texts] == expected
    # no language: each text's own is guessed
    mixed = ["E Par A E Mar-Bor", "A PAR S A MAR - BUR"]
    support = SupportMove(UnitRef(ARMY, "PAR"), UnitRef(ARMY, "MAR"), "BUR")
    assert read_all(mixed, None, BOARD) == [support, support]


def test_read_all_raises_the_first_unreadable_texts_error() -> None:
    with pytest.raises(InvalidOrderError, match="zz"):
        read_all(["A PAR H", "zz top", "qq"], "en", BOARD)


def test_read_all_refuses_what_is_not_text() -> None:
    with pytest.raises(TypeError, match="not int"):
        read_all(["A PAR H", 3], "en", BOARD)  # type: ignore[list-item]
    with pytest.raises(TypeError, match="not int"):  # no language: none is guessed for it
        read_all(["A PAR H", 3], None, BOARD)  # type: ignore[list-item]
    # the API's legal orders are objects ({"order": "A PAR H", ...}): passing one whole
    # said "unhashable type: 'dict'"
    for thing, kind in (({"order": "A PAR H"}, "dict"), (["A PAR H"], "list")):
        with pytest.raises(TypeError, match=f"an order is text, not {kind}"):
            parse_order(thing, game_map=BOARD)  # type: ignore[arg-type]


def test_a_unit_and_a_place_in_the_short_notation() -> None:
    """What the moderator's ``show`` lists (units, centres, retreats), as the orders name
    them."""
    game_map = load_map("standard")
    fleet = UnitRef(FLEET, "STP/SC")
    assert [format_unit(fleet, lang) for lang in LANGUAGES] == [
        "F STP/SC", "F CS SPt", "F StP (cs)", "A de S. Pet. (cs)"
    ]  # fmt: skip
    assert [format_place("BUR", lang) for lang in LANGUAGES] == ["BUR", "Bor", "Bur", "Bur."]
    for lang in LANGUAGES:
        assert format_order(Hold(fleet), lang, game_map=game_map).startswith(
            format_unit(fleet, lang, game_map=game_map)
        )


@pytest.mark.parametrize(
    ("text", "power", "order"),
    [("A Mos-Liv", "RUSSIA", "A MOS - LVN"),
     ("A Liv-Pru", "RUSSIA", "A LVN - PRU"),
     ("A Liv (H)", "RUSSIA", "A LVN H"),
     ("A Edi-Liv", "ENGLAND", "A EDI - LVP"),
     ("A Liv-Yor", "ENGLAND", "A LVP - YOR")],
)  # fmt: skip
def test_french_first_three_letters_are_read_by_the_board(
    text: str, power: str, order: str
) -> None:
    """The 1971 rules (001, VII.7): "Les trois premières lettres du nom de chaque espace
    fournissent des abréviations utilisables". Livonie and Liverpool both begin "Liv": where
    the board allows only Livonia (an army in Moscow, inland; the Russian army standing
    there), "Liv" is Livonia; Liverpool stays the first reading. "Liv" was Liverpool's alone,
    and the order refused."""
    position = Position.from_json(
        {"units": {"RUSSIA": ["A MOS", "A LVN"], "ENGLAND": ["A EDI", "A LVP"]}}, BOARD
    )
    got = parse_order(text, language="fr", game_map=BOARD, position=position, power=power)
    assert got == parse_order(order, game_map=BOARD)


@pytest.mark.parametrize(
    ("language", "text"),
    [("pt", "F Mar Tireno - Tun"), ("pt", "F Mar Egeo - Gre"), ("en", "F Mar Tys - Tun")],
)
def test_a_fleet_takes_no_convoy_path_through_a_misspelt_sea(language: str, text: str) -> None:
    """A sea misspelt after "Mar" (Portuguese "Mar Tireno") was read as Marseilles, then
    the sea as the first step of a convoy path whose end alone counts: "F MAR - TUN",
    silently. Only an army is convoyed: a fleet's order names no path."""
    try:
        order = parse_order(text, language=language, game_map=BOARD)
    except ValueError:
        return
    assert not (isinstance(order, Move) and order.unit.location == "MAR"), order
