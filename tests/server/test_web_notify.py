"""What waits for me, told while I look elsewhere, in a real browser: the tab's title
(core.js), and notices in this browser (notify.js) from a game's page or a lobby in a
background tab, a deadline near, turned on from the account or the game's page, blocked or
unknown to the browser."""

from __future__ import annotations

import time
from typing import Any

from tests.server.browserkit import (
    GAME,
    HIDE_TAB,
    MY_POWERS,
    SHOW_TAB,
    back_to_the_lobby,
    guest_joins,
    host_a_table,
    idle,
    in_language,
    phase,
    register_and_create,
    shot,
    sign_up,
    start_elsewhere,
    stored_game,
    title,
    until,
    until_phase_changes,
    until_title,
)
from tests.server.conftest import LiveServer


def test_the_tab_s_title_tells_what_waits_for_me(server: LiveServer, browser: Any) -> None:
    """The tab's title names the page and, before it, what waits for the player: messages
    unread "(1)", orders due "●"; on the lobby, how many games await orders. It follows
    the messages heard and read, Ready, and the page left; and it speaks the page's language."""
    import httpx

    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.on("dialog", lambda d: d.accept())  # Ready with orders missing asks first
    link = host_a_table(page, server, "tabitha", "Tab table")
    assert title(page) == "Tab table · forming — realpolitik"
    tamsin = guest_joins(server, link, "tamsin", "pw-tamsin")
    page.click("#start")
    page.wait_for_selector("#compose")
    idle(page)
    gid = int(page.evaluate("location.hash.split('/')[2]"))
    base = f"{server.url}/api/games/{gid}"
    mine = page.evaluate(MY_POWERS)
    theirs = httpx.get(base, headers=tamsin).json()["my_powers"]
    shown = page.inner_text("#phase")  # the phase as the page shows it
    assert shown.startswith("Spring 1901"), shown
    here = f"Tab table · {shown} — realpolitik"
    until_title(page, "● " + here)  # orders due
    body = {"sender": theirs[0], "recipients": [mine[0]], "body": "A word in private"}
    assert httpx.post(base + "/messages", json=body, headers=tamsin).status_code == 201
    until_title(page, "(1) ● " + here)  # heard by push, in a thread not open
    page.click(f'#threads button.thread[data-thread="{theirs[0]}"]')
    until_title(page, "● " + here)  # read
    page.evaluate(HIDE_TAB)  # a message in the open thread while the tab is in the background
    body["body"] = "And another"
    assert httpx.post(base + "/messages", json=body, headers=tamsin).status_code == 201
    until_title(page, "(1) ● " + here)
    page.evaluate(SHOW_TAB)  # read once the tab is back
    until_title(page, "● " + here)
    page.click('#threads button.thread[data-thread="*"]')
    body["body"] = "Still there?"
    assert httpx.post(base + "/messages", json=body, headers=tamsin).status_code == 201
    until_title(page, "(1) ● " + here)
    page.click("#whoami")  # another page: nothing of the game's is left in the title
    page.wait_for_selector("#change-password")
    assert title(page) == "Account — realpolitik"
    page.click("#home")
    page.wait_for_selector("#my-games .game-details")
    idle(page)
    assert title(page) == "(1) ● 1 game awaiting orders — realpolitik"
    page.click("#my-games .game-item button")
    page.wait_for_selector("#compose")
    idle(page)
    until_title(page, "(1) ● " + here)
    page.click(f'#threads button.thread[data-thread="{theirs[0]}"]')
    page.click("#ready-all" if page.locator("#ready-all").count() else "#ready")
    idle(page)
    until_title(page, here)  # nothing waits for me here now
    page.click("#home")
    page.wait_for_selector("#my-games .game-details")
    idle(page)
    assert title(page) == "realpolitik"
    # a player elsewhere: the lobby counts the game, in Spanish (the other languages alike)
    other = browser.new_context().new_page()
    other.goto(server.url + "/")
    other.wait_for_selector("#auth-user")
    other.fill("#auth-user", "tamsin")
    other.fill("#auth-pass", "pw-tamsin")
    other.click("#login")
    other.wait_for_selector("#my-games .game-details")
    idle(other)
    assert title(other) == "● 1 game awaiting orders — realpolitik"
    in_language(other, "es", "document.documentElement.lang === 'es'")
    other.wait_for_selector("#my-games .game-details")
    assert title(other) == "● 1 partida espera órdenes — realpolitik"
    other.click("#my-games .game-item button")
    other.wait_for_selector("#compose")
    idle(other)
    shown = other.inner_text("#phase")
    assert shown.startswith("Primavera de 1901"), shown
    until_title(other, f"● Tab table · {shown} — realpolitik")
    # a new phase, heard by push: both titles name it, and orders are due again
    page.click("#my-games .game-item button")
    page.wait_for_selector("#compose")
    idle(page)
    until_title(page, here)
    for power in theirs:
        httpx.post(base + "/ready", json={"power": power, "ready": True}, headers=tamsin)
    until_phase_changes(page, "S1901M")
    shown = page.inner_text("#phase")
    assert shown.startswith("Fall 1901"), shown
    until_title(page, f"● Tab table · {shown} — realpolitik")
    until_phase_changes(other, "S1901M")
    shown = other.inner_text("#phase")
    assert shown.startswith("Otoño de 1901"), shown
    until_title(other, f"● Tab table · {shown} — realpolitik")


# The page's notices recorded as it makes them (the browser's own still shows them), and
# the window brought forward counted.
RECORD_NOTICES = """(() => {
  const Notice = window.Notification;
  if (!Notice) return;
  window.notices = [];
  window.noticesMade = [];
  window.focusAsked = 0;
  const focus = window.focus.bind(window);
  window.focus = () => { window.focusAsked += 1; focus(); };
  window.Notification = class extends Notice {
    constructor(title, options = {}) {
      super(title, options);
      window.notices.push({title, body: options.body, tag: options.tag});
      window.noticesMade.push(this);
    }
  };
})()"""


def notices(page: Any) -> list[dict[str, str]]:
    return list(page.evaluate("window.notices"))


def everyone_ready(
    page: Any, base: str, mine: list[str], theirs: list[str], headers: dict[str, str]
) -> None:
    """Every power of the game at ``base`` (its API address) says it is ready: ``mine``
    from the page (its session), ``theirs`` through the API with the other's ``headers``."""
    import httpx

    gid = int(base.rsplit("/", 1)[1])
    for power in mine:
        page.evaluate(
            """async ([id, power]) => fetch(`/api/games/${id}/ready`, {method: "POST",
            headers: {"Content-Type": "application/json", "X-Requested-With": "realpolitik"},
            body: JSON.stringify({power, ready: true})})""",
            [gid, power],
        )
    for power in theirs:
        r = httpx.post(base + "/ready", json={"power": power, "ready": True}, headers=headers)
        assert r.status_code == 200, r.text


def until_notices(page: Any, n: int) -> None:
    """Wait for the page to have made ``n`` notices, and say which it made if it never does."""
    until(page, "(n) => window.notices.length >= n", n, lambda: f"notices {notices(page)!r}")


def noticing(browser: Any, *, allowed: bool = True) -> Any:
    """A desktop-size page whose notices are recorded (``allowed``: the browser lets the
    site show them; else it answers no when asked)."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    if allowed:
        context.grant_permissions(["notifications"])
    context.add_init_script(RECORD_NOTICES)
    return context.new_page()


def notices_on(page: Any, on: bool = True) -> None:
    """Notices in this browser turned on (or off) in the account, then back to the lobby."""
    page.click("#whoami")
    page.wait_for_selector("#notify-browser")
    idle(page)
    page.set_checked("#notify-browser", on)
    page.wait_for_selector("#flash.info:not([hidden])")
    idle(page)
    assert page.is_checked("#notify-browser") == on
    assert page.evaluate("localStorage.getItem('rp_notify')") == ("on" if on else None)
    if on:  # a sample shown at once; the news to come is counted from none
        assert [n["tag"] for n in notices(page)] == ["realpolitik-on"]
        page.evaluate("window.notices.length = 0; window.noticesMade.length = 0")
    back_to_the_lobby(page)


def due_names(page: Any) -> str:
    """My powers whose orders are due in the game shown, named as the page names them."""
    game = page.evaluate(GAME)
    due = [
        p
        for p in game["my_powers"]
        if game["orders"][p]["to_act"] and not game["orders"][p]["ready"]
    ]
    return ", ".join(game["names"]["powers"][p] for p in due)


def test_notices_in_this_browser_tell_of_press_and_phases_while_the_tab_is_hidden(
    server: LiveServer, browser: Any
) -> None:
    """Asked for in the account, notices in this browser tell, while the game's tab is in
    the background, of a message to me or to everyone (not my own) and of a new phase where
    my orders are due; each kind of news of a game has its tag (the next replaces it). None
    while the page is in view, none once turned off; a click on one brings the tab forward."""
    import httpx

    page = noticing(browser)
    link = host_a_table(page, server, "notburga", "Notice table")
    nils = guest_joins(server, link, "nils")
    page.click("#start")
    page.wait_for_selector("#compose")
    idle(page)
    gid = int(page.evaluate("location.hash.split('/')[2]"))
    base = f"{server.url}/api/games/{gid}"
    # off until asked for, in the account, which says what they tell
    page.click("#whoami")
    page.wait_for_selector("#notify-browser")
    assert not page.is_checked("#notify-browser")
    assert "background tab" in page.inner_text("#notify-status")
    notices_on(page)
    page.click("#whoami")
    page.wait_for_selector("#notify-browser:checked")
    shot(page, "notify-account")
    page.set_viewport_size({"width": 390, "height": 844})
    shot(page, "notify-account-phone")
    page.set_viewport_size({"width": 1400, "height": 1000})
    page.click("#home")
    page.click(f'#my-games .game-item[data-game="{gid}"] button')
    page.wait_for_selector("#compose")
    idle(page)
    theirs = httpx.get(base, headers=nils).json()
    sender = theirs["my_powers"][0]
    name = theirs["names"]["powers"][sender]
    mine = page.evaluate(MY_POWERS)

    def say(body: str, to: list[str]) -> None:
        """``body`` sent by the other player, and heard by the page (in whichever thread)."""
        with page.expect_response(lambda r: "/messages?after=" in r.url) as heard:
            said = {"sender": sender, "recipients": to, "body": body}
            assert httpx.post(base + "/messages", json=said, headers=nils).status_code == 201
        assert body in heard.value.text()
        idle(page)

    say("In plain view", [mine[0]])  # the page in view: no notice
    page.evaluate(HIDE_TAB)
    say("A word in private", [mine[0]])
    until_notices(page, 1)
    press = f"realpolitik-{gid}-press"
    said = {
        "title": f"Notice table · {name} writes to you",
        "body": "A word in private",
        "tag": press,
    }
    assert notices(page) == [said]
    say("To all of you", [])
    until_notices(page, 2)
    said = {
        "title": f"Notice table · {name} writes to everyone",
        "body": "To all of you",
        "tag": press,
    }
    assert notices(page)[1] == said
    page.evaluate(
        """async ([id, power]) => fetch(`/api/games/${id}/messages`, {method: "POST",
        headers: {"Content-Type": "application/json", "X-Requested-With": "realpolitik"},
        body: JSON.stringify({sender: power, recipients: [], body: "My own words"})})""",
        [gid, mine[0]],
    )  # (from another tab of mine)
    page.wait_for_function("document.getElementById('messages').innerText.includes('My own words')")
    assert len(notices(page)) == 2  # my own message: no notice
    # a new phase, my orders due there
    before = phase(page)
    everyone_ready(page, base, mine, theirs["my_powers"], nils)
    until_phase_changes(page, before)
    until_notices(page, 3)
    shown = page.inner_text("#phase")
    assert shown.startswith("Fall 1901"), shown
    told = {
        "title": f"Notice table · {shown}",
        "body": f"Your orders are due: {due_names(page)}",
        "tag": f"realpolitik-{gid}-phase",
    }
    assert notices(page)[2] == told
    page.evaluate("window.noticesMade.at(-1).onclick()")  # clicked: the tab comes forward
    assert page.evaluate("[window.focusAsked, location.hash]") == [1, f"#/game/{gid}"]
    page.evaluate(SHOW_TAB)
    say("Back in view", [mine[0]])
    assert len(notices(page)) == 3  # in view: none
    notices_on(page, False)
    page.click(f'#my-games .game-item[data-game="{gid}"] button')
    page.wait_for_selector("#compose")
    idle(page)
    page.evaluate(HIDE_TAB)
    say("Nobody told", [mine[0]])
    assert len(notices(page)) == 3  # turned off: none


# The tab looked at for a moment, and put in the background again at once.
GLANCE = """() => {
  delete document.hidden;
  document.dispatchEvent(new Event("visibilitychange"));
  Object.defineProperty(document, "hidden", {value: true, configurable: true});
}"""


def test_the_lobby_in_the_background_tells_of_my_games_and_its_notice_opens_the_game(
    server: LiveServer, browser: Any
) -> None:
    """A lobby in a background tab tells by notices what its look at my games finds new: my
    game started, a new phase where my orders are due, a message to me; a click on a notice
    shows the game."""
    import httpx

    page = noticing(browser)
    link = host_a_table(page, server, "lotte", "Lobby notices")
    gid = int(page.evaluate("location.hash.split('/')[2]"))
    base = f"{server.url}/api/games/{gid}"
    notices_on(page)  # (on the lobby now)
    page.evaluate(HIDE_TAB)
    lukas = guest_joins(server, link, "lukas")
    start_elsewhere(page, gid)

    def glance() -> dict[str, Any]:
        """The lobby looked at for a moment; returns the game's state, as I see it."""
        with page.expect_response(lambda r: "/api/games?language=" in r.url):
            page.evaluate(GLANCE)
        idle(page)
        return dict(page.evaluate(f"async () => (await (await fetch('/api/games/{gid}')).json())"))

    def phase_told(state: dict[str, Any]) -> dict[str, str]:
        due = [p for p in state["my_powers"] if state["orders"][p]["to_act"]]
        return {
            "title": f"Lobby notices · {state['names']['phase']}",
            "body": "Your orders are due: " + ", ".join(state["names"]["powers"][p] for p in due),
            "tag": f"realpolitik-{gid}-phase",
        }

    state = glance()
    until_notices(page, 1)
    assert state["phase"] == "S1901M"
    assert notices(page) == [phase_told(state)]
    mine = state["my_powers"]
    theirs = httpx.get(base, headers=lukas).json()
    sender = theirs["my_powers"][0]
    said = {"sender": sender, "recipients": [mine[0]], "body": "Shall we talk?"}
    assert httpx.post(base + "/messages", json=said, headers=lukas).status_code == 201
    everyone_ready(page, base, mine, theirs["my_powers"], lukas)
    deadline = time.monotonic() + 20
    while (
        httpx.get(base, headers=lukas).json()["phase"] == "S1901M" and time.monotonic() < deadline
    ):
        time.sleep(0.2)
    state = glance()
    until_notices(page, 3)
    assert state["phase"] == "F1901M"
    assert notices(page)[1:] == [
        phase_told(state),
        {
            "title": f"Lobby notices · {theirs['names']['powers'][sender]} writes to you",
            "body": "Shall we talk?",
            "tag": f"realpolitik-{gid}-press",
        },
    ]
    page.evaluate("window.noticesMade.at(-1).onclick()")
    page.wait_for_selector("#compose")
    assert page.evaluate("[window.focusAsked, location.hash]") == [1, f"#/game/{gid}"]


def test_a_deadline_near_with_my_orders_not_ready_is_told_once(
    server: LiveServer, browser: Any
) -> None:
    """The game's page in the background, notices on: the deadline brought within the hour
    (heard by push) while my orders are not ready is told, once in the phase."""
    page = noticing(browser)
    register_and_create(page, server, "dorian")
    gid = int(page.evaluate("location.hash.split('/')[2]"))
    notices_on(page)
    page.click(f'#my-games .game-item[data-game="{gid}"] button')
    page.wait_for_selector("#map svg")
    idle(page)
    page.evaluate(HIDE_TAB)
    db = stored_game(server)
    try:
        db.execute("UPDATE games SET deadline_at = ? WHERE id = ?", (time.time() + 1790, gid))
        db.commit()
    finally:
        db.close()
    until_notices(page, 1)
    told = {
        "title": f"dorian's game · {page.inner_text('#phase')}",
        "body": f"Deadline in 30 min, and your orders are not ready: {due_names(page)}",
        "tag": f"realpolitik-{gid}-deadline",
    }
    assert notices(page) == [told]
    page.wait_for_timeout(2_500)  # the clock ticks on: told once
    assert notices(page) == [told]


def test_notices_blocked_by_the_browser_or_unknown_to_it(server: LiveServer, browser: Any) -> None:
    """Notices the browser refuses when asked: the choice says it is blocked by the browser,
    and cannot be ticked. A browser without notices: no such choice."""
    page = noticing(browser, allowed=False)
    sign_up(page, server, "bertil")
    assert page.evaluate("Notification.permission") == "default"  # not asked on the way in
    page.click("#whoami")
    page.wait_for_selector("#notify-browser")
    page.check("#notify-browser")
    page.wait_for_selector("#notify-browser:disabled")
    idle(page)
    assert not page.is_checked("#notify-browser")
    assert "blocks notifications" in page.inner_text("#notify-status")
    assert page.evaluate("localStorage.getItem('rp_notify')") is None
    shot(page, "notify-blocked")
    in_language(page, "pt", "document.documentElement.lang === 'pt'")
    page.wait_for_selector("#notify-browser:disabled")
    assert "bloqueia as notificações" in page.inner_text("#notify-status")
    none = browser.new_context(
        viewport={"width": 1400, "height": 1000},
        storage_state=page.context.storage_state(),
    ).new_page()
    none.add_init_script("delete window.Notification")
    none.goto(server.url + "/#/account")
    none.wait_for_selector("#change-password")
    idle(none)
    assert none.locator("#notify-browser").count() == 0
    # a browser that shows notices only from a service worker (Chrome on Android): the
    # permission given, yet a page's notice throws; the choice says so and stays unticked
    phone = browser.new_context(
        viewport={"width": 390, "height": 844}, storage_state=page.context.storage_state()
    )
    phone.grant_permissions(["notifications"])
    android = phone.new_page()
    android.add_init_script(
        """window.Notification = class extends window.Notification {
             constructor() { throw new TypeError("Illegal constructor"); } }"""
    )
    android.goto(server.url + "/#/account")
    android.wait_for_selector("#notify-browser")
    idle(android)
    android.click("#notify-browser")  # (it does not stay ticked)
    android.wait_for_selector("#notify-browser:disabled")
    idle(android)
    assert not android.is_checked("#notify-browser")
    assert "aplicativos instalados" in android.inner_text("#notify-status")  # (pt, as chosen)
    assert android.evaluate("localStorage.getItem('rp_notify')") == "unable"
    shot(android, "notify-unable-phone", full=False)


def test_the_game_page_offers_notices_in_this_browser(server: LiveServer, browser: Any) -> None:
    """Notices in this browser were offered in the account page only: a player in a game
    had no pointer to them. By the game's clock, a small button turns them on as the
    account's choice does (the browser asks, a sample shows, the account then says on)
    and goes once they are; a browser that blocks them says so."""
    page = noticing(browser)
    register_and_create(page, server, "nerissa", players="7")
    button = page.locator("#game-head #notify-game")
    assert button.is_visible()
    assert button.get_attribute("title") == (
        "While realpolitik is in a background tab, this browser tells you when a new phase"
        " needs your orders, when a message comes for you, and when a deadline is near and"
        " your orders are not ready."
    )
    shot(page, "notify-game-desktop", full=False)
    phone = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
        storage_state=page.context.storage_state(),
    ).new_page()  # fmt: skip
    phone.goto(page.url)
    phone.wait_for_selector("#game-head #notify-game")
    idle(phone)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 392
    shot(phone, "notify-game-phone", full=False)
    phone.context.close()
    button.click()
    page.wait_for_selector("#flash.info:not([hidden])")
    idle(page)
    assert page.inner_text("#flash") == "This browser will notify you."
    assert page.evaluate("localStorage.getItem('rp_notify')") == "on"
    assert [n["tag"] for n in notices(page)] == ["realpolitik-on"]
    assert button.count() == 0  # on: nothing more to offer here
    page.reload()
    page.wait_for_selector("#game-head #clock")
    idle(page)
    assert button.count() == 0
    page.click("#whoami")
    page.wait_for_selector("#notify-browser")
    assert page.is_checked("#notify-browser")
    # the browser blocks them: told so where the button was
    blocked = noticing(browser, allowed=False)
    register_and_create(blocked, server, "norberto", players="7")
    blocked.click("#notify-game")
    blocked.wait_for_selector("#flash.error:not([hidden])")
    idle(blocked)
    assert "blocks notifications" in blocked.inner_text("#flash")
    assert blocked.locator("#notify-game").count() == 0
    assert blocked.evaluate("localStorage.getItem('rp_notify')") is None
