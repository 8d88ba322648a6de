"""Reading press: each reader's pages hold the messages it may read, however many
messages it may not read lie between them (SQLite and PostgreSQL)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import insert

from realpolitik.server import engine
from realpolitik.server import tables as t
from realpolitik.server.app import create_app
from realpolitik.server.backend import Backend
from realpolitik.server.db import transaction
from realpolitik.server.press import MAX_PAGE
from tests.server.conftest import FakeClock, fast_settings, new_game, register


def _flood(url: str, clock: FakeClock) -> None:
    """One player sends thousands of messages between its own powers: every other reader
    still gets the public message sent after them (its page held only unreadable ones,
    came back empty, and the next poll asked for the same page again, forever), and
    nobody reads a private message of others."""
    # more than a power may send in one phase (limits.py): the flood is put in directly
    backend = Backend.open(fast_settings(url, messages_per_phase=10_000), clock=clock)
    try:
        with TestClient(create_app(backend.settings, backend=backend)) as client:
            _check_flood(client, backend)
    finally:
        backend.close()
        engine.clear_cache()


def _check_flood(client: TestClient, backend: Backend) -> None:
    alice, bob, olga = (register(client, n) for n in ("alice", "bob", "olga"))
    game = new_game(client, alice, players=2)
    gid = game["id"]
    assert client.post(f"/api/games/{gid}/join", json={}, headers=bob.headers).status_code == 200
    a, a2, *_ = client.get(f"/api/games/{gid}", headers=alice.headers).json()["my_powers"]
    b = client.get(f"/api/games/{gid}", headers=bob.headers).json()["my_powers"][0]
    url = f"/api/games/{gid}/messages"

    def send(sender: str, to: list[str], body: str) -> int:
        r = client.post(
            url, json={"sender": sender, "recipients": to, "body": body}, headers=alice.headers
        )
        assert r.status_code == 201, r.text
        return int(r.json()["id"])

    before = send(a, [], "before the flood")
    flood = [
        {"game_id": gid, "phase": "S1914M", "sender": a, "recipients": [a2], "body": "psst",
         "created_at": 0.0}
        for _ in range(5001)
    ]  # fmt: skip
    with transaction(backend.db) as conn:
        conn.execute(insert(t.messages), flood)
    send(a, [b], "to bob")
    send(a, [], "after the flood")

    for reader, seen in [
        (olga.headers, ["after the flood"]),
        ({}, ["after the flood"]),
        (bob.headers, ["to bob", "after the flood"]),
    ]:
        got = client.get(url, params={"after": before}, headers=reader).json()
        assert [m["body"] for m in got] == seen
    pages, after = [], 0  # the sender pages through all of them, MAX_PAGE at a time
    while page := client.get(url, params={"after": after}, headers=alice.headers).json():
        pages.append(len(page))
        after = page[-1]["id"]
    assert max(pages) == MAX_PAGE and sum(pages) == 5004


def test_a_flood_of_private_messages_hides_no_public_one_sqlite(
    sqlite_url: str, clock: FakeClock
) -> None:
    _flood(sqlite_url, clock)


def test_a_flood_of_private_messages_hides_no_public_one_postgres(
    pg_url: str, clock: FakeClock
) -> None:
    _flood(pg_url, clock)


def test_a_message_to_a_power_nobody_plays_is_refused_naming_it(client: TestClient) -> None:
    """Six players on the classic board: Italy sits out (nobody reads what is written to
    it, and the page offers no box for it), so a message to it is refused naming it;
    powers held by bots, which the page offers, are written to as before."""
    alice = register(client, "alice")
    gid = new_game(client, alice, players=6, bots="random", start=True)["id"]
    state = client.get(f"/api/games/{gid}", headers=alice.headers).json()
    seated = {p for seat in state["seats"] for p in seat["powers"]}
    assert "ITALY" not in seated
    mine = state["my_powers"][0]
    bot = next(p for seat in state["seats"] if seat["bot"] for p in seat["powers"])
    url = f"/api/games/{gid}/messages"

    def send(to: list[str]) -> Any:
        body = {"sender": mine, "recipients": to, "body": "hello"}
        return client.post(url, json=body, headers=alice.headers)

    for to in (["ITALY"], ["italy", bot]):
        r = send(to)
        assert r.status_code == 400, (to, r.text)
        assert "ITALY" in r.json()["detail"] and bot not in r.json()["detail"], r.text
        assert r.json()["code"] == "recipient_not_played", r.text
    assert [m["body"] for m in client.get(url, headers=alice.headers).json()] == []
    assert send([bot]).status_code == 201  # a bot's power, as the page offers
    assert send([]).status_code == 201  # public, read by all
