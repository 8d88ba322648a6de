"""Every refusal the server names by a code has the page's words for it, in each language
(the page shows ``error_<code>``; without it, the server's English)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from realpolitik.server.app import web_dir
from tests.server.conftest import new_game, register

SERVER = Path(__file__).resolve().parents[2] / "src" / "realpolitik" / "server"
NEVER_SHOWN = {
    "too_many_streams": "asked by the browser's EventSource, which shows no answer: the page polls",
}
"""Codes the page never shows, and why."""


def _codes() -> dict[str, set[str]]:
    """Each code the server's modules refuse with, and the names of the values sent with it."""
    found: dict[str, set[str]] = {}
    for module in sorted(SERVER.glob("*.py")):
        text = module.read_text()
        for match in re.finditer(r'code="([a-z_]+)"(?:,\s*values=\{([^}]*)\})?', text):
            names = set(re.findall(r'"(\w+)":', match.group(2) or ""))
            found.setdefault(match.group(1), set()).update(names)
    return found


CODES = _codes()
WORDS = json.loads((web_dir() / "i18n.json").read_text())


def test_the_codes_are_found() -> None:
    assert {"username_taken", "too_many_attempts", "too_many_requests"} <= set(CODES)
    assert CODES["recipient_not_played"] == {"powers"}


@pytest.mark.parametrize("language", ["en", "es", "fr", "pt"])
def test_every_code_has_words_that_use_only_what_is_sent(language: str) -> None:
    missing, unknown = [], []
    for code, values in sorted(CODES.items()):
        if code in NEVER_SHOWN:
            continue
        words = WORDS[language].get(f"error_{code}")
        if words is None:
            missing.append(code)
            continue
        unknown += [(code, name) for name in re.findall(r"\{(\w+)\}", words) if name not in values]
    assert not missing, f"no words in {language} for: {', '.join(missing)}"
    assert not unknown, f"words naming a value the server does not send: {unknown}"


def test_refusals_met_in_the_page_come_with_a_code(client: TestClient) -> None:
    """Refusals a player meets through the page itself came in English only, whatever the
    page's language: an order typed too long, a game named with blanks only, a power
    played no more (its seat left, or another account logged in, in another tab), a power
    with nothing to order (it conceded in another tab). Each comes with a code and its
    values, which the page says in its own words."""
    alice = register(client, "alice")
    game = new_game(client, alice, start=True, bots="random")
    gid, power = game["id"], game["my_powers"][0]
    other = "FRANCE" if power != "FRANCE" else "ENGLAND"
    answers = {
        "order_too_long": client.put(
            f"/api/games/{gid}/orders",
            json={"power": power, "orders": ["A PAR H" + " " * 300]},
            headers=alice.headers,
        ),
        "game_name_length": client.post(
            "/api/games", json={"name": "   ", "deadlines": "none"}, headers=alice.headers
        ),
        "not_your_power": client.put(
            f"/api/games/{gid}/orders", json={"power": other, "orders": []}, headers=alice.headers
        ),
    }
    client.post(f"/api/games/{gid}/concede", json={"power": power}, headers=alice.headers)
    answers["nothing_to_order"] = client.post(
        f"/api/games/{gid}/ready", json={"power": power}, headers=alice.headers
    )
    said = {code: (r.json().get("code"), r.json().get("values")) for code, r in answers.items()}
    assert said == {
        "order_too_long": ("order_too_long", {"n": 200}),
        "game_name_length": ("game_name_length", {"n": 100}),
        "not_your_power": ("not_your_power", {"power": other}),
        "nothing_to_order": ("nothing_to_order", {"power": power}),
    }
