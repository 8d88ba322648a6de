"""The lobby (lobby.js) in a real browser: the new-game form (its default name, a table
chosen, choices whole), an invitation, my games (orders due, unread messages, state) heard
while the lobby stays open and redrawn only where they changed, a lobby fetched late."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from tests.server.browserkit import (
    EMPTY_CARDS,
    GAME,
    HIDE_TAB,
    SHOW_TAB,
    back_to_the_lobby,
    guest_joins,
    host_a_table,
    idle,
    in_language,
    register_and_create,
    shot,
    sign_up,
    sign_up_invited,
    slow_network,
    start_elsewhere,
    stored_game,
    title,
    until_title,
    watched,
)
from tests.server.conftest import LiveServer

GAME_OF = {  # the default name of a new game, for a name after a vowel, an h, a consonant
    "en": ("anafrd's game", "hugo's game", "bruno's game"),
    "es": ("Partida de anafrd", "Partida de hugo", "Partida de bruno"),
    "fr": ("Partie d'anafrd", "Partie d'hugo", "Partie de bruno"),
    "pt": ("Partida de anafrd", "Partida de hugo", "Partida de bruno"),
}


def test_a_new_game_s_default_name_reads_right_in_every_language(
    server: LiveServer, browser: Any
) -> None:
    """French elides "de" before a vowel or an h ("Partie d'anafrd"), not before a
    consonant; the other languages keep theirs."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    for i, user in enumerate(("anafrd", "hugo", "bruno")):
        if i:
            page.click("#logout")
            page.wait_for_selector("#auth-user")
        sign_up(page, server, user)
        for lang, names in GAME_OF.items():
            in_language(page, lang, f"document.documentElement.lang === {lang!r}")
            said = f"(document.getElementById('new-name') || {{}}).value === {names[i]!r}"
            try:  # (the lobby is shown again in the new language after its lists come)
                page.wait_for_function(said, timeout=10_000)
            except Exception:
                pytest.fail(f"{lang}: {page.input_value('#new-name')!r}, not {names[i]!r}")
            shot(page, f"game-of-{lang}-{user}")
        page.select_option("#language", "en")


# Each choice of the new-game form that is narrower than its longest option (the width it
# takes when left to size itself), and the page's width if wider than the window.
CUT_CHOICES = """() => {
  const cut = [];
  for (const sel of document.querySelectorAll('.form select')) {
    if (sel.closest('[hidden]')) continue;
    const free = sel.cloneNode(true);
    free.style.cssText = 'width: auto; min-width: 0; max-width: none; position: absolute;';
    document.body.append(free);
    const wants = free.getBoundingClientRect().width;
    free.remove();
    const has = sel.getBoundingClientRect().width;
    if (has + 0.5 < wants) cut.push(`${sel.id}: ${Math.round(has)} < ${Math.round(wants)}`);
  }
  const page = document.documentElement.scrollWidth;
  if (page > window.innerWidth) cut.push(`page ${page} > ${window.innerWidth}`);
  return cut;
}"""


@pytest.mark.parametrize("width", [1400, 390])
def test_the_new_game_form_s_choices_show_their_whole_text(
    server: LiveServer, browser: Any, width: int
) -> None:
    """No choice of the form cuts its text ("todos (privados y públic"), on a desktop or a
    390 px phone, in any of the four languages, and the page stays within the window."""
    page = browser.new_page(viewport={"width": width, "height": 900})
    sign_up(page, server, f"choosy{width}")
    for lang in ("en", "es", "fr", "pt"):
        in_language(page, lang, f"document.documentElement.lang === {lang!r}")
        page.wait_for_function(
            f"document.querySelector('#new-press option').textContent !== "
            f"{'full (private and public)' if lang != 'en' else ''!r}"
        )
        cut = page.evaluate(CUT_CHOICES)
        shot(page, f"form-{lang}-{width}", full=False)
        assert not cut, (lang, width, cut)


def test_a_table_is_chosen_where_the_edition_has_several(server: LiveServer, browser: Any) -> None:
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    sign_up(page, server, "abel")
    assert page.locator("#new-setup").is_hidden()  # classic, 7 players: one table
    page.select_option("#new-edition", "1971")
    assert "1971 rulebook" in page.inner_text("#edition-about")  # each edition explained
    page.select_option("#new-players", "3")
    assert page.locator("#new-setup").is_visible()
    tables = page.locator("#new-setup option").evaluate_all("els => els.map(e => e.value)")
    assert tables == ["3a", "3b"], tables
    page.select_option("#new-setup", "3b")
    about = page.inner_text("#edition-about")  # the table chosen says who plays what
    pairs = "England + Germany + Austria; Russia + Italy; France + Turkey"
    assert about.endswith(f"Table 3b: {pairs}."), about
    shot(page, "5-table-chosen")
    page.click("#create-game")  # the edition's clock: a countdown and the local time
    page.wait_for_selector("#seats")
    idle(page)
    clock = page.inner_text("#clock")
    assert re.fullmatch(r"Deadline in 3[45]:\d\d \(.+\) · press closes in 29:\d\d", clock), clock
    seated = page.locator("#seats tr td:first-child").all_inner_texts()
    assert "Italy, Russia" in seated or "Russia, Italy" in seated, seated  # 3b's pairs
    page.goto(server.url + "/#")
    page.wait_for_selector("#create-game")
    page.select_option("#new-edition", "1971")
    page.select_option("#new-players", "4")
    assert page.locator("#new-setup").is_hidden()  # one table of four: still who plays what
    about = page.inner_text("#edition-about")
    assert about.endswith(
        "Table 4: England; Austria + France; Germany + Turkey; Italy + Russia."
    ), about
    page.select_option("#new-edition", "classic")
    page.select_option("#new-players", "5")
    about = page.inner_text("#edition-about")
    assert about.endswith("Out of play (their units only hold): Italy, Germany."), about
    assert "Table" not in about  # one power each: no pairs to tell
    page.select_option("#new-edition", "conquista")
    page.select_option("#new-players", "3")
    choices = page.locator("#new-setup option").all_inner_texts()
    assert choices == ["3: with Italy", "3b: Italy left out, as with six players"], choices
    # Grow builds on home centres, as classic ("em cada centro de abastecimento de seu país
    # de origem"): the page said "builds in any owned centre"
    page.select_option("#new-edition", "grow")
    about = page.inner_text("#edition-about")
    assert "home centres" in about and "any owned" not in about, about
    page.select_option("#new-players", "5")  # a smaller map: the powers left off it named
    about = page.inner_text("#edition-about")
    assert about.endswith("Not on this board: Russia, Turkey."), about


def test_a_table_without_diplomacy_is_created_without_press(
    server: LiveServer, browser: Any
) -> None:
    """La Conquista's two players play "sin Diplomacia y de pura Guerra": the form sets its
    press to none and does not let it be changed, and the game is created (the form sent
    "full", and the server refused it in English: "press must be none, not 'full'")."""
    page, errors = watched(browser)
    sign_up(page, server, "bruna")
    page.select_option("#new-edition", "conquista")
    page.select_option("#new-players", "2")
    assert page.locator("#new-press").input_value() == "none"
    assert page.locator("#new-press").is_disabled()
    page.select_option("#new-deadlines", "none")
    page.click("#create-game")
    page.wait_for_selector("#map svg")
    idle(page)
    assert page.evaluate(GAME)["settings"]["press"] == "none"
    page.goto(server.url + "/#")
    page.wait_for_selector("#create-game")
    page.select_option("#new-edition", "conquista")
    page.select_option("#new-players", "3")  # a table with diplomacy: press to choose again
    assert page.locator("#new-press").is_enabled()
    assert not errors, errors


def test_an_invitation_lands_in_the_game(server: LiveServer, browser: Any) -> None:
    host = browser.new_page(viewport={"width": 1400, "height": 1000})
    link = host_a_table(host, server, "ida", "Three friends")
    idle(host)
    assert host.evaluate(EMPTY_CARDS) == []  # a forming game: no card with nothing in it
    assert host.locator("#copy-invite").is_visible()
    guest = browser.new_page(viewport={"width": 1400, "height": 1000})
    guest.goto(link)
    guest.wait_for_selector("#invited")
    assert "Three friends" in guest.inner_text("#invited")
    shot(guest, "8-invited")
    guest.fill("#auth-user", "joan")
    guest.fill("#auth-pass", "lovelace1815")
    guest.click("#register")
    guest.wait_for_function("location.hash.startsWith('#/game/')")
    guest.wait_for_selector("#seats")
    assert "joan" in guest.inner_text("#seats")
    assert guest.locator("#flash.error:not([hidden])").count() == 0
    guest.goto(link)  # the link again, already seated: back in the game, not the lobby
    guest.wait_for_function("location.hash.startsWith('#/game/')")
    guest.wait_for_selector("#seats")
    assert guest.locator("#flash:not([hidden])").count() == 0  # in silence


def test_an_invitation_to_a_full_table_says_so(server: LiveServer, browser: Any) -> None:
    """The link of a table whose seats are all taken (by friends, or by the bot that took
    my seat when I left): the page says there is no seat left, and shows the game to watch
    (it showed the game in silence, as if I had joined)."""
    host = browser.new_page(viewport={"width": 1400, "height": 1000})
    link = host_a_table(host, server, "inesita", "Full table")
    guest_joins(server, link, "jules")
    guest_joins(server, link, "karim")  # the third seat: the game starts
    late = browser.new_context().new_page()
    sign_up_invited(late, link, "lucie")
    idle(late)
    assert "lucie" not in late.inner_text("#seats")
    assert late.locator("#flash.error").is_visible()
    assert late.inner_text("#flash") == "This game has no free seat."
    shot(late, "8-invited-full")


def test_a_join_from_a_lobby_shown_before_i_joined_says_i_have_a_seat(
    server: LiveServer, browser: Any
) -> None:
    """A lobby shown before I joined from another tab still offers the game: its join is
    refused, in the page's language (the server's refusal had no code: it said it in
    English), and the lobby is fetched again (it stayed as it was, stale)."""
    host = browser.new_page(viewport={"width": 1400, "height": 1000})
    host_a_table(host, server, "sabinella", "Sabinella's table")
    gid = int(host.evaluate("location.hash.split('/')[2]"))
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    sign_up(page, server, "wilhelmina")
    in_language(page, "es", "document.documentElement.lang === 'es'")
    item = f'#open-games .game-item[data-game="{gid}"]'
    page.wait_for_selector(item)
    joined = page.evaluate(  # another tab
        """async (gid) => (await fetch(`/api/games/${gid}/join`, {method: 'POST', headers: {
            'Content-Type': 'application/json', 'X-Requested-With': 'realpolitik'},
            body: '{}'})).status""",
        gid,
    )
    assert joined == 200, joined
    page.click(f"{item} button")
    page.wait_for_selector("#flash.error:not([hidden])")
    assert page.inner_text("#flash") == "Ya tienes un asiento en esta partida."
    # and the lobby is fetched again: the game among mine, no longer offered to join (it
    # stayed offered, its Join refused again and again, until the next look a minute later)
    page.wait_for_selector(f'#my-games .game-item[data-game="{gid}"]', timeout=5_000)
    assert not page.locator(item).count()
    assert page.inner_text("#flash") == "Ya tienes un asiento en esta partida."
    shot(page, "11-already-seated", full=False)


def test_lobby_shows_orders_due_and_unread_messages(server: LiveServer, browser: Any) -> None:
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    register_and_create(page, server, "mary", players="2")  # two powers or more each
    assert page.locator("#orders-panel .power-orders").count() >= 2
    page.goto(server.url + "/#")
    page.wait_for_selector("#my-games .game-item .game-details")
    item = page.inner_text("#my-games .game-item")
    assert "orders due" in item and "Leave" in item, item
    shot(page, "11-lobby")


def test_the_lobby_counts_a_deadline_s_minutes_begun(server: LiveServer, browser: Any) -> None:
    """A deadline less than a minute away is "1 min" in the lobby (it said "0 min", as if
    it had passed); an hour and a half away, "1 h 30 min"."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    sign_up(page, server, "vigdis")
    page.click("#create-game")  # the edition's clock
    page.wait_for_selector("#seats")
    game_id = int(page.evaluate("location.hash.split('/')[2]"))
    for seconds, said in ((5400 - 20, "1 h 30 min"), (40, "1 min")):
        db = stored_game(server)
        try:
            db.execute(
                "UPDATE games SET deadline_at = ?, version = version + 1 WHERE id = ?",
                (time.time() + seconds, game_id),
            )
            db.commit()
        finally:
            db.close()
        page.goto(server.url + "/#")
        page.reload()  # (the lobby shown afresh)
        page.wait_for_selector("#my-games .game-item .game-details")
        item = page.inner_text("#my-games .game-item .game-details")
        assert f"Deadline in {said}" in item, item


def test_the_lobby_names_a_game_s_state_only_when_it_is_not_under_way(
    server: LiveServer, browser: Any
) -> None:
    """A game under way reads "Spring 1901 Movement · 1 person, …" (it read "active Spring
    1901 Movement", a lower-case word the phase already says); one forming or finished
    says so ("forming · …")."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    sign_up(page, server, "ottilie")
    for name, start in (("Ottilie's table", True), ("Ottilie's next table", False)):
        made = page.evaluate(
            """async ([name, start]) => (await fetch('/api/games', {method: 'POST', headers: {
                'Content-Type': 'application/json', 'X-Requested-With': 'realpolitik'},
                body: JSON.stringify({name, bots: 'random', start})})).status""",
            [name, start],
        )
        assert made == 201, made
    page.reload()
    page.wait_for_function("document.querySelectorAll('#my-games .game-item').length === 2")
    lines = {
        page.inner_text(f"#my-games .game-item:nth-child({k}) .game-name"): page.inner_text(
            f"#my-games .game-item:nth-child({k}) .muted"
        )
        for k in (1, 2)
    }
    assert lines["Ottilie's table"].startswith("Spring 1901 Movement · "), lines
    assert lines["Ottilie's next table"].startswith("forming · "), lines
    assert "· ·" not in lines["Ottilie's next table"], lines  # no phase yet: no empty part
    in_language(page, "es", "document.documentElement.lang === 'es'")
    page.wait_for_function("document.getElementById('my-games').innerText.includes('formándose')")
    said = page.inner_text("#my-games")
    assert "formándose · " in said and "en curso" not in said, said
    assert "· ·" not in said, said
    assert "1 jugador, 0 bots / 7" in said, said  # Spanish: zero takes the plural
    in_language(page, "fr", "document.documentElement.lang === 'fr'")
    page.wait_for_function("document.getElementById('my-games').innerText.includes('formation')")
    said = page.inner_text("#my-games")
    assert "1 joueur, 0 bot / 7" in said, said  # French: zero takes the singular


def test_a_finished_game_says_how_it_ended_in_the_lobby(server: LiveServer, browser: Any) -> None:
    """A game over reads "finished · Spring 1901 Movement · Draw: Austria, England, ..." in
    my games: it read "finished" alone, and a player back in the lobby (one who had
    conceded too) could not tell a draw from a win without opening the game."""
    page, errors = watched(browser)
    register_and_create(page, server, "xanthe")
    gid = int(page.evaluate("location.hash.split('/')[2]"))
    power = page.get_attribute("#power", "data-power") or ""
    voted = page.evaluate(
        """async ([id, power]) => (await fetch(`/api/games/${id}/draw`, {method: 'POST',
            headers: {'Content-Type': 'application/json', 'X-Requested-With': 'realpolitik'},
            body: JSON.stringify({power, agree: true})})).status""",
        [gid, power],
    )
    assert voted == 200, voted
    back_to_the_lobby(page)
    line = page.inner_text("#my-games .game-item .muted")
    assert line.startswith("finished · Spring 1901 Movement · "), line
    assert "Draw: Austria, England, France, Germany, Italy, Russia, Turkey" in line, line
    shot(page, "lobby-finished-draw")
    in_language(page, "es", "document.documentElement.lang === 'es'")
    page.wait_for_function("document.getElementById('my-games').innerText.includes('Tablas')")
    said = page.inner_text("#my-games")
    assert "Tablas: Austria, Inglaterra, Francia, Alemania, Italia, Rusia, Turquía" in said, said
    assert not errors, errors


def test_a_lobby_fetched_late_does_not_replace_the_game_opened_meanwhile(
    server: LiveServer, browser: Any
) -> None:
    """On a slow network: the language switched in the lobby (which is fetched again in it),
    then a game opened before the lobby came: the game stays on the page (the lobby came
    late and was drawn over it), and the page is idle only once it is drawn."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    register_and_create(page, server, "leopoldine", players="7")
    game = page.evaluate("location.hash")
    page.click("#home")
    page.wait_for_selector("#watch-card")
    idle(page)
    slow_network(page, 400)
    with page.expect_request(lambda r: "/api/games?language=es" in r.url):
        page.select_option("#language", "es")
    page.evaluate("(hash) => { location.hash = hash; }", game)
    page.wait_for_selector("#map svg")
    idle(page)
    page.wait_for_timeout(1_000)  # (the lobby's answers came long before)
    assert page.locator("#map svg").count() == 1 and not page.locator("#watch-card").count()
    assert page.evaluate("document.documentElement.lang") == "es"


def test_the_lobby_hears_of_my_games_while_it_stays_open(server: LiveServer, browser: Any) -> None:
    """A lobby left open learns of my games (a game started, orders due, in its title too)
    and of games opened to join, when the tab is looked at again (and every minute); the
    new game being written in its form stays as it is."""
    import httpx

    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    link = host_a_table(page, server, "lola", "Lobby table")
    gid = int(page.evaluate("location.hash.split('/')[2]"))
    back_to_the_lobby(page)
    assert "orders due" not in page.inner_text("#my-games") and title(page) == "realpolitik"
    page.fill("#new-name", "A draft of mine")
    lars = guest_joins(server, link, "lars")
    start_elsewhere(page, gid)
    made = httpx.post(
        server.url + "/api/games", json={"name": "Lars's open table", "players": 3}, headers=lars
    )
    assert made.status_code == 201, made.text
    assert "Lars's open table" not in page.inner_text("#open-games")  # nothing heard yet
    page.evaluate(HIDE_TAB)
    page.evaluate(SHOW_TAB)  # looked at again
    until_title(page, "● 1 game awaiting orders — realpolitik")
    page.wait_for_function(
        "document.querySelector('#my-games').innerText.includes('orders due')", timeout=10_000
    )
    assert "Lars's open table" in page.inner_text("#open-games")
    assert page.input_value("#new-name") == "A draft of mine"
    page.click(f'#my-games .game-item[data-game="{gid}"] button')  # the lines still work
    page.wait_for_selector("#compose")


def test_a_look_of_the_lobby_redraws_only_what_changed(server: LiveServer, browser: Any) -> None:
    """The lobby's look at my games (every minute, and when the tab is looked at again)
    finding nothing new leaves the lists as they are: the same nodes, the focus where it
    was (a click made in that instant lands on its button). What changed is shown, and
    only that: the other lines keep their nodes."""
    import httpx

    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    link = host_a_table(page, server, "calla", "Calm table")
    gid = int(page.evaluate("location.hash.split('/')[2]"))
    back_to_the_lobby(page)
    button = f'#my-games .game-item[data-game="{gid}"] button'
    page.evaluate(
        """(button) => {
        document.querySelector(button).mark = "mine";
        document.querySelector('#open-games').mark = "open";
    }""",
        button,
    )
    page.focus(button)

    def look() -> None:
        with page.expect_response(lambda r: "/api/games?language=" in r.url):
            page.evaluate(HIDE_TAB)
            page.evaluate(SHOW_TAB)
        idle(page)

    marks = """(button) => [document.querySelector(button).mark,
        document.querySelector('#open-games').mark, document.activeElement.mark]"""
    look()  # nothing new
    assert page.evaluate(marks, button) == ["mine", "open", "mine"]
    cyril = guest_joins(server, link, "cyril")  # a second person at my table: its line says so
    made = httpx.post(
        server.url + "/api/games", json={"name": "Cyril's open table", "players": 3}, headers=cyril
    )
    assert made.status_code == 201, made.text
    look()
    line = page.inner_text(f'#my-games .game-item[data-game="{gid}"]')
    assert "2 players" in line, line
    assert "Cyril's open table" in page.inner_text("#open-games")
    # the line's button and the focus on it stay (only its words changed); the open games
    # are a new list
    assert page.evaluate(marks, button) == ["mine", None, "mine"]
    page.keyboard.press("Enter")  # the focused button still opens its game
    page.wait_for_selector("#compose, #start")
    assert page.evaluate("location.hash") == f"#/game/{gid}"


def test_a_final_year_is_offered_for_1971_and_grow_and_listed_with_the_settings(
    server: LiveServer, browser: Any
) -> None:
    """A shortened game (1971 and grow: the players agree a last year, and at its end the
    power with most units wins): the form offers the year for those editions only (classic
    has no such rule), a year out of range is refused in the page's words, and the game's
    settings list it, as does the head of the game once started."""
    page, errors = watched(browser)
    sign_up(page, server, "severin")
    assert page.locator("#new-last-year").is_hidden()  # classic: no shortened game
    page.select_option("#new-edition", "grow")
    field = page.locator("#new-last-year")
    assert field.is_visible() and field.get_attribute("placeholder") == "none: play to victory"
    assert (field.get_attribute("min"), field.get_attribute("max")) == ("1901", "2001")
    field.fill("1900")
    page.select_option("#new-deadlines", "none")
    page.uncheck("#new-start")
    page.click("#create-game")
    page.wait_for_selector("#flash.error:not([hidden])")
    assert page.inner_text("#flash") == "The final year must be from 1901 to 2001."
    page.select_option("#new-edition", "conquista")
    assert field.is_hidden() and field.input_value() == ""
    page.select_option("#new-edition", "1971")
    page.select_option("#new-players", "2")  # its two players start in 1914
    assert field.get_attribute("min") == "1914"
    page.select_option("#new-players", "7")
    field.fill("1903")
    shot(page, "lobby-final-year")
    page.click("#create-game")
    page.wait_for_selector("#game-settings")
    idle(page)
    assert page.locator("#flash").is_hidden()  # the refusal went with the form
    assert page.evaluate(GAME)["settings"]["last_year"] == 1903
    said = page.inner_text("#settings-last-year")
    assert said == "Final year: end of 1903: most units win", said
    shot(page, "forming-final-year")
    page.set_viewport_size({"width": 390, "height": 844})
    shot(page, "forming-final-year-phone")
    page.click("#start")
    page.wait_for_selector("#map svg")
    idle(page)
    assert page.inner_text("#last-year") == "Final year: 1903"
    shot(page, "game-final-year-phone", full=False)
    assert not errors, errors


def test_deadlines_one_length_a_phase_or_each_part_its_own(
    server: LiveServer, browser: Any
) -> None:
    """The form offers lengths for every phase (two days) and each part its own time in
    hours (shown only when chosen, and not for a sandbox); a length out of range is refused
    in the page's language before anything is sent (it had only the edition's clock, one
    day or none)."""
    page, errors = watched(browser)
    sign_up(page, server, "dagny")
    assert page.locator("#new-deadlines-custom").is_hidden()
    page.select_option("#new-deadlines", "two_days")
    page.click("#create-game")
    page.wait_for_selector("#map svg")
    idle(page)
    days = 2 * 86400
    assert page.evaluate(GAME)["settings"]["deadlines"] == {
        "diplomacy": days, "orders": 0, "retreats": days, "adjustments": days,
        "first_diplomacy": days,
    }  # fmt: skip
    back_to_the_lobby(page)
    in_language(page, "es", "document.getElementById('create-game').textContent === 'Crear'")
    page.select_option("#new-deadlines", "custom")
    assert page.locator("#new-deadlines-custom").is_visible()
    labels = page.locator("#new-deadlines-custom label").all_inner_texts()
    assert [label.strip() for label in labels] == [
        "Diplomacia (horas)", "Escritura de órdenes (horas)", "Retiradas (horas)",
        "Construcciones y disoluciones (horas)",
    ], labels  # fmt: skip
    page.select_option("#new-edition", "conquista")  # no retreats; reinforcements
    labels = page.locator("#new-deadlines-custom label:visible").all_inner_texts()
    assert [label.strip() for label in labels] == [
        "Diplomacia (horas)", "Escritura de órdenes (horas)", "Refuerzos (horas)",
    ], labels  # fmt: skip
    page.select_option("#new-edition", "classic")
    assert page.locator("#new-deadlines-custom label:visible").count() == 4
    shot(page, "lobby-deadlines-custom")
    page.fill("#new-deadline-retreats", "400")
    page.click("#create-game")
    page.wait_for_selector("#flash.error:not([hidden])")
    said = page.inner_text("#flash")
    assert said == "Un plazo va de 0 (sin plazo) a 336 horas (14 días).", said
    assert page.evaluate("document.activeElement.id") == "new-deadline-retreats"
    assert page.locator("#create-game").count() == 1  # still the lobby: nothing sent
    page.fill("#new-deadline-diplomacy", "36")
    page.fill("#new-deadline-orders", "0.5")
    page.fill("#new-deadline-retreats", "12")
    page.fill("#new-deadline-adjustments", "")
    page.click("#create-game")
    page.wait_for_selector("#map svg")
    idle(page)
    assert page.evaluate(GAME)["settings"]["deadlines"] == {
        "diplomacy": 36 * 3600, "orders": 1800, "retreats": 12 * 3600, "adjustments": 0,
        "first_diplomacy": 36 * 3600,
    }  # fmt: skip
    back_to_the_lobby(page)
    page.select_option("#new-deadlines", "custom")
    page.check("#new-sandbox")
    assert page.locator("#new-deadlines-custom").is_hidden()
    page.uncheck("#new-sandbox")
    assert page.locator("#new-deadlines-custom").is_visible()
    assert not errors, errors


def test_a_bot_s_seat_is_taken_over_from_the_lobby_on_a_phone(
    server: LiveServer, browser: Any
) -> None:
    """Quirina's listed game started with bots in the empty seats: the lobby lists it with
    the games to watch, with a button to take over a bot (in the page's language), which
    opens the game at its players; a double tap on a bot's seat takes it once."""
    import httpx

    r = httpx.post(server.url + "/api/accounts", json={"username": "quirina", "password": "x" * 8})
    host = {"Authorization": f"Bearer {r.json()['token']}"}
    body = {"name": "Quirina's bots", "players": 3, "bots": "random", "deadlines": "none",
            "start": True}  # fmt: skip
    game = httpx.post(server.url + "/api/games", json=body, headers=host).json()
    page = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    joins: list[str] = []

    def asked(request: Any) -> None:
        if request.url.endswith("/join"):
            joins.append(request.post_data or "")

    page.on("request", asked)
    sign_up(page, server, "rosaura")
    in_language(page, "fr", "document.documentElement.lang === 'fr'")
    item = page.locator(f'#watch-games .game-item[data-game="{game["id"]}"]')
    button = item.locator("button.take-over")
    assert button.inner_text() == "Remplacer un bot"
    shot(page, "phone-lobby-a-bot-to-take-over")
    button.click()
    page.wait_for_selector("#seats .take-over")
    idle(page)
    seats = page.locator("#seats-panel").bounding_box()
    assert seats is not None and 0 <= seats["y"] < 844  # opened at the players
    take = page.locator("#seats .take-over").first
    assert take.inner_text() == "Remplacer"
    assert "à la place du bot" in str(take.get_attribute("title"))
    shot(page, "phone-a-bot-s-seat-to-take-over", full=False)
    chosen = str(take.get_attribute("data-power"))
    take.dblclick()
    page.wait_for_selector("#power")
    idle(page)
    assert joins == [f'{{"power":"{chosen}"}}'], joins  # one request for two taps
    assert chosen in page.evaluate(GAME)["my_powers"]
    assert page.locator("#flash.error:not([hidden])").count() == 0
    assert "Vous jouez" in page.inner_text("#flash")
    shot(page, "phone-a-bot-s-seat-taken-over", full=False)
    lobby = httpx.get(server.url + "/api/games", headers=host).json()
    seats_now = next(g for g in lobby["mine"] if g["id"] == game["id"])["seats"]
    assert sum(1 for s in seats_now if s["player"] == "rosaura") == 1
    assert errors == [], errors
    page.close()


ABOVE = "".join(chr(c) for c in range(0x0300, 0x0315))  # marks drawn above a letter
BELOW = "".join(chr(c) for c in range(0x0316, 0x0334))  # and below it
ZALGO = "Z" + ABOVE + BELOW + "al" + "g" + BELOW + ABOVE[:12] + "o"  # (100 characters)
ACCENTED = "Ca\u0301diz, Sa\u0303o Joa\u0303o, Tiếng Việt, Ǻland, Ñandú"  # marks of a name


def test_a_name_of_piled_up_marks_stays_on_its_own_line_in_the_lobby(
    server: LiveServer, browser: Any
) -> None:
    """A game's name of piled-up combining marks (zalgo) is drawn within its line of the
    lobby: it drew marks far above and below, over the neighbouring games' lines; a name of
    ordinary accents (one or two marks on a letter, combined or precomposed) is drawn
    whole, on the desktop and on a phone."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    sign_up(page, server, "zygmunta")
    for name in ("A game above", ZALGO, ACCENTED, "A game below"):
        created = page.evaluate(
            """async (name) => (await fetch('/api/games', {method: 'POST', headers: {
                'Content-Type': 'application/json', 'X-Requested-With': 'realpolitik'},
                body: JSON.stringify({name, deadlines: 'none'})})).status""",
            name,
        )
        assert created == 201, created
    # the ink outside a name's own line, with the name drawn and with it hidden: the same
    # when nothing of it reaches over the others' lines
    outside = """async ([name, hide]) => {
        const span = [...document.querySelectorAll('#my-games .game-name')]
            .find((s) => s.textContent === name);
        span.style.visibility = hide ? 'hidden' : '';
        return span.closest('li').getBoundingClientRect().toJSON();
    }"""
    for viewport in ({"width": 1400, "height": 1000}, {"width": 390, "height": 844}):
        page.set_viewport_size(viewport)
        page.goto(server.url + "/#")
        page.wait_for_selector("#my-games .game-item")
        idle(page)
        for name in (ZALGO, ACCENTED):
            row = page.evaluate(outside, [name, False])
            width = viewport["width"]
            above = {"x": 0, "y": max(0, row["y"] - 120), "width": width,
                     "height": row["y"] - max(0, row["y"] - 120)}  # fmt: skip
            below = {"x": 0, "y": row["bottom"], "width": width, "height": 120}
            shown = [page.screenshot(clip=c) for c in (above, below)]
            page.evaluate(outside, [name, True])
            hidden = [page.screenshot(clip=c) for c in (above, below)]
            page.evaluate(outside, [name, False])
            contained = shown == hidden
            assert contained, f"{name!r} drawn over its neighbours at {viewport}"
        shot(page, f"lobby-marks-{viewport['width']}", full=False)
    # the accents drawn whole: the name's line as tall as a plain name's, nothing cut
    cut = page.evaluate(
        """(name) => {
        const span = [...document.querySelectorAll('#my-games .game-name')]
            .find((s) => s.textContent === name);
        const range = document.createRange();
        range.selectNodeContents(span);
        const ink = range.getBoundingClientRect(), box = span.getBoundingClientRect();
        return [ink.top < box.top - 0.5, ink.bottom > box.bottom + 0.5];
    }""",
        ACCENTED,
    )
    assert cut == [False, False], cut


def test_leaving_a_game_still_forming_says_what_becomes_of_it(
    server: LiveServer, browser: Any
) -> None:
    """Leave, in the lobby, asks what is true of the game: its creator's, with a friend
    seated, goes to that friend, who starts it; alone, it is deleted; a seat of a game
    not started is freed. It said "A bot or civil disorder takes your place" of them
    all, true only of a game under way."""
    host = browser.new_page(viewport={"width": 1400, "height": 1000})
    link = host_a_table(host, server, "rosamunde", "Rosamunde's table")
    gid = int(host.evaluate("location.hash.split('/')[2]"))
    guest = browser.new_context().new_page()
    sign_up_invited(guest, link, "marcellina")
    lone = host.evaluate(  # a second game of the host's, nobody else in it
        """async () => (await (await fetch('/api/games', {method: 'POST', headers: {
            'Content-Type': 'application/json', 'X-Requested-With': 'realpolitik'},
            body: JSON.stringify({name: 'Nobody else', deadlines: 'none'})})).json()).id"""
    )
    asked: list[str] = []

    def answer(dialog: Any) -> None:
        asked.append(dialog.message)
        dialog.dismiss()

    for page in (host, guest):
        back_to_the_lobby(page)
        page.on("dialog", answer)
    host.click(f'#my-games .game-item[data-game="{gid}"] button.leave')
    host.click(f'#my-games .game-item[data-game="{lone}"] button.leave')
    guest.click(f'#my-games .game-item[data-game="{gid}"] button.leave')
    assert asked == [
        "Leave this game? marcellina takes it over: they start it and hold its invitation link.",
        "Leave this game? Nobody else has joined it: it is deleted.",
        "Leave this game? Your seat is free again for someone else to take.",
    ], asked


def _drawn_outside(page: Any, selector: str) -> bool:
    """Whether the element ``selector`` draws anything above or below its own box: the
    page there is not the same with the element hidden."""
    toggle = """([selector, hide]) => {
        const e = document.querySelector(selector);
        e.style.visibility = hide ? 'hidden' : '';
        return e.getBoundingClientRect().toJSON();
    }"""
    box = page.evaluate(toggle, [selector, False])
    width = page.viewport_size["width"]
    top = max(0, box["y"] - 120)
    clips = [{"x": 0, "y": top, "width": width, "height": box["y"] - top},
             {"x": 0, "y": box["bottom"], "width": width, "height": 120}]  # fmt: skip
    shown = [page.screenshot(clip=c) for c in clips]
    page.evaluate(toggle, [selector, True])
    hidden = [page.screenshot(clip=c) for c in clips]
    page.evaluate(toggle, [selector, False])
    return shown != hidden


def test_a_name_of_piled_up_marks_stays_in_its_place_in_the_game_and_the_invitation(
    server: LiveServer, browser: Any
) -> None:
    """The same name (zalgo) in the game's header and in its invitation is drawn within its
    own line: it drew over the site's name above, the invitation link below (on the game's
    page), and the sentences round it (on the invitation), on the desktop and a phone."""
    for width, user in ((1400, "zdenka"), (390, "zdzislawa")):
        page = browser.new_page(viewport={"width": width, "height": 900})
        link = host_a_table(page, server, user, ZALGO)
        idle(page)
        assert not _drawn_outside(page, "#game-head h1"), f"the header at {width} px"
        guest = browser.new_page(viewport={"width": width, "height": 900})
        guest.goto(link)
        guest.wait_for_selector("#invited")
        assert not _drawn_outside(guest, "#invited .game-name"), f"the invitation at {width} px"
        shot(guest, f"invited-marks-{width}", full=False)
