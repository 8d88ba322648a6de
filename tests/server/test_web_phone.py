"""The page on a phone (390 px, a touch screen) in a real browser: the map fills the width
and opens zoomed on the places to order (a retreat too), its menus and zoom buttons hide
none of it, a touch screen is told to tap and its taps are not lost, the phase stepper,
the header and the lobby keep to the phone's width, fresh results come into view."""

from __future__ import annotations

from typing import Any

from realpolitik.game import Game
from tests.gamekit import at
from tests.server.browserkit import (
    FIND_POINT,
    HEADER_ROWS,
    SHOTS,
    click_province,
    continue_to_now,
    disband_the_first_unit,
    idle,
    in_language,
    legal,
    my_orders,
    open_at,
    put_at_a_retreat,
    put_at_an_attack_far_apart,
    put_at_the_builds,
    register_and_create,
    rewrite_stored_game,
    shot,
    sign_up,
    slow_network,
    until_phase_changes,
    watched,
)
from tests.server.conftest import LiveServer


def test_phone_map_fills_the_width_and_options_sit_by_the_unit(
    server: LiveServer, browser: Any
) -> None:
    page = browser.new_page(
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
        device_scale_factor=2,
    )
    register_and_create(page, server, "hedy", players="7")
    assert page.evaluate("document.documentElement.scrollWidth") <= 392
    width = page.evaluate("document.querySelector('#map svg').getBoundingClientRect().width")
    assert width >= 350, width
    shot(page, "7-phone")
    # each unit on the map: its menu just under the map, in view, hiding none of the map
    # (over it, a menu hid the provinces to tap next: most of Warsaw's neighbours)
    for key in page.locator("#unit-list button.unit").evaluate_all(
        "bs => bs.map(b => b.dataset.key)"
    ):
        idle(page)
        click_province(page, key.split("/")[0])
        page.wait_for_selector("#order-menu:not([hidden])", timeout=5_000)
        menu = page.locator("#order-menu").bounding_box()
        pic = page.locator("#map svg").bounding_box()
        assert menu and pic and menu["y"] >= pic["y"] + pic["height"] - 1, (key, menu, pic)
        assert menu["y"] + menu["height"] <= 844, (key, menu)  # not below the fold
        assert page.locator("#order-menu .menu-hint").is_visible(), key  # what to tap next
        page.keyboard.press("Escape")
    key = page.locator("#unit-list button.unit").first.get_attribute("data-key") or ""
    click_province(page, key.split("/")[0])
    page.wait_for_selector("#order-menu:not([hidden])")
    shot(page, "7-phone-menu", full=False)
    reach = page.evaluate(
        "[...document.querySelectorAll('#rp-overlay .rp-reach')].map(e => e.dataset.province)"
    )
    target = next(p for p in reach if page.evaluate(FIND_POINT, p))
    click_province(page, target)  # a highlighted province, tapped: the move is ordered
    page.wait_for_function(
        "(t) => [...document.querySelectorAll('#my-orders li.order')]"
        ".some(e => e.dataset.order.endsWith(' - ' + t))",
        arg=target,
    )
    idle(page)
    page.keyboard.press("Escape")
    before = page.get_attribute("#map svg", "viewBox")
    page.tap("#zoom-in")
    assert page.get_attribute("#map svg", "viewBox") != before
    shot(page, "7-phone-zoomed")


# The labels and units of the map drawn (even in part) under one of the zoom buttons (the
# part of each in the map's frame: the rest is not drawn).
UNDER_ZOOM = """() => {
    const buttons = [...document.querySelectorAll('.zoom button')]
        .map(b => b.getBoundingClientRect());
    const map = document.querySelector('#map svg').getBoundingClientRect();
    const under = [];
    for (const node of document.querySelectorAll('#map svg text.label, #map svg g.unit')) {
        const b = node.getBoundingClientRect();
        const r = {left: Math.max(b.left, map.left), right: Math.min(b.right, map.right),
            top: Math.max(b.top, map.top), bottom: Math.min(b.bottom, map.bottom)};
        if (buttons.some(z => r.right > z.left && r.left < z.right && r.bottom > z.top
            && r.top < z.bottom)) under.push(node.textContent || node.getAttribute('class'));
    }
    return under;
}"""


def test_the_zoom_buttons_hide_nothing_of_a_phone_s_map(server: LiveServer, browser: Any) -> None:
    """On a 390 px phone the zoom buttons cover no province label and no unit: as the board
    opens (zoomed on my units), zoomed in, and whole (St Petersburg's label was under them,
    and Sevastopol's fleet or label on boards zoomed on the Black Sea)."""
    page = browser.new_page(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
        device_scale_factor=2,
    )  # fmt: skip
    register_and_create(page, server, "zelda", players="7")
    power = page.get_attribute("#power", "data-power")
    assert page.evaluate(UNDER_ZOOM) == [], power
    shot(page, "zoom-buttons-phone", full=False)
    for button in ("#zoom-in", "#zoom-reset"):
        page.tap(button)
        assert page.evaluate(UNDER_ZOOM) == [], (power, button)
    assert page.get_attribute("#map svg", "viewBox") == page.get_attribute("#map svg", "data-full")
    for sea in ("BLA", "BAR"):  # zoomed on the board's east edge, north and south
        page.evaluate(
            """async (p) => { const {S} = await import('/static/core.js');
            const b = document.querySelector(`#map svg [id='${p}']`).getBBox();
            S.zoom = {scale: 2.5, cx: b.x + b.width / 2, cy: b.y + b.height / 2};
            document.getElementById('zoom-in').click(); }""",
            sea,
        )
        assert page.evaluate(UNDER_ZOOM) == [], (power, sea)
    width = page.evaluate("document.querySelector('#map svg').getBoundingClientRect().width")
    assert width >= 350 and page.evaluate("document.documentElement.scrollWidth") <= 392


def test_a_phone_opens_on_the_places_to_order(server: LiveServer, browser: Any) -> None:
    """On a phone the board opens zoomed on where orders are given: also at the builds (no
    unit of mine on the board) and at a retreat (the dislodged unit), where it opened on the
    whole map, its names a few pixels tall."""
    for user, put in (("ines", put_at_the_builds), ("ivo", put_at_a_retreat)):
        page = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True)
        open_at(page, server, user, put)
        continue_to_now(page)
        provinces = {
            k.split("/")[0]
            for k in page.locator("#unit-list button.unit").evaluate_all(
                "bs => bs.map(b => b.dataset.key)"
            )
        }
        assert provinces, user
        view = page.get_attribute("#map svg", "viewBox") or ""
        assert view != page.get_attribute("#map svg", "data-full"), (user, view)
        x, y, w, h = (float(v) for v in view.split())
        for p in provinces:  # each place to order in view
            box = page.evaluate(
                "(p) => { const b = document.querySelector(`#map svg [id='${p}']`).getBBox();"
                " return {x: b.x, y: b.y, width: b.width, height: b.height}; }",
                p,
            )
            cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
            assert x <= cx <= x + w and y <= cy <= y + h, (user, p, view)
        shot(page, f"7-phone-{user}", full=False)
        page.close()


def test_a_phone_zooms_on_the_retreat_that_follows(server: LiveServer, browser: Any) -> None:
    """On a phone, the movement processed and one of my units dislodged, the board of the
    retreats zooms on that unit and where it may go (it kept the movement's view: there,
    my units far apart, about the whole board, its names a few pixels tall)."""
    page = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True)
    open_at(page, server, "yves", put_at_an_attack_far_apart)
    # a slow network: "continue" is busy until the board it fetches is drawn (it was not:
    # the test read the picture before, and failed under load)
    slow_network(page, 400)
    page.once("dialog", lambda dialog: dialog.accept())  # units without orders hold
    page.click("#ready")
    until_phase_changes(page, "F1901M")
    continue_to_now(page)
    page.wait_for_selector("#unit-list button.unit")
    idle(page)
    view = page.get_attribute("#map svg", "viewBox") or ""
    full = float((page.get_attribute("#map svg", "data-full") or "").split()[2])
    x, y, w, h = (float(v) for v in view.split())
    assert w <= full / 2, (view, full)  # zoomed on the retreat, not on the movement's units
    for p in ("BUL", "GRE", "CON"):  # the unit, where it may retreat
        box = page.evaluate(
            "(p) => { const b = document.querySelector(`#map svg [id='${p}']`).getBBox();"
            " return {x: b.x + b.width / 2, y: b.y + b.height / 2}; }",
            p,
        )
        assert x <= box["x"] <= x + w and y <= box["y"] <= y + h, (p, box, view)
    shot(page, "phone-retreat-zoomed", full=False)


def test_a_phone_shows_fresh_results_zoomed_on_my_units(server: LiveServer, browser: Any) -> None:
    """On a phone, the results of the phase just played open zoomed on my units (they showed
    the whole board: units 5 px wide, names unreadable), then the present on its own places."""
    page = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True)
    register_and_create(page, server, "yolanda", players="7")
    mine = page.evaluate(
        "async () => { const {S} = await import('/static/core.js');"
        " return S.game.my_powers.flatMap((p) => S.game.position.units[p])"
        ".map((u) => u.split(' ')[1].split('/')[0]); }"
    )
    page.once("dialog", lambda dialog: dialog.accept())  # units without orders hold
    page.click("#ready")
    until_phase_changes(page, "S1901M")
    page.wait_for_selector("#summary .summary.fresh")
    idle(page)
    full = float((page.get_attribute("#map svg", "data-full") or "").split()[2])
    x, y, w, h = (float(v) for v in (page.get_attribute("#map svg", "viewBox") or "").split())
    assert w < full, (w, full)  # zoomed (as the present is: by how far apart my units are)
    for p in mine:  # each of my units in view
        box = page.evaluate(
            "(p) => { const b = document.querySelector(`#map svg [id='h-${p}']`).getBBox();"
            " return {x: b.x + b.width / 2, y: b.y + b.height / 2}; }",
            p,
        )
        assert x <= box["x"] <= x + w and y <= box["y"] <= y + h, (p, box, (x, y, w, h))
    shot(page, "phone-results-zoomed", full=False)
    continue_to_now(page)
    page.wait_for_selector("#unit-list button.unit")
    idle(page)
    w_now = float((page.get_attribute("#map svg", "viewBox") or "").split()[2])
    assert w_now < full, (w_now, full)  # the present: zoomed on its places to order


# What a player is told to do on the board: the brief of a movement, then a selected unit's
# menu (to move it, then to support with it). A touch screen taps, a mouse clicks.
TOLD_TO_TAP = {
    "en": (
        "Tap a unit on the map, or pick it below.",
        "Tap a highlighted province to move there, or choose:",
        "Tap the unit to support",
    ),
    "es": (
        "Toca una unidad del mapa o elígela abajo.",
        "Toca una región resaltada para mover la unidad allí, o elige:",
        "Toca la unidad a apoyar",
    ),
    "fr": (
        "Touchez une unité de la carte, ou choisissez-la ci-dessous.",
        "Touchez une province en surbrillance pour y aller, ou choisissez :",
        "Touchez l'unité à soutenir",
    ),
    "pt": (
        "Toque em uma unidade no mapa ou escolha-a abaixo.",
        "Toque em uma província destacada para mover a unidade para lá, ou escolha:",
        "Toque na unidade a ser apoiada",
    ),
}
TOLD_TO_CLICK = (
    "Click a unit on the map, or pick it below.",
    "Click a highlighted province to move there, or choose:",
    "Click the unit to support",
)


def told_to(page: Any) -> tuple[str, str, str]:
    """What the page tells to do: the end of the movement's brief (after "Units ordered: 0 of
    3. "), the menu's hint for a unit that may support, then after "Support"."""
    brief = page.inner_text("#phase-brief").split(". ", 1)[1]
    key = next(k for k, opts in legal(page).items() if any(o["kind"] == "support" for o in opts))
    page.click(f'#unit-list button.unit[data-key="{key}"]')
    page.wait_for_selector("#order-menu:not([hidden])")
    move = page.inner_text("#order-menu .menu-hint")
    page.click('#order-menu button[data-mode="support"]')
    support = page.inner_text("#order-menu .menu-hint")
    page.keyboard.press("Escape")
    idle(page)
    return brief, move, support


def test_a_touch_screen_is_told_to_tap_and_a_mouse_to_click(
    server: LiveServer, browser: Any
) -> None:
    """A phone's player was told "Click a unit...", in every language. A touch screen is
    told to tap (by its pointer, not its width: a tablet taps too, a narrow window with a
    mouse clicks)."""
    phone = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    register_and_create(phone, server, "tapio", players="7")
    for lang, told in TOLD_TO_TAP.items():
        if lang != "en":
            in_language(phone, lang, f"document.documentElement.lang === {lang!r}")
        assert told_to(phone) == told, lang
    in_language(phone, "en", "document.documentElement.lang === 'en'")
    phone.click(f'#unit-list button.unit[data-key="{next(iter(legal(phone)))}"]')
    phone.wait_for_selector("#order-menu:not([hidden])")
    shot(phone, "tap-phone", full=False)
    for viewport, touch, told in (
        ({"width": 1400, "height": 1000}, True, TOLD_TO_TAP["en"]),
        ({"width": 390, "height": 844}, False, TOLD_TO_CLICK),
        ({"width": 1400, "height": 1000}, False, TOLD_TO_CLICK),
    ):
        page = browser.new_page(viewport=viewport, has_touch=touch)
        page.context.add_cookies(phone.context.cookies())
        page.goto(phone.url)
        page.wait_for_selector("#phase-brief")
        idle(page)
        assert told_to(page) == told, (viewport, touch)
        if touch:
            shot(page, "tap-tablet", full=False)
        page.close()


def test_the_phase_stepper_keeps_one_row_on_a_phone(server: LiveServer, browser: Any) -> None:
    """On a 390 px phone the stepper's ◀ and ▶ sit beside the phase's name, however long
    (Portuguese "Agora · Primavera de 1902, retrocedimentos" put each on a line of its own)."""
    page = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True)
    open_at(page, server, "rory", put_at_a_retreat)
    disband_the_first_unit(page)
    page.click("#ready")
    until_phase_changes(page, "F1901R")
    page.wait_for_selector("#step-now")  # the retreats' results, a button back to now
    for lang in ("pt", "es", "fr"):
        in_language(page, lang, f"document.documentElement.lang === {lang!r}")
        for view in ("results", "now"):
            if view == "results":
                continue_to_now(page)
                page.click("#step-prev")
                page.wait_for_selector("#step-now")
                idle(page)
            else:
                page.click("#step-now")
                page.wait_for_selector("#step-now", state="detached")
                idle(page)
            prev, label, after = (page.locator(f"#step-{w}").bounding_box()
                                  for w in ("prev", "label", "next"))  # fmt: skip
            assert prev and label and after, lang
            for button in (prev, after):  # each beside the name, not above or below it
                assert button["y"] < label["y"] + label["height"], (lang, view, button, label)
                assert button["y"] + button["height"] > label["y"], (lang, view, button, label)
            shot(page, f"stepper-{lang}-{view}", full=False)


def test_the_phase_s_name_has_room_beside_the_sandbox_button_on_a_phone(
    server: LiveServer, browser: Any
) -> None:
    """On a 390 px phone, "Sandbox from here" on the stepper's row left the phase's name a
    sliver: Spanish "Ahora · Invierno de 1901, ajustes" was written a word a line, "Invierno"
    running over the ▶ button. The name keeps room for its words; the button goes below."""
    page = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True)
    open_at(page, server, "sancho", put_at_the_builds)
    for lang in ("en", "es", "fr", "pt"):
        if lang != "en":
            in_language(page, lang, f"document.documentElement.lang === {lang!r}")
        assert page.locator("#sandbox-from-here").is_visible(), lang
        fits = page.evaluate("""() => {
            const label = document.getElementById('step-label');
            const next = document.getElementById('step-next').getBoundingClientRect();
            return [label.scrollWidth <= label.clientWidth,
                    label.getBoundingClientRect().right <= next.left];
        }""")
        assert fits == [True, True], (lang, fits, page.inner_text("#step-label"))
        shot(page, f"stepper-sandbox-{lang}", full=False)


def test_fresh_results_come_into_view_on_a_phone(server: LiveServer, browser: Any) -> None:
    """A phone's player presses Ready at the foot of the page: when the phase is processed,
    what happened is brought into view (it stayed above, out of sight, under the words
    "Nothing to order this phase")."""
    page = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True)
    open_at(page, server, "reza", put_at_a_retreat)
    disband_the_first_unit(page)
    page.locator("#ready").scroll_into_view_if_needed()
    page.click("#ready")
    until_phase_changes(page, "F1901R")
    page.wait_for_selector("#summary .summary.fresh")
    box = page.locator("#summary").bounding_box()
    assert box and 0 <= box["y"] < 844 - 40, box
    shot(page, "fresh-results-phone", full=False)


def test_a_tap_while_the_board_is_redrawn_is_not_lost(server: LiveServer, browser: Any) -> None:
    """On a phone, a tap on a unit pressed while the board is fetched again (after the
    order just given, on a slow network) and lifted once it is redrawn still selects the
    unit: the board was replaced under the finger between pointerdown and pointerup, and
    the browser then fires no click (the tap was lost, once or twice a game)."""
    page = browser.new_page(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
        device_scale_factor=2,
    )  # fmt: skip
    register_and_create(page, server, "tara", players="7")
    options = legal(page)
    keys = [k for k in options if k != "WAIVE"]
    mover, dest = next(
        (k, o["dest"]) for k in keys for o in options[k]
        if o["kind"] == "move" and not o.get("via") and page.evaluate(FIND_POINT, o["dest"])
    )  # fmt: skip
    other = next(k for k in keys if k != mover)
    held: list[Any] = []
    page.route("**/map.svg*", lambda route: held.append(route))  # held back: a slow network
    click_province(page, mover.split("/")[0])
    page.wait_for_selector("#order-menu:not([hidden])")
    click_province(page, dest)  # the move is ordered: the board is fetched again
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the board is fetched again after an order"
    point = page.evaluate(FIND_POINT, other.split("/")[0])
    page.evaluate("document.querySelector('#map svg').dataset.old = '1'")
    page.mouse.move(point[0], point[1])
    page.mouse.down()  # the finger on the next unit, as the board arrives
    for route in held:
        route.continue_()
    page.unroute("**/map.svg*")
    page.wait_for_function("!document.querySelector('#map svg').dataset.old")  # redrawn
    idle(page)
    page.mouse.up()
    page.wait_for_selector("#order-menu:not([hidden])", timeout=3_000)
    chosen = page.evaluate("async () => (await import('/static/core.js')).S.selection.key")
    assert chosen == other and f"{mover.split('/')[0]} - {dest}" in " ".join(my_orders(page))
    shot(page, "tap-while-redrawn", full=False)


def test_a_phone_s_header_keeps_one_row_and_the_games_to_watch_are_few(
    server: LiveServer, browser: Any
) -> None:
    """On a 390 px phone the header keeps Log out on its row, in every language (it wrapped
    to a second line); the lobby lists the newest games to watch, ten, and shows more on
    asking (it listed every one)."""
    import httpx

    hosts = []
    for user in ("verena", "vittoria"):  # (a user may create 20 games at most)
        r = httpx.post(
            server.url + "/api/accounts", json={"username": user, "password": "pw-v-123"}
        )
        hosts.append({"Authorization": f"Bearer {r.json()['token']}"})
    for n in range(23):  # others' games under way, to watch
        body = {"name": f"Watch me {n}", "deadlines": "none", "bots": "random", "start": True}
        got = httpx.post(server.url + "/api/games", json=body, headers=hosts[n % 2])
        assert got.status_code == 201, got.text
    page = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True)
    sign_up(page, server, "maximiliana")
    for lang in ("en", "es", "fr", "pt"):
        in_language(page, lang, f"document.documentElement.lang === {lang!r}")
        assert page.evaluate(HEADER_ROWS) == 1, lang
        assert page.evaluate("document.documentElement.scrollWidth") <= 392, lang
    page.select_option("#language", "en")
    page.wait_for_function(  # the lobby shown again in English (it is fetched anew)
        "(document.getElementById('more-watch') || {}).textContent === 'Show 10 more'"
    )
    page.wait_for_timeout(300)
    shot(page, "phone-header", full=False)
    items = page.locator("#watch-games li")
    total = page.evaluate("async () => (await (await fetch('/api/games')).json()).watch.length")
    assert total >= 23 and items.count() == 10, (total, items.count())
    assert "Watch me 22" in items.first.inner_text()  # the newest first
    page.click("#more-watch")
    page.wait_for_function("document.querySelectorAll('#watch-games li').length === 20")
    while page.locator("#more-watch").count():  # ten more each time, up to all of them
        shown = items.count()
        page.click("#more-watch")
        page.wait_for_function(
            f"document.querySelectorAll('#watch-games li').length === {min(total, shown + 10)}"
        )
    assert items.count() == total
    shot(page, "lobby-watch-more")


# Whether each of my games' lines in the lobby is divided from the next (a border drawn
# between them): one per pair of lines.
DIVIDED = """() => {
    const items = [...document.querySelectorAll('#my-games .game-item')];
    const drawn = (s, side) => parseFloat(s[`border${side}Width`]) >= 1
        && s[`border${side}Style`] !== 'none'
        && !/^(transparent|rgba\\(.*, 0\\))$/.test(s[`border${side}Color`]);
    return items.slice(1).map((next, i) =>
        drawn(getComputedStyle(items[i]), 'Bottom') || drawn(getComputedStyle(next), 'Top'));
}"""


def test_my_games_in_the_lobby_are_set_apart_on_a_phone(server: LiveServer, browser: Any) -> None:
    """On a 390 px phone a game's line wraps over several rows (its name, phase, players,
    my powers, orders due, the deadline, its buttons): one game ran into the next. A line
    divides each from the next, and the page stays as wide as the phone."""
    page = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    sign_up(page, server, "leocadia")
    for n in range(3):
        made = page.evaluate(
            """async (name) => (await fetch('/api/games', {method: 'POST', headers: {
                'Content-Type': 'application/json', 'X-Requested-With': 'realpolitik'},
                body: JSON.stringify({name, bots: 'random', start: true})})).status""",
            f"Leocadia's table {n + 1}",
        )
        assert made == 201, made
    page.reload()
    page.wait_for_function("document.querySelectorAll('#my-games .game-details').length === 3")
    idle(page)
    shot(page, "lobby-my-games-phone", full=False)
    assert page.evaluate(DIVIDED) == [True, True]
    assert page.evaluate("document.documentElement.scrollWidth") <= 392
    page.set_viewport_size({"width": 1400, "height": 1000})
    shot(page, "lobby-my-games-desktop", full=False)


FLASH_OVER_HEADER = """async () => {
    const {flash} = await import('/static/core.js');
    flash('Something went wrong, said at some length to fill a phone', true);
    const box = document.getElementById('flash').getBoundingClientRect();
    return [...document.querySelectorAll('header#top > *')].filter(e => !e.hidden)
        .map(e => [e.id || e.className, e.getBoundingClientRect()])
        .filter(([, r]) => r.left < box.right && box.left < r.right
                 && r.top < box.bottom && box.top < r.bottom)
        .map(([name]) => name);
}"""


def test_a_flash_leaves_the_header_s_controls_uncovered(server: LiveServer, browser: Any) -> None:
    """On a phone the header has no room in the middle: an error there hid the language
    menu and the account; it now shows under the header (on a desktop, in its middle)."""
    page, errors = watched(browser)
    sign_up(page, server, "flavia")
    for width, height in ((390, 844), (1400, 1000)):
        page.set_viewport_size({"width": width, "height": height})
        assert page.evaluate(FLASH_OVER_HEADER) == [], width
        shot(page, f"flash-{width}", full=False)
    assert not errors, errors


def test_a_flash_is_put_away_by_a_tap(server: LiveServer, browser: Any) -> None:
    """On a phone a refusal's message lies over the page for 8 s, over the list of refused
    orders it points to ("see why in the list"): a tap on it puts it away."""
    page = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    register_and_create(page, server, "zenaida", players="7")
    page.fill("#typed", "hello world")
    page.tap("#submit-typed")
    page.wait_for_selector("#my-orders li.refused")
    page.wait_for_selector("#flash.error:not([hidden])")
    page.tap("#flash")
    page.wait_for_selector("#flash", state="hidden", timeout=2_000)
    assert page.locator("#my-orders li.refused").is_visible()


# The menu's lowest button's foot and the phone's action bar's top (kept at the screen's
# foot), in the screen's pixels.
MENU_AND_BAR = """() => {
    const buttons = [...document.querySelectorAll('#order-menu button')];
    const foot = Math.max(...buttons.map(b => b.getBoundingClientRect().bottom));
    return [foot, document.getElementById('action-bar').getBoundingClientRect().top];
}"""


# A point in a province that a tap there would name, as the screen shows it now (not
# scrolled to it).
INSIDE = FIND_POINT.replace('p.scrollIntoView({block: "center"});', "")

# The page scrolled so that the map's foot meets the action bar's top.
MAP_ON_THE_BAR = """() => {
    const map = document.querySelector('#map svg').getBoundingClientRect();
    const bar = document.getElementById('action-bar').getBoundingClientRect();
    window.scrollBy(0, map.bottom - bar.top);
}"""


def test_a_phone_s_menu_is_not_hidden_under_the_action_bar(
    server: LiveServer, browser: Any
) -> None:
    """A unit or centre tapped on a phone: its menu, under the map, comes into view above
    the action bar at the screen's foot (it came into the screen only: the bar hid its last
    options, a build's fleet, a retreat's disband)."""
    page = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    open_at(page, server, "bettina", put_at_the_builds)
    continue_to_now(page)
    keys = page.locator("#unit-list button.unit").evaluate_all("bs => bs.map(b => b.dataset.key)")
    assert keys and page.locator("#action-bar").is_visible()
    for key in keys:  # the map's foot just above the bar (as the page opens); a tap there
        page.evaluate(MAP_ON_THE_BAR)
        x, y = page.evaluate(INSIDE, key.split("/")[0])
        page.touchscreen.tap(x, y)
        page.wait_for_selector("#order-menu:not([hidden])")
        page.wait_for_timeout(200)
        foot, bar = page.evaluate(MENU_AND_BAR)
        assert foot <= bar, (key, foot, bar)
        shot(page, f"7-phone-menu-above-the-bar-{key}", full=False)
        page.keyboard.press("Escape")


def put_in_the_ionian_by_a_fleet(server: LiveServer, game_id: int, power: str) -> None:
    """``power``'s fleet in the Ionian Sea at S1901M, another power's fleet in the Aegean
    (an attack coming from the side of its hull)."""
    other = next(p for p in ("TURKEY", "ITALY") if p != power)

    def seas(game: Game) -> None:
        at(game, "S1901M", {"units": {power: ["F ION"], other: ["F AEG"]}, "centers": {}})

    rewrite_stored_game(server, game_id, seas)


# The tip of each move's arrowhead, and the box of the hull of each fleet, on the screen.
TIPS_AND_HULLS = """() => {
    const svg = document.querySelector('#map svg');
    const tips = [...svg.querySelectorAll('g.head path:last-child')].map((head) => {
        const [x, y] = head.getAttribute('d').slice(1).split(' ')[0].split(',').map(Number);
        const p = svg.createSVGPoint(); p.x = x; p.y = y;
        const q = p.matrixTransform(head.getScreenCTM());
        return [q.x, q.y];
    });
    const hulls = [...svg.querySelectorAll('g.unit.fleet > path:first-of-type')].map((hull) => {
        const r = hull.getBoundingClientRect();
        return [r.left, r.top, r.right, r.bottom];
    });
    return {tips, hulls};
}"""


def test_a_phone_s_arrowhead_ends_clear_of_the_fleet_it_reaches(
    server: LiveServer, browser: Any
) -> None:
    """A phone draws the units larger than a desktop (2.4 times the plain picture's, not
    2): the arrows were made for 2, and the units only enlarged, so that the head of an
    attack from the Ionian Sea on the Aegean's fleet lay under its hull. The server draws
    the units at the phone's size, the arrows' ends clear of them."""
    page = browser.new_page(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
        device_scale_factor=2,
    )  # fmt: skip
    open_at(page, server, "hull", put_in_the_ionian_by_a_fleet)
    page.fill("#typed", "F ION - AEG")
    page.tap("#submit-typed")
    page.wait_for_selector("#map svg g.order.move")
    idle(page)
    page.evaluate(  # zoomed on the Aegean, in view
        """async () => { const {S} = await import('/static/core.js');
        const b = document.querySelector("#map svg [id='AEG']").getBBox();
        S.zoom = {scale: 4, cx: b.x + b.width / 2, cy: b.y + b.height / 2};
        document.getElementById('zoom-in').click();
        document.getElementById('map').scrollIntoView(); }"""
    )
    shot(page, "phone-arrow-to-a-fleet", full=False)
    seen = page.evaluate(TIPS_AND_HULLS)
    (tip,) = seen["tips"]
    assert len(seen["hulls"]) == 2, seen
    for left, top, right, bottom in seen["hulls"]:
        assert not (left < tip[0] < right and top < tip[1] < bottom), seen
    scale = page.evaluate(
        "document.querySelector('#map svg g.unit.fleet').getAttribute('transform')"
    )
    assert scale.endswith("scale(2.4)"), scale


def test_a_phone_s_table_of_all_results_keeps_to_its_width(
    server: LiveServer, browser: Any
) -> None:
    """The table of a phase's orders and results, opened on a 390 px phone, breaks its long
    words rather than widening the page (in Spanish and Portuguese its sentences and
    reasons, "no puede desalojar a su propia unidad la flota de Constantinopla", made the
    page 6-23 px wider than the screen, shifting the whole page sideways)."""
    page = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True)
    sign_up(page, server, "xiomara")
    page.check("#new-sandbox")
    page.click("#create-game")
    page.wait_for_selector("#map svg")
    idle(page)
    given = {  # moves into one's own units, supports of no move: the longest reasons
        "RUSSIA": ["A MOS - SEV", "F SEV H", "F STP/SC - BOT", "A WAR - LVN"],
        "TURKEY": ["F ANK - CON", "A CON - SMY", "A SMY S F ANK - ARM"],
        "AUSTRIA": ["A BUD S A VIE - TRI", "A VIE - TRI", "F TRI H"],
    }
    for power in ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"):
        status = page.evaluate(
            """async ([power, orders]) => (await fetch(
                `/api/games/${location.hash.split('/')[2]}/orders`, {method: "PUT",
                 headers: {"Content-Type": "application/json", "X-Requested-With": "realpolitik"},
                 body: JSON.stringify({power, orders, ready: true})})).status""",
            [power, given.get(power, [])],
        )
        assert status == 200, (power, status)
    until_phase_changes(page, "S1901M")
    for lang in ("es", "pt", "fr", "en"):
        in_language(page, lang, f"document.documentElement.lang === {lang!r}")
        if page.get_attribute("#step-label", "data-phase") != "S1901M":
            page.click("#step-prev")
            page.wait_for_function(
                "document.getElementById('step-label').dataset.phase === 'S1901M'"
            )
            idle(page)
        if not page.locator("details.results-box[open]").count():
            page.click("details.results-box summary")
        page.wait_for_selector("#results tr.result-fails")
        assert page.evaluate("document.documentElement.scrollWidth") <= 392, lang
        if SHOTS:
            page.locator("#results").screenshot(path=f"{SHOTS}/phone-all-results-{lang}.png")


def test_a_phone_s_action_bar_of_several_powers_keeps_to_one_row(
    server: LiveServer, browser: Any
) -> None:
    """A player of several powers on a phone: the action bar's Ready is the short word in
    every language, the count beside it on one line (the long "Ready for all my powers"
    squeezed it into three lines in Spanish and French, five in Portuguese: the bar a
    seventh of the screen), and it still makes every power ready."""
    page = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    register_and_create(page, server, "ulfhild", players="3")
    assert len(page.evaluate("document.querySelector('#power').innerText").split("·")) > 1
    for lang in ("es", "fr", "pt", "en"):
        in_language(page, lang, f"document.documentElement.lang === {lang!r}")
        progress, ready, size = page.evaluate("""() => [
            document.getElementById('bar-progress').getBoundingClientRect().height,
            document.getElementById('bar-ready').innerText,
            parseFloat(getComputedStyle(document.getElementById('bar-progress')).fontSize)]""")
        assert progress < 2 * size, (lang, progress, size)  # one line of text
        assert ready == {"es": "Listo", "fr": "Prêt", "pt": "Pronto", "en": "Ready"}[lang]
    shot(page, "action-bar-phone-powers", full=False)
    assert page.get_attribute("#bar-ready", "title") == "Ready for all my powers"
    page.on("dialog", lambda d: d.accept())  # (units without orders: asked first, per power)
    page.click("#bar-ready")  # every power of mine ready: the bots are, the phase goes on
    until_phase_changes(page, "S1901M")


def pinch(page: Any, scale: float) -> None:
    """Two fingers pinched apart (``scale`` > 1) or together on the middle of the map, as a
    phone's touch screen sends them (Chromium's own gesture, through its touch-action)."""
    box = page.locator("#map svg").bounding_box()
    cdp = page.context.new_cdp_session(page)
    cdp.send(
        "Input.synthesizePinchGesture",
        {"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2,
         "scaleFactor": scale, "gestureSourceType": "touch"},
    )  # fmt: skip
    cdp.detach()


def shown(page: Any) -> list[float]:
    """The part of the map shown: its viewBox, x, y, width and height."""
    return [float(v) for v in (page.get_attribute("#map svg", "viewBox") or "").split()]


def test_a_phone_s_map_zooms_by_pinching(server: LiveServer, browser: Any) -> None:
    """Two fingers pinched apart on a phone's map zoom it in, pinched together zoom it out
    (the map let the browser pan it up and down only: a pinch did nothing, neither the
    map's zoom nor the page's; only its + and − buttons zoomed). The place between the
    fingers stays under them."""
    page = browser.new_page(
        viewport={"width": 375, "height": 667}, is_mobile=True, has_touch=True,
        device_scale_factor=3,
    )  # fmt: skip
    register_and_create(page, server, "pinchbeck", players="7")
    page.evaluate("document.getElementById('map').scrollIntoView()")
    x, y, before, h = shown(page)
    pinch(page, 2)
    page.wait_for_timeout(200)
    x2, y2, after, h2 = shown(page)
    assert after < before / 1.5, (before, after)  # zoomed in, about twice
    # the middle of the map stays in the middle
    assert abs(x2 + after / 2 - x - before / 2) < before / 10, (x, x2)
    assert abs(y2 + h2 / 2 - y - h / 2) < h / 10, (y, y2)
    shot(page, "phone-pinched-in", full=False)
    pinch(page, 0.5)
    page.wait_for_timeout(200)
    assert shown(page)[2] > after * 1.5, (after, shown(page))  # and out again
    assert page.evaluate("document.documentElement.scrollWidth") <= 375


# The controls shown that a finger would find too small to hit (under 44 by 44 CSS pixels,
# the size the phones' makers ask for): buttons, menus, fields, links, a details' summary,
# and a checkbox's label (the box itself is tapped through it); each as id or class, text,
# width, height.
TOO_SMALL = """() => [...document.querySelectorAll(
        'button, select, input:not([type=checkbox]), textarea, a[href], summary,'
        + 'label:has(> input[type=checkbox])')]
    .filter(e => e.offsetParent !== null && !e.closest('.sr-only'))
    .map(e => { const r = e.getBoundingClientRect();
        return [e.id || e.className || e.tagName, e.innerText.trim().slice(0, 24),
                Math.round(r.width), Math.round(r.height)]; })
    .filter(([, , w, h]) => w < 44 || h < 43.5)"""


def test_a_touch_screen_s_controls_are_big_enough_to_tap(server: LiveServer, browser: Any) -> None:
    """On a touch screen (a 375 px phone, a 768 px tablet) every control of the lobby and of
    a game (the header's, the draw votes, the stepper's ◀ ▶, the zoom buttons, the units to
    pick, the message's recipients) is at least 44 px each way: most were 30 px tall, the
    recipients' checkboxes 13 px, "Write to others…" 21 px, ◀ and ▶ 30 px wide."""
    for user, size in (("tapsalot", (375, 667)), ("tabbitha", (768, 1024))):
        page = browser.new_page(
            viewport={"width": size[0], "height": size[1]}, is_mobile=True, has_touch=True,
            device_scale_factor=2,
        )  # fmt: skip
        sign_up(page, server, user)
        assert page.evaluate(TOO_SMALL) == [], (user, "lobby")
        page.fill("#new-name", f"{user}'s game")
        page.select_option("#new-players", "3")  # several powers: a draw vote for each
        page.click("#create-game")
        page.wait_for_selector("#map svg")
        idle(page)
        page.click("details.new-thread summary")  # the recipients shown
        page.wait_for_selector("input.recipient")
        assert page.evaluate(TOO_SMALL) == [], (user, "game")
        key = page.locator("#unit-list button.unit").first.get_attribute("data-key") or ""
        click_province(page, key.split("/")[0])
        page.wait_for_selector("#order-menu:not([hidden])")
        assert page.evaluate(TOO_SMALL) == [], (user, "menu")
        page.locator("#order-menu .menu-option").first.click()  # an order given: its ✕
        page.wait_for_selector("#my-orders li.order button")
        idle(page)
        assert page.evaluate(TOO_SMALL) == [], (user, "orders")
        assert page.evaluate("document.documentElement.scrollWidth") <= size[0], user
        shot(page, f"touch-controls-{size[0]}")
        page.close()


# The orders offered for the unit or centre selected: the menu's and the legal options'
# buttons, each its text and its tooltip.
OFFERED = """() => [...document.querySelectorAll('#order-menu .menu-option, #legal .legal-option')]
    .map(b => [b.innerText.trim(), b.title])"""


def test_a_touch_screen_names_the_orders_offered_in_words(server: LiveServer, browser: Any) -> None:
    """A touch screen has no tooltip: in English the orders offered were their notation
    alone, their meaning said only on hovering them ("A ANK B" or "F ANK B": which builds
    the fleet?). There they are said in words; a mouse keeps the short notation and its
    tooltip."""
    for user, touch in (("buildabel", True), ("deskbuild", False)):
        page = browser.new_page(
            viewport={"width": 375 if touch else 1280, "height": 667 if touch else 800},
            is_mobile=touch, has_touch=touch,
        )  # fmt: skip
        homes = open_at(page, server, user, put_at_the_builds)[1]
        continue_to_now(page)
        click_province(page, homes[0])
        page.wait_for_selector("#order-menu:not([hidden]) .menu-option")
        offered = page.evaluate(OFFERED)
        assert len(offered) >= 2, (user, offered)  # an army and a fleet, in the menu and below
        for text, long in offered:
            assert long, (user, text)
            notation = text.startswith(("A ", "F ")) and text.endswith(" B")  # "F STP/NC B"
            assert text == long if touch else notation, (user, text, long)
        shot(page, f"orders-offered-{'touch' if touch else 'mouse'}", full=False)
        page.close()


# Whether the middle of province ``p`` is in the part of the map shown.
IN_VIEW = """(p) => { const svg = document.querySelector('#map svg');
    const b = svg.querySelector(`[id='${p}']`).getBBox();
    const [x, y, w, h] = svg.getAttribute('viewBox').split(' ').map(Number);
    const cx = b.x + b.width / 2, cy = b.y + b.height / 2;
    return x <= cx && cx <= x + w && y <= cy && cy <= y + h; }"""


def test_a_unit_picked_from_the_list_comes_into_the_zoomed_map_s_view(
    server: LiveServer, browser: Any
) -> None:
    """On a phone whose map is zoomed on one corner, a unit picked from the list below (the
    way the page offers besides the map) was highlighted out of view, the menu saying "Tap
    a highlighted province" with none to see: the map now turns to it."""
    page = browser.new_page(
        viewport={"width": 375, "height": 667}, is_mobile=True, has_touch=True,
        device_scale_factor=2,
    )  # fmt: skip
    register_and_create(page, server, "farpicker", players="7")
    keys = page.locator("#unit-list button.unit").evaluate_all("bs => bs.map(b => b.dataset.key)")
    mine = {k.split("/")[0] for k in keys}
    far = next(p for p in ("NAO", "SYR", "NAF", "BAR") if p not in mine)
    page.evaluate(  # zoomed on a corner of the board, far from my units
        """async (p) => { const {S} = await import('/static/core.js');
        const b = document.querySelector(`#map svg [id='${p}']`).getBBox();
        S.zoom = {scale: 5, cx: b.x + b.width / 2, cy: b.y + b.height / 2};
        document.getElementById('zoom-in').click(); }""",
        far,
    )
    key = keys[0].split("/")[0]
    assert not page.evaluate(IN_VIEW, key), (far, key)
    page.locator("#unit-list button.unit").first.tap()
    page.wait_for_selector("#order-menu:not([hidden])")
    assert page.evaluate(IN_VIEW, key), (far, key, page.get_attribute("#map svg", "viewBox"))
    shot(page, "phone-picked-from-the-list", full=False)


def test_the_lobby_s_checkboxes_keep_their_shape_on_a_phone(
    server: LiveServer, browser: Any
) -> None:
    """On a 375 px phone the long words beside the new game's Sandbox checkbox squeezed the
    box to two thirds of its width (13 px by 21 on a touch screen): each box is square."""
    for user, touch in (("squarina", True), ("squarello", False)):
        page = browser.new_page(
            viewport={"width": 375, "height": 667}, is_mobile=True, has_touch=touch
        )
        sign_up(page, server, user)
        boxes = page.locator("input[type=checkbox]").evaluate_all(
            "bs => bs.filter(b => b.offsetParent).map(b => { const r = b.getBoundingClientRect();"
            " return [b.id, Math.round(r.width), Math.round(r.height)]; })"
        )
        assert boxes, user
        for name, width, height in boxes:
            assert width == height, (user, name, width, height)
        page.close()


def test_a_tap_on_the_map_does_not_press_the_menu_it_opens(
    server: LiveServer, browser: Any
) -> None:
    """A tap on a phone's map opens the unit's menu under the map and scrolls it into view;
    the browser's click that follows a tap was then sent to whatever had come under the
    finger: a build's menu, in words two rows tall, came there, and the tap on London gave
    its order or closed it at once. The map's taps send no click after them."""
    page = browser.new_page(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )  # fmt: skip
    open_at(page, server, "ghostina", put_at_the_builds)
    continue_to_now(page)
    page.evaluate(
        "window.clicks = []; document.addEventListener('click',"
        " (e) => window.clicks.push(e.target.className || e.target.tagName), true)"
    )
    keys = page.locator("#unit-list button.unit").evaluate_all("bs => bs.map(b => b.dataset.key)")
    for key in keys:  # the map's foot just above the bar; a tap there
        page.evaluate(MAP_ON_THE_BAR)
        x, y = page.evaluate(INSIDE, key.split("/")[0])
        page.touchscreen.tap(x, y)
        page.wait_for_timeout(300)
        assert page.evaluate("window.clicks") == [], key
        assert page.locator("#order-menu").is_visible(), key
        assert my_orders(page) == [], key
        page.keyboard.press("Escape")
