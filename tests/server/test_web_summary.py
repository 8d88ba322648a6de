"""What happened, as the page tells it once a phase is processed (history.js's summary and
results table) in a real browser: every order's result, a bounce, units dislodged (with or
without orders, with nowhere to go), a retreat made, builds, waives and removals, centres
lost and gained, in each of the four languages."""

from __future__ import annotations

from typing import Any

import pytest

from tests.gamekit import at
from tests.server.browserkit import (
    click_province,
    continue_to_now,
    disband_the_first_unit,
    idle,
    in_language,
    legal,
    open_at,
    put_at_a_retreat,
    put_at_an_attack_with_nowhere_to_go,
    put_at_supports_and_a_convoy,
    put_at_the_builds,
    put_at_the_removals,
    register_and_create,
    rewrite_stored_game,
    shot,
    store_ready_orders,
    until_phase_changes,
    watched,
)
from tests.server.conftest import LiveServer

BUILDS_SAID = {
    "en": ("{order}: the unit was built", "a build was waived"),
    "es": ("{order}: la unidad fue construida", "se renunció a una construcción"),
    "fr": ("{order} : l'unité a été construite", "on a renoncé à une construction"),
    "pt": ("{order}: a unidade foi construída", "renunciou-se a uma construção"),
}


def shown_in(page: Any, lang: str, phase: str) -> None:
    """The page in ``lang`` (English: as it is), stepped back to ``phase``'s results."""
    if lang != "en":
        in_language(page, lang, f"document.documentElement.lang === {lang!r}")
        continue_to_now(page)
        for _ in range(3):
            if page.get_attribute("#step-label", "data-phase") == phase:
                break
            page.click("#step-prev")
            idle(page)
            page.wait_for_selector("#summary .summary")
    assert page.get_attribute("#step-label", "data-phase") == phase, lang


def test_the_summary_of_builds_says_what_was_built_and_waived(
    server: LiveServer, browser: Any
) -> None:
    """After the adjustments, "what happened" tells the build and the waive (not "Nothing
    happened to your units"), in each of the four languages."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    open_at(page, server, "bertha", put_at_the_builds)
    page.locator("#unit-list button.unit").first.click()
    page.locator('#legal .legal-option[data-kind="build"]').first.click()
    page.wait_for_function("document.querySelectorAll('#my-orders li.order').length === 1")
    idle(page)
    built = page.locator("#my-orders li.order").first.get_attribute("data-order") or ""
    page.click("#waive")
    page.wait_for_function("document.querySelectorAll('#my-orders li.order').length === 2")
    idle(page)
    page.once("dialog", lambda dialog: dialog.accept())  # a build left unused: asked first
    page.click("#ready")
    until_phase_changes(page, "W1901A")
    page.wait_for_selector("#summary .summary.fresh")
    assert page.get_attribute("#step-label", "data-phase") == "W1901A"
    shot(page, "builds-summary-en")
    for lang, (build, waive) in BUILDS_SAID.items():
        shown_in(page, lang, "W1901A")  # back to the adjustments, in this language
        assert not page.locator("#summary p.muted").count(), lang  # not "nothing happened"
        told = page.inner_text("#summary-list").split("\n")
        order = page.evaluate(
            """(o) => fetch(`/api/games/${location.hash.split('/')[2]}/history/W1901A`
                + `?language=${document.documentElement.lang}`).then((r) => r.json())
                .then((rec) => Object.values(rec.orders).flat().find((e) => e.order === o))""",
            built,
        )
        words = order["text"] if lang == "en" else order["long"].rstrip(".")
        assert build.format(order=words) in told and waive in told, (lang, told)
        shot(page, f"builds-summary-{lang}")


REMOVALS_SAID = {  # a removal ordered; one the player left to the rules
    "en": (
        "{order}: the unit was removed",
        "{order}: the rules chose this unit, as no removal was ordered (the one farthest from"
        " home goes first)",
    ),
    "es": (
        "{order}: la unidad fue disuelta",
        "{order}: las reglas eligieron esta unidad, pues no se ordenó ninguna disolución (primero"
        " la más alejada de sus centros de origen)",
    ),
    "fr": (
        "{order} : l'unité a été retirée",
        "{order} : les règles ont choisi cette unité, aucun retrait n'ayant été ordonné (d'abord"
        " la plus éloignée de ses centres d'origine)",
    ),
    "pt": (
        "{order}: a unidade foi removida",
        "{order}: as regras escolheram esta unidade, pois nenhuma remoção foi ordenada (primeiro"
        " a mais distante dos centros de origem)",
    ),
}


@pytest.mark.parametrize("ordered", [True, False], ids=["ordered", "left-to-the-rules"])
def test_the_summary_of_removals_says_what_was_removed(
    server: LiveServer, browser: Any, ordered: bool
) -> None:
    """After the adjustments, "what happened" tells the unit removed, in each of the four
    languages: the removal ordered (as a sentence outside English, as the list of orders
    says it), or, when the player gave none, that the rules chose the unit (it said "the unit
    was disbanded (civil disorder)" to a player who had only pressed Ready: in Spanish "La
    flota de Nápoles se disuelve: la unidad se disolvió (desorden civil)")."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    open_at(page, server, "rhea" if ordered else "rolf", put_at_the_removals)
    assert "1 removal due, 1 still to order" in page.inner_text("#phase-brief")
    if ordered:
        disband_the_first_unit(page)
        assert page.inner_text("#phase-brief") == "1 removal due: ordered."
    page.on("dialog", lambda dialog: dialog.accept())
    page.click("#ready")
    until_phase_changes(page, "W1901A")
    page.wait_for_selector("#summary .summary.fresh")
    assert page.get_attribute("#step-label", "data-phase") == "W1901A"
    for lang, (said_ordered, said_unordered) in REMOVALS_SAID.items():
        shown_in(page, lang, "W1901A")  # back to the adjustments, in this language
        told = page.inner_text("#summary-list").split("\n")
        entry = page.evaluate(
            """() => fetch(`/api/games/${location.hash.split('/')[2]}/history/W1901A`
                + `?language=${document.documentElement.lang}`).then((r) => r.json())
                .then((rec) => Object.values(rec.orders).flat().find((e) => / D$/.test(e.order)))"""
        )
        assert bool(entry.get("implied")) is not ordered, entry
        words = entry["text"] if lang == "en" else entry["long"].rstrip(".")
        said = said_ordered if ordered else said_unordered
        assert told == [said.format(order=words)], (lang, told)
        shot(page, f"removals-summary-{'ordered' if ordered else 'unordered'}-{lang}")


# A unit without an order, dislodged, as a phase's record gives it (its text in each
# language as the server writes the hold), and what the summary says of it.
UNORDERED = {
    "en": ("A BOH H", "A BOH had no order and held: it was dislodged"),
    "es": ("E Boh M", "E Boh no tenía orden y se mantuvo: la unidad fue desalojada"),
    "fr": ("A Boh (H)", "A Boh n'avait pas d'ordre et a tenu : l'unité a été délogée"),
    "pt": (
        "E da Boe. permanece",
        "E da Boe. não tinha ordem e manteve a posição: a unidade foi deslocada",
    ),
}


def test_a_dislodged_unit_without_an_order_is_told_plainly(
    server: LiveServer, browser: Any
) -> None:
    """The results summary of a unit that had no order, held and was dislodged says so in
    words, in every language (not "A BOH H: dislodged no order: holds")."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    register_and_create(page, server, "dora", players="7")
    for lang, (text, told) in UNORDERED.items():
        page.select_option("#language", lang)
        idle(page)
        line = page.evaluate(
            """async (text) => (await import('/static/history.js')).fateLine({order: 'A BOH H',
            text, result: 'dislodged', unit: 'dislodged', reason: 'no order: holds',
            implied: true})""",
            text,
        )
        assert line == ["bad", told], (lang, line)
    page.select_option("#language", "en")
    idle(page)
    ordered = page.evaluate(
        """async () => (await import('/static/history.js')).fateLine({order: 'A BOH - MUN',
        text: 'A BOH - MUN', result: 'fails', unit: 'dislodged', reason: 'bounced'})"""
    )
    assert ordered == ["bad", "A BOH - MUN: dislodged (bounced)"]


def test_the_summary_says_orders_as_sentences_outside_english(
    server: LiveServer, browser: Any
) -> None:
    """What happened, outside English, names each order as the results and the orders list
    do, as a sentence (it gave the short notation, cryptic to newcomers: "F Bre-CMa")."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    register_and_create(page, server, "elio", players="7")
    # an entry of a phase's record as the server gives it in each language
    entries = {
        "es": ("F Bre-CMa", "La flota de Brest se mueve al Canal de la Mancha.", "enfrentamiento"),
        "en": ("F BRE - ENG", "The fleet in Brest moves to the English Channel.", "bounced"),
    }
    told = {}
    for lang, (text, long, said) in entries.items():
        page.select_option("#language", lang)
        idle(page)
        entry = {"order": "F BRE - ENG", "result": "fails", "reason": "bounced", "said": said,
                 "text": text, "long": long}  # fmt: skip
        told[lang] = page.evaluate(
            "async (e) => (await import('/static/history.js')).fateLine(e)", entry
        )
    assert told["es"] == [
        "bad",
        "La flota de Brest se mueve al Canal de la Mancha: fracasa — enfrentamiento",
    ]
    assert told["en"] == ["bad", "F BRE - ENG: fails — bounced"]  # English: its notation


# How a bounce's reason begins in each language, its words for units, and the phase after.
BOUNCE = {
    "es": (("enfrentamiento ", "choque frontal "), ("ejército", "flota"), "Otoño de 1901"),
    "fr": (("conflit ", "face-à-face "), ("armée", "flotte"), "Automne 1901"),
    "pt": (
        ("impasse ", "perdeu o confronto ", "perdeu a disputa "),
        ("exército", "armada"),
        "Outono de 1901",
    ),
}


def test_a_bounce_is_told_in_the_players_language(server: LiveServer, browser: Any) -> None:
    """Two of my units ordered into one province (one at least fails): the results table
    and the summary say why in the page's language, the units in words ("enfrentamiento en Borgoña
    con el ejército de París y el ejército de Marsella"), and no reason is left in English."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    register_and_create(page, server, "rosa", players="7")
    units = page.evaluate("""async () => {
        const r = await fetch(`/api/games/${location.hash.split('/')[2]}`);
        return Object.values((await r.json()).position.units).flat();
    }""")
    taken = {unit.split()[1][:3] for unit in units}
    into: dict[str, dict[str, str]] = {}  # an empty destination: unit: its move there
    for unit, options in legal(page).items():
        for option in options:
            if option["kind"] == "move" and not option.get("via") and option["dest"] not in taken:
                into.setdefault(option["dest"], {})[unit] = option["order"]
    both = next(list(moves.values())[:2] for moves in into.values() if len(moves) > 1)
    page.fill("#typed", "\n".join(both))
    page.click("#submit-typed")
    page.wait_for_function("document.querySelectorAll('#my-orders li.order.ok').length === 2")
    page.once("dialog", lambda d: d.accept())  # (the other units hold)
    page.click("#ready")
    until_phase_changes(page, "S1901M")
    english = ("bounced", "standoff", "beaten", "cut by", "the ", "no order")
    for lang, (starts, units, fall) in BOUNCE.items():
        in_language(page, lang, f"(document.getElementById('phase') || {{}}).textContent === "
                                f"{fall!r}")  # fmt: skip
        if page.get_attribute("#step-label", "data-phase") != "S1901M":
            page.click("#step-prev")
        page.wait_for_function("document.getElementById('step-label').dataset.phase === 'S1901M'")
        idle(page)
        page.click("#results-view summary")
        reasons = [r for r in page.locator("#results tr td:nth-child(4)").all_inner_texts() if r]
        bounced = [r for r in reasons if r.startswith(starts)]
        assert any(u in r for r in bounced for u in units), (lang, reasons)  # units in words
        assert not [r for r in reasons if r.startswith(english)], (lang, reasons)
        told = page.locator("#summary-list li").all_inner_texts()
        assert any(r in line for r in bounced for line in told), (lang, told)
        page.locator("#results").scroll_into_view_if_needed()
        shot(page, f"reasons-{lang}")


# An army dislodged where it held, as the summary tells it: the participle agrees with "the
# unit" (it agreed with nothing: "El ejército de Trieste se mantiene: desalojada").
DISLODGED_TOLD = {
    "en": "A TRI H: dislodged (attacked from VIE)",
    "es": "El ejército de Trieste se mantiene: la unidad fue desalojada (attacked from VIE)",
    "fr": "L'armée de Trieste se maintient : l'unité a été délogée (attacked from VIE)",
    "pt": "O exército de Trieste permanece: a unidade foi deslocada (attacked from VIE)",
}


def test_a_dislodged_army_is_told_in_agreement(server: LiveServer, browser: Any) -> None:
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    register_and_create(page, server, "dinah", players="7")
    line = """async (long) => {
        const {fateLine} = await import('/static/history.js');
        return fateLine({order: 'A TRI H', text: 'A TRI H', long, result: 'dislodged',
            unit: 'dislodged', said: 'attacked from VIE'})[1];
    }"""
    longs = {
        "en": "The army in Trieste holds.",
        "es": "El ejército de Trieste se mantiene.",
        "fr": "L'armée de Trieste se maintient.",
        "pt": "O exército de Trieste permanece.",
    }
    for lang, told in DISLODGED_TOLD.items():
        if lang != "en":
            in_language(page, lang, f"document.documentElement.lang === {lang!r}")
        assert page.evaluate(line, longs[lang]) == told, lang


# What the summary says of a movement in which my power gave no orders and its army in
# Bohemia was dislodged (the record as in UNORDERED): that no orders were given, once.
IDLE = {
    "en": ["no orders were given: the units held", "A BOH: dislodged"],
    "es": [
        "no se dieron órdenes: las unidades se mantuvieron",
        "E Boh: la unidad fue desalojada",
    ],
    "fr": ["aucun ordre donné : les unités ont tenu", "A Boh : l'unité a été délogée"],
    "pt": [
        "nenhuma ordem foi dada: as unidades permaneceram",
        "E da Boe.: a unidade foi deslocada",
    ],
}


# Kiel's fleet ordered to hold, and held (every order given is told), from a record
# without the unit in words: its notation.
KIEL_HELD = {
    "en": "F KIE held",
    "es": "F KIE se mantuvo",
    "fr": "F KIE a tenu",
    "pt": "F KIE manteve a posição",
}


def test_a_power_without_orders_is_told_so_once(server: LiveServer, browser: Any) -> None:
    """A movement in which my power gave no orders: the summary says so in one line, not
    again for each unit ("A BOH had no order and held: ..." after it), in every language;
    a unit without an order when others were given is still told it had none."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    register_and_create(page, server, "nell", players="7")
    summary = """async ([text, others]) => {
        const {S} = await import('/static/core.js');
        const {summaryLines} = await import('/static/history.js');
        // (a new language reloads the game: wait for it, then read it without a pause)
        while (!S.game) await new Promise((r) => setTimeout(r, 50));
        const p = S.game.my_powers[0];
        const orders = [{order: 'A BOH H', text, result: 'dislodged', unit: 'dislodged',
            reason: 'no order: holds', implied: true},
            {order: 'F KIE H', text: 'F KIE H', result: 'stands', implied: !others}];
        const position = {units: {[p]: ['A BOH', 'F KIE']}, centers: {}};
        const lines = summaryLines({orders: {[p]: orders}, position, events: []}, position,
            'F1901M');
        return lines.map((l) => l[2]);
    }"""
    for lang, (text, told) in UNORDERED.items():
        page.select_option("#language", lang)
        idle(page)
        assert page.evaluate(summary, [text, False]) == IDLE[lang], lang
        assert page.evaluate(summary, [text, True]) == [told, KIEL_HELD[lang]], lang


# Centres lost and gained, as the summary names them: each with the article a sentence gives
# it ("a pris la Grèce", "ganhou a Grécia": "a pris Grèce" is not French), every one alike
# (the page once gave the second and later ones alone their article: "ganhou Grécia, a Sérvia"),
# the last after "and" as the language says it (it read "a pris la Belgique, la Norvège").
CENTRES_SAID = {
    "en": ["lost Vienna and Denmark", "gained Greece, Serbia, and Bulgaria"],
    "es": ["perdió Viena y Dinamarca", "ganó Grecia, Serbia y Bulgaria"],
    "fr": ["a perdu Vienne et le Danemark", "a pris la Grèce, la Serbie et la Bulgarie"],
    "pt": ["perdeu Viena e a Dinamarca", "ganhou a Grécia, a Sérvia e a Bulgária"],
}


def test_centres_lost_and_gained_are_named_alike(server: LiveServer, browser: Any) -> None:
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    register_and_create(page, server, "cleo", players="7")
    summary = """async () => {
        const {S} = await import('/static/core.js');
        const {summaryLines} = await import('/static/history.js');
        while (!S.game) await new Promise((r) => setTimeout(r, 50));
        const p = S.game.my_powers[0];
        const record = {orders: {[p]: []}, position: {units: {[p]: ['A BOH']},
            centers: {[p]: ['VIE', 'DEN', 'BUD']}}, events: []};
        const after = {units: {[p]: ['A BOH']}, centers: {[p]: ['BUD', 'GRE', 'SER', 'BUL']}};
        return summaryLines(record, after, 'F1901R').map((l) => l[2]);
    }"""
    for lang, said in CENTRES_SAID.items():
        if lang != "en":
            in_language(page, lang, f"document.documentElement.lang === {lang!r}")
        assert page.evaluate(summary) == said, lang


RETREAT_TOLD = {  # the retreat made, in the summary of the retreats
    "en": "A BOH R SIL: succeeds",
    "es": "El ejército de Bohemia se retira a Silesia: tiene éxito",
    "fr": "L'armée de Bohême se retire vers la Silésie : réussit",
    "pt": "O exército da Boêmia retrocede para a Silésia: realizado",
}


def test_a_retreat_made_is_told_in_the_summary(server: LiveServer, browser: Any) -> None:
    """The retreats processed, "what happened" tells the retreat made, in every language
    (it said "Nothing happened to your units": only a move's arrow counted as news)."""
    page = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True)
    open_at(page, server, "rita", put_at_a_retreat)
    click_province(page, "BOH")
    page.wait_for_selector('#order-menu .menu-option[data-kind="disband"]')
    click_province(page, "SIL")
    page.wait_for_function("[...document.querySelectorAll('#my-orders li.order')].some("
                           "e => e.dataset.order === 'A BOH R SIL')")  # fmt: skip
    idle(page)
    page.click("#ready")
    until_phase_changes(page, "F1901R")
    page.wait_for_selector("#summary .summary.fresh")
    for lang, told in RETREAT_TOLD.items():
        shown_in(page, lang, "F1901R")
        lines = page.inner_text("#summary").split("\n")
        assert told in lines, (lang, lines)
        shot(page, f"retreat-told-{lang}", full=False)


# My orders against that attack: Bohemia holds with Galicia's support (Silesia's is cut by
# Prussia's attack), the fleet convoys Yorkshire's army to Norway; and what the summary
# says of each, in each language (the orders as the server words them).
DEFENCE = ["A BOH H", "A SIL S A BOH", "A GAL S A BOH", "F NTH C A YOR - NWY", "A YOR - NWY"]
DEFENCE_TOLD = {
    "en": [
        "A BOH held",
        "A SIL S A BOH: support cut by an attack",
        "A GAL S A BOH: support given",
        "F NTH C A YOR - NWY: convoy available",
        "A YOR - NWY: succeeds",
    ],
    "es": [
        "El ejército de Bohemia se mantuvo",
        "El ejército de Silesia apoya al ejército de Bohemia: apoyo anulado por un ataque",
        "El ejército de Galicia apoya al ejército de Bohemia: apoyo dado",
        "La flota del Mar del Norte transporta al ejército de Yorkshire hasta Noruega:"
        " transporte posible",
        "El ejército de Yorkshire se mueve a Noruega: tiene éxito",
    ],
    "fr": [
        "L'armée de Bohême a tenu",
        "L'armée de Silésie soutient l'armée de Bohême : soutien coupé par une attaque",
        "L'armée de Galicie soutient l'armée de Bohême : soutien donné",
        "La flotte de la mer du Nord convoie l'armée du Yorkshire vers la Norvège : convoi"
        " possible",
        "L'armée du Yorkshire se déplace vers la Norvège : réussit",
    ],
    "pt": [
        "O exército da Boêmia manteve a posição",
        "O exército da Silésia apoia o exército da Boêmia: apoio anulado por um ataque",
        "O exército da Galícia apoia o exército da Boêmia: apoio dado",
        "A armada do Mar do Norte transporta o exército de Yorkshire para a Noruega: transporte"
        " possível",
        "O exército de Yorkshire vai para a Noruega: realizado",
    ],
}
# Bohemia's hold in the table of every order and result: the result says it was not
# dislodged, not the hold's verb again ("O exército da Boêmia permanece. | permanece",
# "se mantiene. | se mantiene", "se maintient. | tient").
BOHEMIA_ROW = {
    "en": ("A BOH H", "stands"),
    "es": ("El ejército de Bohemia se mantiene.", "no desalojada"),
    "fr": ("L'armée de Bohême se maintient.", "non délogée"),
    "pt": ("O exército da Boêmia permanece.", "não deslocada"),
}
# The lines of a centre taken or lost, in each language (not this test's business: the
# bots' moves decide them, and they took Munich from Germany once).
CENTRES = ("gained ", "ganó ", "a pris ", "ganhou ", "lost ", "perdió ", "a perdu ", "perdeu ")


def test_the_summary_tells_every_order_s_result_supports_and_convoys_too(
    server: LiveServer, browser: Any
) -> None:
    """What happened listed moves only: a support given, or a convoy, was not told (nor a
    hold that stood). Every order's result is, in the page's language."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    open_at(page, server, "sigrid", put_at_supports_and_a_convoy)
    page.fill("#typed", "\n".join(DEFENCE))
    page.click("#submit-typed")
    page.wait_for_function("document.querySelectorAll('#my-orders li.order.ok').length === 5")
    idle(page)
    page.click("#ready")
    until_phase_changes(page, "F1901M")
    page.wait_for_selector("#summary .summary.fresh")
    shot(page, "summary-supports", full=False)
    for lang, told in DEFENCE_TOLD.items():
        shown_in(page, lang, "F1901M")
        lines = page.locator("#summary-list li").all_inner_texts()
        assert [line for line in lines if not line.startswith(CENTRES)] == told, (lang, lines)
        shot(page, f"summary-supports-{lang}", full=False)
        page.eval_on_selector("#results-view details", "d => { d.open = true; }")
        rows = page.locator("#results tr").evaluate_all(
            "rows => rows.map(r => [r.cells[1].textContent, r.cells[2].textContent])")  # fmt: skip
        assert BOHEMIA_ROW[lang] in [tuple(row) for row in rows], (lang, rows)
        page.locator("#results").scroll_into_view_if_needed()
        shot(page, f"results-hold-{lang}", full=False)
        if lang == "pt":
            page.set_viewport_size({"width": 390, "height": 844})
            page.locator("#summary").scroll_into_view_if_needed()
            shot(page, "summary-supports-phone", full=False)
            page.locator("#results").scroll_into_view_if_needed()
            shot(page, "results-hold-phone", full=False)


def bohemia_in_summary(page: Any, phase: str) -> list[str]:
    """The lines of ``phase``'s summary (stepped back to it) that tell of Bohemia."""
    for _ in range(4):
        page.wait_for_timeout(500)  # the page shown again (after a language switched)
        idle(page)
        if page.get_attribute("#step-label", "data-phase") == phase:
            break
        page.click("#step-prev")
        idle(page)
    page.wait_for_selector("#summary .summary")
    assert page.get_attribute("#step-label", "data-phase") == phase
    return [x for x in page.inner_text("#summary").split("\n") if "BOH" in x or "Bo" in x]


NOWHERE_TO_GO = {  # a dislodged unit with nowhere to retreat: one word in each language
    "en": "disbanded",
    "es": "disuelta",
    "fr": "dissoute",
    "pt": "dissolvida",
}
OTHER_WORDS = ("destroy", "removed", "destru", "détruit", "retirad", "retirée")


def test_a_unit_with_nowhere_to_retreat_is_told_in_one_word(
    server: LiveServer, browser: Any
) -> None:
    """Bohemia's army dislodged with nowhere to go is "disbanded" in the movement's summary,
    in the retreat's brief and in the retreat's summary, in every language (it was
    "destroyed", then "disbanded", then "removed")."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    register_and_create(page, server, "noemi", players="7")
    gid = int(page.evaluate("location.hash.split('/')[2]"))
    power = page.get_attribute("#power", "data-power") or ""
    put_at_an_attack_with_nowhere_to_go(server, gid, power)
    page.reload()
    page.wait_for_selector("#phase-brief")
    idle(page)
    page.fill("#typed", "A BOH H\nA PIE H")
    page.click("#submit-typed")
    idle(page)
    page.click("#ready")
    until_phase_changes(page, "F1901M")
    told: dict[str, list[str]] = {}
    for lang in NOWHERE_TO_GO:
        in_language(page, lang, f"document.documentElement.lang === {lang!r}")
        told[f"{lang}-movement"] = bohemia_in_summary(page, "F1901M")
    continue_to_now(page)
    for lang in NOWHERE_TO_GO:
        in_language(page, lang, f"document.documentElement.lang === {lang!r}")
        told[f"{lang}-retreat"] = [page.inner_text("#phase-brief")]
    shot(page, "nowhere-retreat")
    # the page shown again in English (the language attribute is set before the redraw)
    in_language(page, "en", "(document.getElementById('missing') || {}).innerText === "
                "'Units without orders: Piedmont'")  # fmt: skip
    # nothing to decide for Bohemia: not offered, not "without orders", Ready asks nothing
    assert page.locator('#unit-list button.unit[data-key="BOH"]').count() == 0
    assert "Bohemia" not in page.inner_text("#missing") and "Piedmont" in page.inner_text(
        "#missing"
    )
    asked: list[str] = []

    def refuse(dialog: Any) -> None:
        asked.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", refuse)
    page.fill("#typed", "A PIE R TUS")
    page.click("#submit-typed")
    idle(page)
    page.click("#ready")
    until_phase_changes(page, "F1901R")
    assert asked == [], asked
    for lang in NOWHERE_TO_GO:
        in_language(page, lang, f"document.documentElement.lang === {lang!r}")
        told[f"{lang}-retreats-done"] = bohemia_in_summary(page, "F1901R")
    shot(page, "nowhere-retreats-done")
    for where, lines in told.items():
        word = NOWHERE_TO_GO[where[:2]]
        assert any(word in x for x in lines), (where, lines)
        assert not any(w in x.lower() for x in lines for w in OTHER_WORDS), (where, lines)


# A unit of mine without an order, attacked, that held: the attack is told (with the order
# given as in the list of orders: a sentence outside English, lower-case within the line).
HELD_AGAINST = {
    "en": ("F TRI H", "The army in Venice moves to Trieste.",
           "F TRI had no order and held against A VEN - TRI"),
    "es": ("F Tri (M)", "El ejército de Venecia se mueve a Trieste.",
           "F Tri no tenía orden y resistió: el ejército de Venecia se mueve a Trieste"),
    "fr": ("F Tri (H)", "L'armée de Venise se déplace vers Trieste.",
           "F Tri n'avait pas d'ordre et a tenu : l'armée de Venise se déplace vers Trieste"),
    "pt": ("F de Tri. (M)", "O exército de Veneza vai para Trieste.",
           "F de Tri. não tinha ordem e manteve a posição: o exército de Veneza vai para Trieste"),
}  # fmt: skip


def test_la_conquista_s_dislodged_unit_is_told_destroyed_as_it_has_no_retreats(
    server: LiveServer, browser: Any
) -> None:
    """In La Conquista a dislodged unit is destroyed at once ("es eliminado del mapa"): the
    summary and the results say so, not "dislodged with nowhere to retreat, and disbanded"
    (Bohemia's army had Galicia and Silesia free), the classic words for another case."""
    page, errors = watched(browser)
    register_and_create(page, server, "dolores", edition="conquista")
    gid = int(page.evaluate("location.hash.split('/')[2]"))
    power = page.get_attribute("#power", "data-power") or ""
    other = ""

    def attack(game: Any) -> None:
        nonlocal other
        other = next(p for p in game.powers if p != power)
        centers = game.position.to_json()["centers"]
        units = {power: ["A BOH"], other: ["A MUN", "A TYR"]}
        at(game, "F1914M", {"units": units, "centers": centers})

    rewrite_stored_game(server, gid, attack)
    store_ready_orders(server, gid, "F1914M", {other: ["A MUN - BOH", "A TYR S A MUN - BOH"]})
    page.reload()
    page.wait_for_selector("#phase-brief")
    idle(page)
    in_language(page, "es", "document.documentElement.lang === 'es'")
    page.fill("#typed", "E Boh M")
    page.click("#submit-typed")
    idle(page)
    page.click("#ready")
    until_phase_changes(page, "F1914M")
    told = page.inner_text("#summary")
    said = "El ejército de Bohemia se mantiene: desalojada y destruida (en La Conquista no hay"
    assert f"{said} retiradas)" in told, told
    results = dict(page.locator("#results tr").evaluate_all(
        "rows => rows.map(r => [r.cells[1].textContent, r.cells[2].textContent])"))  # fmt: skip
    assert results["El ejército de Bohemia se mantiene."] == "destruida", results
    shot(page, "conquista-destroyed-es")
    assert not errors, errors


def test_a_unit_without_orders_that_held_against_an_attack_is_told(
    server: LiveServer, browser: Any
) -> None:
    """My fleet had no order, another power attacked it and it held: the summary tells the
    attack (it told nothing, as of a unit held unharmed: playing, Italy's move on Trieste was
    seen only on the map); a unit without an order that nobody attacked is still not told."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    register_and_create(page, server, "helga", players="7")
    summary = """async ([text, long]) => {
        const {S} = await import('/static/core.js');
        const {summaryLines} = await import('/static/history.js');
        while (!S.game) await new Promise((r) => setTimeout(r, 50));
        const p = S.game.my_powers[0];
        const other = S.game.powers.find((q) => q !== p);
        const orders = {
            [p]: [{order: 'A BUD - SER', text: 'A BUD - SER', result: 'succeeds'},
                  {order: 'F TRI H', text, result: 'stands', implied: true},
                  {order: 'A VIE H', text: 'A VIE H', result: 'stands', implied: true}],
            [other]: [{order: 'A VEN - TRI', text: 'A VEN - TRI', long, result: 'fails'}],
        };
        const position = {units: {[p]: ['A BUD', 'F TRI', 'A VIE']}, centers: {}};
        return summaryLines({orders, position, events: []}, position, 'S1901M')
            .map((l) => l[2]).slice(1);
    }"""
    for lang, (text, long, told) in HELD_AGAINST.items():
        if lang != "en":
            in_language(page, lang, f"document.documentElement.lang === {lang!r}")
        assert page.evaluate(summary, [text, long]) == [told], lang
