"""The orders panel (orders.js) in a real browser: what a phase asks (builds and removals
due, a retreat and where, nothing to order), a waive said in words, Ready that asks first,
refusals and their message, several powers each with its own list, Ready and draw vote,
La Conquista's accepted supports and alliance."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from typing import Any

import httpx

from tests.gamekit import at
from tests.server.browserkit import (
    DESKTOP,
    FLASH,
    GAME,
    MY_POWERS,
    click_province,
    declined,
    disband_the_first_unit,
    guest_joins,
    host_a_table,
    idle,
    in_language,
    legal,
    my_orders,
    open_at,
    phase,
    put_at_a_retreat,
    put_at_another_s_retreat,
    put_at_the_builds,
    put_at_the_removals,
    register_and_create,
    rewrite_stored_game,
    same_page_elsewhere,
    shot,
    sign_up,
    until_phase_changes,
    watched,
)
from tests.server.conftest import LiveServer


def test_builds_say_what_is_due_and_ready_asks_first(server: LiveServer, browser: Any) -> None:
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    _, homes = open_at(page, server, "grace", put_at_the_builds)
    due = len(homes)
    brief = page.inner_text("#phase-brief")
    assert due > 1 and f"{due} builds due, {due} still to order" in brief, brief
    key = page.locator("#unit-list button.unit").first.get_attribute("data-key") or ""
    click_province(page, key.split("/")[0])  # a home centre: the builds in a menu by it
    page.wait_for_selector('#order-menu .menu-option[data-kind="build"]')
    shot(page, "6-adjustment-menu")
    page.locator('#order-menu .menu-option[data-kind="build"]').first.click()
    page.wait_for_function("document.querySelectorAll('#my-orders li.order').length === 1")
    idle(page)
    brief = page.inner_text("#phase-brief")
    built = my_orders(page)[0].split(" ")[1].split("/")[0]
    assert f"{due - 1} still to order" in brief, brief
    name = page.evaluate(
        "async (c) => (await import('/static/core.js')).place(c)", built
    )  # the centre built in is no longer offered in words ("You can build in: …")
    assert name not in brief.split("You can build in: ")[1], (name, brief)
    asked = declined(page, once=True)
    page.click("#ready")  # builds left: the page asks first, and Cancel keeps the phase
    idle(page)
    assert asked and "not ordered will be lost" in asked[0], asked
    assert phase(page) == "W1901A"
    shot(page, "6-adjustments")
    # every build ordered: said so, and no waive offered (one more was refused: "only 3
    # adjustments due"), nor the centres just built in
    for home in homes:
        if home != built:
            page.locator(f'#unit-list button[data-key^="{home}"]').click()
            page.locator('#legal .legal-option[data-kind="build"]').first.click()
            page.wait_for_function(
                "(h) => [...document.querySelectorAll('#my-orders li.order')]"
                ".some((e) => e.dataset.order.split(' ')[1].startsWith(h))",
                arg=home,
            )
            idle(page)
    assert page.inner_text("#phase-brief") == f"{due} builds due: all ordered."
    assert page.locator("#waive").count() == 0


WAIVE_SAID = {
    "en": "Waive a build",
    "es": "Renunciar a una construcción",
    "fr": "Renoncer à une construction",
    "pt": "Renunciar a uma construção",
}


def test_a_waived_build_is_said_in_words_in_every_language(
    server: LiveServer, browser: Any
) -> None:
    """A waive in the list of orders is said as the page's button says it, not as the
    notation's bare keyword ("WAIVE"), in each of the four languages."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    open_at(page, server, "waiver", put_at_the_builds)
    page.click("#waive")
    page.wait_for_selector('#my-orders li.order[data-order="WAIVE"]')
    idle(page)
    for lang, said in WAIVE_SAID.items():
        if lang != "en":
            in_language(page, lang, f"document.documentElement.lang === {lang!r}")
            page.wait_for_selector('#my-orders li.order[data-order="WAIVE"]')
        text = page.locator('#my-orders li.order[data-order="WAIVE"] span').nth(1).inner_text()
        assert text.rstrip(".") == said, (lang, text)
        assert page.inner_text("#waive") == said, lang  # the button says it alike
        shot(page, f"waive-{lang}")


def test_ready_with_a_removal_not_ordered_asks_first(server: LiveServer, browser: Any) -> None:
    """A removal due and none ordered: Ready asks first, saying the rules will choose (it
    went straight on, and the summary then told of a unit the player never chose)."""
    page = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True)
    open_at(page, server, "romy", put_at_the_removals)
    asked = declined(page, once=True)
    page.click("#ready")
    idle(page)
    assert asked and "1 removal not ordered: the rules will choose the unit" in asked[0], asked
    assert phase(page) == "W1901A" and page.inner_text("#ready") == "Ready"
    said = "1 removal due, 1 still to order: choose the unit to disband."
    assert page.inner_text("#bar-progress") == said  # the phone's bar says it as the brief
    disband_the_first_unit(page)
    assert page.inner_text("#phase-brief") == "1 removal due: ordered."
    assert page.inner_text("#bar-progress") == "1 removal due: ordered."


def test_a_count_of_one_or_several_reads_without_brackets(server: LiveServer, browser: Any) -> None:
    """What a winter asks, and Ready's question, agree with the count in each language: they
    said "1 removal(s) due ... choose the unit(s)", "3 construcción(es) pendiente(s), faltan
    3", "1 remoção(ões) não ordenada(s)"."""
    page, errors = watched(browser)
    open_at(page, server, "noor", put_at_the_removals)
    asked = declined(page)
    said = {
        "en": "1 removal due, 1 still to order: choose the unit to disband.",
        "es": "1 disolución pendiente (por ordenar: 1): elige la unidad a disolver.",
        "fr": "1 retrait dû, encore 1 à ordonner : choisissez l'unité à dissoudre.",
        "pt": "1 remoção pendente (a ordenar: 1): escolha a unidade a dissolver.",
    }
    question = {
        "en": "1 removal not ordered: the rules will choose the unit, the one farthest from home.",
        "es": "1 disolución sin ordenar: las reglas elegirán la unidad, la más alejada",
        "fr": "Retrait non ordonné : 1. Les règles choisiront l'unité, la plus éloignée",
        "pt": "1 remoção não ordenada: as regras escolherão a unidade, a mais distante",
    }
    for lang in ("en", "es", "fr", "pt"):
        if lang != "en":
            in_language(page, lang, f"document.documentElement.lang === {lang!r}")
        assert page.inner_text("#phase-brief") == said[lang], lang
        page.click("#ready")
        idle(page)
        assert question[lang] in asked[-1], asked
    shot(page, "one-removal-pt", full=False)
    builds = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True)
    _, homes = open_at(builds, server, "nadia", put_at_the_builds)
    in_language(builds, "es", "document.documentElement.lang === 'es'")
    brief = builds.inner_text("#phase-brief")
    assert brief.startswith(f"{len(homes)} construcciones pendientes (por ordenar: {len(homes)})")
    assert brief.startswith(builds.inner_text("#bar-progress"))  # the bar: where to build left out
    assert "Puedes construir en" not in builds.inner_text("#bar-progress")
    shot(builds, "builds-due-es", full=False)
    for text in [brief, *asked]:
        assert not re.search(r"\((s|es|ões|ns)\)", text), text
    assert not errors, errors


def test_a_refusal_s_message_goes_with_the_phase(server: LiveServer, browser: Any) -> None:
    """An order refused ("see why in the list"), then Ready: the phase is processed and the
    refusals are no longer listed, nor is the message that points to them left over the
    results."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    register_and_create(page, server, "ulla", players="7")
    page.fill("#typed", "hello world")
    page.click("#submit-typed")
    page.wait_for_selector("#my-orders li.refused")
    assert page.locator("#flash.error").is_visible()
    page.on("dialog", lambda d: d.accept())  # (units without orders: they hold)
    page.click("#ready")
    until_phase_changes(page, "S1901M")
    page.wait_for_selector("#summary .summary.fresh")
    assert page.locator("#my-orders li.refused").count() == 0
    assert page.locator("#flash").is_hidden()


def test_typed_orders_refused_together_stay_in_the_box(server: LiveServer, browser: Any) -> None:
    """A good order typed with a bad one: neither is given (they are taken together), and
    the message says so; the lines stay in the box to be corrected (they were wiped, and
    "1 order refused" let the player think the good one was given)."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    register_and_create(page, server, "ursula", players="7")
    good = next(o["order"] for opts in legal(page).values() for o in opts if o["kind"] == "move")
    text = f"{good}\nhello world"
    page.fill("#typed", text)
    page.click("#submit-typed")
    page.wait_for_selector("#my-orders li.refused")
    idle(page)
    assert page.locator("#my-orders li.order.ok").count() == 0
    assert page.input_value("#typed") == text
    said = page.inner_text("#flash")
    assert said.startswith("1 order refused, so none of the lines was given"), said
    shot(page, "typed-refused-kept")
    page.fill("#typed", good)  # corrected: given
    page.click("#submit-typed")
    page.wait_for_selector(f'#my-orders li.order.ok[data-order="{good}"]')
    idle(page)
    assert page.input_value("#typed") == "" and page.locator("#my-orders li.refused").count() == 0


def test_a_refusal_s_message_stays_on_the_game_page(server: LiveServer, browser: Any) -> None:
    """An order refused (its message shown for 8 s), then straight back to the lobby, by the
    page's link or the browser's Back: the message does not follow the player there."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    register_and_create(page, server, "otto", players="7")
    game = page.url
    for leave in (lambda: page.click("#home"), page.go_back):
        page.fill("#typed", "hello world")
        page.click("#submit-typed")
        page.wait_for_selector("#my-orders li.refused")
        assert page.locator("#flash.error").is_visible()
        leave()
        page.wait_for_selector("#create-game")
        assert page.locator("#flash").is_hidden(), page.inner_text("#flash")
        page.goto(game)
        page.wait_for_selector("#typed")
        idle(page)


def test_conquista_accepts_supports_and_declares_an_alliance(
    server: LiveServer, browser: Any
) -> None:
    page, errors = watched(browser)
    register_and_create(page, server, "lina", edition="conquista", players="7")
    options = legal(page)
    state = page.evaluate("async () => (await (await fetch("
                          "`/api/games/${location.hash.split('/')[2]}`)).json())")  # fmt: skip
    power = state["my_powers"][0]
    mine = {u.split(" ")[1].split("/")[0] for u in state["position"]["units"][power]}
    foreign = [
        (k, o) for k, opts in options.items() for o in opts
        if o["kind"] == "support" and o["target"] not in mine
    ]  # fmt: skip
    if foreign or power != "ENGLAND":  # (England alone has no foreign unit in reach)
        # a support of another power's unit is offered marked: it needs that one's acceptance
        key, option = foreign[0]
        click_province(page, key.split("/")[0])
        page.click('#order-menu button[data-mode="support"]')
        click_province(page, option["target"])
        page.wait_for_selector("#order-menu .menu-option.needs-accept")
        shot(page, "10-conquista-foreign-support")
        page.keyboard.press("Escape")
    page.click("#conquista summary")
    accept = page.locator("#conquista input.accept").first
    ally = page.locator("#conquista input.ally").first
    unit, partner = accept.get_attribute("value"), ally.get_attribute("value")
    # a unit to accept is named in words ("Army · Budapest"), not by its code ("A BUD")
    named = accept.locator("xpath=..").inner_text().strip()
    assert re.fullmatch(r"(Army|Fleet) · [A-Z][a-z][\w .'-]+", named), named
    accept.check()
    ally.check()
    page.click("#save-conquista")
    idle(page)
    page.wait_for_selector("#conquista[open]")
    assert page.locator(f'#conquista input.accept[value="{unit}"]').is_checked()
    assert page.locator(f'#conquista input.ally[value="{partner}"]').is_checked()
    stored = page.evaluate("async (p) => (await (await fetch(`/api/games/${location.hash"
                           ".split('/')[2]}/orders?power=${p}`)).json())", power)  # fmt: skip
    assert stored["ally"] and partner in stored["ally"] and stored["accept"], stored
    shot(page, "10-conquista")
    assert not errors, errors


def test_conquista_a_support_from_another_of_my_powers_is_accepted_there(
    server: LiveServer, browser: Any
) -> None:
    """In La Conquista each power's orders must accept another power's support, one of the
    player's own other powers too (a table of 3 or 4 deals pairs; a sandbox, all seven):
    Italy's support of Austria's move is marked as needing Austria's acceptance, and
    Austria's list offers Italy's army to accept (it offered only the powers of others, so
    the support was always "invalid: AUSTRIA did not accept the support of A VEN")."""
    page, errors = watched(browser, accept_dialogs=True)
    sign_up(page, server, "perla")
    page.select_option("#new-edition", "conquista")
    page.check("#new-sandbox")
    page.click("#create-game")
    page.wait_for_selector("#sandbox-tag")
    idle(page)
    click_province(page, "VEN")
    page.click('#order-menu button[data-mode="support"]')
    click_province(page, "VIE")
    option = page.locator('#order-menu .menu-option[data-order="A VEN S A VIE - TYR"]')
    assert "needs-accept" in (option.get_attribute("class") or ""), option.get_attribute("class")
    option.click()
    idle(page)
    for power, order in (("AUSTRIA", "A VIE - TYR"), ("GERMANY", "A MUN - TYR")):
        page.fill(f'.power-orders[data-power="{power}"] .typed-box', order)
        page.click(f'.power-orders[data-power="{power}"] .submit-typed')
        idle(page)
    austria = page.locator('.power-orders[data-power="AUSTRIA"] details.conquista')
    austria.locator("summary").click()
    # every power is mine: no alliance to declare, so none offered (its hint stood alone)
    assert austria.locator("input.ally").count() == 0
    assert "Declare an alliance" not in austria.inner_text()
    austria.locator('input.accept[value="A VEN"]').check()
    austria.locator("button").click()
    idle(page)
    shot(page, "10-conquista-own-power-accepted")
    page.click("#ready-all")
    until_phase_changes(page, "S1914M")
    results = dict(page.locator("#results tr").evaluate_all(
        "rows => rows.map(r => [r.cells[1].title, r.cells[2].textContent])"))  # fmt: skip
    assert results["A VIE - TYR"] == "succeeds", results
    assert results["A VEN S A VIE - TYR"] == "support given", results
    assert not errors, errors


def test_orders_changed_after_ready_are_said_to_count_and_ready_stays(
    server: LiveServer, browser: Any
) -> None:
    """B29: orders may be changed after Ready, and Ready stays: the panel says so while the
    others are not ready yet (it said nothing, and a player could not tell whether the new
    orders counted or Ready had gone), in the player's language."""
    page, errors = watched(browser, accept_dialogs=True)
    link = host_a_table(page, server, "rosalba", "Ready and then")
    guest_joins(server, link, "sybil")
    guest_joins(server, link, "theodora")  # the third seat: the game starts
    page.wait_for_selector("#ready")
    idle(page)
    assert page.locator("#ready-note").count() == 0  # not ready: nothing to say
    first = next(iter(legal(page).values()))
    moves = [o["order"] for o in first if o["kind"] == "move"]
    page.fill("#typed", moves[0])
    page.click("#submit-typed")
    idle(page)
    page.click("#ready")
    page.wait_for_selector("#ready.on")
    idle(page)
    assert "the last ones given count" in page.inner_text("#ready-note")
    page.fill("#typed", moves[1])  # changed after Ready: taken, and still ready
    page.click("#submit-typed")
    idle(page)
    assert moves[1] in my_orders(page) and moves[0] not in my_orders(page)
    assert page.locator("#ready.on").count() == 1
    in_language(page, "es", "document.documentElement.lang === 'es'")
    assert "cuentan las últimas que des" in page.inner_text("#ready-note")
    shot(page, "ready-note-es", full=False)
    assert phase(page) == "S1901M"  # (the others are not ready: nothing processed)
    assert not errors, errors


def test_la_conquista_s_reinforcements_are_said_with_its_rule(
    server: LiveServer, browser: Any
) -> None:
    """La Conquista's Spring adjustments are reinforcements, one for each centre owned
    outside the home country (no more than the free home centres): the panel says so, in
    the book's words ("refuerzos"), not "1 build due" as a classic Winter."""
    page, errors = watched(browser)
    register_and_create(page, server, "zulema", edition="conquista")
    gid = int(page.evaluate("location.hash.split('/')[2]"))
    power = page.get_attribute("#power", "data-power") or ""

    def reinforcements(game: Any) -> None:
        position = game.position.to_json()
        units = {p: u for p, u in position["units"].items() if p != power}
        centers = dict(position["centers"]) | {power: [*position["centers"][power], "BEL"]}
        at(game, "S1915A", {"units": units, "centers": centers})
        assert game.builds_due()[power] == 1

    rewrite_stored_game(server, gid, reinforcements)
    page.reload()
    page.wait_for_selector("#phase-brief")
    idle(page)
    brief = page.inner_text("#phase-brief")
    said = "1 reinforcement due, 1 still to place. Reinforcements: one for each centre you own"
    assert brief.startswith(said), brief
    assert "Spring 1915 Reinforcements" in page.inner_text("#phase")
    page.wait_for_selector("#messages-panel .muted")
    said = page.inner_text("#messages-panel")  # (it said "during the builds and removals")
    assert "No messages during the reinforcements" in said, said
    in_language(page, "es", "document.documentElement.lang === 'es'")
    brief = page.inner_text("#phase-brief")
    assert brief.startswith("1 refuerzo (por colocar: 1). Refuerzos: uno por cada centro"), brief
    page.locator("#unit-list button.unit").first.click()
    page.locator('#legal .legal-option[data-kind="build"]').first.click()
    page.wait_for_function("document.querySelectorAll('#my-orders li.order').length === 1")
    idle(page)
    assert page.inner_text("#phase-brief") == "1 refuerzo: colocado."
    assert not errors, errors


def test_several_powers_together_each_with_ready_and_draw_vote(
    server: LiveServer, browser: Any
) -> None:
    page, errors = watched(browser, accept_dialogs=True)  # Ready with units without orders asks
    register_and_create(page, server, "wanda", players="3")  # several powers each
    state = page.evaluate(GAME)
    powers: list[str] = state["my_powers"]
    assert len(powers) >= 2, powers
    # one order list per power, all on the page at once, each with its own units and Ready
    lists = page.locator("#orders-panel .power-orders")
    shown = lists.evaluate_all("els => els.map(e => e.dataset.power)")
    assert shown == powers, shown
    section = {p: page.locator(f'#orders-panel .power-orders[data-power="{p}"]') for p in powers}
    for p in powers:
        units = {u.split(" ")[1] for u in state["position"]["units"][p]}
        keys = section[p].locator("button.unit").evaluate_all("els => els.map(e => e.dataset.key)")
        assert set(keys) == units, (p, keys, units)
        assert section[p].locator("button.ready").count() == 1
        assert section[p].locator("ul.my-orders li.order").count() == 0
    assert page.locator("#ready-all").count() == 1
    assert len(set(page.locator("[id]").evaluate_all("els => els.map(e => e.id)"))) == (
        page.locator("[id]").count()
    )  # each id names one element
    # ordering by map: a unit of the second power orders for that power
    first, second = powers[0], powers[1]
    unit = state["position"]["units"][second][0]
    click_province(page, unit.split(" ")[1].split("/")[0])
    page.click('#order-menu button[data-kind="hold"]')
    idle(page)
    page.wait_for_selector(f'#orders-panel .power-orders[data-power="{second}"] li.order.ok')
    assert section[second].locator("li.order.ok").get_attribute("data-order") == f"{unit} H"
    assert section[first].locator("li.order.ok").count() == 0
    assert page.get_attribute("#power", "data-power") == second  # in focus: its list has #legal
    assert section[second].locator("#legal").count() == 1
    mine = state["position"]["units"][first][0]  # and one of the first power's: both drawn
    click_province(page, mine.split(" ")[1].split("/")[0])
    page.click('#order-menu button[data-kind="hold"]')
    idle(page)
    section[first].locator("li.order.ok").wait_for()
    for p in (first, second):
        page.wait_for_selector(f"#map svg g.order.{p.lower()}", state="attached")
    # a typed order refused for the first power is shown ✗ in its own list only
    section[first].locator("textarea.typed-box").fill("A MOS - PAR")
    section[first].locator("button.submit-typed").click()
    idle(page)
    section[first].locator("li.order.refused").wait_for()
    assert section[second].locator("li.order.refused").count() == 0
    # Ready for one power: that one only
    section[first].locator("button.ready").click()
    idle(page)
    section[first].locator("button.ready.on").wait_for()
    ready = page.evaluate(GAME)["ready"]
    assert ready[first] and not any(ready[p] for p in powers[1:]), ready
    # draw votes per power: given for one, then withdrawn, the others untouched
    page.click(f'#draw-votes button.draw-vote[data-power="{second}"]')
    page.wait_for_selector(f'#draw-votes button.draw-vote.on[data-power="{second}"]')
    assert page.evaluate(GAME)["draw_votes"]["votes"] == [second]
    assert page.locator("#draw-votes button.draw-vote.on").count() == 1
    shot(page, "12-several-powers")
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_timeout(300)
    boxes = [section[p].bounding_box() for p in powers]
    assert all(b and b["x"] >= 0 and b["x"] + b["width"] <= 390 for b in boxes), boxes
    assert all(a["y"] + a["height"] <= b["y"] + 1 for a, b in itertools.pairwise(boxes)), (
        boxes
    )  # stacked
    shot(page, "12-several-powers-phone")
    page.set_viewport_size({"width": 1400, "height": 1000})
    page.click(f'#draw-votes button.draw-vote.on[data-power="{second}"]')
    page.wait_for_selector(f'#draw-votes button.draw-vote[data-power="{second}"]:not(.on)')
    assert page.evaluate(GAME)["draw_votes"]["votes"] == []
    # Ready for all: every one of my powers (the bots are ready already: the phase moves)
    page.click("#ready-all")
    until_phase_changes(page, "S1901M")
    assert not errors, errors


def test_a_retreat_says_why_and_where(server: LiveServer, browser: Any) -> None:
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    open_at(page, server, "tess", put_at_a_retreat)
    brief = page.inner_text("#phase-brief")
    assert "Bohemia was dislodged by the attack from Munich" in brief, brief
    assert "can retreat to" in brief and "Silesia" in brief, brief
    click_province(page, "BOH")
    page.wait_for_selector('#order-menu .menu-option[data-kind="disband"]')
    reach = page.evaluate("[...document.querySelectorAll('#rp-overlay .rp-reach')]"
                          ".map(e => e.dataset.province)")  # fmt: skip
    assert "SIL" in reach and "MUN" not in reach, reach
    shot(page, "15-retreat")
    click_province(page, "SIL")
    page.wait_for_function("[...document.querySelectorAll('#my-orders li.order')].some("
                           "e => e.dataset.order === 'A BOH R SIL')")  # fmt: skip
    # the places with the article a sentence gives them ("para a Silésia", "hacia el Tirol")
    for lang, told in RETREATS_TO.items():
        brief_now = "((document.getElementById('phase-brief') || {}).textContent || '')"
        in_language(page, lang, f"{brief_now}.includes({told[0]!r})")
        brief = page.inner_text("#phase-brief")
        assert all(words in brief for words in told), (lang, brief)
    page.select_option("#language", "en")


def test_nothing_to_order_is_said_once(server: LiveServer, browser: Any) -> None:
    """A phase with nothing for me to order says so, without "No orders yet" under it as if
    orders were awaited."""
    page = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True)
    register_and_create(page, server, "wren", players="7")
    game_id = int(page.evaluate("location.hash.split('/')[2]"))
    put_at_another_s_retreat(server, game_id, page.get_attribute("#power", "data-power") or "")
    page.reload()
    page.wait_for_selector("#orders-panel .power-orders")
    idle(page)
    panel = page.inner_text("#orders-panel")
    assert "Nothing to order this phase" in panel and "No orders yet" not in panel, panel
    assert page.locator("#action-bar").is_hidden()  # nor a phone's action bar


RETREATS_TO = {  # where the army dislodged from Bohemia may retreat, as each language says it
    "pt": ["pode retroceder para a Galícia, a Silésia, Viena ou ser dissolvida"],
    "es": ["Puede retirarse hacia Galicia, Silesia, Viena o disolverse"],
    "fr": ["peut faire retraite vers la Galicie, la Silésie, Vienne ou être dissoute"],
}


def processed_first(
    page: Any, server: LiveServer
) -> tuple[Callable[[Any], None], Callable[[], Any]]:
    """A route handler that has the same player's other tab make the phase processed (its
    power ready with no orders: the bots are ready already) before the request goes on;
    and a GET of the game as that tab sees it."""
    state = page.evaluate(GAME)
    gid, power = state["id"], state["my_powers"][0]
    cookie = next(c["value"] for c in page.context.cookies() if c["name"] == "rp_session")
    other_tab = {"Cookie": f"rp_session={cookie}", "X-Requested-With": "realpolitik"}

    def handler(route: Any) -> None:
        r = httpx.put(
            f"{server.url}/api/games/{gid}/orders",
            json={"power": power, "orders": [], "ready": True},
            headers=other_tab,
        )
        assert r.status_code == 200 and r.json()["processed"], r.text
        route.continue_()

    return handler, lambda: httpx.get(f"{server.url}/api/games/{gid}", headers=other_tab).json()


def test_a_ready_arriving_after_its_phase_was_processed_marks_nothing(
    server: LiveServer, browser: Any
) -> None:
    """Ready clicked as the phase is processed (here by the same player's other tab, ready
    with its orders: the bots are ready already) reaches the server in the next phase: it
    is refused, said on the page, and the new phase is not marked ready. Before, it marked
    the new phase, unseen, and with the bots ready that phase was processed at once."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.on("dialog", lambda d: d.accept())  # Ready with units without orders asks first
    register_and_create(page, server, "ulrike")
    handler, seen = processed_first(page, server)
    page.route("**/ready", handler)
    page.click("#ready")
    page.wait_for_function(f"{FLASH}.textContent.includes('you were not marked ready')")
    # the page shows the phase it asks to look at (it showed Spring, until the next poll)
    assert page.get_attribute("#phase", "data-phase") == "F1901M"
    shot(page, "ready-moved", full=False)
    page.set_viewport_size({"width": 390, "height": 844})
    shot(page, "ready-moved-phone", full=False)
    now = seen()
    assert now["phase"] == "F1901M" and not now["ready"][now["my_powers"][0]], now["ready"]


def test_orders_arriving_after_their_phase_was_processed_show_the_new_phase(
    server: LiveServer, browser: Any
) -> None:
    """Orders sent as the phase is processed (by the same player's other tab) are refused
    ("these orders were not stored") and the page shows the phase that came: it stayed on
    the old one, its orders box empty, until the next poll."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    register_and_create(page, server, "yvette")
    handler, seen = processed_first(page, server)
    good = next(o["order"] for opts in legal(page).values() for o in opts if o["kind"] == "move")
    page.route("**/orders", handler)
    page.fill("#typed", good)
    page.click("#submit-typed")
    page.wait_for_function(f"{FLASH}.textContent.includes('these orders were not stored')")
    assert page.get_attribute("#phase", "data-phase") == "F1901M"
    assert seen()["phase"] == "F1901M"


# The action bar's box and the window's height, if the bar shows (else null).
BAR_BOX = """() => {
    const bar = document.getElementById('action-bar');
    if (!bar || !bar.offsetParent) return null;
    const r = bar.getBoundingClientRect();
    return {top: r.top, bottom: r.bottom, height: innerHeight};
}"""


def bar_in_view(page: Any) -> None:
    """The action bar shows, whole, at the bottom of the window."""
    box = page.evaluate(BAR_BOX)
    assert box and box["top"] >= 0 and abs(box["bottom"] - box["height"]) <= 1, box


def test_a_phone_keeps_the_order_count_and_ready_in_view(server: LiveServer, browser: Any) -> None:
    """On a phone the map pushes the orders panel and its Ready below the fold: a bar kept
    at the bottom of the screen, wherever the page is scrolled, says how many units have
    orders and holds Ready, the same Ready (it asks first; the game takes it). The last
    card scrolls above the bar, not under it; on a desktop there is no bar."""
    page = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    register_and_create(page, server, "barnaby", players="7")
    state = page.evaluate(GAME)
    units = state["position"]["units"][state["my_powers"][0]]
    page.evaluate("window.scrollTo(0, 0)")
    ready = page.locator("#ready").bounding_box()
    assert ready and ready["y"] > 844, ready  # the panel's Ready: below the fold
    bar_in_view(page)
    assert page.inner_text("#bar-progress") == f"Units ordered: 0 of {len(units)}."
    assert page.inner_text("#bar-ready") == "Ready"
    shot(page, "action-bar-phone", full=False)
    click_province(page, units[0].split(" ")[1].split("/")[0])  # a unit tapped on the map
    page.click('#order-menu button[data-kind="hold"]')
    page.wait_for_function(
        "(t) => document.getElementById('bar-progress').textContent === t",
        arg=f"Units ordered: 1 of {len(units)}.",
    )
    idle(page)
    bar_in_view(page)
    # the last card scrolls above the bar
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    last = page.locator("#seats-panel").bounding_box()
    bar = page.evaluate(BAR_BOX)
    assert last and bar and last["y"] + last["height"] <= bar["top"], (last, bar)
    shot(page, "action-bar-phone-bottom", full=False)
    in_language(page, "fr", "document.documentElement.lang === 'fr'")
    page.evaluate("window.scrollTo(0, 0)")
    bar_in_view(page)
    assert page.inner_text("#bar-progress") == f"Ordres donnés : 1 unité sur {len(units)}."
    shot(page, "action-bar-phone-fr", full=False)
    in_language(page, "en", "document.documentElement.lang === 'en'")
    # Ready in the bar: units without orders, so it asks first, as the panel's Ready does
    asked = declined(page, once=True)
    page.click("#bar-ready")
    idle(page)
    assert asked and asked[0].startswith("Units without orders will hold"), asked
    assert phase(page) == "S1901M"
    page.once("dialog", lambda d: d.accept())
    page.click("#bar-ready")  # the bots are ready already: the phase is processed
    until_phase_changes(page, "S1901M")
    bar_in_view(page)
    assert page.inner_text("#bar-progress") == f"Units ordered: 0 of {len(units)}."
    desk = same_page_elsewhere(browser, page, DESKTOP, "#ready")
    assert desk.locator("#action-bar").is_hidden() and desk.locator("#bar-ready").is_hidden()
    assert not errors, errors


def test_an_observer_s_phone_has_no_action_bar(server: LiveServer, browser: Any) -> None:
    """Someone watching a game, with no orders to give: no bar at the bottom of a phone."""
    page = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True)
    register_and_create(page, server, "bathsheba", players="7")
    bar_in_view(page)  # (the player has one)
    watcher = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True).new_page()
    sign_up(watcher, server, "beatrix")
    watcher.goto(page.url)
    watcher.wait_for_selector("#orders-panel .muted")  # "You are watching"
    idle(watcher)
    assert watcher.evaluate(BAR_BOX) is None
    assert watcher.locator("#bar-ready").count() == 0
    watcher.context.close()


def test_orders_typed_and_not_given_outlive_the_panel_drawn_again(
    server: LiveServer, browser: Any
) -> None:
    """Orders typed in the box and not given yet stay in it while the panel is drawn again:
    an order clicked on the map, the page's language changed (the box came back empty, what
    was typed lost); once given, they are gone from it for good."""
    page, errors = watched(browser)
    register_and_create(page, server, "gudrun", players="7")
    options = legal(page)
    moves = [(k, o) for k, opts in options.items() for o in opts if o["kind"] == "move"]
    key, move = next((k, o) for k, o in moves if not o.get("via"))
    other = next(k for k in options if k.split("/")[0] != key.split("/")[0])
    draft = next(o["order"] for o in options[other] if o["kind"] == "hold")
    page.fill("#typed", draft)
    click_province(page, key.split("/")[0])
    page.wait_for_selector("#order-menu:not([hidden])")
    click_province(page, move["dest"])
    page.wait_for_function("(o) => document.querySelector(`#my-orders li[data-order='${o}']`)",
                           arg=move["order"])  # fmt: skip
    idle(page)
    assert page.input_value("#typed") == draft
    in_language(page, "fr", "document.documentElement.lang === 'fr'")
    assert page.input_value("#typed") == draft
    page.click("#submit-typed")
    page.wait_for_function("(o) => document.querySelector(`#my-orders li[data-order='${o}']`)",
                           arg=draft)  # fmt: skip
    idle(page)
    in_language(page, "en", "document.documentElement.lang === 'en'")
    assert page.input_value("#typed") == "" and set(my_orders(page)) == {move["order"], draft}
    assert errors == []


# An order given by the page's player as from another tab (this page not told of it): the
# request's status.
GIVE_ELSEWHERE = """async ([power, order]) => (await fetch(
    `/api/games/${location.hash.split('/')[2]}/orders`, {method: "PUT",
    headers: {"Content-Type": "application/json", "X-Requested-With": "realpolitik"},
    body: JSON.stringify({power, orders: [order], merge: true, language: "en", phase: "S1901M"})
})).status"""


def test_an_order_taken_back_keeps_those_given_meanwhile_elsewhere(
    server: LiveServer, browser: Any
) -> None:
    """An order taken back (its ✕) leaves the player's other orders as the server has them,
    those given since from another tab or phone too (which this page was not told of): the
    page sent its own list without the order, and those were lost."""
    page, errors = watched(browser)
    register_and_create(page, server, "hroswitha", players="7")
    power = page.get_attribute("#power", "data-power")
    options = legal(page)
    first, second = [
        next(o["order"] for o in opts if o["kind"] == "hold") for opts in options.values()
    ][:2]
    page.locator(f'#unit-list button.unit[data-key="{first.split()[1]}"]').click()
    page.locator('#legal .legal-option[data-kind="hold"]').click()
    page.wait_for_selector(f'#my-orders li[data-order="{first}"]')
    idle(page)
    given = page.evaluate(GIVE_ELSEWHERE, [power, second])
    assert given == 200  # (the page hears of it soon: the ✕ may come first)
    page.click(f'#my-orders li[data-order="{first}"] button.link')
    page.wait_for_selector(f'#my-orders li[data-order="{first}"]', state="detached")
    idle(page)
    assert my_orders(page) == [second]
    assert errors == []


def test_orders_given_in_another_tab_show_in_this_one(server: LiveServer, browser: Any) -> None:
    """Orders given from the player's phone or another tab show on this page too, listed
    and drawn on the map, without anything else happening in the game: they showed only
    once something else changed."""
    page, errors = watched(browser)
    register_and_create(page, server, "gerberga", players="7")
    power = page.get_attribute("#power", "data-power")
    move = next(o["order"] for opts in legal(page).values() for o in opts if o["kind"] == "move")
    idle(page)
    assert my_orders(page) == [] and page.locator("#map svg g.order").count() == 0
    assert page.evaluate(GIVE_ELSEWHERE, [power, move]) == 200
    page.wait_for_selector(f'#my-orders li[data-order="{move}"]', timeout=10_000)
    page.wait_for_selector("#map svg g.order", timeout=10_000)
    shot(page, "orders-from-another-tab")
    assert errors == []


def test_orders_given_before_the_page_first_hears_the_game_show(
    server: LiveServer, browser: Any
) -> None:
    """Orders given elsewhere after this page fetched the game but before its event stream
    first spoke (a busy machine) show too: the page took the stream's first word for what
    it had fetched, and never showed them (met by CI)."""
    page, errors = watched(browser)
    register_and_create(page, server, "wulfhilde", players="7")
    power = page.get_attribute("#power", "data-power")
    move = next(o["order"] for opts in legal(page).values() for o in opts if o["kind"] == "move")
    game_id = page.evaluate("location.hash.split('/')[2]")
    cookies = {c["name"]: c["value"] for c in page.context.cookies()}
    given: list[int] = []

    def late(route: Any) -> None:  # the stream opens once the orders are given elsewhere
        if not given:
            answer = httpx.put(
                f"{server.url}/api/games/{game_id}/orders",
                json={"power": power, "orders": [move], "merge": True, "phase": "S1901M"},
                headers={"X-Requested-With": "realpolitik"},
                cookies=cookies,
            )
            given.append(answer.status_code)
        route.continue_()

    page.route("**/events*", late)
    page.reload()
    page.wait_for_selector(f'#my-orders li[data-order="{move}"]', timeout=10_000)
    assert given == [200] and errors == []


def test_ready_asks_first_with_orders_typed_and_not_given(server: LiveServer, browser: Any) -> None:
    """Ready clicked with orders typed in the box and not given (Give orders not clicked)
    asks first, naming them: the power was made ready without them, silently, and the phase
    played with the orders given before."""
    page, errors = watched(browser)
    register_and_create(page, server, "leofrida", players="7")
    options = legal(page)
    holds = [next(o["order"] for o in opts if o["kind"] == "hold") for opts in options.values()]
    page.fill("#typed", "\n".join(holds))
    page.click("#submit-typed")
    page.wait_for_function("(n) => document.querySelectorAll('#my-orders li.ok').length === n",
                           arg=len(holds))  # fmt: skip
    idle(page)
    move = next(o["order"] for opts in options.values() for o in opts if o["kind"] == "move")
    page.fill("#typed", move)  # a change, typed and not given
    asked = declined(page, once=True)
    page.click("#ready")
    idle(page)
    said = f"Orders typed and not given yet (Give orders): {move}. Ready without them?"
    assert asked == [said], asked
    power = page.get_attribute("#power", "data-power") or ""
    assert phase(page) == "S1901M" and not page.evaluate(GAME)["orders"][power]["ready"]
    assert page.input_value("#typed") == move and sorted(my_orders(page)) == sorted(holds)
    assert errors == []


def test_conquista_the_legend_shows_the_alliances_standing(
    server: LiveServer, browser: Any
) -> None:
    """La Conquista: an alliance formed is shown in the map's legend, under the powers:
    its members, since when, and their centres together (18 win, "por una potencia o por
    una alianza"), in the page's language, its line wrapped on a phone; not under a past
    phase, which it postdates."""
    page, errors = watched(browser)
    sign_up(page, server, "hildegard")
    login = {"username": "hildegard", "password": "lovelace1815"}
    token = httpx.post(server.url + "/api/sessions", json=login, timeout=60).json()["token"]
    host = {"Authorization": f"Bearer {token}"}
    joining = {"username": "casimir", "password": "x" * 8}
    token = httpx.post(server.url + "/api/accounts", json=joining, timeout=60).json()["token"]
    guest = {"Authorization": f"Bearer {token}"}
    body = {"name": "Hildegard's conquest", "edition": "conquista", "players": 7,
            "bots": "random", "deadlines": "none"}  # fmt: skip
    gid = httpx.post(server.url + "/api/games", json=body, headers=host, timeout=60).json()["id"]
    base = f"{server.url}/api/games/{gid}"
    assert httpx.post(base + "/join", json={}, headers=guest, timeout=60).is_success
    assert httpx.post(base + "/start", headers=host, timeout=60).is_success
    a, b = (
        httpx.get(base, headers=who, timeout=60).json()["my_powers"][0] for who in (host, guest)
    )
    for who, power, partner in ((host, a, b), (guest, b, a)):
        order = {"power": power, "orders": [], "ally": [partner]}
        assert httpx.put(base + "/orders", json=order, headers=who, timeout=60).is_success
        httpx.post(base + "/ready", json={"power": power}, headers=who, timeout=60)
    page.goto(f"{server.url}/#/game/{gid}")
    said = "(document.querySelector('#map-legend tr.alliance td') || {}).textContent || ''"
    in_language(page, "es", f"() => ({said}).startsWith('Alianza')")
    row = page.locator("#map-legend tr.alliance")
    assert row.count() == 1
    cells = row.locator("td").all_inner_texts()
    names = {"AUSTRIA": "Austria", "ENGLAND": "Inglaterra", "FRANCE": "Francia",
             "GERMANY": "Alemania", "ITALY": "Italia", "RUSSIA": "Rusia",
             "TURKEY": "Turquía"}  # fmt: skip
    members = " + ".join(names[p] for p in sorted([a, b]))
    assert cells[0] == f"Alianza {members}, desde Primavera de 1914", cells
    state = httpx.get(base, headers=host, timeout=60).json()
    assert state["phase"] == "F1914M" and cells[1] == str(state["centers"][a] + state["centers"][b])
    shot(page, "conquista-alliance-legend")
    page.set_viewport_size({"width": 390, "height": 844})  # a phone: the line wraps
    page.wait_for_function("() => document.documentElement.scrollWidth <= 392")
    page.set_viewport_size({"width": 1400, "height": 1000})
    page.click("#step-prev")  # Spring 1914, before the alliance was formed
    page.wait_for_function("() => !document.querySelector('#map-legend tr.alliance')")
    assert not errors, errors


def test_a_refusal_stays_listed_while_another_of_my_powers_gives_orders(
    server: LiveServer, browser: Any
) -> None:
    """A player of several powers has one power's typed orders refused (the reason listed
    under them, the lines back in its box), then gives another power's: the first power's
    refusal stays listed until its own orders are given again. It went, the lines left in
    the box with no word of what was wrong with them."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    register_and_create(page, server, "hildegunde", players="2")
    first, second = page.evaluate(MY_POWERS)[:2]
    part = '#orders-panel .power-orders[data-power="{}"]'

    def key(power: str) -> str:
        return str(
            page.locator(f"{part.format(power)} button.unit").first.get_attribute("data-key")
        )

    far = key(second)  # another power's unit: out of the first one's reach
    page.fill(f"{part.format(first)} textarea", f"{key(first)} - {far}")
    page.click(f"{part.format(first)} .submit-typed")
    page.wait_for_selector(f"{part.format(first)} li.refused")
    idle(page)
    page.fill(f"{part.format(second)} textarea", f"{far} H")
    page.click(f"{part.format(second)} .submit-typed")
    page.wait_for_selector(f"{part.format(second)} li.order.ok")
    idle(page)
    assert page.locator(f"{part.format(first)} li.refused").count() == 1
    assert page.input_value(f"{part.format(first)} textarea") == f"{key(first)} - {far}"
