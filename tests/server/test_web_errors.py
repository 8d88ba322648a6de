"""The page and the server's refusals: a player's evening stays well under the default limit
of requests (:mod:`realpolitik.server.throttle`), and a refusal that names powers names
them in the page's language."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from realpolitik.server.settings import Settings
from realpolitik.server.throttle import Throttle
from tests.server.browserkit import (
    continue_to_now,
    idle,
    in_language,
    register_and_create,
    until_phase_changes,
)
from tests.server.conftest import LiveServer, start_server

DEFAULT = Settings().requests_per_minute
BURST = Throttle(DEFAULT).burst  # what one address may ask at once


@pytest.fixture(scope="module")
def limited(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A live server with the default limit of requests (the shared one has it out of reach)."""
    folder: Path = tmp_path_factory.mktemp("limited")
    live = start_server(
        f"sqlite:///{folder / 'game.sqlite3'}",
        folder / "server.log",
        extra_env={"REALPOLITIK_REQUESTS_PER_MINUTE": str(DEFAULT)},
    )
    yield live
    live.stop()


def test_a_player_s_evening_stays_under_the_default_limit(
    limited: LiveServer, browser: Any
) -> None:
    """Sign up, a game against bots, Ready, the results, the history, three languages, the
    lobby and back: never refused, and all of it asks less than one burst (57 requests when
    written; a limit that a player could reach would be a fault)."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    asked: list[tuple[str, int]] = []  # what, the answer

    def heard(response: Any) -> None:
        if "/static/" not in response.url:  # the page's files are not counted
            asked.append((response.url, response.status))

    page.on("response", heard)
    register_and_create(page, limited, "vespasia", players="7")
    page.on("dialog", lambda d: d.accept())
    page.click("#ready")
    until_phase_changes(page, "S1901M")
    continue_to_now(page)
    page.click("#step-prev")
    idle(page)
    page.click("#step-next")
    idle(page)
    for lang in ("es", "fr", "en"):
        in_language(page, lang, f"document.documentElement.lang === {lang!r}")
    page.goto(limited.url + "/")
    page.wait_for_selector("#my-games .game-item")
    page.click("#my-games .game-item button")
    page.wait_for_selector("#map svg")
    idle(page)
    refused = [(url, status) for url, status in asked if status == 429]
    assert not refused, refused
    # all of it, clicked at a test's speed (a few seconds), fits in one burst
    assert 20 < len(asked) < BURST, [url for url, _ in asked]


def test_a_refusal_names_powers_in_the_page_s_language(server: LiveServer, browser: Any) -> None:
    """The server names powers in a refusal by their codes (``too_many_messages``: "ENGLAND");
    the page says "Inglaterra"."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    register_and_create(page, server, "octavia", players="7")
    in_language(page, "es", "document.documentElement.lang === 'es'")
    page.wait_for_function(
        "async () => (await import('/static/core.js')).S.game.names.powers.ENGLAND === 'Inglaterra'"
    )
    said = page.evaluate(
        """async () => {
            const {errorText} = await import('/static/core.js');
            return [
                errorText({code: 'too_many_messages', values: {power: 'ENGLAND', n: 300},
                           message: 'ENGLAND has sent 300 messages'}),
                errorText({code: 'recipient_not_played', values: {powers: 'ITALY, TURKEY'},
                           message: 'nobody plays ITALY, TURKEY'}),
                errorText({code: 'no_such_code', values: {}, message: 'the server said so'}),
            ];
        }"""
    )
    assert said == [
        "Inglaterra ha enviado 300 mensajes en esta fase, el máximo en una fase.",
        "Nadie juega con Italia, Turquía en esta partida: ningún mensaje puede llegarle.",
        "the server said so",
    ]
