"""The page in Spanish, French and Portuguese (i18n.json) in a real browser: the server's
refusals, the lobby, the form, a retreat, the press, the map and the summary's words, with
no English left; a message not left in the old language."""

from __future__ import annotations

from typing import Any

from tests.server.browserkit import (
    FLASH,
    click_province,
    continue_to_now,
    declined,
    idle,
    in_language,
    legal,
    put_at_a_retreat,
    register_and_create,
    shot,
    sign_up,
    until_phase_changes,
)
from tests.server.conftest import LiveServer


def test_a_message_is_not_left_in_the_old_language(server: LiveServer, browser: Any) -> None:
    """Orders given ("Saved" shows), then the page turned to Spanish: the English message
    goes rather than stay over a Spanish page."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    register_and_create(page, server, "tomas", players="7")
    options = next(iter(legal(page).values()))
    page.fill("#typed", options[0]["order"])
    page.click("#submit-typed")
    page.wait_for_selector("#flash:not([hidden])")
    assert page.inner_text("#flash") == "Saved"
    in_language(
        page, "es", "(document.getElementById('submit-typed') || {}).textContent === 'Dar órdenes'"
    )
    assert page.locator("#flash").is_hidden()


# What a Spanish, French and Portuguese player reads where the page said English words,
# raw codes or clumsy phrases (review web-play B12).
SAID: dict[str, dict[str, str]] = {
    "es": {
        "short_password": "La contraseña tiene de 8 a 200 caracteres.",
        "taken": "El nombre de usuario babel ya está en uso.",
        "wrong_login": "Usuario o contraseña incorrectos.",
        "game_of": "Partida de babel",
        "create": "Crear",
        "table": "3a: primera opción: Rusia sola",
        "grow": "Grow",
        "phase": "Primavera de 1901",
        "retreat_phase": "Otoño de 1901, retiradas",
        "dislodged": "El ejército de Bohemia fue desalojado por el ataque desde Munich.",
        "missing": "Unidades sin órdenes: Bohemia",
        "invite": "Enlace de invitación: ",
        "sea": "Mar Adriático",
        "lost": "perdió Viena",
        "fate": "E Bud-Gal: fracasa",
        "cut": "E Bud A E Vie: apoyo anulado",
        "key": "Leyenda",
        "retreat_hint": "Haz clic en una región resaltada para retirar la unidad allí, o:",
        "moves": " se mueve ",
        "language": "Idioma",
        "confirm": "Las unidades sin órdenes se mantendrán: Bohemia.",
        "seats": "1 jugador, 6 bots / 7",
    },
    "fr": {
        "short_password": "Un mot de passe a de 8 à 200 caractères.",
        "taken": "Le nom d'utilisateur babel est déjà pris.",
        "wrong_login": "Nom d'utilisateur ou mot de passe incorrect.",
        "game_of": "Partie de babel",
        "create": "Créer",
        "table": "3a: première option : la Russie seule",
        "grow": "Grow",
        "phase": "Printemps 1901",
        "retreat_phase": "Automne 1901, retraites",
        "dislodged": "L'armée de Bohême a été délogée par l'attaque venue de Munich.",
        "missing": "Unités sans ordre : Bohême",
        "invite": "Lien d'invitation : ",
        "sea": "mer Adriatique",
        "lost": "a perdu Vienne",
        "fate": "A Bud-Gal : échoue",
        "cut": "A Bud (S) A Vie : soutien coupé",
        "key": "Légende",
        "retreat_hint": "Cliquez sur une province en surbrillance pour y faire retraite, ou :",
        "moves": " se déplace ",
        "language": "Langue",
        "confirm": "Les unités sans ordre tiendront : Bohême.",
        "seats": "1 joueur, 6 bots / 7",
    },
    "pt": {
        "short_password": "A senha deve ter de 8 a 200 caracteres.",
        "taken": "O nome de usuário babel já está em uso.",
        "wrong_login": "Usuário ou senha incorretos.",
        "game_of": "Partida de babel",
        "create": "Criar",
        "table": "3a: primeira opção: a Rússia sozinha",
        "grow": "Grow",
        "phase": "Primavera de 1901",
        "retreat_phase": "Outono de 1901, retrocedimentos",
        "dislodged": "O exército da Boêmia foi deslocado pelo ataque vindo de Munique.",
        "missing": "Unidades sem ordens: Boêmia",
        "invite": "Link de convite: ",
        "sea": "Mar Adriático",
        "lost": "perdeu Viena",
        "fate": "E de Bud. para Gal.: falha",
        "cut": "E de Bud. apoia E de Vie.: apoio anulado",
        "key": "Legenda",
        "retreat_hint": "Clique em uma província destacada para a unidade retroceder para lá, ou:",
        "moves": " vai ",
        "language": "Idioma",
        "confirm": "As unidades sem ordens permanecerão onde estão: Boêmia.",
        "seats": "1 jogador, 6 bots / 7",
    },
}


# The page's words for a lost centre and a failed move (history.js's own functions).
SUMMARY = """async ([text, support]) => {
    const {S} = await import('/static/core.js');
    const {fateLine, summaryLines} = await import('/static/history.js');
    const p = S.game.my_powers[0];
    const record = {orders: {[p]: []}, position: {units: {}, centers: {[p]: ['VIE']}}, events: []};
    const lost = summaryLines(record, {units: {}, centers: {[p]: []}}, 'F1901M')[0][2];
    const fate = fateLine({order: 'A BUD - GAL', text, result: 'fails'})[1];
    const cut = fateLine({order: 'A BUD S A VIE', text: support, result: 'cut'})[1];
    return [lost, fate, cut];
}"""
# Two orders typed for one unit, and why the second is refused.
TWICE = {
    "es": ("E Boh R Sil\nE Boh D", 'una segunda orden para Bohemia (después de "E Boh R Sil")'),
    "fr": ("A Boh R Sil\nA Boh D", "un second ordre pour l'espace Bohême (après « A Boh R Sil »)"),
    "pt": (
        "E Boe. r Sil.\nE Boe. d",
        'uma segunda ordem para a Boêmia (depois de "E Boe. r Sil.")',
    ),
}
SUPPORT_TEXT = {"es": "E Bud A E Vie", "fr": "A Bud (S) A Vie", "pt": "E de Bud. apoia E de Vie."}
MOVE_TEXT = {"es": "E Bud-Gal", "fr": "A Bud-Gal", "pt": "E de Bud. para Gal."}


def test_the_page_speaks_spanish_french_and_portuguese(server: LiveServer, browser: Any) -> None:
    """A player of each language reads the server's refusals, the lobby, the game-creation
    form, a retreat, the press, the map's tooltips and the summary's words in it: no English
    words, no raw phase or province codes, French colons spaced."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.goto(server.url + "/")
    page.wait_for_selector("#auth-user")
    for lang, said in SAID.items():  # the server's refusals, by their codes
        page.select_option("#language", lang)
        page.fill("#auth-user", "babel")
        page.fill("#auth-pass", "short")
        page.click("#register")
        page.wait_for_function(f"{FLASH}.textContent === {said['short_password']!r}")
        assert page.get_attribute("#language", "aria-label") == said["language"]
    page.fill("#auth-pass", "lovelace1815")
    page.click("#register")  # (in Portuguese, the last language chosen)
    page.wait_for_selector("#create-game")
    page.click("#logout")
    page.wait_for_selector("#auth-user")
    for lang, said in SAID.items():
        page.select_option("#language", lang)
        page.fill("#auth-user", "babel")
        page.fill("#auth-pass", "lovelace1815")
        page.click("#register")
        page.wait_for_function(f"{FLASH}.textContent === {said['taken']!r}")
        page.fill("#auth-pass", "wrong password")
        page.click("#login")
        page.wait_for_function(f"{FLASH}.textContent === {said['wrong_login']!r}")
    page.fill("#auth-pass", "lovelace1815")
    page.click("#login")
    page.wait_for_selector("#create-game")
    for lang, said in SAID.items():  # the game-creation form
        in_language(page, lang, f"(document.getElementById('create-game') || {{}})"
                                f".textContent === {said['create']!r}")  # fmt: skip
        assert page.input_value("#new-name") == said["game_of"]
        assert said["grow"] in page.locator("#new-edition option").all_inner_texts()
        page.select_option("#new-edition", "1971")
        page.select_option("#new-players", "3")
        assert said["table"] in page.locator("#new-setup option").all_inner_texts()
    page.select_option("#new-edition", "classic")
    page.select_option("#new-players", "7")
    page.select_option("#new-deadlines", "none")
    page.click("#create-game")
    page.wait_for_selector("#compose")
    idle(page)
    game_id = int(page.evaluate("location.hash.split('/')[2]"))
    page.fill("#message-body", "Hola")
    page.click("#send-message")
    page.wait_for_selector("#messages li")
    for lang, said in SAID.items():  # the press: the phase by its name
        in_language(page, lang, f"(document.getElementById('phase') || {{}}).textContent === "
                                f"{said['phase']!r}")  # fmt: skip
        sent = page.inner_text("#messages li span.muted").strip()
        assert sent == f"· {said['phase']}", (lang, sent)
    page.once("dialog", lambda d: d.accept())  # (units without orders: they hold)
    page.click("#ready")  # a phase in the history: the bots are ready
    until_phase_changes(page, "S1901M")
    continue_to_now(page)
    power = page.get_attribute("#power", "data-power") or ""
    put_at_a_retreat(server, game_id, power)
    asked = declined(page)
    page.reload()
    page.wait_for_selector("#phase-brief")
    idle(page)
    for lang, said in SAID.items():  # a retreat, the map, the summary's words
        in_language(page, lang, f"(document.getElementById('phase') || {{}}).textContent === "
                                f"{said['retreat_phase']!r}")  # fmt: skip
        click_province(page, "BOH")  # the army's menu: how to retreat it
        page.wait_for_selector("#order-menu:not([hidden])")
        assert page.inner_text("#order-menu .menu-hint") == said["retreat_hint"], lang
        page.keyboard.press("Escape")
        brief = page.inner_text("#phase-brief")
        assert brief.startswith(said["dislodged"] + " "), (lang, brief)
        assert page.inner_text("#missing") == said["missing"], lang
        invite = page.evaluate("document.querySelector('.invite').firstChild.textContent")
        assert invite == said["invite"], (lang, invite)
        titles = page.evaluate("[document.querySelector('#map svg > title').textContent,"
                               " document.querySelector('#map svg [id=ADR] title')"
                               ".textContent]")  # fmt: skip
        name = SAID["pt"]["game_of"]  # (the game's name as the form gave it, in Portuguese)
        assert titles == [f"{name} — {said['retreat_phase']}", said["sea"]], titles
        picture = page.evaluate(  # the map as the server draws it, legend and all
            "async ([id, l]) => (await fetch(`/api/games/${id}/map.svg?language=${l}`)).text()",
            [game_id, lang],
        )
        assert f">{said['key']}</text>" in picture and ">Key</text>" not in picture, lang
        lost, fate, cut = page.evaluate(SUMMARY, [MOVE_TEXT[lang], SUPPORT_TEXT[lang]])
        assert (lost, fate, cut) == (said["lost"], said["fate"], said["cut"]), lang
        page.fill("#typed", TWICE[lang][0])  # two orders for the army: the second refused
        page.click("#submit-typed")
        page.wait_for_function(f"[...document.querySelectorAll('#my-orders li.refused .reason')]"
                               f".some((r) => r.textContent === {TWICE[lang][1]!r})")  # fmt: skip
        shot(page, f"26-refused-{lang}", full=False)
        page.fill("#typed", "")  # (lines left in the box, not given: Ready would ask of them)
        page.click("#ready")  # with the army not ordered: the page asks (and is told no)
        idle(page)
        assert said["confirm"][:-1] in asked[-1], (lang, asked)
    for lang, said in SAID.items():  # the results table: each order as a sentence
        in_language(page, lang, f"(document.getElementById('phase') || {{}}).textContent === "
                                f"{said['retreat_phase']!r}")  # fmt: skip
        page.click("#step-prev")
        page.wait_for_function("document.getElementById('step-label').dataset.phase === 'S1901M'")
        page.click("#results-view summary")
        orders = page.locator("#results tr td:nth-child(2)").all_inner_texts()
        assert len(orders) == 22 and all(o.endswith(".") for o in orders), (lang, orders)
        assert any(said["moves"] in o for o in orders), (lang, orders)
    page.click("#home")
    page.wait_for_selector("#my-games .game-item")
    item_of = f'#my-games .game-item[data-game="{game_id}"]'
    for lang, said in SAID.items():  # the lobby: the phase by its name, players counted
        in_language(page, lang, f"(document.querySelector('{item_of} .game-details') && "
                                f"document.querySelector('{item_of}').textContent.includes("
                                f"{said['retreat_phase']!r}))")  # fmt: skip
        item = page.inner_text(item_of)
        assert f"{said['retreat_phase']} · {said['seats']}" in item, (lang, item)
        assert "F1901R" not in item
    shot(page, "27-lobby-pt")
    page.set_viewport_size({"width": 390, "height": 844})  # a phone: French's longer words
    in_language(
        page,
        "fr",
        f"document.querySelector('{item_of}') && document.querySelector("
        f"'{item_of}').textContent.includes({SAID['fr']['retreat_phase']!r})",
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # ("Déconnexion")
    page.context.clear_cookies()  # the session gone (expired): an action says so
    page.click("#create-game")
    gone = "Vous n'êtes pas connecté (ou la session a expiré) : reconnectez-vous."
    page.wait_for_function(f"{FLASH}.textContent === {gone!r}")


def test_logging_in_on_another_browser_speaks_the_account_s_language(
    server: LiveServer, browser: Any
) -> None:
    """A player who chose Portuguese logs in on a phone that never chose a language: the
    page speaks Portuguese at once (it spoke English until the next reload, when the
    account's language was taken)."""
    first = browser.new_page(viewport={"width": 1400, "height": 1000})
    sign_up(first, server, "valquiria")
    in_language(first, "pt", "document.documentElement.lang === 'pt'")
    first.close()
    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = phone.new_page()
    page.goto(server.url + "/")
    page.fill("#auth-user", "valquiria")
    page.fill("#auth-pass", "lovelace1815")
    page.click("#login")
    page.wait_for_selector("#create-game")
    idle(page)
    assert page.evaluate("document.documentElement.lang") == "pt"
    assert page.inner_text("#create-game") == "Criar"
    assert page.locator("#language").input_value() == "pt"
    phone.close()


def test_a_first_visit_opens_in_the_browser_s_language(server: LiveServer, browser: Any) -> None:
    """A browser in French, Brazilian Portuguese or Spanish opens the page in its language
    (it opened in English, whatever the browser said, until its player found the language
    menu), one in a language the page has not in English; the account signed up keeps it.
    A language chosen in the menu, or the account's, still wins over the browser's."""
    for locale, lang, login in (("fr-FR", "fr", "Connexion"), ("pt-BR", "pt", "Entrar"),
                                ("es-AR", "es", "Entrar"), ("de-DE", "en", "Log in")):  # fmt: skip
        page = browser.new_page(locale=locale, viewport={"width": 1400, "height": 1000})
        page.goto(server.url + "/")
        page.wait_for_selector("#login")
        idle(page)
        said = (page.input_value("#language"), page.inner_text("#login"))
        assert said == (lang, login), locale
        assert page.evaluate("document.documentElement.lang") == lang
        if lang == "fr":
            sign_up(page, server, "aurelien")
            me = page.evaluate("async () => (await fetch('/api/me')).json()")
            assert me["language"] == "fr"
            assert page.inner_text("#create-game") == "Créer"
        page.close()
    page = browser.new_page(locale="fr-FR")
    page.goto(server.url + "/")
    page.wait_for_selector("#login")
    in_language(page, "es", "document.documentElement.lang === 'es'")
    page.reload()
    page.wait_for_selector("#login")
    idle(page)
    assert page.input_value("#language") == "es"  # the menu's choice, kept by this browser
