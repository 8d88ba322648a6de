"""Logging in under attack: attempts are limited per account and per address (429 with
Retry-After, before any password is checked), a failure takes as long for an unknown
username as for a known one, and usernames are shown only to a game's members."""

from __future__ import annotations

import time

from fastapi.testclient import TestClient

from realpolitik.server.backend import Backend
from tests.server.conftest import FakeClock, new_game, register


def _login(client: TestClient, username: str, password: str) -> int:
    r = client.post("/api/sessions", json={"username": username, "password": password})
    if r.status_code == 429:
        assert int(r.headers["Retry-After"]) >= 1
        assert "alice" not in r.text.lower() or username != "alice"
    return int(r.status_code)


def test_wrong_passwords_for_one_account_are_limited(
    client: TestClient, backend: Backend, clock: FakeClock
) -> None:
    register(client, "alice")
    limit = backend.settings.login_failures_per_account
    codes = [_login(client, "alice", f"wrong {k}") for k in range(limit)]
    assert codes == [401] * limit
    assert _login(client, "alice", "wrong again") == 429
    assert _login(client, "alice", "correct horse") == 429  # even the right one, for now
    r = client.post("/api/sessions", json={"username": "alice", "password": "x" * 8})
    wait = int(r.headers["Retry-After"])
    assert 1 <= wait <= backend.settings.login_window_seconds
    clock.advance(wait)
    assert _login(client, "alice", "correct horse") == 200


def test_attempts_from_one_address_are_limited(
    client: TestClient, backend: Backend, clock: FakeClock
) -> None:
    limit = backend.settings.login_attempts_per_address
    codes = [_login(client, f"user{k}", "some password") for k in range(limit)]
    assert codes == [401] * limit  # unknown usernames, each tried once
    assert _login(client, "another", "some password") == 429
    r = client.post("/api/accounts", json={"username": "newbie", "password": "long enough"})
    assert r.status_code == 429 and r.headers["Retry-After"]
    clock.advance(backend.settings.login_window_seconds)
    assert _login(client, "another", "some password") == 401


def test_a_refused_attempt_costs_no_password_check(client: TestClient, backend: Backend) -> None:
    register(client, "alice")
    for k in range(backend.settings.login_failures_per_account):
        _login(client, "alice", f"wrong {k}")
    calls: list[str] = []
    verify = backend.passwords.verify

    def spy(stored: str, password: str) -> bool:
        calls.append(password)
        return verify(stored, password)

    backend.passwords.verify = spy  # type: ignore[method-assign]
    assert _login(client, "alice", "wrong") == 429
    assert calls == []


def test_a_failure_takes_as_long_for_unknown_and_known_users(
    client: TestClient, backend: Backend
) -> None:
    register(client, "alice")
    hashed: list[str] = []
    verify = backend.passwords.verify

    def spy(stored: str, password: str) -> bool:
        hashed.append(stored)
        return verify(stored, password)

    backend.passwords.verify = spy  # type: ignore[method-assign]
    assert _login(client, "nobody-here", "some password") == 401
    assert _login(client, "alice", "some password") == 401
    # the unknown user's password is checked against a hash of the same cost
    assert len(hashed) == 2 and hashed[0].split("$")[:4] == hashed[1].split("$")[:4]
    t0 = time.perf_counter()
    for _ in range(3):
        _login(client, "nobody-here", "some password")
    unknown = time.perf_counter() - t0
    t0 = time.perf_counter()
    for _ in range(3):
        _login(client, "alice", "some password")
    known = time.perf_counter() - t0
    assert unknown > known / 3


def test_usernames_are_shown_to_members_only(client: TestClient) -> None:
    alice, bob, olga = (register(client, n) for n in ("alice", "bob", "olga"))
    game = new_game(client, alice, players=7)
    gid = game["id"]
    assert client.post(f"/api/games/{gid}/join", json={}, headers=bob.headers).status_code == 200
    for who in ({}, olga.headers):
        lobby = client.get("/api/games", headers=who).text
        view = client.get(f"/api/games/{gid}", headers=who).json()
        assert "alice" not in lobby and "bob" not in lobby
        assert [s["player"] for s in view["seats"]] == [None] * 7
        assert [s["taken"] for s in view["seats"]] == [True, True] + [False] * 5
    seen = client.get(f"/api/games/{gid}", headers=bob.headers).json()
    assert [s["player"] for s in seen["seats"]][:2] == ["alice", "bob"]
    shown = new_game(client, alice, players=7, show_names=True)
    view = client.get(f"/api/games/{shown['id']}").json()
    assert view["seats"][0]["player"] == "alice"


def test_sign_ups_from_one_address_have_their_own_limit(
    client: TestClient, backend: Backend, clock: FakeClock
) -> None:
    """A sign-up tells whether a name is taken: probing names is limited more tightly than
    log-ins, and a taken name costs the same password hash as a free one."""
    register(client, "alice")
    hashed: list[str] = []
    hash_ = backend.passwords.hash

    def spy(password: str) -> str:
        hashed.append(password)
        return hash_(password)

    backend.passwords.hash = spy  # type: ignore[method-assign]
    limit = backend.settings.signups_per_address
    codes = [
        client.post(
            "/api/accounts", json={"username": "ALICE", "password": f"probe {k:04}"}
        ).status_code
        for k in range(limit - 1)  # alice's own sign-up was the first
    ]
    assert codes == [409] * (limit - 1)
    assert hashed == [f"probe {k:04}" for k in range(limit - 1)]  # each probe paid a hash
    r = client.post("/api/accounts", json={"username": "newbie", "password": "long enough"})
    assert r.status_code == 429 and int(r.headers["Retry-After"]) >= 1
    assert len(hashed) == limit - 1  # refused before hashing
    assert _login(client, "alice", "correct horse") == 200  # log-ins have their own limit
    clock.advance(backend.settings.login_window_seconds)
    r = client.post("/api/accounts", json={"username": "newbie", "password": "long enough"})
    assert r.status_code == 201
