"""History on the main board (history.js) in a real browser: a finished game's final
position in the stepper, every phase processed meanwhile told in turn, sandboxes from a
phase of a game's history and played on another line."""

from __future__ import annotations

from typing import Any

from tests.server.browserkit import (
    GAME,
    continue_to_now,
    idle,
    legal,
    open_at,
    pass_the_deadline,
    phase,
    put_at_an_attack,
    register_and_create,
    shot,
    sign_up,
    slow_network,
    until_phase_changes,
    watched,
)
from tests.server.conftest import LiveServer

FINAL = {
    "en": "Final position",
    "es": "Posición final",
    "fr": "Position finale",
    "pt": "Posição final",
}
NOW = {"en": "Now", "es": "Ahora", "fr": "Maintenant", "pt": "Agora"}


def test_a_finished_game_is_not_shown_as_now(server: LiveServer, browser: Any) -> None:
    """The stepper of a finished game says the position is the final one (not "Now"), in
    every language of the page, and the button back to it says so too."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    register_and_create(page, server, "fini", players="2")
    shot(page, "23-playing")
    page.on("dialog", lambda d: d.accept())
    page.click("#ready-all")  # a phase in the history (the two-player game starts in 1914)
    until_phase_changes(page, "S1914M")
    continue_to_now(page)
    page.click("#concede")  # the other player's powers win
    page.wait_for_selector("#game-over")
    idle(page)
    shot(page, "23-finished")
    page.set_viewport_size({"width": 390, "height": 844})  # a phone: nothing to do, no bar
    assert page.locator("#action-bar").is_hidden()
    page.set_viewport_size({"width": 1400, "height": 1000})
    for lang in ("en", "es", "fr", "pt"):
        page.select_option("#language", lang)
        page.wait_for_function(
            "(w) => (document.getElementById('step-label') || {textContent: ''})"
            ".textContent.startsWith(w)",
            arg=FINAL[lang],
        )
        idle(page)
        label = page.inner_text("#step-label")
        assert not label.startswith(NOW[lang]) and "·" in label, (lang, label)
        shot(page, f"23-finished-{lang}")
    page.select_option("#language", "en")
    page.wait_for_function(
        "(document.getElementById('step-label') || {textContent: ''}).textContent"
        ".startsWith('Final')"
    )
    idle(page)
    page.click("#step-prev")
    page.wait_for_selector("#step-now")
    assert page.inner_text("#step-now") == "Final position"
    shot(page, "23-finished-history")


def test_a_sandbox_from_a_phase_of_a_game_s_history_has_its_position_and_every_power(
    server: LiveServer, browser: Any
) -> None:
    page, errors = watched(browser, accept_dialogs=True)  # Ready with units without orders
    register_and_create(page, server, "forky", players="7")
    game_id = int(page.evaluate("location.hash.split('/')[2]"))
    # a move of mine, and the spring is played (the bots give the others' orders)
    move = next(
        m for k, ms in legal(page).items() if k != "WAIVE" for m in ms
        if m["kind"] == "move" and not m.get("via")
    )  # fmt: skip
    page.fill("#typed", move["order"])
    page.click("#submit-typed")
    idle(page)
    page.click("#ready")
    until_phase_changes(page, "S1901M")
    continue_to_now(page)
    assert phase(page) == "F1901M"
    assert page.locator("#sandbox-from-here").is_visible()  # (the present too)
    # a phase back in the stepper: the spring's position; a sandbox from there
    page.click("#step-prev")
    page.wait_for_function("document.getElementById('step-label').dataset.phase === 'S1901M'")
    idle(page)
    spring = page.evaluate(
        f"async () => (await (await fetch('/api/games/{game_id}/history/S1901M')).json())"
    )["position"]["units"]
    page.click("#sandbox-from-here")
    page.wait_for_function(f"location.hash !== '#/game/{game_id}'")
    page.wait_for_selector("#sandbox-tag")
    page.wait_for_selector("#map svg")
    idle(page)
    box = page.evaluate(GAME)
    assert box["id"] != game_id and box["settings"]["sandbox"]
    assert box["name"] == "forky's game · Spring 1901 Movement" and phase(page) == "S1901M"
    assert box["position"]["units"] == spring  # the position shown, not the present
    assert len(box["my_powers"]) == 7 and sorted(box["to_act"]) == box["my_powers"]
    assert page.locator("#orders-panel .power-orders").count() == 7
    shot(page, "12-sandbox-from-a-game")
    assert not errors, errors


def test_a_sandbox_plays_every_power_and_goes_back_to_try_another_line(
    server: LiveServer, browser: Any
) -> None:
    # (confirmations: Ready with units without orders; going back)
    page, errors = watched(browser, accept_dialogs=True)
    sign_up(page, server, "sandy")
    page.fill("#new-name", "what if")
    page.check("#new-sandbox")  # the choices of a game with others go
    for hidden in ("#new-bots", "#new-deadlines", "#new-press", "#new-public", "#new-start"):
        assert not page.locator(hidden).is_visible(), hidden
    page.click("#create-game")
    page.wait_for_selector("#map svg")
    idle(page)
    state = page.evaluate(GAME)
    assert state["status"] == "active" and state["settings"]["sandbox"]
    assert len(state["my_powers"]) == 7 and page.locator("#sandbox-tag").is_visible()
    assert page.locator("#invite-link").count() == 0  # nobody to invite
    # nobody to draw with or concede to: no draw votes, no Concede
    assert page.locator("#draw-status, .draw-vote, #vote-draw, #concede").count() == 0
    assert page.locator("#messages-panel").is_hidden() and page.locator("#seats-panel").is_hidden()
    assert page.locator("#orders-panel .power-orders").count() == 7
    shot(page, "sandbox")

    def order(power: str, text: str) -> None:
        box = page.locator(f'#orders-panel .power-orders[data-power="{power}"]')
        box.locator("textarea.typed-box").fill(text)
        box.locator("button.submit-typed").click()
        idle(page)
        box.locator(f'li.order.ok[data-order="{text}"]').wait_for()

    def play(phase_now: str) -> None:
        page.click("#ready-all")
        until_phase_changes(page, phase_now)
        continue_to_now(page)

    def french() -> list[str]:
        return sorted(page.evaluate(GAME)["position"]["units"]["FRANCE"])

    order("FRANCE", "A PAR - BUR")
    order("GERMANY", "A MUN - RUH")  # a second power's orders, by the same person
    play("S1901M")
    assert phase(page) == "F1901M" and "A BUR" in french()
    order("FRANCE", "A BUR - BEL")
    play("F1901M")
    assert phase(page) == "W1901A" and "A BEL" in french()  # a build due
    # back to the start of the autumn from the stepper: the winter goes, Burgundy again
    page.click("#step-prev")
    page.wait_for_function("document.getElementById('step-label').dataset.phase === 'F1901M'")
    idle(page)
    summary = page.inner_text("#summary")  # what France did; the powers left alone are no news
    assert "A BUR - BEL" in summary and "no orders were given" not in summary, summary
    shot(page, "12-sandbox-history")
    page.click("#play-from-here")
    page.wait_for_function("document.getElementById('phase').dataset.phase === 'F1901M'")
    idle(page)
    assert page.get_attribute("#step-label", "data-phase") == ""  # the present, not results
    assert "A BUR" in french() and "A BEL" not in french()
    history = page.evaluate(
        "async () => (await (await fetch(`/api/games/${location.hash.split('/')[2]}/history`))"
        ".json()).map(h => h.phase)"
    )
    assert history == ["S1901M"], history
    # the orders given in it are back, none ready: another line changes one of them
    france = page.locator('.power-orders[data-power="FRANCE"]')
    given = france.locator("li.order.ok").evaluate_all("els => els.map(e => e.dataset.order)")
    assert given == ["A BUR - BEL"], given
    assert page.locator("#ready-all.on").count() == 0
    order("FRANCE", "A BUR - PIC")  # Picardy this time (no centre: no winter to play)
    given = france.locator("li.order.ok").evaluate_all("els => els.map(e => e.dataset.order)")
    assert given == ["A BUR - PIC"], given
    play("F1901M")
    assert phase(page) == "S1902M" and "A PIC" in french() and "A BEL" not in french()
    shot(page, "12-sandbox-another-line")
    # in the lobby: mine, and deleted rather than left
    game_id = page.evaluate(GAME)["id"]
    page.goto(server.url + "/#")
    item = page.locator(f'#my-games .game-item[data-game="{game_id}"]')
    item.wait_for()
    assert item.inner_text().split(" · ")[1].startswith("Sandbox"), (
        item.inner_text()
    )  # not 7 people
    assert item.locator("button.leave").count() == 0
    item.locator("button.delete").click()
    idle(page)
    page.wait_for_selector(f'#my-games .game-item[data-game="{game_id}"]', state="detached")
    assert not errors, errors


def test_every_phase_processed_meanwhile_is_told(server: LiveServer, browser: Any) -> None:
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    game_id, _ = open_at(page, server, "xena", put_at_an_attack)
    pass_the_deadline(server, game_id)  # no orders: civil disorder, and the dislodged army
    until_phase_changes(page, "F1901M")  # is disbanded for me: two phases processed at once
    # first the movement (the army dislodged), then the retreats done for me (disbanded)
    page.wait_for_selector("#summary .summary.fresh")
    assert page.get_attribute("#step-label", "data-phase") == "F1901M"
    told = page.inner_text("#summary-list")
    # no orders given: said once, then the army's fate
    assert told.split("\n")[:2] == ["no orders were given: the units held", "A BOH: dislodged"], (
        told
    )
    assert "Civil disorder (no orders): " in told, told  # the deadline missed: the event
    assert "no order: holds" not in told and told.count("held") == 1, told
    shot(page, "16-meanwhile-movement")
    page.click("#results-view summary")  # the table says the army's fate once
    row = page.locator("#results tr", has_text="A BOH H").inner_text()
    assert row.count("dislodged") == 1, row
    page.click("#continue")
    page.wait_for_function("document.getElementById('step-label').dataset.phase === 'F1901R'")
    told = page.inner_text("#summary-list")
    assert "A BOH D: the unit was disbanded" in told and "held" not in told, told
    shot(page, "16-meanwhile-retreats")
    continue_to_now(page)
    assert page.get_attribute("#step-label", "data-phase") == ""
    # away from the game when a deadline passes: on coming back, what happened is told
    now = phase(page)
    page.goto(server.url + "/#")
    page.wait_for_selector("#my-games")
    pass_the_deadline(server, game_id)
    page.wait_for_function(
        f"fetch('/api/games/{game_id}').then(r => r.json()).then(g => g.phase !== '{now}')",
        polling=300,
        timeout=30_000,
    )
    page.click(f'#my-games .game-item[data-game="{game_id}"] button')
    page.wait_for_selector("#summary .summary.fresh")
    assert page.get_attribute("#step-label", "data-phase") == now
    shot(page, "16-meanwhile-away")


def test_results_being_read_keep_their_place_when_another_phase_is_processed(
    server: LiveServer, browser: Any
) -> None:
    """Reading the spring's results when the autumn is processed too (a deadline, the bots):
    the spring's stay on screen and "continue" leads to the autumn's (the autumn's replaced
    them, and the spring's were never told: seen in CI as the wrong summary)."""
    page, errors = watched(browser, accept_dialogs=True)
    register_and_create(page, server, "yorick", players="7")
    game_id = page.evaluate(GAME)["id"]
    page.click("#ready")
    until_phase_changes(page, "S1901M")
    page.wait_for_selector("#summary .summary.fresh")
    assert page.get_attribute("#step-label", "data-phase") == "S1901M"
    pass_the_deadline(server, game_id)
    until_phase_changes(page, "F1901M")
    assert page.get_attribute("#step-label", "data-phase") == "S1901M"
    assert page.locator("#summary .summary.fresh").count() == 1
    assert "Fall 1901" in page.inner_text("#continue"), page.inner_text("#continue")
    page.click("#continue")
    page.wait_for_function("document.getElementById('step-label').dataset.phase === 'F1901M'")
    assert page.locator("#summary .summary.fresh").count() == 1
    continue_to_now(page)
    assert page.get_attribute("#step-label", "data-phase") == ""
    assert phase(page) != "F1901M"
    assert not errors, errors


LATENCY = 600  # ms, each way


def test_a_step_back_asks_for_the_phase_and_its_map_at_once(
    server: LiveServer, browser: Any
) -> None:
    """A past phase's record and its map are asked for together: on a slow network a step
    back costs one round trip (the map was asked for only once the record had come)."""
    page = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True)
    register_and_create(page, server, "zenobia", players="7")
    page.on("dialog", lambda d: d.accept())
    page.click("#ready")
    until_phase_changes(page, "S1901M")
    continue_to_now(page)
    started: dict[str, float] = {}  # what was asked for, when (the browser's ms)

    def finished(request: Any) -> None:
        for what in ("/history/S1901M", "/map.svg?phase=S1901M"):
            if what in request.url:
                started[what] = request.timing["startTime"]

    page.on("requestfinished", finished)
    slow_network(page, LATENCY)
    page.click("#step-prev")
    page.wait_for_function("document.getElementById('step-label').dataset.phase === 'S1901M'")
    idle(page)
    assert len(started) == 2, started
    apart = abs(started["/map.svg?phase=S1901M"] - started["/history/S1901M"])
    assert apart < LATENCY / 2, apart
