"""Every refusal the server names by a code has the page's words for it, in each language
(the page shows ``error_<code>``; without it, the server's English)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from realpolitik.position import Position
from realpolitik.server import engine
from realpolitik.server import tables as t
from realpolitik.server.app import web_dir
from realpolitik.server.backend import Backend
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


def test_more_refusals_met_in_the_page_come_with_a_code(
    client: TestClient, backend: Backend
) -> None:
    """A game named with nothing, too long a name, or a name with a tab or an invisible
    character; more orders in one submission than the list takes; a draw vote or a
    concession of a power that conceded (in another tab) or has no unit left: refused in
    English only, whatever the page's language (the request's schema checked the name's
    length and the list's before the code was attached). Each comes with a code and its
    values, which the page says in its words."""
    alice = register(client, "alice")
    game = new_game(client, alice, start=True, bots="random")
    gid, power = game["id"], game["my_powers"][0]
    with backend.db.begin() as conn:  # alice's power has no unit left
        stored = select(t.games.c.state).where(t.games.c.id == gid)
        state = engine.fresh(conn.execute(stored).scalar_one())
        units = state.position.to_json()
        units["units"][power] = []
        state.position = Position.from_json(units, state.game_map)
        conn.execute(t.games.update().where(t.games.c.id == gid).values(
            state=engine.to_state(state), version=t.games.c.version + 1
        ))  # fmt: skip
    engine.clear_cache()
    answers = {
        "game_name_empty": client.post(
            "/api/games", json={"name": "", "deadlines": "none"}, headers=alice.headers
        ),
        "game_name_long": client.post(
            "/api/games", json={"name": "x" * 101, "deadlines": "none"}, headers=alice.headers
        ),
        "game_name_hidden": client.post(
            "/api/games", json={"name": "a\tb\u200b", "deadlines": "none"}, headers=alice.headers
        ),
        "too_many_orders": client.put(
            f"/api/games/{gid}/orders",
            json={"power": power, "orders": ["A PAR H"] * 65},
            headers=alice.headers,
        ),
        "no_say_in_draw": client.post(
            f"/api/games/{gid}/draw", json={"power": power}, headers=alice.headers
        ),
    }
    assert (
        client.post(
            f"/api/games/{gid}/concede", json={"power": power}, headers=alice.headers
        ).status_code
        == 200
    )
    answers["power_conceded"] = client.post(
        f"/api/games/{gid}/concede", json={"power": power}, headers=alice.headers
    )
    said = {code: (r.json().get("code"), r.json().get("values")) for code, r in answers.items()}
    assert said == {
        "game_name_empty": ("game_name_length", {"n": 100}),
        "game_name_long": ("game_name_length", {"n": 100}),
        "game_name_hidden": ("game_name_hidden", {"characters": "U+0009, U+200B"}),
        "too_many_orders": ("too_many_orders", {"n": 64}),
        "no_say_in_draw": ("no_say_in_draw", {"power": power}),
        "power_conceded": ("power_conceded", {"power": power}),
    }


def test_refusals_of_invitations_seats_and_messages_come_with_a_code(client: TestClient) -> None:
    """An invitation link whose game is gone (or mistyped), a game's page whose game is
    gone, leaving a seat given up in another tab, a message holding a control character
    (pasted), a message of a power conceded in another tab: refused in English only,
    whatever the page's language. Each comes with a code and its values."""
    alice, bob = register(client, "alice"), register(client, "bob")
    game = new_game(client, alice, start=True, bots="random")
    gid, power = game["id"], game["my_powers"][0]
    messages = f"/api/games/{gid}/messages"
    answers = {
        "unknown_invitation": client.get("/api/invitations/nope", headers=alice.headers),
        "unknown_invitation (join)": client.post("/api/invitations/nope", headers=alice.headers),
        "no_game": client.get("/api/games/999999", headers=alice.headers),
        "no_seat": client.post(f"/api/games/{gid}/leave", headers=bob.headers),
        "message_control": client.post(
            messages,
            json={"sender": power, "recipients": [], "body": "hi\x07 there"},
            headers=alice.headers,
        ),
    }
    client.post(f"/api/games/{gid}/concede", json={"power": power}, headers=alice.headers)
    answers["power_conceded"] = client.post(
        messages, json={"sender": power, "recipients": [], "body": "hi"}, headers=alice.headers
    )
    said = {code: (r.json().get("code"), r.json().get("values")) for code, r in answers.items()}
    assert said == {
        "unknown_invitation": ("unknown_invitation", {}),
        "unknown_invitation (join)": ("unknown_invitation", {}),
        "no_game": ("no_game", {"id": 999999}),
        "no_seat": ("no_seat", {}),
        "message_control": ("message_control", {"characters": "U+0007"}),
        "power_conceded": ("power_conceded", {"power": power}),
    }
