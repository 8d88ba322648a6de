"""A real browser (Debian's headless Chromium, driven by Playwright), on a desktop and a
phone: accounts, a game with bots, orders by map (move, support, convoy, retreat, build),
orders refused with their reason, results and history on the main board, draw votes,
invitations, translation, legibility. ``REALPOLITIK_SCREENSHOTS=dir`` keeps screenshots."""

from __future__ import annotations

import itertools
import json
import os
import re
import shutil
import sqlite3
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from realpolitik.formats.savegame import game_from_json, game_to_json
from realpolitik.game import Game
from realpolitik.game.records import Event, EventKind
from tests.gamekit import at
from tests.server.conftest import IN_CI, LiveServer, free_port, start_server
from tests.server.fakesmtp import FakeSmtp

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SHOTS = os.environ.get("REALPOLITIK_SCREENSHOTS")

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


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    folder = tmp_path_factory.mktemp("browser")
    live = start_server(f"sqlite:///{folder / 'game.sqlite3'}", folder / "server.log")
    yield live
    live.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        if IN_CI:
            pytest.fail("no chromium: tools/ci_services.sh install")
        pytest.skip("no chromium here (tools/ci_services.sh install)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()


def shot(page: Any, name: str, *, full: bool = True) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=full)


def click_province(page: Any, province: str) -> None:
    point = page.evaluate(FIND_POINT, province)
    assert point, f"no clickable point in {province}"
    page.mouse.click(point[0], point[1])


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


def my_orders(page: Any) -> list[str]:
    return [str(x) for x in page.locator("#my-orders li.order.ok").evaluate_all(
        "els => els.map(e => e.dataset.order)")]  # fmt: skip


def phase(page: Any) -> str:
    return str(page.get_attribute("#phase", "data-phase"))


def sign_up(page: Any, server: LiveServer, user: str) -> None:
    """Open the site and create the account ``user``: the lobby shows."""
    page.goto(server.url + "/")
    page.fill("#auth-user", user)
    page.fill("#auth-pass", "lovelace1815")
    page.click("#register")
    page.wait_for_selector("#create-game")


def register_and_create(page: Any, server: LiveServer, user: str, **options: str) -> None:
    sign_up(page, server, user)
    page.fill("#new-name", f"{user}'s game")
    page.select_option("#new-deadlines", "none")
    for name, value in options.items():
        page.select_option(f"#new-{name}", value)
    page.click("#create-game")
    page.wait_for_selector("#map svg")
    idle(page)


def host_a_table(page: Any, server: LiveServer, user: str, name: str) -> str:
    """Sign up as ``user``, create a three-player game ``name`` without starting it and
    without deadlines; return its invitation link."""
    sign_up(page, server, user)
    page.fill("#new-name", name)
    page.select_option("#new-players", "3")
    page.select_option("#new-deadlines", "none")
    page.uncheck("#new-start")
    page.click("#create-game")
    page.wait_for_selector("#invite-link")
    link: str = page.inner_text("#invite-link")
    return link


def declined(page: Any, *, once: bool = False) -> list[str]:
    """The page's questions (``confirm``), each answered no: the list of what they asked,
    filled as they come (``once``: only the next one is answered)."""
    asked: list[str] = []

    def answer(dialog: Any) -> None:
        asked.append(dialog.message)
        dialog.dismiss()

    (page.once if once else page.on)("dialog", answer)
    return asked


def back_to_the_lobby(page: Any) -> None:
    """From a game's page to the lobby by the header's link, my games listed."""
    page.click("#home")
    page.wait_for_selector("#my-games .game-item")
    idle(page)


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


def slow_network(page: Any, latency_ms: int) -> None:
    """Every request of ``page`` from now on answered ``latency_ms`` later."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    conditions = {"latency": latency_ms, "downloadThroughput": -1, "uploadThroughput": -1}
    cdp.send("Network.emulateNetworkConditions", {"offline": False, **conditions})


def continue_to_now(page: Any) -> None:
    """Past the results of each phase processed meanwhile, to the present."""
    for _ in range(6):
        if not page.locator("#continue").count():
            return
        page.click("#continue")
        idle(page)


def test_play_a_year_by_map_with_results_on_the_board(server: LiveServer, browser: Any) -> None:
    page, errors = watched(browser)
    register_and_create(page, server, "ada", players="7")
    assert phase(page) == "S1901M"
    assert page.inner_text("#phase").startswith("Spring 1901")
    shot(page, "1-start")
    options = legal(page)
    keys = [k for k in options if k != "WAIVE"]
    # a move by two clicks: the unit, then a highlighted province (one another unit supports)
    mover, move, supporter, support = next(
        (k, m, j, o) for k in keys for m in options[k] if m["kind"] == "move" and not m.get("via")
        for j in keys if j != k for o in options[j]
        if o["kind"] == "support" and o["target"] == k.split("/")[0] and o["dest"] == m["dest"]
    )  # fmt: skip
    click_province(page, mover.split("/")[0])
    page.wait_for_selector("#order-menu:not([hidden])")
    reach = page.evaluate("[...document.querySelectorAll('#rp-overlay .rp-reach')]"
                          ".map(e => e.dataset.province)")  # fmt: skip
    assert move["dest"] in reach and page.locator("#rp-overlay .rp-selected").count() == 1
    shot(page, "2-unit-selected")
    click_province(page, move["dest"])
    page.wait_for_function(f"[...document.querySelectorAll('#my-orders li.order')].some("
                           f"e => e.dataset.order === '{move['order']}')")  # fmt: skip
    idle(page)
    # a support by clicks alone: unit, Support, the supported unit, its destination
    click_province(page, supporter.split("/")[0])
    page.click('#order-menu button[data-mode="support"]')
    click_province(page, support["target"])
    page.wait_for_selector("#rp-overlay .rp-target")
    click_province(page, support["dest"])
    page.wait_for_function(f"[...document.querySelectorAll('#my-orders li.order')].some("
                           f"e => e.dataset.order === '{support['order']}')")  # fmt: skip
    idle(page)
    # Escape cancels a selection
    other = next(k for k in keys if k not in (mover, supporter))
    click_province(page, other.split("/")[0])
    page.wait_for_selector("#order-menu:not([hidden])")
    page.keyboard.press("Escape")
    page.wait_for_selector("#order-menu", state="hidden")
    assert page.locator("#rp-overlay .rp-mark").count() == 0
    # a typed order out of reach is refused with the reason, and nothing is replaced
    before = my_orders(page)
    unit = options[mover][0]["order"].split(" ")[0]
    reach = {o.get("dest") for o in options[mover]} | {mover.split("/")[0]}
    far = next(p for p in ("UKR", "TYR", "BOH", "BUR", "SIL", "GAL") if p not in reach)
    page.fill("#typed", f"{unit} {mover} - {far}")
    page.click("#submit-typed")
    page.wait_for_selector("#my-orders li.refused")
    assert my_orders(page) == before
    assert "cannot" in page.inner_text("#my-orders li.refused .reason")
    shot(page, "3-orders-refused")
    assert page.locator("#flash.error").is_visible()
    click_province(page, mover.split("/")[0])  # the next order given clears the refusal's flash
    click_province(page, move["dest"])  # (the same move again: the other units still free)
    idle(page)
    assert page.locator("#flash").is_hidden()
    page.click("#ready")  # units without orders: the page asks first
    page.on("dialog", lambda d: d.accept())
    if phase(page) == "S1901M":
        page.click("#ready")
    until_phase_changes(page, "S1901M")
    # the main board shows what happened, with the summary, before the new position
    page.wait_for_selector("#summary .summary.fresh")
    assert page.get_attribute("#step-label", "data-phase") == "S1901M"
    assert page.locator("#map svg").count() == 1 and page.locator("#results tr").count() >= 22
    shot(page, "4-results-on-board")
    page.click("#step-prev") if not page.is_disabled("#step-prev") else None
    continue_to_now(page)
    assert page.get_attribute("#step-label", "data-phase") == ""
    # the stepper flips back through the history and forward to now
    page.click("#step-prev")
    page.wait_for_function("document.getElementById('step-label').dataset.phase === 'S1901M'")
    assert page.locator("#play-from-here").count() == 0  # (a sandbox's only)
    for panel in ("#messages-panel", "#seats-panel"):  # (a sandbox has neither)
        assert page.locator(panel).is_visible(), panel
    page.click("#step-next")
    page.wait_for_function("document.getElementById('step-label').dataset.phase === ''")
    dupes = page.evaluate("(() => { const seen = {}; for (const e of document.querySelectorAll"
                          "('[id]')) seen[e.id] = (seen[e.id] || 0) + 1;"
                          " return Object.keys(seen).filter(k => seen[k] > 1); })()")  # fmt: skip
    assert dupes == [], dupes  # one map on the page, no id twice
    assert not errors, errors  # (no favicon 404 either)


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
    assert f"{due - 1} still to order" in page.inner_text("#phase-brief")
    asked = declined(page, once=True)
    page.click("#ready")  # builds left: the page asks first, and Cancel keeps the phase
    idle(page)
    assert asked and "not ordered will be lost" in asked[0], asked
    assert phase(page) == "W1901A"
    shot(page, "6-adjustments")


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


BUILDS_SAID = {
    "en": ("{order}: the unit was built", "a build was waived"),
    "es": ("{order}: la unidad fue construida", "se renunció a una construcción"),
    "fr": ("{order} : l'unité a été construite", "on a renoncé à une construction"),
    "pt": ("{order}: a unidade foi construída", "renunciou-se a uma construção"),
}


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
        if lang != "en":
            in_language(page, lang, f"document.documentElement.lang === {lang!r}")
            continue_to_now(page)
            page.click("#step-prev")  # back to the adjustments, in this language
            page.wait_for_function(
                "document.getElementById('step-label').dataset.phase === 'W1901A'"
            )
            idle(page)
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
        "pt": "1 remoção devida (a ordenar: 1): escolha a unidade a dissolver.",
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
    shot(builds, "builds-due-es", full=False)
    for text in [brief, *asked]:
        assert not re.search(r"\((s|es|ões|ns)\)", text), text
    assert not errors, errors


REMOVALS_SAID = {  # a removal ordered; one the player left to the rules
    "en": (
        "{order}: the unit was removed",
        "{order}: the rules chose this unit, as no removal was ordered (the one farthest from"
        " home goes first)",
    ),
    "es": (
        "{order}: la unidad fue retirada",
        "{order}: las reglas eligieron esta unidad, pues no se ordenó ninguna disolución (primero"
        " la más alejada de sus centros de origen)",
    ),
    "fr": (
        "{order} : l'unité a été retirée",
        "{order} : les règles ont choisi cette unité, aucun retrait n'ayant été ordonné (d'abord"
        " la plus éloignée de ses centres d'origine)",
    ),
    "pt": (
        "{order}: a unidade foi retirada",
        "{order}: as regras escolheram esta unidade, pois nenhuma remoção foi ordenada (primeiro"
        " a mais distante dos centros de origem)",
    ),
}


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
        page.locator("#unit-list button.unit").first.click()
        page.locator('#legal .legal-option[data-kind="disband"]').first.click()
        page.wait_for_function("document.querySelectorAll('#my-orders li.order').length === 1")
        idle(page)
        assert "0 still to order" in page.inner_text("#phase-brief")
    page.on("dialog", lambda dialog: dialog.accept())
    page.click("#ready")
    until_phase_changes(page, "W1901A")
    page.wait_for_selector("#summary .summary.fresh")
    assert page.get_attribute("#step-label", "data-phase") == "W1901A"
    for lang, (said_ordered, said_unordered) in REMOVALS_SAID.items():
        if lang != "en":
            in_language(page, lang, f"document.documentElement.lang === {lang!r}")
            continue_to_now(page)
            page.click("#step-prev")  # back to the adjustments, in this language
            page.wait_for_function(
                "document.getElementById('step-label').dataset.phase === 'W1901A'"
            )
            idle(page)
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
    """What the page tells to do: the end of the movement's brief (after "0 of 3 units
    ordered. "), the menu's hint for a unit that may support, then after "Support"."""
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


EMPTY_CARDS = """[...document.querySelectorAll('section.card')]
    .filter(c => c.offsetParent && !c.innerText.trim()).map(c => c.id)"""


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
    assert page.locator("#new-setup").is_hidden()


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


def test_a_refused_sign_up_then_an_accepted_one_and_the_press_choices(
    server: LiveServer, browser: Any
) -> None:
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    sent: list[str] = []
    page.on("request", lambda r: sent.append(f"{r.method} {r.url.split('/api')[-1]}"))
    page.goto(server.url + "/")
    page.fill("#auth-user", "wes")
    page.fill("#auth-pass", "short")
    page.click("#register")
    page.wait_for_selector("#flash.error:not([hidden])")
    assert "8 to 200 characters" in page.inner_text("#flash")
    page.fill("#auth-pass", "lovelace1815")
    page.click("#register")
    page.wait_for_selector("#create-game")
    posted = [s for s in sent if s.startswith("POST")]
    assert posted == ["POST /accounts", "POST /accounts"], posted  # no log-in besides
    assert page.locator("#flash").is_hidden()  # the refusal does not linger over the lobby
    press = dict(page.locator("#new-press option").evaluate_all(
        "els => els.map(e => [e.value, e.textContent])"))  # fmt: skip
    listed = page.locator("label.check", has=page.locator("#new-public")).inner_text()
    assert set(press) == {"full", "public", "none"}
    assert "public" in press["public"] and press["public"] != listed.strip(), (press, listed)


def test_a_blank_sign_up_or_log_in_is_told_in_the_page_s_language(
    server: LiveServer, browser: Any
) -> None:
    """A field left blank: the page says so in its language, as it says the rules (it showed
    the schema's English: 'username: String should have at least 1 character')."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.goto(server.url + "/")
    page.wait_for_selector("#auth-user")
    page.select_option("#language", "fr")
    page.wait_for_function("document.getElementById('register').textContent === 'Créer un compte'")
    for button, user, password in (("#register", "", "lovelace1815"), ("#login", "wes", "")):
        page.fill("#auth-user", user)
        page.fill("#auth-pass", password)
        page.click(button)
        page.wait_for_selector("#flash.error:not([hidden])")
        told = page.inner_text("#flash")
        assert told == "Écrivez votre nom d'utilisateur et votre mot de passe.", told
        page.evaluate("document.getElementById('flash').hidden = true")


def test_the_language_switched_keeps_what_was_typed_in_the_log_in_form(
    server: LiveServer, browser: Any
) -> None:
    """The language switched while the page still asks the server who is logged in (the
    log-in form shows at once, in the new language), the player types, then the answer
    comes: what was typed stays, as it stays when the language is switched again."""
    page = browser.new_page(viewport={"width": 390, "height": 844})
    held: list[Any] = []
    page.route("**/api/me", lambda route: held.append(route))  # the first check, held back
    page.goto(server.url + "/")
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the page did not ask who is logged in"
    page.select_option("#language", "es")
    page.wait_for_function("document.getElementById('login').textContent === 'Entrar'")
    page.fill("#auth-user", "yara")
    page.fill("#auth-pass", "lovelace1815")
    page.focus("#auth-user")
    with page.expect_response("**/api/me"):
        held[0].continue_()
    page.unroute("**/api/me")
    idle(page)  # the check answered (no one logged in), and the page shown again
    assert page.input_value("#auth-user") == "yara"
    assert page.input_value("#auth-pass") == "lovelace1815"
    assert page.evaluate("document.activeElement.id") == "auth-user"  # typing goes on
    page.select_option("#language", "pt")
    page.wait_for_function("document.getElementById('register').textContent === 'Criar conta'")
    idle(page)
    assert page.input_value("#auth-user") == "yara"
    assert page.input_value("#auth-pass") == "lovelace1815"
    page.click("#register")
    page.wait_for_selector("#create-game")


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
    assert page.locator("#concede, #vote-draw, #withdraw-draw, #ready").count() == 0
    assert page.locator("#compose, #send-message").count() == 0
    assert page.locator("#invite-link, #copy-invite").count() == 0
    assert "no longer send" in page.inner_text("#press-conceded")
    assert "Hello all" in page.inner_text("#messages")  # still readable
    assert "conceded" in page.inner_text("#seats")
    assert page.evaluate(EMPTY_CARDS) == []
    shot(page, "22-after-concede")
    assert errors == [], errors


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
        "es": ("F Bre-CMa", "La flota de Brest se mueve al Canal de la Mancha.", "rebote"),
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
        "La flota de Brest se mueve al Canal de la Mancha: fracasa — rebote",
    ]
    assert told["en"] == ["bad", "F BRE - ENG: fails — bounced"]  # English: its notation


# How a bounce's reason begins in each language, its words for units, and the phase after.
BOUNCE = {
    "es": (("rebote ", "choque frontal "), ("ejército", "flota"), "Otoño de 1901"),
    "fr": (("conflit ", "face-à-face "), ("armée", "flotte"), "Automne 1901"),
    "pt": (("impasse ", "perdeu o confronto "), ("exército", "armada"), "Outono de 1901"),
}


def test_a_bounce_is_told_in_the_players_language(server: LiveServer, browser: Any) -> None:
    """Two of my units ordered into one province (one at least fails): the results table
    and the summary say why in the page's language, the units in words ("rebote en Borgoña
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


# Kiel's fleet ordered to hold, and held (every order given is told).
KIEL_HELD = {
    "en": "F KIE H: stands",
    "es": "F KIE H: la unidad se mantuvo",
    "fr": "F KIE H : l'unité a tenu",
    "pt": "F KIE H: a unidade permaneceu",
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
# (the page once gave the second and later ones alone their article: "ganhou Grécia, a Sérvia").
CENTRES_SAID = {
    "en": ["lost Vienna, Denmark", "gained Greece, Serbia, Bulgaria"],
    "es": ["perdió Viena, Dinamarca", "ganó Grecia, Serbia, Bulgaria"],
    "fr": ["a perdu Vienne, le Danemark", "a pris la Grèce, la Serbie, la Bulgarie"],
    "pt": ["perdeu Viena, a Dinamarca", "ganhou a Grécia, a Sérvia, a Bulgária"],
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


def test_draw_votes_and_translation(server: LiveServer, browser: Any) -> None:
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    register_and_create(page, server, "kate", players="7")
    page.click("#vote-draw")
    page.wait_for_selector("#withdraw-draw")
    mine = page.get_attribute("#power", "data-power") or ""
    assert mine.title() in page.inner_text("#draw-status")
    page.click("#withdraw-draw")
    page.wait_for_selector("#vote-draw")
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
    assert "Tus órdenes" in page.inner_text("#orders-panel h3")
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


def test_conquista_accepts_supports_and_declares_an_alliance(
    server: LiveServer, browser: Any
) -> None:
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
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


def test_lobby_shows_orders_due_and_unread_messages(server: LiveServer, browser: Any) -> None:
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    register_and_create(page, server, "mary", players="2")  # two powers or more each
    assert page.locator("#orders-panel .power-orders").count() >= 2
    page.goto(server.url + "/#")
    page.wait_for_selector("#my-games .game-item .game-details")
    item = page.inner_text("#my-games .game-item")
    assert "orders due" in item and "Leave" in item, item
    shot(page, "11-lobby")


MY_POWERS = """async () => {
    const r = await fetch(`/api/games/${location.hash.split('/')[2]}`);
    return (await r.json()).my_powers;
}"""


GAME = "async () => (await (await fetch(`/api/games/${location.hash.split('/')[2]}`)).json())"


def test_several_powers_together_each_with_ready_and_draw_vote(
    server: LiveServer, browser: Any
) -> None:
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("dialog", lambda d: d.accept())  # Ready with units without orders asks first
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


def test_press_threads_with_unread_counts(server: LiveServer, browser: Any) -> None:
    host = browser.new_page(viewport={"width": 1400, "height": 1000})
    link = host_a_table(host, server, "nora", "Nora's table")
    guest = browser.new_page(viewport={"width": 1400, "height": 1000})
    guest.goto(link)
    guest.wait_for_selector("#auth-user")
    guest.fill("#auth-user", "olga")
    guest.fill("#auth-pass", "lovelace1815")
    guest.click("#register")
    guest.wait_for_selector("#seats")
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


LEGIBILITY = """() => {
    const svg = document.querySelector('#map svg');
    const k = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    const unit = svg.querySelector('g.unit.army');
    const fills = {};
    for (const p of svg.querySelectorAll('path.province')) {
        const cls = [...p.classList].find(c => ['inactive', 'impassable'].includes(c));
        fills[p.id] = [p.getAttribute('fill'), cls || ''];
    }
    // the renderer draws an army 18 units wide
    return {width: unit.getBoundingClientRect().width, plain: 18 * k, fills};
}"""


def rgb(colour: str) -> tuple[int, int, int]:
    value = colour.lstrip("#")
    return int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16)


def test_legibility_on_a_reduced_grow_board(server: LiveServer, browser: Any) -> None:
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    register_and_create(page, server, "pia", edition="grow", players="4")
    assert page.inner_text("#phase").startswith("Winter 1901"), page.inner_text("#phase")
    seen = page.evaluate(LEGIBILITY)
    assert seen["width"] >= 2 * seen["plain"] * 0.95, seen["width"]  # units twice the size
    fills = seen["fills"]
    germany = rgb(fills["BER"][0])
    out = [rgb(f) for f, cls in fills.values() if cls]
    assert out and all(sum(abs(a - b) for a, b in zip(germany, o, strict=True)) > 60 for o in out)
    assert sum(rgb(fills["MOS"][0])) < 3 * 240 or fills["MOS"][1]  # Russia's land not white
    tints_apart_and_in_the_legend(page, 4)
    shot(page, "13-grow-4p")


TINTS = """() => {
    const map = {}, chips = {};
    for (const p of document.querySelectorAll('#map svg path.province[data-owner]')) {
        (map[p.dataset.owner] = map[p.dataset.owner] || new Set()).add(p.getAttribute('fill'));
    }
    for (const row of document.querySelectorAll('#map-legend tr[data-power]')) {
        chips[row.dataset.power] = row.querySelector('.swatch').dataset.tint;
    }
    return {map: Object.fromEntries(Object.entries(map).map(([k, v]) => [k, [...v]])), chips};
}"""


def tints_apart_and_in_the_legend(page: Any, powers: int) -> None:
    """Each power's land is one tint, clearly apart from every other power's (CIELAB), and
    its legend chip shows that tint."""
    from tests.test_render_style import APART, distance

    seen = page.evaluate(TINTS)
    assert len(seen["map"]) == powers, seen
    tints = {}
    for power, fills in seen["map"].items():
        assert len(fills) == 1, (power, fills)
        tints[power] = fills[0]
        assert seen["chips"][power] == fills[0], (power, seen["chips"])
    for a, b in itertools.combinations(sorted(tints), 2):
        assert distance(tints[a], tints[b]) >= APART, (a, tints[a], b, tints[b])


def test_every_power_s_land_is_told_apart_on_the_standard_board(
    server: LiveServer, browser: Any
) -> None:
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    register_and_create(page, server, "tina", players="7")
    tints_apart_and_in_the_legend(page, 7)
    shot(page, "24-tints-standard")


HIDDEN_LABELS = """() => {
    const svg = document.querySelector('#map svg');
    const units = [...svg.querySelectorAll('g.unit')].map(u => u.getBoundingClientRect());
    const hidden = [];
    for (const label of svg.querySelectorAll('text.label')) {
        const r = label.getBoundingClientRect();
        // the part of the label under a unit, as a share of the label's area
        const under = Math.max(0, ...units.map(u =>
            Math.max(0, Math.min(r.right, u.right) - Math.max(r.left, u.left))
            * Math.max(0, Math.min(r.bottom, u.bottom) - Math.max(r.top, u.top))));
        if (under > 0.15 * r.width * r.height) hidden.push(label.textContent);
    }
    return hidden;
}"""


def test_units_leave_the_province_labels_readable(server: LiveServer, browser: Any) -> None:
    """No province's label is hidden by a unit (drawn at twice the renderer's size) on the
    standard board, on a desktop and on a phone."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    register_and_create(page, server, "lena", players="7")
    hidden = page.evaluate(HIDDEN_LABELS)
    if SHOTS:
        page.locator("#map").screenshot(path=str(Path(SHOTS) / "25-labels.png"))
    assert hidden == [], hidden
    phone = browser.new_page(viewport={"width": 390, "height": 844}, device_scale_factor=2)
    phone.context.add_cookies(page.context.cookies())
    phone.goto(page.url)
    phone.wait_for_selector("#map svg")
    idle(phone)
    assert phone.evaluate(HIDDEN_LABELS) == []


def put_at_a_convoy(server: LiveServer, game_id: int, power: str) -> None:
    """Set the stored game at F1901M with ``power``'s fleet in the North Sea and army in
    Yorkshire (the fleet may convoy it to Norway, Belgium, Holland, Denmark...)."""

    def convoy(game: Game) -> None:
        centers = game.position.to_json()["centers"]
        at(game, "F1901M", {"units": {power: ["F NTH", "A YOR"]}, "centers": centers})

    rewrite_stored_game(server, game_id, convoy)


def test_a_convoy_by_clicks(server: LiveServer, browser: Any) -> None:
    """The fleet, "convoy", the army, then where it goes: the convoy is ordered."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    open_at(page, server, "rosalind", put_at_a_convoy)
    convoys = [(k, o) for k, opts in legal(page).items() for o in opts if o["kind"] == "convoy"]
    assert convoys and all(k == "NTH" for k, _ in convoys), convoys
    fleet, convoy = next((k, o) for k, o in convoys if o["dest"] == "NWY")
    click_province(page, fleet)
    page.click('#order-menu button[data-mode="convoy"]')
    click_province(page, convoy["target"])
    page.wait_for_selector("#rp-overlay .rp-target")
    click_province(page, convoy["dest"])
    page.wait_for_function(f"[...document.querySelectorAll('#my-orders li.order')].some("
                           f"e => e.dataset.order === '{convoy['order']}')")  # fmt: skip
    assert convoy["order"] == "F NTH C A YOR - NWY", convoy
    shot(page, "14-convoy")


def put_at_a_retreat(server: LiveServer, game_id: int, power: str) -> str:
    """Set the stored game at a retreat: ``power``'s army in Bohemia dislodged by another
    power's supported attack from Munich; return the attacker."""
    return _put_at_bohemia_s_retreat(server, game_id, power, dislodged=True)


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


def test_the_phase_stepper_keeps_one_row_on_a_phone(server: LiveServer, browser: Any) -> None:
    """On a 390 px phone the stepper's ◀ and ▶ sit beside the phase's name, however long
    (Portuguese "Agora · Primavera de 1902, retrocedimentos" put each on a line of its own)."""
    page = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True)
    open_at(page, server, "rory", put_at_a_retreat)
    page.locator("#unit-list button.unit").first.click()
    page.locator('#legal .legal-option[data-kind="disband"]').first.click()
    page.wait_for_function("document.querySelectorAll('#my-orders li.order').length === 1")
    idle(page)
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
    page.locator("#unit-list button.unit").first.click()
    page.locator('#legal .legal-option[data-kind="disband"]').first.click()
    page.wait_for_function("document.querySelectorAll('#my-orders li.order').length === 1")
    idle(page)
    page.locator("#ready").scroll_into_view_if_needed()
    page.click("#ready")
    until_phase_changes(page, "F1901R")
    page.wait_for_selector("#summary .summary.fresh")
    box = page.locator("#summary").bounding_box()
    assert box and 0 <= box["y"] < 844 - 40, box
    shot(page, "fresh-results-phone", full=False)


def put_at_another_s_retreat(server: LiveServer, game_id: int, power: str) -> str:
    """Set the stored game at a retreat in which only another power has a unit to retreat
    (dislodged from Bohemia by ``power``'s supported attack); return that power."""
    return _put_at_bohemia_s_retreat(server, game_id, power, dislodged=False)


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


RETREAT_TOLD = {  # the retreat made, in the summary of the retreats
    "en": "A BOH R SIL: succeeds",
    "es": "El ejército de Bohemia se retira a Silesia: tiene éxito",
    "fr": "L'armée de la Bohême se retire vers la Silésie : réussit",
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
        if lang != "en":
            in_language(page, lang, f"document.documentElement.lang === {lang!r}")
            continue_to_now(page)
            for _ in range(3):
                if page.get_attribute("#step-label", "data-phase") == "F1901R":
                    break
                page.click("#step-prev")
                idle(page)
                page.wait_for_selector("#summary .summary")
        assert page.get_attribute("#step-label", "data-phase") == "F1901R", lang
        lines = page.inner_text("#summary").split("\n")
        assert told in lines, (lang, lines)
        shot(page, f"retreat-told-{lang}", full=False)


# A power's units in the legend during a retreat: those on the board, and those dislodged.
LEGEND_DISLODGED = {
    "en": "0 + 1 dislodged (Bohemia)",
    "es": "0 + 1 desalojada (Bohemia)",
    "fr": "0 + 1 délogée (Bohême)",
    "pt": "0 + 1 deslocada (Boêmia)",
}


def test_the_legend_counts_the_units_dislodged_in_a_retreat(
    server: LiveServer, browser: Any
) -> None:
    """During a retreat the legend under the map counted only the units on the board: my
    army dislodged from Bohemia, the one unit to order, was in no row ("0"). Its power's row
    tells it, marked as dislodged and where it retreats from, in every language."""
    page = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    _, other = open_at(page, server, "delphine", put_at_a_retreat)
    power = page.get_attribute("#power", "data-power") or ""

    def units(p: str) -> str:
        return str(page.inner_text(f'#map-legend tr[data-power="{p}"] td:nth-child(3)'))

    page.locator("#map-legend").scroll_into_view_if_needed()
    shot(page, "legend-dislodged-phone", full=False)
    for lang, told in LEGEND_DISLODGED.items():
        if lang != "en":
            in_language(page, lang, f"document.documentElement.lang === {lang!r}")
        assert units(power) == told, lang
        assert units(other) == "2", lang  # (Munich's army moved in, Tyrolia's): none dislodged
    wide = browser.new_page(viewport={"width": 1400, "height": 1000})
    wide.context.add_cookies(page.context.cookies())
    wide.goto(page.url)
    wide.wait_for_selector("#map-legend tr[data-power]")
    idle(wide)
    wide.locator("#map-legend").scroll_into_view_if_needed()
    shot(wide, "legend-dislodged-desktop", full=False)
    wide.close()


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


# My orders against that attack: Bohemia holds with Galicia's support (Silesia's is cut by
# Prussia's attack), the fleet convoys Yorkshire's army to Norway; and what the summary
# says of each, in each language (the orders as the server words them).
DEFENCE = ["A BOH H", "A SIL S A BOH", "A GAL S A BOH", "F NTH C A YOR - NWY", "A YOR - NWY"]
DEFENCE_TOLD = {
    "en": [
        "A BOH H: stands",
        "A SIL S A BOH: cut by an attack",
        "A GAL S A BOH: support given",
        "F NTH C A YOR - NWY: convoy available",
        "A YOR - NWY: succeeds",
    ],
    "es": [
        "El ejército de Bohemia se mantiene: la unidad se mantuvo",
        "El ejército de Silesia apoya al ejército de Bohemia: apoyo anulado por un ataque",
        "El ejército de Galitzia apoya al ejército de Bohemia: apoyo dado",
        "La flota del Mar del Norte transporta al ejército de Yorkshire hasta Noruega:"
        " transporte posible",
        "El ejército de Yorkshire se mueve a Noruega: tiene éxito",
    ],
    "fr": [
        "L'armée de la Bohême se maintient : l'unité a tenu",
        "L'armée de la Silésie soutient l'armée de la Bohême : support coupé par une attaque",
        "L'armée de la Galicie soutient l'armée de la Bohême : support donné",
        "La flotte de la mer du Nord convoie l'armée du Yorkshire vers la Norvège : convoi"
        " possible",
        "L'armée du Yorkshire se déplace vers la Norvège : réussit",
    ],
    "pt": [
        "O exército da Boêmia permanece: a unidade permaneceu",
        "O exército da Silésia apoia o exército da Boêmia: apoio anulado por um ataque",
        "O exército da Galícia apoia o exército da Boêmia: apoio dado",
        "A armada do Mar do Norte transporta o exército de Yorkshire para a Noruega: transporte"
        " possível",
        "O exército de Yorkshire vai para a Noruega: realizado",
    ],
}
# The line of a centre taken, in each language (not this test's business).
GAINED = ("gained ", "ganó ", "a pris ", "ganhou ")


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
        if lang != "en":
            in_language(page, lang, f"document.documentElement.lang === {lang!r}")
            continue_to_now(page)
            for _ in range(3):
                if page.get_attribute("#step-label", "data-phase") == "F1901M":
                    break
                page.click("#step-prev")
                idle(page)
                page.wait_for_selector("#summary .summary")
        assert page.get_attribute("#step-label", "data-phase") == "F1901M", lang
        lines = page.locator("#summary-list li").all_inner_texts()
        assert [line for line in lines if not line.startswith(GAINED)] == told, (lang, lines)
        shot(page, f"summary-supports-{lang}", full=False)
    page.set_viewport_size({"width": 390, "height": 844})
    page.locator("#summary").scroll_into_view_if_needed()
    shot(page, "summary-supports-phone", full=False)


RETREATS_TO = {  # where the army dislodged from Bohemia may retreat, as each language says it
    "pt": ["pode retroceder para a Galícia, a Silésia, Viena ou ser dissolvida"],
    "es": ["Puede retirarse hacia Galitzia, Silesia, Viena o disolverse"],
    "fr": ["peut faire retraite vers la Galicie, la Silésie, Vienne ou être dissoute"],
}


GAME_FETCHES = r"/api/games/\d+\?"  # the game itself (not its legal orders, map or press)


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


LABEL_HEIGHTS = """() => [...document.querySelectorAll('#map svg text.label')]
    .map(l => l.getBoundingClientRect().height).sort((a, b) => a - b)"""


def test_province_labels_are_legible_at_the_default_zoom(server: LiveServer, browser: Any) -> None:
    """On a desktop the whole board's province labels are at least 9 px tall (they were 6: the
    renderer's size, for a map drawn at its own scale); on a phone (opened zoomed on my units,
    as far as they lie apart) they stay under half a unit's token so as not to crowd it."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    register_and_create(page, server, "lila", players="7")
    heights = page.evaluate(LABEL_HEIGHTS)
    if SHOTS:
        page.locator("#map").screenshot(path=str(Path(SHOTS) / "26-labels-desktop.png"))
    phone = browser.new_page(viewport={"width": 390, "height": 844}, device_scale_factor=2)
    phone.context.add_cookies(page.context.cookies())
    phone.goto(page.url)
    phone.wait_for_selector("#map svg")
    idle(phone)
    on_phone = phone.evaluate(LABEL_HEIGHTS)
    if SHOTS:
        phone.locator("#map").screenshot(path=str(Path(SHOTS) / "26-labels-phone.png"))
    assert heights[0] >= 9, heights[:5]
    token = phone.evaluate(
        "() => Math.min(...[...document.querySelectorAll('#map svg g.unit')]"
        ".map(u => u.getBoundingClientRect().height))"
    )
    assert on_phone[-1] < 0.5 * token, (on_phone[-1], token)


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
        "dislodged": "El ejército de Bohemia fue desalojado por el ataque desde Múnich.",
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
        "dislodged": "L'armée de la Bohême a été délogée par l'attaque venue de Munich.",
        "missing": "Unités sans ordre : Bohême",
        "invite": "Lien d'invitation : ",
        "sea": "mer Adriatique",
        "lost": "a perdu Vienne",
        "fate": "A Bud-Gal : échoue",
        "cut": "A Bud (S) A Vie : support coupé",
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
FLASH = "document.getElementById('flash')"
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


def in_language(page: Any, lang: str, ready: str) -> None:
    """The page's language set to ``lang``, and the page shown again in it (``ready``: a
    script true once it is)."""
    page.select_option("#language", lang)
    page.wait_for_function(ready)
    idle(page)


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


# Whether the header's items share one row (each one's box meets every other's height).
HEADER_ROWS = """() => {
    const boxes = [...document.querySelectorAll('header#top > *')].filter(e => !e.hidden)
        .map(e => e.getBoundingClientRect());
    return Math.max(...boxes.map(b => b.top)) < Math.min(...boxes.map(b => b.bottom)) ? 1 : 2;
}"""


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
    in_language(page, "es", "document.documentElement.lang === 'es'")
    page.wait_for_function("document.getElementById('my-games').innerText.includes('formándose')")
    said = page.inner_text("#my-games")
    assert "formándose · " in said and "en curso" not in said, said


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


def test_a_password_changed_in_the_page_is_the_one_to_log_in_with(
    server: LiveServer, browser: Any
) -> None:
    """The username in the header opens the account: a wrong current password is told as
    the page tells errors; the right one changes it and ends the other sessions (this one
    stays); the new password logs in, the old one no longer; log out everywhere ends all.
    The form keeps the header on one row and the page within a phone's width."""
    import httpx

    def session(password: str) -> dict[str, str]:
        body = {"username": "pascal", "password": password}
        r = httpx.post(server.url + "/api/sessions", json=body)
        assert r.status_code == 200, r.text
        return {"Authorization": f"Bearer {r.json()['token']}"}

    def me(headers: dict[str, str]) -> int:
        return httpx.get(server.url + "/api/me", headers=headers).status_code

    page, errors = watched(browser)
    sign_up(page, server, "pascal")
    elsewhere = session("lovelace1815")
    page.click("#whoami")
    page.wait_for_selector("#change-password")
    idle(page)
    page.fill("#account-current", "wrong password")
    page.fill("#account-new", "babbage1791")
    with page.expect_response("**/api/me/password") as refused:
        page.click("#change-password")
    assert refused.value.status == 403
    idle(page)
    assert page.inner_text("#flash.error") == "The current password is wrong."
    assert me(elsewhere) == 200
    errors = [e for e in errors if "403" not in e]  # the refusal asked for
    page.fill("#account-current", "lovelace1815")
    page.press("#account-new", "Enter")  # Enter sends the form, as the button does
    page.wait_for_function(f"{FLASH}.className === 'info' && !{FLASH}.hidden")
    idle(page)
    assert page.inner_text("#flash").startswith("Password changed")
    assert page.input_value("#account-current") == page.input_value("#account-new") == ""
    assert me(elsewhere) == 401
    shot(page, "account-desktop", full=False)
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_function("document.documentElement.scrollWidth <= 392")
    assert page.evaluate(HEADER_ROWS) == 1
    shot(page, "account-phone", full=False)
    page.set_viewport_size({"width": 1400, "height": 1000})
    page.click("#logout")
    page.wait_for_selector("#auth-user")
    page.fill("#auth-user", "pascal")
    page.fill("#auth-pass", "lovelace1815")
    page.click("#login")
    page.wait_for_function(f"{FLASH}.textContent === 'Wrong username or password.'")
    page.fill("#auth-pass", "babbage1791")
    page.press("#auth-pass", "Enter")
    page.wait_for_selector("#create-game")
    assert page.inner_text("#whoami") == "pascal"
    elsewhere = session("babbage1791")
    page.click("#whoami")
    page.wait_for_selector("#logout-everywhere")
    idle(page)
    page.click("#logout-everywhere")
    page.wait_for_selector("#auth-user")
    idle(page)
    assert me(elsewhere) == 401
    assert page.evaluate("fetch('/api/me').then(r => r.status)") == 401
    assert not errors, errors


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


# The page's tab put in the background, and brought back (as the browser tells the page).
HIDE_TAB = """() => {
  Object.defineProperty(document, "hidden", {value: true, configurable: true});
  document.dispatchEvent(new Event("visibilitychange"));
}"""
SHOW_TAB = """() => {
  delete document.hidden;
  document.dispatchEvent(new Event("visibilitychange"));
}"""


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


def start_elsewhere(page: Any, gid: int) -> None:
    """Start game ``gid`` with the page's session, as from another tab of its player's:
    the page itself hears of it as news."""
    started = page.evaluate(
        """async (id) => (await fetch(`/api/games/${id}/start`, {method: "POST",
            headers: {"X-Requested-With": "realpolitik"}})).status""",
        gid,
    )
    assert started == 200


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


@pytest.fixture(scope="module")
def mail_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[LiveServer, FakeSmtp]]:
    """A server that mails (to a fake SMTP server in this process); its links lead to
    its own address (``REALPOLITIK_PUBLIC_URL``)."""
    smtp = FakeSmtp()
    folder = tmp_path_factory.mktemp("mail")
    port = free_port()
    mail = {
        "REALPOLITIK_SMTP_URL": smtp.url,
        "REALPOLITIK_MAIL_FROM": "dip@example.org",
        "REALPOLITIK_PUBLIC_URL": f"http://127.0.0.1:{port}",
    }
    live = start_server(
        f"sqlite:///{folder / 'game.sqlite3'}", folder / "server.log", extra_env=mail, port=port
    )
    yield live, smtp
    live.stop()
    smtp.close()


def test_an_email_address_set_in_the_account_is_confirmed_by_its_link(
    mail_server: tuple[LiveServer, FakeSmtp], server: LiveServer, browser: Any
) -> None:
    """The account takes an email address (a bad one is refused, saying why); the mail
    loop sends the link; following it confirms the address, which the account then says;
    a notice turned off stays off. A server without mail offers no address."""
    live, smtp = mail_server
    page, errors = watched(browser)
    sign_up(page, live, "emmy")
    page.click("#whoami")
    page.wait_for_selector("#account-email")
    idle(page)
    assert page.inner_text("#email-status") == "No address: no mail is sent to you."
    page.fill("#account-email", "emmy@localhost")
    with page.expect_response("**/api/me/email") as refused:
        page.click("#save-email")
    assert refused.value.status == 400
    idle(page)
    assert page.inner_text("#flash.error").startswith("Not an email address (the domain")
    errors = [e for e in errors if "400" not in e]  # the refusal asked for
    page.fill("#account-email", "emmy@example.org")
    page.press("#account-email", "Enter")  # as the button does
    page.wait_for_function(
        "document.getElementById('email-status').innerText.startsWith('Not confirmed')"
    )
    idle(page)
    assert "emmy@example.org" in page.inner_text("#email-status")
    deadline = time.monotonic() + 30
    while not smtp.messages_to("emmy@example.org") and time.monotonic() < deadline:
        time.sleep(0.2)  # the server's mail loop sends it
    link = smtp.link("emmy@example.org")
    assert link.startswith(live.url + "/#/confirm/")
    page.goto(link)
    page.wait_for_function(
        "(document.getElementById('email-status') || {}).innerText"
        " === 'Confirmed: notices are sent to this address.'"
    )
    idle(page)
    assert page.evaluate("location.hash") == "#/account"
    assert page.input_value("#account-email") == "emmy@example.org"
    with page.expect_response("**/api/me/notices"):
        page.uncheck("#notice-deadline")
    idle(page)
    page.reload()
    page.wait_for_selector("#notice-deadline")
    idle(page)
    assert not page.is_checked("#notice-deadline") and page.is_checked("#notice-phase")
    page.goto(link)  # used: the page says so
    page.wait_for_selector("#flash.error")
    assert "unknown or was used" in page.inner_text("#flash")
    errors = [e for e in errors if "404" not in e]
    assert errors == []
    plain = browser.new_page(viewport={"width": 1400, "height": 1000})
    sign_up(plain, server, "nomail")
    plain.click("#whoami")
    plain.wait_for_selector("#change-password")
    idle(plain)
    assert plain.locator("#account-email").count() == 0


def test_a_notice_s_link_stops_the_notices_from_a_page_without_logging_in(
    mail_server: tuple[LiveServer, FakeSmtp], browser: Any
) -> None:
    """The account sends the browser's time zone, and the notice's deadline is written in
    it; the notice's link, opened on a phone without a session, shows a page in the
    player's language whose button (not the opening) turns every notice off; the account
    then shows them off, and turns one back on."""
    live, smtp = mail_server
    context = browser.new_context(
        viewport={"width": 1400, "height": 1000}, timezone_id="America/Sao_Paulo"
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if unexpected(m) else None)
    page.goto(live.url + "/")
    page.wait_for_selector("#auth-user")
    idle(page)
    page.select_option("#language", "pt")
    idle(page)
    page.fill("#auth-user", "zelia")
    page.fill("#auth-pass", "lovelace1815")
    page.click("#register")
    page.wait_for_selector("#create-game")
    page.click("#whoami")
    page.wait_for_selector("#account-email")
    idle(page)
    page.fill("#account-email", "zelia@example.org")
    with page.expect_response("**/api/me/email") as saved:
        page.click("#save-email")
    assert saved.value.request.post_data_json["time_zone"] == "America/Sao_Paulo"
    page.wait_for_function("document.getElementById('email-status').innerText.includes('zelia@')")
    idle(page)
    assert page.inner_text("#notices-zone") == (
        "Os prazos nos e-mails são escritos no fuso horário America/Sao_Paulo."
    )
    shot(page, "account-time-zone")
    deadline = time.monotonic() + 30
    while not smtp.messages_to("zelia@example.org") and time.monotonic() < deadline:
        time.sleep(0.2)
    page.goto(smtp.link("zelia@example.org"))
    page.wait_for_selector("#notice-phase")
    idle(page)
    r = page.request.post(
        live.url + "/api/games",
        data={"name": "Mesa de sábado", "deadlines": "daily", "bots": "random", "start": True},
        headers={"X-Requested-With": "realpolitik"},
    )
    assert r.status == 201, r.text()
    deadline = time.monotonic() + 60  # the mail loop looks for notices every 15 s
    while len(smtp.messages_to("zelia@example.org")) < 2 and time.monotonic() < deadline:
        time.sleep(0.2)
    notice = smtp.messages_to("zelia@example.org")[-1]
    assert "começou" in notice["Subject"]
    assert re.search(
        r"Prazo: \S+, \d+ de \w+ de \d{4}, \d\d:\d\d \(America/Sao_Paulo\)", notice.get_content()
    )
    link = smtp.unsubscribe_link(notice)
    assert link.startswith(live.url + "/unsubscribe/")
    assert f"List-Unsubscribe: <{link}>" in smtp.header_lines(notice)

    def notices_now() -> dict[str, bool]:
        found: dict[str, bool] = page.request.get(live.url + "/api/me").json()["notices"]
        return found

    phone = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    away = phone.new_page()  # no session there
    away.on("pageerror", lambda e: errors.append(str(e)))
    away.goto(link)
    assert away.inner_text("#said") == "Deixar de receber os avisos que o realpolitik lhe envia?"
    assert away.inner_text("#stop-all") == "Parar todos os avisos"
    assert away.inner_text("#stop-this") == "Só os de novas fases"
    box = away.locator("#unsubscribe").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390  # the card fits a phone
    shot(away, "unsubscribe-phone")
    assert notices_now() == {"phase": True, "deadline": True}  # opening changed nothing
    wide = context.new_page()
    wide.goto(link)
    shot(wide, "unsubscribe-desktop")
    wide.close()
    away.click("#stop-all")
    away.wait_for_selector("#account")
    assert away.inner_text("#said") == "Pronto: o realpolitik não lhe enviará mais avisos."
    shot(away, "unsubscribe-done-phone")
    assert notices_now() == {"phase": False, "deadline": False}
    used = away.goto(link)
    assert used.status == 410 and "Este link já foi usado" in away.inner_text("#said")
    phone.close()
    page.reload()  # the account page, open all along, shown again
    page.wait_for_selector("#notice-phase")
    idle(page)
    assert not page.is_checked("#notice-phase") and not page.is_checked("#notice-deadline")
    with page.expect_response("**/api/me/notices"):
        page.check("#notice-phase")
    idle(page)
    assert notices_now() == {"phase": True, "deadline": False}
    assert errors == []
    context.close()
