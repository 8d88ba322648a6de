"""Reading press: each reader's pages hold the messages it may read, however many
messages it may not read lie between them, and the numbers it reads do not tell how many
(SQLite and PostgreSQL)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import delete, insert, inspect, select, text

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
        {"game_id": gid, "number": before + n, "phase": "S1914M", "sender": a,
         "recipients": [a2], "body": "psst", "created_at": 0.0}
        for n in range(1, 5002)
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
    powers held by bots, which the page offers, are written to as before. A power that is
    not on the board is refused as unknown, in the singular or the plural."""
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

    for to, said in (
        (["ATLANTIS"], "recipient: ATLANTIS"),
        (["MU", "LEMURIA"], "recipients: LEMURIA, MU"),
    ):
        r = send(to)
        assert r.status_code == 400 and f"unknown {said}" in r.json()["detail"], (to, r.text)
    for to in (["ITALY"], ["italy", bot]):
        r = send(to)
        assert r.status_code == 400, (to, r.text)
        assert "ITALY" in r.json()["detail"] and bot not in r.json()["detail"], r.text
        assert r.json()["code"] == "recipient_not_played", r.text
    assert [m["body"] for m in client.get(url, headers=alice.headers).json()] == []
    assert send([bot]).status_code == 201  # a bot's power, as the page offers
    assert send([]).status_code == 201  # public, read by all


def _numbers_read(client: TestClient, clock: FakeClock, whispers: int) -> list[int]:
    """Bob's messages' numbers in a new game where the other player writes two public
    messages a minute apart and ``whispers`` private ones between her own powers in that
    minute, relative to the first (the clock moves a second between messages)."""
    alice, bob = register(client, f"alice{whispers}"), register(client, f"bob{whispers}")
    gid = new_game(client, alice, players=2)["id"]
    assert client.post(f"/api/games/{gid}/join", json={}, headers=bob.headers).status_code == 200
    a, a2, *_ = client.get(f"/api/games/{gid}", headers=alice.headers).json()["my_powers"]
    url = f"/api/games/{gid}/messages"
    start = clock.now

    def send(to: list[str], body: str) -> None:
        sent = {"sender": a, "recipients": to, "body": body}
        assert client.post(url, json=sent, headers=alice.headers).status_code == 201

    send([], "one")
    for n in range(whispers):
        clock.advance(1)
        send([a2], f"whisper {n}")
    clock.now = start + 60
    send([], "two")
    read = client.get(url, headers=bob.headers).json()
    assert [m["body"] for m in read] == ["one", "two"]
    return [m["id"] - read[0]["id"] for m in read]


def _check_numbers(url: str, clock: FakeClock) -> None:
    backend = Backend.open(fast_settings(url), clock=clock)
    try:
        with TestClient(create_app(backend.settings, backend=backend)) as client:
            quiet = _numbers_read(client, clock, whispers=0)
            busy = _numbers_read(client, clock, whispers=40)
            assert quiet == busy == [0, 60_000]  # a minute apart, in milliseconds
            # within one millisecond, each message still gets a number of its own
            alice = register(client, "carol")
            gid = new_game(client, alice, players=2, bots="random", start=True)["id"]
            power = client.get(f"/api/games/{gid}", headers=alice.headers).json()["my_powers"][0]
            sent = [
                client.post(
                    f"/api/games/{gid}/messages",
                    json={"sender": power, "recipients": [], "body": str(n)},
                    headers=alice.headers,
                ).json()["id"]
                for n in range(3)
            ]
            assert sent == [sent[0], sent[0] + 1, sent[0] + 2]
            read = client.get(f"/api/games/{gid}/messages", headers=alice.headers).json()
            assert [m["id"] for m in read] == sent
    finally:
        backend.close()
        engine.clear_cache()


def test_numbers_read_do_not_count_the_messages_between_sqlite(
    sqlite_url: str, clock: FakeClock
) -> None:
    _check_numbers(sqlite_url, clock)


def test_numbers_read_do_not_count_the_messages_between_postgres(
    pg_url: str, clock: FakeClock
) -> None:
    _check_numbers(pg_url, clock)


def test_messages_from_before_their_numbers_keep_their_ids_sqlite(
    sqlite_url: str, clock: FakeClock
) -> None:
    _check_migrated(sqlite_url, clock)


def test_messages_from_before_their_numbers_keep_their_ids_postgres(
    pg_url: str, clock: FakeClock
) -> None:
    _check_migrated(pg_url, clock)


def _check_migrated(url: str, clock: FakeClock) -> None:
    """A database of schema version 5 (messages numbered by the database's id across all
    games) migrates: each message keeps its id as its number, so a reader's ``after``
    still means what it did, and a new message comes after every old one."""
    b = Backend.open(fast_settings(url), clock=clock)
    with TestClient(create_app(b.settings, backend=b)) as c:
        alice = register(c, "alice")
        gid = new_game(c, alice, players=2, bots="random", start=True)["id"]
        power = c.get(f"/api/games/{gid}", headers=alice.headers).json()["my_powers"][0]
        messages = f"/api/games/{gid}/messages"
        for body in ("old one", "old two"):
            sent = {"sender": power, "recipients": [], "body": body}
            assert c.post(messages, json=sent, headers=alice.headers).status_code == 201
    with b.db.begin() as conn:  # back to version 5: the ids were the numbers
        conn.execute(text("DROP INDEX ix_messages_number"))
        conn.execute(text("ALTER TABLE messages DROP COLUMN number"))
        conn.execute(text("CREATE INDEX ix_messages_game ON messages (game_id, id)"))
        conn.execute(delete(t.schema_version).where(t.schema_version.c.version >= 6))
        ids = conn.execute(select(t.messages.c.id).order_by(t.messages.c.id)).scalars().all()
    b.close()
    engine.clear_cache()
    b = Backend.open(fast_settings(url), clock=clock)
    try:
        with TestClient(create_app(b.settings, backend=b)) as c:
            old = c.get(messages, headers=alice.headers).json()
            assert [m["id"] for m in old] == ids
            assert [m["body"] for m in old] == ["old one", "old two"]
            sent = {"sender": power, "recipients": [], "body": "new"}
            assert c.post(messages, json=sent, headers=alice.headers).status_code == 201
            after = c.get(messages, params={"after": ids[0]}, headers=alice.headers).json()
            assert [m["body"] for m in after] == ["old two", "new"]
            with b.db.connect() as conn:
                indexes = {i["name"] for i in inspect(conn).get_indexes("messages")}
            assert indexes == {"ix_messages_number"}
    finally:
        b.close()
        engine.clear_cache()


def test_a_message_of_nothing_visible_is_empty(client: TestClient) -> None:
    """A body of zero-width, formatting or blank characters shows nothing in the page: it
    is refused as an empty one (400 ``message_empty``), not posted as a blank line; one
    that shows something with them (an emoji joined by a zero-width joiner) is sent. And
    a game still forming says so (409 ``not_started``), not that the sender plays nothing:
    nobody plays a power yet."""
    alice = register(client, "alice")
    gid = new_game(client, alice, players=2, bots=None)["id"]
    url = f"/api/games/{gid}/messages"
    r = client.post(url, json={"sender": "FRANCE", "body": "hello"}, headers=alice.headers)
    assert r.status_code == 409 and r.json()["code"] == "not_started", r.text
    gid = new_game(client, alice, players=2, bots="random", start=True)["id"]
    url = f"/api/games/{gid}/messages"
    mine = client.get(f"/api/games/{gid}", headers=alice.headers).json()["my_powers"][0]
    for body in ("\u200b", "\u2800 \u3164", "\u202e\u200f", " \u200d\n"):
        r = client.post(url, json={"sender": mine, "body": body}, headers=alice.headers)
        assert r.status_code == 400 and r.json()["code"] == "message_empty", (body, r.text)
    r = client.post(
        url, json={"sender": mine, "body": "\U0001f3f4\u200d\u2620"}, headers=alice.headers
    )
    assert r.status_code == 201, r.text
    assert [m["body"] for m in client.get(url, headers=alice.headers).json()] == [
        "\U0001f3f4\u200d\u2620"
    ]
