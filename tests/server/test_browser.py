"""A real browser (Debian's headless Chromium, driven by Playwright): create an account
and a game with bots, give orders by clicking the map and the server's legal orders, type
one, mark ready, and play a whole year; then the history, the language switch, a phone."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.conftest import IN_CI, LiveServer, start_server

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

FIND_POINT = """(id) => {
  const p = document.querySelector(`#map svg [id="${id}"]`);
  if (!p) return null;
  p.scrollIntoView({block: "center"});
  const r = p.getBoundingClientRect();
  for (let i = 1; i < 12; i++) for (let j = 1; j < 12; j++) {
    const x = r.left + r.width * i / 12, y = r.top + r.height * j / 12;
    if (document.elementFromPoint(x, y) === p) return [x, y];
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


def shot(page: Any, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)


def click_province(page: Any, province: str) -> None:
    point = page.evaluate(FIND_POINT, province)
    assert point, f"no clickable point in {province}"
    page.mouse.click(point[0], point[1])


def idle(page: Any) -> None:
    page.wait_for_function("!document.body.dataset.busy")


def my_orders(page: Any) -> list[str]:
    return [str(x) for x in page.locator("#my-orders li.order").evaluate_all(
        "els => els.map(e => e.dataset.order)")]  # fmt: skip


def test_play_a_year_in_the_browser(server: LiveServer, browser: Any) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url + "/")
    page.fill("#auth-user", "ada")
    page.fill("#auth-pass", "lovelace1815")
    page.click("#register")
    page.wait_for_selector("#create-game")
    page.fill("#new-name", "browser game")
    page.select_option("#new-deadlines", "none")
    page.select_option("#new-bots", "heuristic")
    page.click("#create-game")
    page.wait_for_selector("#map svg")
    assert page.inner_text("#phase") == "S1901M"
    shot(page, "1-start")

    phases: list[str] = []
    typed_once = clicked_destination = False
    for _ in range(8):
        phase = page.inner_text("#phase")
        if phase.startswith("S1902"):
            break
        phases.append(phase)
        idle(page)
        page.wait_for_selector("#orders-panel h3")
        keys = page.locator("#units button.unit").evaluate_all("els => els.map(e => e.dataset.key)")
        for k, key in enumerate(keys):
            province = key.split("/")[0]
            before = len(my_orders(page))
            if phase.endswith("M") and k == len(keys) - 1 and not typed_once:
                # pick the unit from the list of units, and type its hold
                page.click(f'#units button[data-key="{key}"]')
                hold = page.locator('#legal .legal-option[data-kind="hold"]').first
                page.fill("#typed", hold.get_attribute("data-order") or "")
                page.click("#submit-typed")
                typed_once = True
            else:
                click_province(page, province)  # select the unit on the map
                page.wait_for_selector("#legal .legal-option")
                moves = page.locator('#legal .legal-option[data-kind="move"]')
                if phase.endswith("M") and moves.count() and not clicked_destination:
                    order = moves.first.get_attribute("data-order") or ""
                    dest = order.split(" - ")[1].split("/")[0].split()[0]
                    click_province(page, dest)  # ... and its destination
                    clicked_destination = True
                else:
                    options = page.locator("#legal .legal-option")
                    options.nth(options.count() - 1).click()
            page.wait_for_function(
                f"document.querySelectorAll('#my-orders li.order').length > {before}"
            )
            idle(page)
        shot(page, f"2-{phase}")
        if page.locator("#ready").count():
            page.click("#ready")
        page.wait_for_function(
            f"document.getElementById('phase').textContent !== '{phase}'", timeout=30_000
        )
        idle(page)
    assert page.inner_text("#phase") == "S1902M"
    assert phases[:2] == ["S1901M", "F1901M"] and typed_once and clicked_destination

    page.click('.history-phase[data-phase="S1901M"]')
    page.wait_for_selector("#results tr")
    assert page.locator("#history-view svg").count() == 1
    assert page.locator("#results tr").count() >= 22
    shot(page, "3-history")

    page.select_option("#language", "fr")
    page.wait_for_function(
        "(document.querySelector('#orders-panel h3') || {textContent: ''}).textContent"
        ".includes('Vos ordres')"
    )
    idle(page)
    assert "Historique" in page.inner_text("#history-panel h3")
    shot(page, "4-french")
    assert not errors, errors


def test_phone_sized_screen(server: LiveServer, browser: Any) -> None:
    page = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page.goto(server.url + "/")
    page.fill("#auth-user", "ada")
    page.fill("#auth-pass", "lovelace1815")
    page.click("#login")
    page.wait_for_selector("#my-games .game-item")
    page.click("#my-games .game-item button")
    page.wait_for_selector("#map svg")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 392, width
    map_width = page.evaluate("document.querySelector('#map svg').getBoundingClientRect().width")
    assert 300 <= map_width <= 390
    shot(page, "5-phone")
