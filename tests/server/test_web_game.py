"""The game page (game.js) in a real browser: its clock, a game one may not see, a
conceded player, draw votes and the events said in each language, news heard by push (or
by polling where there is no event stream)."""

from __future__ import annotations

import itertools
import re
from typing import Any

from realpolitik.game.records import Event, EventKind
from tests.gamekit import at
from tests.server.browserkit import (
    EMPTY_CARDS,
    GAME,
    MY_POWERS,
    PHONE,
    back_to_the_lobby,
    continue_to_now,
    declined,
    guest_joins,
    host_a_table,
    idle,
    in_language,
    phase,
    register_and_create,
    rewrite_stored_game,
    same_page_elsewhere,
    shot,
    sign_up,
    sign_up_invited,
    store_ready_orders,
    unexpected,
    until_phase_changes,
    watched,
)
from tests.server.conftest import LiveServer


def test_the_deadline_is_told_as_time_left_not_as_a_time_of_day(
    server: LiveServer, browser: Any
) -> None:
    """The edition's clock on the game's head and in the lobby says the time left as such:
    "Deadline 19:57 (Thu 10:45 PM)" read as two times of day that disagree."""
    page, errors = watched(browser)
    sign_up(page, server, "hedwig")
    page.click("#create-game")  # the edition's clock (the form's default)
    page.wait_for_selector("#map svg")
    idle(page)
    clock = page.inner_text("#clock")
    assert re.fullmatch(r"Deadline in 3[45]:\d\d \(.+\) · press closes in 29:\d\d", clock), clock
    shot(page, "deadline-in-en", full=False)
    in_language(page, "pt", "document.documentElement.lang === 'pt'")
    clock = page.inner_text("#clock")
    assert re.fullmatch(
        r"O prazo termina em 3[45]:\d\d \(.+\) · as mensagens fecham em 29:\d\d", clock
    ), clock
    back_to_the_lobby(page)
    page.wait_for_selector("#my-games .game-details")
    details = page.inner_text("#my-games .game-details")
    assert re.search(r"O prazo termina em 3[45] min", details), details
    shot(page, "deadline-in-lobby-pt", full=False)
    assert not errors, errors


def test_a_game_one_may_not_see_says_so_and_is_not_polled(server: LiveServer, browser: Any) -> None:
    host = browser.new_page(viewport={"width": 1400, "height": 1000})
    sign_up(host, server, "uma")
    host.uncheck("#new-public")  # not listed: its address alone shows a stranger nothing
    host.click("#create-game")
    host.wait_for_selector("#map svg")
    address = host.url
    stranger = browser.new_context().new_page()
    sign_up(stranger, server, "vera")
    asked: list[str] = []
    stranger.on("request", lambda q: asked.append(q.url) if "/api/games/" in q.url else None)
    stranger.goto(address)
    stranger.wait_for_selector("#game-missing")
    assert "does not exist" in stranger.inner_text("#game-missing")
    assert stranger.locator("#game-head, #board, #orders-panel").count() == 0  # no empty cards
    shot(stranger, "8-game-missing")
    before = len(asked)
    stranger.wait_for_timeout(3000)  # longer than the fallback's polling interval
    assert len(asked) == before, asked[before:]  # it does not ask again and again
    stranger.click("#game-missing a")
    stranger.wait_for_selector("#create-game")


def test_a_conceded_player_sees_so_and_is_offered_only_what_the_server_allows(
    server: LiveServer, browser: Any
) -> None:
    """Conceding while the bots play on: the page says the power conceded, offers no
    Concede (the server refuses a second one), no draw vote, no orders and no compose box
    (the server refuses press from a conceded power), nor the invitation link to a game
    the creator no longer plays in; the messages stay readable."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if unexpected(m) else None)
    register_and_create(page, server, "ceda", players="7", bots="heuristic")
    page.wait_for_selector("#compose")
    assert page.locator("#invite-link").count() == 1  # the creator, playing: may invite
    page.fill("#message-body", "Hello all")
    page.click("#send-message")
    page.wait_for_selector("#messages li")
    shot(page, "22-before-concede")
    page.on("dialog", lambda d: d.accept())
    page.click("#concede")
    page.wait_for_selector("#conceded-note")
    idle(page)
    assert page.locator("#game-over").count() == 0  # the bots play on
    assert "conceded" in page.inner_text("#power")
    assert "You conceded" in page.inner_text("#conceded-note")
    assert page.locator("#concede, #vote-draw, #withdraw-draw, #ready, #bar-ready").count() == 0
    assert page.locator("#compose, #send-message").count() == 0
    assert page.locator("#invite-link, #copy-invite").count() == 0
    assert "no longer send" in page.inner_text("#press-conceded")
    assert "Hello all" in page.inner_text("#messages")  # still readable
    assert "conceded" in page.inner_text("#seats")
    assert page.evaluate(EMPTY_CARDS) == []
    shot(page, "22-after-concede")
    assert errors == [], errors


def test_the_table_is_told_who_conceded(server: LiveServer, browser: Any) -> None:
    """A friend concedes: the others' page says so in its head, once, to a player and an
    observer, after a reload too, in each language (it showed only as a word in the players'
    table and one draw vote fewer); to a player by name (it named the powers alone), to an
    observer as the game names its players to outsiders (here: not)."""
    import httpx

    page, errors = watched(browser)
    griselda = guest_joins(
        server, host_a_table(page, server, "cordelia", "Cordelia's table"), "griselda"
    )
    page.click("#start")
    page.wait_for_selector("#draw-votes")
    idle(page)
    assert page.locator("#table-news").count() == 0
    gid = int(page.evaluate("location.hash.split('/')[2]"))
    base = f"{server.url}/api/games/{gid}"
    theirs = httpx.get(base, headers=griselda).json()["my_powers"]
    for power in theirs:
        r = httpx.post(base + "/concede", json={"power": power}, headers=griselda)
        assert r.status_code == 200 and not r.json()["is_over"], r.text
    powers = ", ".join(p.capitalize() for p in theirs)
    said = f"griselda conceded (out of the game): {powers}"
    page.wait_for_function(  # heard by push
        "(s) => (document.getElementById('table-news') || {}).textContent === s", arg=said
    )
    shot(page, "concede-told-to-the-table")
    page.reload()
    page.wait_for_selector("#table-news")
    idle(page)
    assert page.locator("#table-news").count() == 1 and page.inner_text("#table-news") == said
    assert page.inner_text("#game-head").count("conceded") == 1  # said once
    phone = same_page_elsewhere(browser, page, PHONE, "#table-news")
    assert phone.inner_text("#table-news") == said
    shot(phone, "concede-told-to-the-table-phone", full=False)
    watcher = browser.new_page(**PHONE)  # an observer, on a phone
    sign_up(watcher, server, "euphrosyne")
    watcher.goto(page.url)
    watcher.wait_for_selector("#table-news")
    idle(watcher)
    assert watcher.inner_text("#table-news") == f"Conceded (out of the game): {powers}"
    shot(watcher, "concede-told-to-an-observer-phone", full=False)
    for lang, words in (("es", "griselda se rindió (fuera de la partida): "),
                        ("fr", "griselda a abandonné (hors de la partie) : "),
                        ("pt", "griselda desistiu (fora da partida): ")):  # fmt: skip
        in_language(page, lang, f"document.documentElement.lang.startsWith('{lang}')")
        assert page.inner_text("#table-news").startswith(words), page.inner_text("#table-news")
        shot(page, f"concede-told-to-the-table-{lang}", full=False)
    assert errors == [], errors


def test_the_table_is_told_who_left(server: LiveServer, browser: Any) -> None:
    """A friend leaves: the others' page says who (it named the powers alone) and whether
    their powers fell into civil disorder (a game without bots) or a bot plays them on; a
    seat taken again is no news, whether a bot played it or nobody."""
    import httpx

    def account(name: str) -> dict[str, str]:
        r = httpx.post(server.url + "/api/accounts", json={"username": name, "password": "x" * 8})
        assert r.status_code == 201, r.text
        return {"Authorization": f"Bearer {r.json()['token']}"}

    page, errors = watched(browser)
    sign_up(page, server, "henrietta")
    r = httpx.post(
        server.url + "/api/sessions", json={"username": "henrietta", "password": "lovelace1815"}
    )
    host = {"Authorization": f"Bearer {r.json()['token']}"}
    quillon, tobias = account("quillon"), account("tobias")
    told, bases = {}, {}
    for bots in (None, "random"):
        body = {
            "name": f"Henrietta's table ({bots or 'no bots'})",
            "players": 3,
            "bots": bots,
            "deadlines": "none",
        }
        game = httpx.post(server.url + "/api/games", json=body, headers=host).json()
        base = bases[bots] = f"{server.url}/api/games/{game['id']}"
        for guest in (quillon, tobias) if bots is None else (quillon,):
            assert httpx.post(base + "/join", json={}, headers=guest).status_code == 200
        if bots is not None:
            assert httpx.post(base + "/start", headers=host).status_code == 200
        left = httpx.get(base, headers=quillon).json()["my_powers"]
        assert httpx.post(base + "/leave", headers=quillon).status_code == 204
        page.goto(f"{server.url}/#/game/{game['id']}")
        page.wait_for_selector("#table-news")
        idle(page)
        names = ", ".join(p.capitalize() for p in left)
        told[bots] = (page.inner_text("#table-news"), names, left)
        shot(page, f"left-told-to-the-table-{bots or 'no-bots'}")
    said, names, _ = told[None]
    assert said == f"quillon left, civil disorder: {names}", said
    page.goto(f"{server.url}/#/game/{bases[None].rsplit('/', 1)[1]}")
    page.wait_for_selector("#table-news")
    idle(page)
    phone = browser.new_page(**PHONE)
    phone.context.add_cookies(page.context.cookies())
    for lang, words in (("es", "quillon se fue, desorden civil: "),
                        ("fr", "quillon a quitté la partie, désordre civil : "),
                        ("pt", "quillon saiu, desordem civil: ")):  # fmt: skip
        in_language(page, lang, f"document.documentElement.lang.startsWith('{lang}')")
        assert page.inner_text("#table-news").startswith(words), page.inner_text("#table-news")
    phone.goto(page.url)
    phone.wait_for_selector("#table-news")
    idle(phone)
    assert phone.inner_text("#table-news").startswith("quillon saiu, desordem civil: ")
    shot(phone, "left-told-to-the-table-no-bots-phone", full=False)
    # the seat left empty taken over: its powers are played by a person again, no news
    wendeline = account("wendeline")
    r = httpx.post(bases[None] + "/join", json={"power": told[None][2][0]}, headers=wendeline)
    assert r.status_code == 200, r.text
    phone.wait_for_function("!document.getElementById('table-news')")  # heard by push
    in_language(page, "en", "document.documentElement.lang.startsWith('en')")
    page.goto(f"{server.url}/#/game/{bases['random'].rsplit('/', 1)[1]}")
    page.wait_for_selector("#table-news")
    idle(page)
    said, names, left = told["random"]
    assert said == f"quillon left, a bot plays on: {names}", said
    # the bot's seat taken over: its powers are played by a person again, no news
    assert httpx.post(base + "/join", json={"power": left[0]}, headers=tobias).status_code == 200
    page.wait_for_function("!document.getElementById('table-news')")  # heard by push
    assert errors == [], errors


def test_draw_votes_and_translation(server: LiveServer, browser: Any) -> None:
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    register_and_create(page, server, "kate", players="7")
    assert "No draw votes" in page.inner_text("#draw-status")
    # Ready without orders: the units held, and that is no civil disorder (no deadline missed)
    page.on("dialog", lambda d: d.accept())
    page.click("#ready")
    until_phase_changes(page, "S1901M")
    page.wait_for_selector("#summary-list")
    told = page.inner_text("#summary-list")
    assert "no orders were given" in told and "civil disorder" not in told.lower(), told
    shot(page, "9-civil-disorder-told")
    continue_to_now(page)
    page.select_option("#language", "es")
    page.wait_for_function(
        "(document.getElementById('phase') || {textContent: ''}).textContent.includes('Otoño')"
    )
    idle(page)
    legend = page.inner_text("#map-legend")
    assert "Rusia" in legend and "Alemania" in legend and "Centros" in legend
    # the players' table: a row a power, its player (the column said "Jugadores", plural)
    heads = page.locator("#seats th").all_inner_texts()
    assert heads == ["Potencia", "Jugador", "Centros", "Listo"], heads
    assert "Tus órdenes" in page.inner_text("#orders-panel h2")
    shot(page, "9-spanish")
    said = """async ([events, italy]) => {
        const {powerName} = await import('/static/core.js');
        const {eventText} = await import('/static/history.js');
        // a new language reloads the game with its names: wait for them (5 s at most)
        for (let i = 0; i < 100 && powerName('ITALY') !== italy; i++) {
            await new Promise((r) => setTimeout(r, 50));
        }
        return events.map(eventText);
    }"""
    events = [e.to_json() for e in EVENTS] + ["an event saved as text"]
    for lang, lines in EVENTS_SAID.items():
        page.select_option("#language", lang)
        idle(page)
        got = page.evaluate(said, [events, ITALY[lang]])
        assert got == [*lines, "an event saved as text"], lang
        if lang in POWER_SAID:  # a power's name where its article would be wanted: none
            told = page.evaluate(
                """async (keys) => {
                const {t, powerName} = await import('/static/core.js');
                const italy = powerName('ITALY');
                return keys.map((k) => t(k, {power: italy, powers: italy, n: 1, of: 7}));
            }""",
                list(POWER_SAID[lang]),
            )
            assert told == list(POWER_SAID[lang].values()), lang


# Sentences of the page naming a power where French and Portuguese want its article ("par
# l'Italie", "pela Itália"): said as labels, the name after a colon.
POWER_SAID = {
    "fr": {
        "draw_voted_by": "Vote de nulle : Italie (1 sur 7)",
        "needs_accept": "acceptation requise : Italie",
        "sum_eliminated": "Éliminée : Italie",
        "you_conceded_some": "Abandon : Italie (n'agit plus).",
    },
    "pt": {
        "draw_voted_by": "Votos de empate: Itália (1 de 7)",
        "needs_accept": "aceitação necessária: Itália",
        "sum_eliminated": "Eliminada: Itália",
        "you_conceded_some": "Desistência: Itália (não joga mais).",
    },
}


ITALY = {"es": "Italia", "fr": "Italie", "pt": "Itália", "en": "Italy"}
# A phase's events, as the page says them in each language.
EVENTS = [
    Event(EventKind.CIVIL_DISORDER, ("FRANCE", "ITALY")),
    Event(EventKind.ALLIANCE_FORMED, ("ENGLAND", "FRANCE")),
    Event(EventKind.ALLIANCE_ENDED, ("ENGLAND", "FRANCE")),
    Event(EventKind.COIN_TOSS, ("ITALY",), "bob", 1915),
    Event(EventKind.GAME_OVER, reason="FRANCE: 18 supply centres (needed 18)"),
]
EVENTS_SAID = {
    "es": [
        "Desorden civil (sin órdenes): Francia, Italia",
        "Alianza formada: Inglaterra + Francia",
        "Alianza terminada: Inglaterra + Francia",
        "Sorteo: Italia pasa a bob desde 1915",
        "Partida terminada",
    ],
    "fr": [
        "Désordre civil (aucun ordre) : France, Italie",
        "Alliance formée : Angleterre + France",
        "Fin de l'alliance : Angleterre + France",
        "Tirage au sort (Italie) : à bob à partir de 1915",
        "Partie terminée",
    ],
    "pt": [
        "Desordem civil (sem ordens): França, Itália",
        "Aliança formada: Inglaterra + França",
        "Aliança terminada: Inglaterra + França",
        "Sorteio (Itália): para bob a partir de 1915",
        "Fim de jogo",
    ],
    "en": [
        "Civil disorder (no orders): France, Italy",
        "Alliance formed: England + France",
        "Alliance ended: England + France",
        "Coin toss: Italy goes to bob from 1915",
        "Game over",
    ],
}


def test_friends_draw_a_game_with_bots_in_its_empty_seats(server: LiveServer, browser: Any) -> None:
    """Two people at a table of three, a bot in the third seat: each is asked for a draw
    vote (not the bot, which never votes), a vote is withdrawn and given again, and when
    both have voted the game is drawn (it said '... (5 of 7)' for ever, the bot's powers asked)."""
    import httpx

    page, errors = watched(browser)
    drusilla = guest_joins(
        server, host_a_table(page, server, "ximena", "Ximena's table"), "drusilla"
    )
    page.click("#start")
    page.wait_for_selector("#draw-votes")  # (a table of three: several powers each)
    idle(page)
    gid = int(page.evaluate("location.hash.split('/')[2]"))
    mine = page.evaluate(MY_POWERS)

    def vote(power: str, on: bool) -> None:
        page.click(f'#draw-votes button.draw-vote[data-power="{power}"]')
        pressed = "true" if on else "false"
        page.wait_for_selector(f'#draw-votes [data-power="{power}"][aria-pressed="{pressed}"]')
        idle(page)

    for power in mine:
        vote(power, True)
    base = f"{server.url}/api/games/{gid}"
    theirs = httpx.get(base, headers=drusilla).json()["my_powers"]
    asked = len(mine) + len(theirs)  # not the bot's
    waiting = ", ".join(p.capitalize() for p in theirs)
    told = page.inner_text("#draw-status")
    assert told.endswith(f"({len(mine)} of {asked}) · still to vote: {waiting}"), told
    vote(mine[0], False)
    told = page.inner_text("#draw-status")
    assert f"({len(mine) - 1} of {asked}) · still to vote: " in told, told
    vote(mine[0], True)
    for power in theirs:
        r = httpx.post(base + "/draw", json={"power": power}, headers=drusilla)
        assert r.status_code == 200, r.text
    assert r.json()["is_over"], r.text
    page.wait_for_selector("#game-over")  # heard by push
    # a draw, said as one (it said "Winners: Austria, England, ...": seven winners)
    assert page.inner_text("#game-over").startswith("Game over · Draw: "), page.inner_text(
        "#game-over"
    )
    assert len(httpx.get(base).json()["draw"]["powers"]) == 7  # the bot's powers share it
    shot(page, "9-drawn-with-a-bot")
    assert errors == [], errors


GAME_FETCHES = r"/api/games/\d+\?"  # the game itself (not its legal orders, map or press)


def test_the_draw_votes_name_the_powers_still_to_vote(server: LiveServer, browser: Any) -> None:
    """Public draw votes say whose vote is missing ("Draw voted by France (1 of 2) · still to
    vote: Russia"): a friend saw "1 of 2" at a table of three people (the third had
    conceded) and could not tell that the vote waited for her alone."""
    import httpx

    page, errors = watched(browser)
    yvaine = guest_joins(server, host_a_table(page, server, "philippa", "A table"), "yvaine")
    page.click("#start")
    page.wait_for_selector("#draw-votes")
    idle(page)
    gid = int(page.evaluate("location.hash.split('/')[2]"))
    theirs = httpx.get(f"{server.url}/api/games/{gid}", headers=yvaine).json()["my_powers"]
    for power in page.evaluate(MY_POWERS):
        page.click(f'#draw-votes button.draw-vote[data-power="{power}"]')
        page.wait_for_selector(f'#draw-votes [data-power="{power}"][aria-pressed="true"]')
        idle(page)
    names = ", ".join(p.capitalize() for p in theirs)
    assert page.inner_text("#draw-status").endswith(f" · still to vote: {names}")
    in_language(page, "pt", "document.documentElement.lang === 'pt'")
    assert " · faltam votar: " in page.inner_text("#draw-status")
    shot(page, "draw-still-to-vote")
    assert not errors, errors


def test_the_page_learns_of_press_and_phases_by_push(server: LiveServer, browser: Any) -> None:
    import httpx

    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    ruth = guest_joins(server, host_a_table(page, server, "quinn", "Quinn's table"), "ruth")
    page.click("#start")
    page.wait_for_selector("#compose")
    idle(page)
    gid = int(page.evaluate("location.hash.split('/')[2]"))
    base = f"{server.url}/api/games/{gid}"
    page.wait_for_timeout(2000)  # the news of the start (bots ordering) heard
    idle(page)
    fetched: list[str] = []
    page.on("request", lambda q: fetched.append(q.url) if re.search(GAME_FETCHES, q.url) else None)
    press: list[str] = []
    page.on("request", lambda q: press.append(q.url) if "/messages?" in q.url else None)
    page.wait_for_timeout(4000)  # longer than the fallback's polling interval
    assert fetched == press == [], "the page listens to the event stream instead of polling"
    theirs = httpx.get(base, headers=ruth).json()["my_powers"]
    body = {"sender": theirs[0], "body": "Greetings from the east"}
    assert httpx.post(base + "/messages", json=body, headers=ruth).status_code == 201
    page.wait_for_function(
        "(document.getElementById('messages') || {}).innerText.includes('Greetings from the east')"
    )
    assert len(press) == 1 and fetched == [], (press, fetched)  # press news: the press only
    before = phase(page)
    mine = page.evaluate(MY_POWERS)
    for power in mine:  # ready by the API, not by the page's buttons: the page must hear it
        page.evaluate("""async ([id, power]) => fetch(`/api/games/${id}/ready`, {method: "POST",
            headers: {"Content-Type": "application/json", "X-Requested-With": "realpolitik"},
            body: JSON.stringify({power, ready: true})})""", [gid, power])  # fmt: skip
    for power in theirs:
        httpx.post(base + "/ready", json={"power": power, "ready": True}, headers=ruth)
    until_phase_changes(page, before)
    # where there is no EventSource, the page polls, and still hears the news
    old = browser.new_context(storage_state=page.context.storage_state()).new_page()
    old.add_init_script("delete window.EventSource")
    polled: list[str] = []
    old.on("request", lambda q: polled.append(q.url) if re.search(GAME_FETCHES, q.url) else None)
    old.goto(page.url)
    old.wait_for_selector("#compose")
    body = {"sender": theirs[0], "body": "Are you still there?"}
    assert httpx.post(base + "/messages", json=body, headers=ruth).status_code == 201
    old.wait_for_function(
        "(document.getElementById('messages') || {}).innerText.includes('still there')"
    )
    old.wait_for_timeout(3000)
    assert len(polled) >= 2, polled


def test_a_forming_game_shows_what_it_will_be(server: LiveServer, browser: Any) -> None:
    """A friend come by the invitation finds a forming game's edition, table, clock, press
    and bots on its page, in the page's language (the page said only "Waiting for
    players")."""
    for width, height, lang in ((1400, 1000, "en"), (390, 844, "fr")):
        page = browser.new_page(viewport={"width": width, "height": height})
        sign_up(page, server, f"tabitha-{lang}")
        made = page.evaluate(
            """async () => (await fetch('/api/games', {method: 'POST', headers: {
                'Content-Type': 'application/json', 'X-Requested-With': 'realpolitik'},
                body: JSON.stringify({name: 'Tea and treaties', edition: 'grow',
                  players: 5, deadlines: 'daily', press: 'public', bots: 'heuristic',
                  start: false})})).json()"""
        )
        if lang != "en":
            in_language(page, lang, f"document.documentElement.lang === '{lang}'")
        page.goto(f"{server.url}/#/game/{made['id']}")
        page.wait_for_selector("#game-settings")
        idle(page)
        said = page.inner_text("#game-settings").replace("\xa0", " ")  # (French: "1 jour")
        if lang == "en":
            assert said.splitlines() == [
                "Edition: grow",
                "Players: 5",
                "Table: Not on this board: Russia, Turkey.",  # grow's smaller map
                "Deadlines: first diplomacy 1 day, diplomacy 1 day, retreats 1 day, "
                "builds and removals 1 day",
                "Press: public messages only",
                "Bots for empty seats: heuristic",
                "Draw votes: shown to all",
            ], said
        else:
            assert "Échéances : première diplomatie 1 jour, diplomatie 1 jour" in said, said
            assert "Messages : messages publics seulement" in said, said
            assert "Table : Absentes de cette carte : Russie, Turquie." in said, said
        assert page.locator("#action-bar").is_hidden()  # nothing to order yet: no bar
        shot(page, f"6-forming-settings-{lang}")
        page.close()


def test_a_forming_game_says_which_table_it_is_where_there_are_several(
    server: LiveServer, browser: Any
) -> None:
    """La Conquista's three players have two tables (Italy played, or left out): the
    forming game says which one it is, with who plays what (it said only "Players: 3"). Its
    clock has no retreats and names its adjustments its reinforcements (it said "retreats
    1 day, builds and removals 1 day")."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    sign_up(page, server, "urraca")
    made = page.evaluate(
        """async () => (await fetch('/api/games', {method: 'POST', headers: {
            'Content-Type': 'application/json', 'X-Requested-With': 'realpolitik'},
            body: JSON.stringify({name: 'Three empires', edition: 'conquista', players: 3,
              setup: '3b', deadlines: 'daily', start: false})})).json()"""
    )
    page.goto(f"{server.url}/#/game/{made['id']}")
    page.wait_for_selector("#game-settings")
    idle(page)
    said = page.inner_text("#game-settings").splitlines()
    table = "Table: 3b: England + Germany; Turkey + France; Russia + Austria. Out of play"
    table += " (their units only hold): Italy."
    assert said[:3] == ["Edition: La Conquista", "Players: 3", table], said
    clock = "Deadlines: first diplomacy 1 day, diplomacy 1 day, reinforcements 1 day"
    assert said[3] == clock, said


def test_a_seat_left_empty_is_taken_over_from_the_game_s_page(
    server: LiveServer, browser: Any
) -> None:
    """A player leaves a started game without bots: the seat is empty (its powers in civil
    disorder) and anyone may take it over (the server's join), but the page offered no way
    to: no Join on the game's page, and the lobby lists only games forming."""
    import httpx

    def account(name: str) -> dict[str, str]:
        r = httpx.post(server.url + "/api/accounts", json={"username": name, "password": "x" * 8})
        assert r.status_code == 201, r.text
        return {"Authorization": f"Bearer {r.json()['token']}"}

    host, guest = account("zinovia"), account("vesna")
    body = {"name": "Zenobia's duel", "players": 2, "bots": None, "deadlines": "none"}
    game = httpx.post(server.url + "/api/games", json=body, headers=host).json()
    base = f"{server.url}/api/games/{game['id']}"
    assert httpx.post(base + "/join", json={}, headers=guest).status_code == 200  # full: started
    left = httpx.get(base, headers=guest).json()["my_powers"]
    assert httpx.post(base + "/leave", headers=guest).status_code == 204
    page, errors = watched(browser)
    sign_up(page, server, "wilma")
    page.goto(f"{server.url}/#/game/{game['id']}")
    page.wait_for_selector("#join")
    idle(page)
    shot(page, "10-an-empty-seat-to-take")
    page.click("#join")
    page.wait_for_selector("#power")
    idle(page)
    assert page.evaluate(MY_POWERS) == left
    assert page.locator("#join").count() == 0
    assert "wilma" in page.inner_text("#seats")
    assert errors == [], errors


def test_a_late_friend_takes_over_a_bot_by_the_invitation_link(
    server: LiveServer, browser: Any
) -> None:
    """Ottoline's unlisted table started with bots in the empty seats; Perpetua comes late
    by the invitation link: she is told to choose a bot's power (no seat is free), sees the
    game (its code kept for the reads: she is no member yet) at its players, and takes one
    over: its units and the bot's orders of this phase are hers, not ready."""
    import httpx

    def account(name: str) -> dict[str, str]:
        r = httpx.post(server.url + "/api/accounts", json={"username": name, "password": "x" * 8})
        assert r.status_code == 201, r.text
        return {"Authorization": f"Bearer {r.json()['token']}"}

    host = account("ottoline")
    body = {"name": "Ottoline's table", "players": 3, "bots": "random", "deadlines": "none",
            "public": False, "start": True}  # fmt: skip
    game = httpx.post(server.url + "/api/games", json=body, headers=host).json()
    bots = [s for s in game["seats"] if s["bot"]]
    page, errors = watched(browser)
    sign_up_invited(page, f"{server.url}/#/join/{game['invite_code']}", "perpetua")
    page.wait_for_selector("#seats .take-over")
    idle(page)
    told = page.inner_text("#flash")
    assert "choose a bot's power in the list of players" in told, told
    assert page.get_attribute("#flash", "class") == "info"
    assert page.locator("#take-over").inner_text() == "Take over a bot"
    buttons = page.locator("#seats .take-over")
    assert sorted(buttons.evaluate_all("els => els.map(e => e.dataset.power)")) == sorted(
        s["powers"][0] for s in bots
    )
    assert page.locator("#map svg").count() == 1  # the board, to choose by
    shot(page, "11-a-bot-s-seat-to-take-over")
    chosen = bots[0]["powers"]
    page.click(f'#seats .take-over[data-power="{chosen[0]}"]')
    page.wait_for_selector("#power")
    idle(page)
    assert page.evaluate(MY_POWERS) == chosen
    assert page.locator("#seats .take-over, #take-over").count() == 0
    assert "perpetua" in page.inner_text("#seats")
    assert "orders already given for this phase are shown, not ready" in page.inner_text("#flash")
    assert page.locator("#my-orders li.order").count() > 0  # the bot's, to keep or change
    ready = page.evaluate(GAME)["ready"]
    assert not any(ready[p] for p in chosen), ready
    shot(page, "12-a-bot-s-seat-taken-over")
    refused = [e for e in errors if "409" in e]  # the invitation's join: no free seat
    assert len(refused) == 1 and errors == refused, errors
    page.close()


def test_news_flashed_stays_the_time_to_read_it(server: LiveServer, browser: Any) -> None:
    """A long piece of news flashed (a bot's seat taken over: what to do next, 140
    characters) stays long enough to be read: it went after 2.5 s, as "Saved" does; a short
    one still goes then."""
    page = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    sign_up(page, server, "hermelinde")
    told = page.evaluate("""async () => {
        const {flash, t} = await import('/static/core.js');
        const text = t('took_over', {powers: 'Austria'});
        flash(text);
        return text;
    }""")
    assert len(told) > 100, told
    page.wait_for_timeout(4500)
    assert page.is_visible("#flash") and page.inner_text("#flash") == told
    page.wait_for_selector("#flash", state="hidden", timeout=10_000)
    page.evaluate("async () => (await import('/static/core.js')).flash('Saved')")
    assert page.is_visible("#flash")
    page.wait_for_selector("#flash", state="hidden", timeout=4_000)


# Each visible form control and button with no name a screen reader can say (its label,
# aria-label, title or own text; a placeholder is not one: it goes once something is typed).
UNNAMED = """() => [
  ...document.querySelectorAll('input:not([type=hidden]), select, textarea, button')]
  .filter((e) => e.offsetParent !== null)
  .filter((e) => !(e.getAttribute('aria-label') || (e.labels && e.labels.length) || e.title
                   || (e.tagName === 'BUTTON' && e.textContent.trim())))
  .map((e) => e.id || e.outerHTML.slice(0, 80))"""


def test_every_control_has_a_name_a_screen_reader_says(server: LiveServer, browser: Any) -> None:
    """The start page, the lobby and the game page of a player of several powers, on a
    desktop and a phone: every field and button is named (the typed orders' box had only
    its placeholder, and a player of several powers had several such boxes, unnamed)."""
    page, errors = watched(browser)
    page.goto(server.url + "/")
    page.wait_for_selector("#language")
    assert page.evaluate(UNNAMED) == []
    register_and_create(page, server, "adalheid", players="3")
    assert len(page.evaluate(MY_POWERS)) > 1
    phone = same_page_elsewhere(browser, page, PHONE, "#map svg")
    for seen in (page, phone):
        assert seen.evaluate(UNNAMED) == []
        boxes = seen.locator("textarea.typed-box")
        names = [boxes.nth(k).get_attribute("aria-label") for k in range(boxes.count())]
        assert len(set(names)) == len(names) > 1, names  # each power's own
    back_to_the_lobby(page)
    assert page.evaluate(UNNAMED) == []
    assert errors == []


def test_a_game_forming_tells_each_what_it_waits_for(server: LiveServer, browser: Any) -> None:
    """A game forming tells its creator to share the link or start it with bots, and a
    friend who joined that its creator starts it (or the last seat taken): the friend was
    told to share the invitation link and start with bots, with neither a link nor Start
    to be found on the page."""
    host = browser.new_page(viewport={"width": 1400, "height": 1000})
    link = host_a_table(host, server, "sigrunn", "Sigrunn's table")
    guest = browser.new_context().new_page()
    sign_up_invited(guest, link, "torhild")
    idle(guest)
    assert guest.locator("#start, #invite-link").count() == 0
    assert guest.inner_text("#forming") == (
        "Waiting for players: 1 seat free. The game's creator starts it, a bot taking the"
        " empty seat, or it starts when the last seat is taken."
    )
    host.reload()
    host.wait_for_selector("#forming")
    idle(host)
    assert host.inner_text("#forming") == (
        "Waiting for players: 1 seat free. Share the invitation link, or start with bots."
    )
    assert host.locator("#start").count() == 1 and host.locator("#invite-link").count() == 1


def test_conceding_asks_first_which_powers_go_for_good(server: LiveServer, browser: Any) -> None:
    """Concede asks, before it is done, which powers it gives up and that they cannot be
    taken back (all of a player's powers go at once): it asked "Concede the game?", which
    a friend could take for the draw or for giving up the turn. Declined, nothing is done."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    register_and_create(page, server, "ulfhilda", players="2")
    names = [p.title() for p in page.evaluate(MY_POWERS)]
    asked = declined(page, once=True)
    page.click("#concede")
    page.wait_for_function("true")
    idle(page)
    assert asked == [
        f"Concede {', '.join(names)} for good? You cannot take them back: the game goes on"
        " without you (their units hold). You may still watch and read the messages."
    ], asked
    assert page.locator("#conceded-note").count() == 0 and page.locator("#concede").count() == 1


SEVENTEEN = {  # a power's units on 17 centres, its fleet in Norway a move from an 18th
    "units": [
        "A PAR",
        "A MAR",
        "F BRE",
        "A SPA",
        "F POR",
        "A BEL",
        "A HOL",
        "F LON",
        "A LVP",
        "F EDI",
        "F NWY",
        "A MUN",
        "A KIE",
        "A BER",
        "F DEN",
        "F TUN",
        "F NAP",
    ],
    "centers": [
        "PAR",
        "MAR",
        "BRE",
        "SPA",
        "POR",
        "BEL",
        "HOL",
        "LON",
        "LVP",
        "EDI",
        "NWY",
        "MUN",
        "KIE",
        "BER",
        "DEN",
        "TUN",
        "NAP",
    ],
}


def test_a_victory_names_its_one_winner_in_the_singular(server: LiveServer, browser: Any) -> None:
    """A power's 18th centre ends the game: its header says "Winner: France" ("Ganador" in
    Spanish), the lobby too; it said "Winners: France", one winner in the plural."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    register_and_create(page, server, "victorine", players="7")
    gid = int(page.evaluate("location.hash.split('/')[2]"))
    power = page.get_attribute("#power", "data-power") or ""
    other = "RUSSIA" if power != "RUSSIA" else "TURKEY"
    position = {
        "units": {power: SEVENTEEN["units"], other: ["A MOS"]},
        "centers": {power: SEVENTEEN["centers"], other: ["MOS"]},
    }
    rewrite_stored_game(server, gid, lambda game: at(game, "F1905M", position))
    store_ready_orders(server, gid, "F1905M", {other: []})
    page.reload()
    page.wait_for_selector("#typed")
    idle(page)
    page.on("dialog", lambda d: d.accept())
    page.fill("#typed", "F NWY - SWE")
    page.click("#submit-typed")
    page.wait_for_function("document.querySelectorAll('#my-orders li.order.ok').length === 1")
    page.click("#ready")
    page.wait_for_selector("#game-over", timeout=30_000)
    idle(page)
    name = power.title()
    assert page.inner_text("#game-over") == f"Game over · Winner: {name}"
    in_language(page, "es", "document.documentElement.lang === 'es'")
    page.wait_for_function("document.getElementById('game-over').innerText.includes('Ganador')")
    back_to_the_lobby(page)
    assert "Ganador: " in page.inner_text("#my-games"), page.inner_text("#my-games")


# The page's headings in their order, as a screen reader lists them (those said only to it
# too): each its level and text.
OUTLINE = """() => [...document.querySelectorAll('h1, h2, h3, h4, h5, h6')]
    .filter(e => !e.closest('[hidden]') && e.getClientRects().length)
    .map(e => [Number(e.tagName[1]), e.textContent.trim()])"""


def well_outlined(page: Any, where: str) -> None:
    """The page's headings begin with its one h1 and go down one level at a time."""
    outline = page.evaluate(OUTLINE)
    levels = [level for level, _ in outline]
    assert levels and levels[0] == 1 and levels.count(1) == 1, (where, outline)
    assert all(b <= a + 1 for a, b in itertools.pairwise(levels)), (where, outline)


def test_the_lobby_and_a_game_have_one_h1_and_no_level_skipped(
    server: LiveServer, browser: Any
) -> None:
    """A screen reader's list of headings begins with the page's h1 and steps down a level
    at a time: the lobby had no h1 (its cards' h2 first), a game's page none either (the
    game's name an h2, its cards' titles h3: "Your orders", "Messages", "Players")."""
    page, errors = watched(browser)
    sign_up(page, server, "headley")
    well_outlined(page, "lobby")
    page.fill("#new-name", "Outlined")
    page.select_option("#new-deadlines", "none")
    page.click("#create-game")
    page.wait_for_selector("#map svg")
    idle(page)
    well_outlined(page, "game")
    assert page.evaluate(OUTLINE)[0] == [1, "Outlined"]  # the game's name
    page.locator("#unit-list button.unit").first.click()  # its legal orders, titled
    page.wait_for_selector("#legal .legal-option")
    well_outlined(page, "legal orders")
    assert not errors, errors
