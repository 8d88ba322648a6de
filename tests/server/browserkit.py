"""What the web page's browser tests (``tests/server/test_web_*.py``: a real browser, Debian's
headless Chromium driven by Playwright, on a desktop and a phone) share: pages watched for
script errors, an account and a game made through the page, the page's language, the map
clicked, screenshots (``REALPOLITIK_SCREENSHOTS=dir`` keeps them), and the live server's
stored game set at a position (builds, removals, a retreat, an attack, a convoy).
The ``server`` and ``browser`` fixtures are in ``conftest.py``."""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from realpolitik.formats.savegame import game_from_json, game_to_json
from realpolitik.game import Game
from tests.gamekit import at
from tests.server.conftest import LiveServer

# --- the page -----------------------------------------------------------------------------

SHOTS = os.environ.get("REALPOLITIK_SCREENSHOTS")


def shot(page: Any, name: str, *, full: bool = True) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=full)


def idle(page: Any) -> None:
    page.wait_for_function("!document.body.dataset.busy")


def unexpected(message: Any) -> bool:
    """A console error other than the answers the test asks for (401 before logging in,
    422 for a refused order)."""
    text = str(message.text)
    return message.type == "error" and not ("401" in text or "422" in text)


def watched(browser: Any, *, accept_dialogs: bool = False) -> tuple[Any, list[str]]:
    """A desktop-size page, and the list its script errors and unexpected console errors
    go to (``accept_dialogs``: its confirmations are answered yes)."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if unexpected(m) else None)
    if accept_dialogs:
        page.on("dialog", lambda d: d.accept())
    return page, errors


def phase(page: Any) -> str:
    return str(page.get_attribute("#phase", "data-phase"))


def my_orders(page: Any) -> list[str]:
    return [str(x) for x in page.locator("#my-orders li.order.ok").evaluate_all(
        "els => els.map(e => e.dataset.order)")]  # fmt: skip


def legal(page: Any) -> dict[str, list[dict[str, Any]]]:
    """The legal orders the page holds for the power shown (as the server gave them)."""
    return dict(
        page.evaluate("""async () => {
        const g = document.querySelector('#power').dataset.power || '';
        const id = location.hash.split('/')[2];
        const r = await fetch(`/api/games/${id}/legal?power=${g}`);
        return await r.json();
    }""")
    )


def until_phase_changes(page: Any, before: str) -> None:
    page.wait_for_function(
        f"document.getElementById('phase').dataset.phase !== '{before}'", timeout=30_000
    )
    idle(page)


def continue_to_now(page: Any) -> None:
    """Past the results of each phase processed meanwhile, to the present."""
    for _ in range(6):
        if not page.locator("#continue").count():
            return
        page.click("#continue")
        idle(page)


def slow_network(page: Any, latency_ms: int) -> None:
    """Every request of ``page`` from now on answered ``latency_ms`` later."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    conditions = {"latency": latency_ms, "downloadThroughput": -1, "uploadThroughput": -1}
    cdp.send("Network.emulateNetworkConditions", {"offline": False, **conditions})


def in_language(page: Any, lang: str, ready: str) -> None:
    """The page's language set to ``lang``, and the page shown again in it (``ready``: a
    script true once it is)."""
    page.select_option("#language", lang)
    page.wait_for_function(ready)
    idle(page)


def declined(page: Any, *, once: bool = False) -> list[str]:
    """The page's questions (``confirm``), each answered no: the list of what they asked,
    filled as they come (``once``: only the next one is answered)."""
    asked: list[str] = []

    def answer(dialog: Any) -> None:
        asked.append(dialog.message)
        dialog.dismiss()

    (page.once if once else page.on)("dialog", answer)
    return asked


def title(page: Any) -> str:
    return str(page.evaluate("document.title"))


def until(page: Any, predicate: str, arg: Any, said: Callable[[], str]) -> None:
    """Wait for ``predicate`` (a script's function of ``arg``) to hold in the page; if it
    never does, fail with what ``said`` tells of the page then."""
    try:
        page.wait_for_function(predicate, arg=arg, timeout=10_000)
    except Exception as e:
        raise AssertionError(said()) from e


def until_title(page: Any, expected: str) -> None:
    """Wait for the tab's title to be ``expected``, and say what it was if it never is."""
    until(page, "(t) => document.title === t", expected, lambda: f"title {title(page)!r}")


# A point in the province that a click there would name (as the page reads a click: the
# nearest element with data-province or a three-letter id), scrolled into view.
FIND_POINT = """(id) => {
  const p = document.querySelector(`#map svg [id="${id}"]`);
  if (!p) return null;
  p.scrollIntoView({block: "center"});
  const named = (node) => {
    for (let n = node; n && n.getAttribute; n = n.parentNode) {
      const raw = n.getAttribute("data-province") || n.id;
      if (raw && /^[A-Z]{3}$/.test(raw)) return raw;
    }
    return null;
  };
  const r = p.getBoundingClientRect();
  const at = (x, y) => named(document.elementFromPoint(x, y)) === id;
  // well inside, not on a border (the outline a hovered neighbour gets reaches over it)
  const inside = (x, y) => at(x, y) && at(x - 5, y) && at(x + 5, y) && at(x, y - 5) && at(x, y + 5);
  for (const ok of [inside, at]) for (let i = 1; i < 24; i++) for (let j = 1; j < 24; j++) {
    const x = r.left + r.width * i / 24, y = r.top + r.height * j / 24;
    if (ok(x, y)) return [x, y];
  }
  return null;
}"""


def click_province(page: Any, province: str) -> None:
    point = page.evaluate(FIND_POINT, province)
    assert point, f"no clickable point in {province}"
    page.mouse.click(point[0], point[1])


# --- accounts and games, made through the page (or the API) -------------------------------


def sign_up(page: Any, server: LiveServer, user: str) -> None:
    """Open the site and create the account ``user``: the lobby shows."""
    page.goto(server.url + "/")
    page.fill("#auth-user", user)
    page.fill("#auth-pass", "lovelace1815")
    page.click("#register")
    page.wait_for_selector("#create-game, #flash.error:not([hidden])")
    refused = page.locator("#flash.error:not([hidden])")
    # each test's users are its own: the server is shared by the tests of a worker, and
    # test_web_users.py checks that no two tests sign up the same name
    assert not refused.count(), f"sign-up of {user} refused: {refused.inner_text()}"


def register_and_create(page: Any, server: LiveServer, user: str, **options: str) -> None:
    sign_up(page, server, user)
    page.fill("#new-name", f"{user}'s game")
    page.select_option("#new-deadlines", "none")
    for name, value in options.items():
        page.select_option(f"#new-{name}", value)
    page.click("#create-game")
    page.wait_for_selector("#map svg")
    idle(page)


def host_a_table(page: Any, server: LiveServer, user: str, name: str, players: str = "3") -> str:
    """Sign up as ``user``, create a game ``name`` of ``players`` players without starting
    it and without deadlines; return its invitation link."""
    sign_up(page, server, user)
    page.fill("#new-name", name)
    page.select_option("#new-players", players)
    page.select_option("#new-deadlines", "none")
    page.uncheck("#new-start")
    page.click("#create-game")
    page.wait_for_selector("#invite-link")
    link: str = page.inner_text("#invite-link")
    return link


def sign_up_invited(page: Any, link: str, user: str) -> None:
    """Follow the invitation ``link`` logged out, and sign up there as ``user``: the game
    shows, its players listed."""
    page.goto(link)
    page.wait_for_selector("#invited")
    page.fill("#auth-user", user)
    page.fill("#auth-pass", "lovelace1815")
    page.click("#register")
    page.wait_for_selector("#seats")


def guest_joins(
    server: LiveServer, link: str, username: str, password: str = "lovelace1815"
) -> dict[str, str]:
    """``username`` signs up through the API and takes a seat at the table of the
    invitation ``link``; returns their requests' headers."""
    import httpx

    r = httpx.post(server.url + "/api/accounts", json={"username": username, "password": password})
    assert r.status_code == 201, r.text
    headers = {"Authorization": f"Bearer {r.json()['token']}"}
    code = link.rsplit("/", 1)[1]
    assert httpx.post(f"{server.url}/api/invitations/{code}", headers=headers).status_code == 200
    return headers


def disband_the_first_unit(page: Any) -> None:
    """In a retreat or removal phase: the first unit of the list chosen, disbanded by its
    legal option; the order listed."""
    page.locator("#unit-list button.unit").first.click()
    page.locator('#legal .legal-option[data-kind="disband"]').first.click()
    page.wait_for_function("document.querySelectorAll('#my-orders li.order').length === 1")
    idle(page)


def back_to_the_lobby(page: Any) -> None:
    """From a game's page to the lobby by the header's link, my games listed."""
    page.click("#home")
    page.wait_for_selector("#my-games .game-item")
    idle(page)


def start_elsewhere(page: Any, gid: int) -> None:
    """Start game ``gid`` with the page's session, as from another tab of its player's:
    the page itself hears of it as news."""
    started = page.evaluate(
        """async (id) => (await fetch(`/api/games/${id}/start`, {method: "POST",
            headers: {"X-Requested-With": "realpolitik"}})).status""",
        gid,
    )
    assert started == 200


PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2}
DESKTOP = {"viewport": {"width": 1400, "height": 1000}}


def same_page_elsewhere(browser: Any, page: Any, device: dict[str, Any], ready: str) -> Any:
    """``page``'s game opened again by the same player on another ``device`` (e.g.
    :data:`PHONE`), once ``ready`` (a selector) shows."""
    other = browser.new_page(**device)
    other.context.add_cookies(page.context.cookies())
    other.goto(page.url)
    other.wait_for_selector(ready)
    idle(other)
    return other


# --- scripts run in the page --------------------------------------------------------------

EMPTY_CARDS = """[...document.querySelectorAll('section.card')]
    .filter(c => c.offsetParent && !c.innerText.trim()).map(c => c.id)"""


MY_POWERS = """async () => {
    const r = await fetch(`/api/games/${location.hash.split('/')[2]}`);
    return (await r.json()).my_powers;
}"""


GAME = "async () => (await (await fetch(`/api/games/${location.hash.split('/')[2]}`)).json())"


FLASH = "document.getElementById('flash')"


# An element's text as it is shown: without what is said to screen readers only (.sr-only:
# the legend's units and centres by name).
SHOWN_TEXT = """(e) => { const c = e.cloneNode(true);
    c.querySelectorAll('.sr-only').forEach((s) => s.remove()); return c.textContent; }"""


# Whether the header's items share one row (each one's box meets every other's height).
HEADER_ROWS = """() => {
    const boxes = [...document.querySelectorAll('header#top > *')].filter(e => !e.hidden)
        .map(e => e.getBoundingClientRect());
    return Math.max(...boxes.map(b => b.top)) < Math.min(...boxes.map(b => b.bottom)) ? 1 : 2;
}"""


# The page's tab put in the background, and brought back (as the browser tells the page).
HIDE_TAB = """() => {
  Object.defineProperty(document, "hidden", {value: true, configurable: true});
  document.dispatchEvent(new Event("visibilitychange"));
}"""


SHOW_TAB = """() => {
  delete document.hidden;
  document.dispatchEvent(new Event("visibilitychange"));
}"""


# --- the live server's stored game, set at a position -------------------------------------


def stored_game(server: LiveServer) -> sqlite3.Connection:
    """The live server's database."""
    return sqlite3.connect(server.log.parent / "game.sqlite3")


def rewrite_stored_game(server: LiveServer, game_id: int, change: Callable[[Game], Any]) -> None:
    """Load the game stored on the server, ``change`` it and store it back at its new phase
    (as a DATC case sets its board)."""
    db = stored_game(server)
    try:
        (raw,) = db.execute("SELECT state FROM games WHERE id = ?", (game_id,)).fetchone()
        game = game_from_json(json.loads(raw))
        change(game)
        db.execute(
            "UPDATE games SET state = ?, phase = ?, version = version + 1 WHERE id = ?",
            (json.dumps(game_to_json(game)), str(game.phase), game_id),
        )
        db.commit()
    finally:
        db.close()


def store_ready_orders(
    server: LiveServer, game_id: int, phase: str, orders: dict[str, list[str]]
) -> None:
    """Store each power's ``orders`` of ``phase``, ready, as the server would."""
    db = stored_game(server)
    try:
        for power, given in orders.items():
            db.execute(
                "INSERT INTO orders (game_id, phase, power, orders, ready, updated_at)"
                " VALUES (?, ?, ?, ?, 1, ?)",
                (game_id, phase, power, json.dumps(given), time.time()),
            )
        db.commit()
    finally:
        db.close()


def pass_the_deadline(server: LiveServer, game_id: int) -> None:
    """The phase's deadline passes now (the server's scheduler processes it)."""
    db = stored_game(server)
    try:
        db.execute("UPDATE games SET deadline_at = ? WHERE id = ?", (time.time() - 1, game_id))
        db.commit()
    finally:
        db.close()


def open_at(
    page: Any, server: LiveServer, user: str, put: Callable[[LiveServer, int, str], Any]
) -> tuple[int, Any]:
    """``user``'s new seven-player game, ``put`` at a position for the power dealt (see
    :func:`put_at_the_builds`) and shown: the game's id and what ``put`` returned."""
    register_and_create(page, server, user, players="7")
    game_id = int(page.evaluate("location.hash.split('/')[2]"))
    power = page.get_attribute("#power", "data-power") or ""
    put_returned = put(server, game_id, power)
    page.reload()
    page.wait_for_selector("#phase-brief")
    idle(page)
    return game_id, put_returned


def put_at_the_builds(server: LiveServer, game_id: int, power: str) -> list[str]:
    """Set the stored game at the winter adjustments with ``power`` owning its home centres
    and no unit (builds due); return those homes."""
    homes: list[str] = []

    def builds(game: Game) -> None:
        position = game.position.to_json()
        units = {p: u for p, u in position["units"].items() if p != power}
        at(game, "W1901A", {"units": units, "centers": position["centers"]})
        assert game.builds_due()[power] > 0
        homes.extend(position["centers"][power])

    rewrite_stored_game(server, game_id, builds)
    return homes


def put_at_the_removals(server: LiveServer, game_id: int, power: str) -> list[str]:
    """Set the stored game at the winter adjustments with ``power`` owning one centre fewer
    than it has units (one removal due); return its units."""
    units: list[str] = []

    def removals(game: Game) -> None:
        position = game.position.to_json()
        centers = dict(position["centers"])
        centers[power] = centers[power][1:]
        at(game, "W1901A", {"units": position["units"], "centers": centers})
        assert game.builds_due()[power] == -1
        units.extend(position["units"][power])

    rewrite_stored_game(server, game_id, removals)
    return units


def put_at_a_retreat(server: LiveServer, game_id: int, power: str) -> str:
    """Set the stored game at a retreat: ``power``'s army in Bohemia dislodged by another
    power's supported attack from Munich; return the attacker."""
    return _put_at_bohemia_s_retreat(server, game_id, power, dislodged=True)


def put_at_another_s_retreat(server: LiveServer, game_id: int, power: str) -> str:
    """Set the stored game at a retreat in which only another power has a unit to retreat
    (dislodged from Bohemia by ``power``'s supported attack); return that power."""
    return _put_at_bohemia_s_retreat(server, game_id, power, dislodged=False)


def _put_at_bohemia_s_retreat(
    server: LiveServer, game_id: int, power: str, *, dislodged: bool
) -> str:
    """A retreat from Bohemia after Munich's supported attack: ``power``'s army dislodged,
    else (``dislodged=False``) ``power``'s the attack; returns the other power."""
    other = ""

    def retreat(game: Game) -> None:
        nonlocal other
        other = next(p for p in game.powers if p != power)
        loser, winner = (power, other) if dislodged else (other, power)
        centers = game.position.to_json()["centers"]
        at(game, "F1901M", {"units": {loser: ["A BOH"], winner: ["A MUN", "A TYR"]},
                            "centers": centers})  # fmt: skip
        game.submit(winner, ["A MUN - BOH", "A TYR S A MUN - BOH"])
        game.submit(loser, ["A BOH H"])
        game.process()
        assert str(game.phase) == "F1901R", game.phase

    rewrite_stored_game(server, game_id, retreat)
    return other


def put_at_an_attack(
    server: LiveServer,
    game_id: int,
    power: str,
    mine: list[str] | None = None,
    theirs: list[str] | None = None,
) -> str:
    """Set the stored game at F1901M: ``power``'s units ``mine`` (armies in Bohemia and
    Kiel), another power's attack ``theirs`` (supported, on Bohemia from Munich) stored and
    ready; return the attacker."""
    mine = mine or ["A BOH", "A KIE"]
    theirs = theirs or ["A MUN - BOH", "A TYR S A MUN - BOH"]
    other = ""

    def attack(game: Game) -> None:
        nonlocal other
        other = next(p for p in game.powers if p != power)
        centers = game.position.to_json()["centers"]
        units = [" ".join(order.split()[:2]) for order in theirs]
        at(game, "F1901M", {"units": {power: mine, other: units}, "centers": centers})

    rewrite_stored_game(server, game_id, attack)
    store_ready_orders(server, game_id, "F1901M", {other: theirs})
    return other


def put_at_an_attack_far_apart(server: LiveServer, game_id: int, power: str) -> str:
    """Set the stored game at F1901M: ``power``'s army in Bulgaria and fleet in Norway (the
    whole board between them), another power's supported attack on Bulgaria stored and
    ready; return the attacker."""
    return put_at_an_attack(
        server,
        game_id,
        power,
        mine=["A BUL", "F NWY"],
        theirs=["A RUM - BUL", "A SER S A RUM - BUL"],
    )


def put_at_supports_and_a_convoy(server: LiveServer, game_id: int, power: str) -> str:
    """Set the stored game at F1901M: ``power``'s armies in Bohemia, Silesia and Galicia, a
    fleet in the North Sea and an army in Yorkshire; another power's attack on Bohemia from
    Munich supported from Tyrolia, and on Silesia from Prussia, stored and ready; return
    the attacker."""
    return put_at_an_attack(
        server,
        game_id,
        power,
        mine=["A BOH", "A SIL", "A GAL", "F NTH", "A YOR"],
        theirs=["A MUN - BOH", "A TYR S A MUN - BOH", "A PRU - SIL"],
    )


def put_at_an_attack_with_nowhere_to_go(server: LiveServer, game_id: int, power: str) -> None:
    """Set the stored game at F1901M with the other powers' orders stored and ready:
    ``power``'s army in Bohemia to be dislodged with nowhere to go (every neighbour held),
    its army in Piedmont to be dislodged free to retreat (to Tuscany)."""
    a, b = "", ""

    def attack(game: Game) -> None:
        nonlocal a, b
        a, b = [p for p in game.powers if p != power][:2]
        centers = game.position.to_json()["centers"]
        at(game, "F1901M", {"units": {power: ["A BOH", "A PIE"],
                                      a: ["A MUN", "A TYR", "A SIL", "A MAR", "A VEN"],
                                      b: ["A GAL", "A VIE"]}, "centers": centers})  # fmt: skip

    rewrite_stored_game(server, game_id, attack)
    orders = {
        a: ["A MUN - BOH", "A TYR S A MUN - BOH", "A MAR - PIE", "A VEN S A MAR - PIE", "A SIL H"],
        b: ["A GAL H", "A VIE H"],
    }
    store_ready_orders(server, game_id, "F1901M", orders)


def put_at_a_convoy(server: LiveServer, game_id: int, power: str) -> None:
    """Set the stored game at F1901M with ``power``'s fleet in the North Sea and army in
    Yorkshire (the fleet may convoy it to Norway, Belgium, Holland, Denmark...)."""

    def convoy(game: Game) -> None:
        centers = game.position.to_json()["centers"]
        at(game, "F1901M", {"units": {power: ["F NTH", "A YOR"]}, "centers": centers})

    rewrite_stored_game(server, game_id, convoy)
