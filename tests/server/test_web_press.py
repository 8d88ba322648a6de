"""Press (press.js) in a real browser: threads with unread counts, only the powers someone
plays offered, the press closed (by its clock, to a watcher, in a finished game, in
retreats and adjustments, saying why)."""

from __future__ import annotations

import re
import time
from typing import Any

from tests.server.browserkit import (
    EMPTY_CARDS,
    GAME,
    MY_POWERS,
    host_a_table,
    idle,
    in_language,
    legal,
    open_at,
    put_at_a_retreat,
    put_at_the_builds,
    register_and_create,
    shot,
    sign_up,
    sign_up_invited,
    stored_game,
)
from tests.server.conftest import LiveServer


def test_press_closed_a_watcher_and_a_finished_game(server: LiveServer, browser: Any) -> None:
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    register_and_create(page, server, "yuri", players="2")
    game_id = int(page.evaluate("location.hash.split('/')[2]"))
    powers = page.locator("#seats tr td:first-child").all_inner_texts()
    assert powers == sorted(powers), powers  # the players in the order of their powers
    page.wait_for_selector("#compose")
    db = stored_game(server)
    try:
        db.execute(
            "UPDATE games SET press_until = ?, version = version + 1 WHERE id = ?",
            (time.time() + 8, game_id),
        )
        db.commit()
    finally:
        db.close()
    page.reload()
    page.wait_for_selector("#compose")
    assert "press closes" in page.inner_text("#clock")
    # the press closes while the page is open (no reload, nothing pushed): the compose box
    # goes, said before writing, not after sending
    page.wait_for_selector("#press-closed", timeout=20_000)
    assert page.locator("#compose").count() == 0 and "press closed" in page.inner_text("#clock")
    shot(page, "17-press-closed")
    watcher = browser.new_context().new_page()
    sign_up(watcher, server, "zack")
    watcher.goto(page.url)
    watcher.wait_for_selector("#map svg")
    idle(watcher)
    assert "watching" in watcher.inner_text("#orders-panel")
    assert "No messages yet" in watcher.inner_text("#messages-panel")
    assert watcher.evaluate(EMPTY_CARDS) == [] and watcher.locator("#compose").count() == 0
    shot(watcher, "17-watcher")
    page.on("dialog", lambda d: d.accept())
    page.click("#concede")  # all my powers: the other player's are left, and win
    page.wait_for_selector("#game-over")
    idle(page)
    assert page.evaluate(EMPTY_CARDS) == [] and page.locator("#compose").count() == 0
    assert page.locator("#concede, #ready").count() == 0
    shot(page, "17-finished")


def test_press_threads_with_unread_counts(server: LiveServer, browser: Any) -> None:
    host = browser.new_page(viewport={"width": 1400, "height": 1000})
    link = host_a_table(host, server, "nora", "Nora's table")
    guest = browser.new_page(viewport={"width": 1400, "height": 1000})
    sign_up_invited(guest, link, "olga")
    host.click("#start")
    host.wait_for_selector("#compose")
    idle(host)
    boxes = host.locator("#compose .recipients label").all_text_contents()
    seats = host.evaluate(GAME)["seats"]
    bots = {p.title() for seat in seats if seat["bot"] for p in seat["powers"]}
    marked = {b.removesuffix(" (bot)") for b in boxes if b.endswith(" (bot)")}
    assert bots and marked == bots, (boxes, bots)  # the third seat's powers: they never answer
    mine = {p.title() for p in host.evaluate(MY_POWERS)}
    assert not mine & {b.removesuffix(" (bot)") for b in boxes}, boxes  # not to oneself
    guest.wait_for_selector("#compose")
    olga = guest.evaluate(MY_POWERS)
    host.click("#compose .new-thread summary")
    host.check(f'#compose input.recipient[value="{olga[0]}"]')
    host.fill("#message-body", "An alliance against the rest?")
    host.click("#send-message")
    host.wait_for_selector(f'#threads button.thread.on[data-thread="{olga[0]}"]')
    # the compose box writes on in that thread, and says so as soon as that thread shows
    # (it said "To: everyone" with the recipient still ticked: the Send button kept the
    # focus, and the box was kept; on a slow network, until the message had come back)
    assert host.inner_text("#compose > div.muted") == f"To: {olga[0].title()}"
    idle(host)
    assert "An alliance" in host.inner_text("#messages")
    assert host.locator("#compose input.recipient:checked").count() == 0
    guest.wait_for_selector("#threads .badge")  # heard on the game page, in a thread not open
    guest.goto(guest.url.split("#")[0] + "#")  # the lobby still counts it unread
    guest.wait_for_selector("#my-games .unread")
    assert "1 unread" in guest.inner_text("#my-games .game-item")
    guest.click("#my-games .game-item button")
    guest.wait_for_selector("#threads .badge")
    sender = host.evaluate("(document.querySelector('#power .on') || "
                           "document.querySelector('#power')).dataset.power")  # fmt: skip
    thread = guest.locator("#threads button.thread", has=guest.locator(".badge"))
    assert thread.get_attribute("data-thread") == sender
    thread.click()
    assert "An alliance" in guest.inner_text("#messages")
    assert guest.locator("#threads .badge").count() == 0
    shot(guest, "12-press-threads")


def test_press_and_alliances_offer_only_the_powers_someone_plays(
    server: LiveServer, browser: Any
) -> None:
    """At five, Germany and Italy are out: their units hold, nobody reads what is written to
    them, they never support nor ally. Neither the compose box nor La Conquista's accepted
    supports and alliances offer them (they were offered as if someone played them)."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    for edition in ("classic", "conquista"):
        if edition == "classic":
            register_and_create(page, server, "xenia", players="5")
        else:
            page.goto(server.url + "/#")
            page.wait_for_selector("#create-game")
            page.select_option("#new-edition", edition)
            page.select_option("#new-players", "5")
            page.select_option("#new-deadlines", "none")
            page.click("#create-game")
            page.wait_for_selector(".conquista")
            idle(page)
        game = page.evaluate(GAME)
        played = {p for seat in game["seats"] for p in seat["powers"]}
        out = set(game["powers"]) - played
        assert len(out) == 2, (edition, out)
        mine = set(game["my_powers"])
        page.wait_for_selector("#compose")
        offered = set(page.locator("#compose input.recipient").evaluate_all(
            "els => els.map(e => e.value)"))  # fmt: skip
        assert offered == played - mine, (edition, offered)
        if edition == "conquista":
            allies = set(page.locator(".conquista input.ally").evaluate_all(
                "els => els.map(e => e.value)"))  # fmt: skip
            assert allies == played - mine, allies
            units = page.locator(".conquista input.accept").evaluate_all(
                "els => els.map(e => e.value)"
            )
            theirs = {u for p in out for u in game["position"]["units"].get(p, [])}
            assert units and not theirs & set(units), units


PRESS_CLOSED = {  # why the press is closed in a retreat and in an adjustment phase
    "en": ("during the retreats", "during the builds and removals"),
    "es": ("durante las retiradas", "durante las construcciones y disoluciones"),
    "fr": ("pendant les retraites", "pendant les constructions et les retraits"),
    "pt": ("durante os retrocedimentos", "durante as construções e remoções"),
}


def test_the_press_closed_says_why_in_retreats_and_adjustments(
    server: LiveServer, browser: Any
) -> None:
    """In a retreat and in an adjustment phase the closed press says so, in each language
    (it said "orders are being written", which is the movement's reason)."""
    for k, (user, put) in enumerate((("odalys", put_at_a_retreat), ("oswin", put_at_the_builds))):
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        open_at(page, server, user, put)
        for lang, said in PRESS_CLOSED.items():
            in_language(page, lang, f"document.documentElement.lang === {lang!r}")
            text = page.inner_text("#press-closed")
            assert said[k] in text, (user, lang, text)
            assert not re.search(r"written|escrib|écri|escrit", text), (user, lang, text)
        shot(page, f"press-closed-{user}", full=False)
        page.close()


def test_the_compose_box_says_to_whom_the_ticked_powers_are(
    server: LiveServer, browser: Any
) -> None:
    """Powers ticked for a new conversation: "To:" names them (it still said "To: everyone"
    while the message would go to the ticked power alone), and everyone again once none is."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    register_and_create(page, server, "quentin", players="7")
    page.wait_for_selector("#compose")
    assert page.inner_text("#compose-to") == "To: everyone"
    page.click("#compose details summary")
    first, second = page.locator("#compose input.recipient").all()[:2]
    names = [
        str(b.evaluate("i => i.parentNode.textContent")).split(" (")[0] for b in (first, second)
    ]
    first.check()
    assert page.inner_text("#compose-to") == f"To: {names[0]}"
    second.check()
    assert page.inner_text("#compose-to") == f"To: {', '.join(sorted(names))}"
    shot(page, "17-compose-to")
    first.uncheck()
    second.uncheck()
    assert page.inner_text("#compose-to") == "To: everyone"


def test_a_message_of_the_phase_just_played_is_dated_in_words(
    server: LiveServer, browser: Any
) -> None:
    """The press closed by its clock, then the phase played while the page stays open: the
    press opening again in the next phase drew the messages before the history had the
    phase just played, and they were dated "S1901M" until the page was opened again."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    register_and_create(page, server, "rosamund", players="7", deadlines="rulebook")
    game_id = int(page.evaluate("location.hash.split('/')[2]"))
    page.fill("#message-body", "Hello, Europe")
    page.click("#send-message")
    page.wait_for_selector("#messages li")
    db = stored_game(server)
    try:
        db.execute(
            "UPDATE games SET press_until = ?, version = version + 1 WHERE id = ?",
            (time.time() - 1, game_id),
        )
        db.commit()
    finally:
        db.close()
    page.reload()
    page.wait_for_selector("#press-closed")
    idle(page)
    page.on("dialog", lambda d: d.accept())  # (units without orders: they hold)
    page.click("#ready")
    page.wait_for_function("document.getElementById('phase').dataset.phase === 'F1901M'")
    page.wait_for_selector("#compose")
    idle(page)
    dated = page.inner_text('#messages li [data-phase="S1901M"]')
    assert dated == " · Spring 1901 Movement", dated


def test_a_message_in_a_right_to_left_script_reads_right_to_left(
    server: LiveServer, browser: Any
) -> None:
    """Each message takes its direction from its own first letters (Hebrew or Arabic read
    right to left), and a right-to-left override written into one message stays inside it:
    the next message and the sender's name read as written."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    register_and_create(page, server, "tamar", players="7")
    for body in ("שלום לכולם", "\u202eevil", "Hello, Europe"):
        page.fill("#message-body", body)
        page.click("#send-message")
        page.wait_for_function(
            "b => [...document.querySelectorAll('#messages li div')]"
            ".some(d => d.textContent === b)",
            arg=body,
        )
    directions = page.evaluate(
        "[...document.querySelectorAll('#messages li div')]"
        ".map(d => [d.textContent, getComputedStyle(d).direction])"
    )
    assert directions == [
        ["שלום לכולם", "rtl"],
        ["\u202eevil", "ltr"],
        ["Hello, Europe", "ltr"],
    ], directions
    names = page.evaluate(
        "[...document.querySelectorAll('#messages li b')].map(b => getComputedStyle(b).direction)"
    )
    assert set(names) == {"ltr"}, names
    shot(page, "press-right-to-left")


def test_a_message_not_sent_yet_outlives_news(server: LiveServer, browser: Any) -> None:
    """A message written and not sent yet, and the power ticked to receive it, stay in the
    compose box when another player's message comes in while the focus is elsewhere (a
    click on the map, on the page): the box was drawn again empty, what was written lost.
    Once sent, the box is empty again."""
    host = browser.new_page(viewport={"width": 1400, "height": 1000})
    link = host_a_table(host, server, "sunniva", "Sunniva's table")
    guest = browser.new_page(viewport={"width": 1400, "height": 1000})
    sign_up_invited(guest, link, "torgunn")
    host.click("#start")
    host.wait_for_selector("#compose")
    idle(host)
    guest.wait_for_selector("#compose")
    idle(guest)
    to = guest.evaluate(MY_POWERS)[0]
    host.click("#compose .new-thread summary")
    host.check(f'#compose input.recipient[value="{to}"]')
    host.fill("#message-body", "Between us: Belgium is yours")
    host.click("#messages-panel h2")  # the focus leaves the box
    guest.fill("#message-body", "Hello, everyone")
    guest.click("#send-message")
    host.wait_for_function("document.getElementById('messages').innerText.includes('Hello')")
    idle(host)
    assert host.input_value("#message-body") == "Between us: Belgium is yours"
    assert host.locator("#compose input.recipient:checked").evaluate_all(
        "els => els.map(e => e.value)") == [to]  # fmt: skip
    assert host.inner_text("#compose-to") == f"To: {to.title()}"
    host.click("#send-message")
    host.wait_for_selector(f'#threads button.thread.on[data-thread="{to}"]')
    idle(host)
    assert "Belgium is yours" in host.inner_text("#messages")
    assert host.input_value("#message-body") == ""
    assert host.locator("#compose input.recipient:checked").count() == 0


def test_what_is_typed_and_not_given_or_sent_outlives_a_reload(
    server: LiveServer, browser: Any
) -> None:
    """Orders typed and not given yet, and a message written and not sent, with the power
    ticked to receive it, are in their boxes again after the page is reloaded (a thumb's
    pull-to-refresh on a phone, a reload to see whether the others are ready): they were
    kept in the page only, and lost. Once given and sent, a reload shows the boxes empty."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    register_and_create(page, server, "wilfreda", players="7")
    page.wait_for_selector("#compose")
    unit = page.locator("#unit-list button.unit").first.get_attribute("data-key")
    hold = next(o["order"] for o in legal(page)[str(unit)] if o["kind"] == "hold")
    page.fill("#typed", hold)
    page.click("#compose .new-thread summary")
    to = page.locator("#compose input.recipient").first.get_attribute("value")
    page.check(f'#compose input.recipient[value="{to}"]')
    page.fill("#message-body", "Between us: the Channel stays empty")
    page.reload()
    page.wait_for_selector("#compose")
    idle(page)
    assert page.input_value("#typed") == hold
    assert page.input_value("#message-body") == "Between us: the Channel stays empty"
    assert page.locator("#compose input.recipient:checked").evaluate_all(
        "els => els.map(e => e.value)") == [to]  # fmt: skip
    page.click("#submit-typed")
    page.wait_for_function("document.querySelectorAll('#my-orders li.order.ok').length === 1")
    page.click("#send-message")
    page.wait_for_selector(f'#threads button.thread.on[data-thread="{to}"]')
    idle(page)
    page.reload()
    page.wait_for_selector("#compose")
    idle(page)
    assert page.input_value("#typed") == "" and page.input_value("#message-body") == ""
    assert page.locator("#compose input.recipient:checked").count() == 0


def test_a_player_of_several_powers_chooses_which_one_writes(
    server: LiveServer, browser: Any
) -> None:
    """A player of several powers (a two-player table: three each) says from which one a
    message goes ("From: France"): it went from the power in focus, which the compose box
    did not name, so an ally of France had it from Austria. The choice is what is sent,
    and stays for the next message."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    register_and_create(page, server, "wenceslava", players="2")
    page.wait_for_selector("#compose")
    mine = page.evaluate(MY_POWERS)
    assert len(mine) == 3, mine
    page.wait_for_selector("#compose-from", timeout=5_000)
    offered = page.locator("#compose-from option").evaluate_all("els => els.map(e => e.value)")
    assert offered == mine, offered
    chosen = next(p for p in mine if p != page.input_value("#compose-from"))
    page.select_option("#compose-from", chosen)
    page.fill("#message-body", "A word from the second of my powers")
    page.click("#send-message")
    page.wait_for_function("document.getElementById('messages').innerText.includes('second')")
    idle(page)
    sent = page.evaluate(
        """async () => (await (await fetch(
            `/api/games/${location.hash.split('/')[2]}/messages?after=0`)).json())"""
    )
    assert [m["sender"] for m in sent] == [chosen], sent
    assert page.inner_text("#messages li b") == chosen.title()
    assert page.input_value("#compose-from") == chosen
    shot(page, "17-compose-from", full=False)
    page.set_viewport_size({"width": 390, "height": 844})
    page.locator("#compose").scroll_into_view_if_needed()
    shot(page, "17-compose-from-phone", full=False)
