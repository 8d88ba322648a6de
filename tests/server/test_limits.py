"""What one user may hold at once (:mod:`realpolitik.server.limits`): games created,
seats, messages a phase, sessions, draw votes. A cap refuses the new thing with a code
naming it; nothing already stored is lost."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from realpolitik.server import engine
from realpolitik.server.app import create_app
from realpolitik.server.backend import Backend
from realpolitik.server.settings import Settings
from tests.server.conftest import FakeClock, Player, fast_settings, new_game, register

Limited = Callable[..., TestClient]


@pytest.fixture(params=["sqlite", "postgresql"])
def limited(request: pytest.FixtureRequest, clock: FakeClock) -> Iterator[Limited]:
    """A client of a server (SQLite, PostgreSQL) with the settings given (the caps under
    test)."""
    url = request.getfixturevalue("sqlite_url" if request.param == "sqlite" else "pg_url")
    opened: list[tuple[Backend, TestClient]] = []

    def make(**settings: Any) -> TestClient:
        backend = Backend.open(fast_settings(url, **settings), clock=clock)
        client = TestClient(create_app(backend.settings, backend=backend))
        client.__enter__()
        opened.append((backend, client))
        return client

    yield make
    for backend, client in opened:
        client.__exit__(None, None, None)
        backend.close()
    engine.clear_cache()


def _create(client: TestClient, who: Player, **kw: Any) -> Any:
    body = {"name": "test game", "deadlines": "none"} | kw
    return client.post("/api/games", json=body, headers=who.headers)


def _refused(r: Any, status: int, code: str, n: int) -> None:
    assert r.status_code == status, r.text
    body = r.json()
    assert body["code"] == code and body["values"]["n"] == n, body
    assert str(n) in body["detail"]


def _powers(client: TestClient, gid: int, who: Player) -> list[str]:
    r = client.get(f"/api/games/{gid}", headers=who.headers)
    assert r.status_code == 200, r.text
    return list(r.json()["my_powers"])


# --- games created ------------------------------------------------------------------------


def test_games_a_user_created_and_not_over_are_capped(limited: Limited) -> None:
    client = limited(games_per_user=3)
    alice, bob = register(client, "alice"), register(client, "bob")
    made = [new_game(client, alice, players=2, bots=None)["id"]]
    made += [new_game(client, alice, join=join)["id"] for join in (False, True)]
    r = _create(client, alice)
    _refused(r, 409, "too_many_games", 3)
    _refused(_create(client, alice, join=False, start=True), 409, "too_many_games", 3)
    mine = client.get("/api/games", headers=alice.headers).json()
    assert {g["id"] for g in mine["open"] + mine["mine"]} == set(made)  # none lost
    assert _create(client, bob).status_code == 201  # a cap per user, not for all

    # a game that ends makes room: bob joins alice's first game and concedes it
    gid = made[0]
    assert client.post(f"/api/games/{gid}/join", json={}, headers=bob.headers).status_code == 200
    for power in _powers(client, gid, bob):
        r = client.post(f"/api/games/{gid}/concede", json={"power": power}, headers=bob.headers)
        assert r.status_code == 200, r.text
    assert client.get(f"/api/games/{gid}").json()["status"] == "finished"
    assert _create(client, alice).status_code == 201
    _refused(_create(client, alice), 409, "too_many_games", 3)


def test_a_forming_game_is_cancelled_by_its_creator_making_room(limited: Limited) -> None:
    client = limited(games_per_user=2)
    alice, bob = register(client, "alice"), register(client, "bob")
    alone = new_game(client, alice, join=False)["id"]
    joined = new_game(client, alice, players=3)["id"]
    _refused(_create(client, alice), 409, "too_many_games", 2)
    r = client.delete(f"/api/games/{alone}", headers=bob.headers)
    assert r.status_code == 403, r.text
    assert client.post(f"/api/games/{joined}/join", json={}, headers=bob.headers).status_code == 200
    r = client.delete(f"/api/games/{joined}", headers=alice.headers)
    assert r.status_code == 409 and r.json()["code"] == "players_joined", r.text
    assert client.get(f"/api/games/{joined}").status_code == 200  # bob's seat is kept
    assert client.delete(f"/api/games/{alone}", headers=alice.headers).status_code == 204
    assert client.get(f"/api/games/{alone}").status_code == 404
    third = _create(client, alice)
    assert third.status_code == 201, third.text

    # the creator leaving a forming game nobody else joined cancels it too
    gid = third.json()["id"]
    assert client.post(f"/api/games/{gid}/leave", headers=alice.headers).status_code == 204
    assert client.get(f"/api/games/{gid}").status_code == 404
    assert _create(client, alice).status_code == 201
    # a started game is no longer cancelled
    started = client.post(f"/api/games/{joined}/start", headers=alice.headers)
    assert started.status_code == 200, started.text
    r = client.delete(f"/api/games/{joined}", headers=alice.headers)
    assert r.status_code == 409 and r.json()["code"] == "already_started"


# --- seats -----------------------------------------------------------------------------------


def test_seats_in_games_not_over_are_capped(limited: Limited) -> None:
    client = limited(seats_per_user=2)
    alice, bob = register(client, "alice"), register(client, "bob")
    games = [new_game(client, alice, join=False, players=3)["id"] for _ in range(3)]
    for gid in games[:2]:
        r = client.post(f"/api/games/{gid}/join", json={}, headers=bob.headers)
        assert r.status_code == 200, r.text
    r = client.post(f"/api/games/{games[2]}/join", json={}, headers=bob.headers)
    _refused(r, 409, "too_many_seats", 2)
    seats = client.get(f"/api/games/{games[2]}").json()["seats"]
    assert not any(s["taken"] for s in seats)  # nothing taken by the refused join
    _refused(_create(client, bob), 409, "too_many_seats", 2)
    assert _create(client, bob, join=False).status_code == 201  # a game bob does not sit in
    # leaving a seat makes room
    assert client.post(f"/api/games/{games[0]}/leave", headers=bob.headers).status_code == 204
    r = client.post(f"/api/games/{games[2]}/join", json={}, headers=bob.headers)
    assert r.status_code == 200, r.text


# --- messages ----------------------------------------------------------------------------


def test_messages_of_a_power_in_one_phase_are_capped(limited: Limited) -> None:
    client = limited(messages_per_phase=3)
    alice, bob = register(client, "alice"), register(client, "bob")
    gid = new_game(client, alice, players=2, bots=None, press_anytime=True)["id"]
    assert client.post(f"/api/games/{gid}/join", json={}, headers=bob.headers).status_code == 200
    mine, his = _powers(client, gid, alice), _powers(client, gid, bob)
    url = f"/api/games/{gid}/messages"

    def send(who: Player, sender: str, body: str) -> Any:
        return client.post(url, json={"sender": sender, "body": body}, headers=who.headers)

    for k in range(3):
        assert send(alice, mine[0], f"m{k}").status_code == 201
    r = send(alice, mine[0], "one too many")
    _refused(r, 409, "too_many_messages", 3)
    assert r.json()["values"]["power"] == mine[0]
    bodies = [m["body"] for m in client.get(url, headers=bob.headers).json()]
    assert bodies == ["m0", "m1", "m2"]  # those sent are kept; the refused one not stored
    assert send(alice, mine[1], "another power").status_code == 201  # a cap per power
    assert send(bob, his[0], "bob").status_code == 201

    # the next phase starts the count again
    phase = client.get(f"/api/games/{gid}").json()["phase"]
    for who, powers in ((alice, mine), (bob, his)):
        for power in powers:
            r = client.post(f"/api/games/{gid}/ready", json={"power": power}, headers=who.headers)
            assert r.status_code == 200, r.text
    assert client.get(f"/api/games/{gid}").json()["phase"] != phase
    assert send(alice, mine[0], "next phase").status_code == 201


# --- sessions -------------------------------------------------------------------------------


def test_a_log_in_past_the_cap_ends_the_least_recently_used_session(
    limited: Limited, clock: FakeClock
) -> None:
    client = limited(sessions_per_user=3)
    first = register(client, "alice")  # signing up logs in: session 1
    tokens = [first.token]
    for _ in range(4):
        clock.advance(10)
        r = client.post("/api/sessions", json={"username": "alice", "password": "correct horse"})
        assert r.status_code == 200, r.text
        tokens.append(r.json()["token"])
        if len(tokens) == 3:  # the first is used: the second is now the least recent
            clock.advance(400)
            assert client.get("/api/me", headers=first.headers).status_code == 200

    def works(token: str) -> bool:
        r = client.get("/api/me", headers={"Authorization": f"Bearer {token}"})
        return bool(r.status_code == 200)

    assert [works(tok) for tok in tokens] == [True, False, False, True, True]


# --- draw votes -------------------------------------------------------------------------------


def test_draw_votes_of_a_power_are_limited_in_a_window(limited: Limited, clock: FakeClock) -> None:
    client = limited(draw_votes_per_window=3, login_window_seconds=600)
    alice, bob = register(client, "alice"), register(client, "bob")
    gid = new_game(client, alice, players=2, bots=None)["id"]
    assert client.post(f"/api/games/{gid}/join", json={}, headers=bob.headers).status_code == 200
    power = _powers(client, gid, alice)[0]
    url = f"/api/games/{gid}/draw"

    def vote(agree: bool, who: Player = alice, as_power: str = power) -> Any:
        return client.post(url, json={"power": as_power, "agree": agree}, headers=who.headers)

    r = vote(True, bob)  # not bob's power: refused, and not counted against alice's
    assert r.status_code == 403
    for agree in (True, False, True):
        assert vote(agree).status_code == 200
    r = vote(False)
    assert r.status_code == 429 and r.json()["code"] == "too_many_attempts", r.text
    assert 0 < int(r.headers["Retry-After"]) <= 600
    votes = client.get(f"/api/games/{gid}", headers=alice.headers).json()["draw_votes"]
    assert votes["votes"] == [power]  # the last vote taken stands
    other = _powers(client, gid, alice)[1]
    assert vote(True, as_power=other).status_code == 200  # a limit per power
    clock.advance(601)
    assert vote(False).status_code == 200


# --- settings ---------------------------------------------------------------------------------


def test_the_caps_are_read_from_the_environment() -> None:
    env = {
        "REALPOLITIK_GAMES_PER_USER": "5",
        "REALPOLITIK_SEATS_PER_USER": "6",
        "REALPOLITIK_MESSAGES_PER_PHASE": "7",
        "REALPOLITIK_SESSIONS_PER_USER": "8",
        "REALPOLITIK_DRAW_VOTES_PER_WINDOW": "9",
    }
    s = Settings.from_env(env)
    got = (
        s.games_per_user,
        s.seats_per_user,
        s.messages_per_phase,
        s.sessions_per_user,
        s.draw_votes_per_window,
    )
    assert got == (5, 6, 7, 8, 9)
    d = Settings.from_env({})
    assert (d.games_per_user, d.seats_per_user, d.messages_per_phase) == (20, 50, 300)
    assert (d.sessions_per_user, d.draw_votes_per_window) == (50, 20)
