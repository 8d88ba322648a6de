"""Logging in under attack: failures are limited per account and address, attempts per
address, failures per account from all addresses together (429 with Retry-After, before
any password is checked); a failure takes as long for an unknown username as for a known
one, and usernames are shown only to a game's members."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import suppress
from functools import partial
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event, func, select

from realpolitik.server import accounts, engine
from realpolitik.server import tables as t
from realpolitik.server.app import create_app
from realpolitik.server.backend import Backend
from realpolitik.server.errors import Conflict, TooManyAttempts, Unauthorized
from tests.server.conftest import FakeClock, fast_settings, new_game, register
from tests.server.test_seats import at_once

PER_ACCOUNT_AND_ADDRESS, PER_ACCOUNT = 10, 100  # the defaults (README)


@pytest.fixture
def two_addresses(backend: Backend) -> Iterator[tuple[TestClient, TestClient]]:
    """An attacker's client and bob's, at two addresses, on one server."""
    app = create_app(backend.settings, backend=backend)
    with (
        TestClient(app, client=("203.0.113.5", 40000)) as attacker,
        TestClient(app, client=("198.51.100.7", 40000)) as bob,
    ):
        yield attacker, bob


def _login(
    client: TestClient, username: str, password: str, headers: dict[str, str] | None = None
) -> int:
    r = client.post(
        "/api/sessions", json={"username": username, "password": password}, headers=headers
    )
    if r.status_code == 429:
        assert int(r.headers["Retry-After"]) >= 1
        assert "alice" not in r.text.lower() or username != "alice"
    return int(r.status_code)


def test_wrong_passwords_for_one_account_from_one_address_are_limited(
    client: TestClient, backend: Backend, clock: FakeClock
) -> None:
    register(client, "alice")
    limit = backend.settings.login_failures_per_account_address
    codes = [_login(client, "alice", f"wrong {k}") for k in range(limit)]
    assert codes == [401] * limit
    assert _login(client, "alice", "wrong again") == 429
    assert _login(client, "alice", "correct horse") == 429  # even the right one from here
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
    for k in range(backend.settings.login_failures_per_account_address):
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


def test_who_created_a_game_is_shown_as_its_players_are(client: TestClient) -> None:
    # a game's creator is a player (seat 1, unless they did not join): its creator_id, an
    # account's number, named them to everyone in a game that keeps its players' names to
    # its members (the number is learnt from a game that shows them, or one's own)
    alice, bob, olga = (register(client, n) for n in ("alice", "bob", "olga"))
    hidden = new_game(client, alice, players=7)["id"]
    shown = new_game(client, alice, players=7, show_names=True)["id"]
    assert client.post(f"/api/games/{hidden}/join", json={}, headers=bob.headers).status_code == 200
    for who in ({}, olga.headers):
        assert client.get(f"/api/games/{shown}", headers=who).json()["creator_id"] == alice.user_id
        assert client.get(f"/api/games/{hidden}", headers=who).json()["creator_id"] is None
        lobby = client.get("/api/games", headers=who).json()
        listed = {g["id"]: g["creator_id"] for g in lobby["open"]}
        assert listed == {hidden: None, shown: alice.user_id}
    for member in (alice, bob):  # members: the page tells its creator its Start and Delete
        seen = client.get(f"/api/games/{hidden}", headers=member.headers).json()
        assert seen["creator_id"] == alice.user_id


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


def test_an_opponent_cannot_lock_a_player_out(
    two_addresses: tuple[TestClient, TestClient],
) -> None:
    """Usernames are seen in games: wrong passwords sent for bob throttle the sender's
    address, not bob, and refused guesses do not bring bob nearer his account's cap."""
    attacker, bob = two_addresses
    register(bob, "bob")
    codes = [_login(attacker, "bob", f"wrong {k}") for k in range(PER_ACCOUNT + 50)]
    assert codes == [401] * PER_ACCOUNT_AND_ADDRESS + [429] * (
        PER_ACCOUNT + 50 - PER_ACCOUNT_AND_ADDRESS
    )
    assert _login(attacker, "bob", "correct horse") == 429  # from there, even the right one
    assert _login(bob, "bob", "correct horse") == 200


def test_a_forwarded_header_does_not_choose_the_address(
    two_addresses: tuple[TestClient, TestClient],
) -> None:
    """The app counts the connection's address: X-Forwarded-For is read only by uvicorn,
    from a trusted proxy, so a client can neither change its address at will nor charge
    its failures to bob's."""
    attacker, bob = two_addresses
    register(bob, "bob")
    spoofed = [
        _login(attacker, "bob", f"wrong {k}", {"X-Forwarded-For": f"192.0.2.{k}"})
        for k in range(PER_ACCOUNT_AND_ADDRESS + 1)
    ]
    assert spoofed == [401] * PER_ACCOUNT_AND_ADDRESS + [429]
    as_bob = {"X-Forwarded-For": "198.51.100.7"}
    assert _login(attacker, "bob", "wrong", as_bob) == 429
    assert _login(bob, "bob", "correct horse") == 200


def test_one_address_cycling_through_accounts_is_limited(
    two_addresses: tuple[TestClient, TestClient], backend: Backend
) -> None:
    """Credential stuffing: a few guesses at each of many accounts meet the address's cap,
    though no account's own cap is reached; the owners still log in from their addresses."""
    attacker, owners = two_addresses
    names = [f"player{k}" for k in range(6)]
    for name in names:
        register(owners, name)
    limit = backend.settings.login_attempts_per_address
    per_name = PER_ACCOUNT_AND_ADDRESS - 1
    codes = [_login(attacker, n, f"wrong {k}") for k in range(per_name) for n in names]
    assert len(codes) > limit
    assert codes == [401] * limit + [429] * (len(codes) - limit)
    assert all(_login(owners, n, "correct horse") == 200 for n in names)


def test_many_addresses_against_one_account_meet_its_cap(
    backend: Backend, clock: FakeClock
) -> None:
    """Guesses spread over many addresses, each under its own cap, are counted together on
    the account: past its cap even the right password is refused, from anywhere, until the
    window ends (the last guard; an opponent needs many addresses to bring it about)."""
    accounts.create_account(backend, "bob", "correct horse")
    per_address = PER_ACCOUNT_AND_ADDRESS // 2
    for k in range(PER_ACCOUNT // per_address):
        for j in range(per_address):
            with pytest.raises(Unauthorized):
                accounts.log_in(backend, "bob", f"wrong {j}", address=f"10.1.0.{k}")
    with pytest.raises(TooManyAttempts):
        accounts.log_in(backend, "bob", "wrong", address="10.2.0.1")
    with pytest.raises(TooManyAttempts) as refused:
        accounts.log_in(backend, "bob", "correct horse", address="10.2.0.2")
    clock.advance(refused.value.retry_after)
    user, _ = accounts.log_in(backend, "bob", "correct horse", address="10.2.0.2")
    assert user.username == "bob"


def test_a_success_is_not_counted_as_a_failure(backend: Backend) -> None:
    """Bob's own log-ins do not bring his account nearer its cap, nor wipe the failures
    counted on it; a success forgives the failures before it from its own address only."""
    accounts.create_account(backend, "bob", "correct horse")
    for k in range(PER_ACCOUNT + 1):
        accounts.log_in(backend, "bob", "correct horse", address=f"10.3.1.{k}")
    for k in range(PER_ACCOUNT_AND_ADDRESS):
        with pytest.raises(Unauthorized):
            accounts.log_in(backend, "bob", f"wrong {k}", address="10.3.0.2")
    accounts.log_in(backend, "bob", "correct horse", address="10.3.0.1")
    with pytest.raises(TooManyAttempts):
        accounts.log_in(backend, "bob", "correct horse", address="10.3.0.2")
    for k in range(PER_ACCOUNT - PER_ACCOUNT_AND_ADDRESS - 1):
        with pytest.raises(Unauthorized):
            accounts.log_in(backend, "bob", "wrong", address=f"10.3.2.{k}")
    accounts.log_in(backend, "bob", "correct horse", address="10.3.0.1")
    with pytest.raises(Unauthorized):  # the account's last failure within its cap
        accounts.log_in(backend, "bob", "wrong", address="10.3.3.1")
    with pytest.raises(TooManyAttempts):
        accounts.log_in(backend, "bob", "wrong", address="10.3.3.2")


def test_a_success_forgives_the_failures_from_its_address(backend: Backend) -> None:
    """A player who mistypes often still logs in: the count of an account and address
    is of the failures since the last success there."""
    accounts.create_account(backend, "bob", "correct horse")
    for _ in range(3):
        for k in range(PER_ACCOUNT_AND_ADDRESS - 1):
            with pytest.raises(Unauthorized):
                accounts.log_in(backend, "bob", f"wrong {k}", address="10.4.0.1")
        accounts.log_in(backend, "bob", "correct horse", address="10.4.0.1")


@pytest.fixture(params=["sqlite", "postgresql"])
def either(request: pytest.FixtureRequest, clock: FakeClock) -> Iterator[Backend]:
    """A backend on SQLite or on PostgreSQL."""
    url = request.getfixturevalue("sqlite_url" if request.param == "sqlite" else "pg_url")
    b = Backend.open(fast_settings(url), clock=clock)
    yield b
    b.close()
    engine.clear_cache()


def test_two_sign_ups_of_one_name_at_once_get_one_account_and_a_409(either: Backend) -> None:
    """Both sign-ups find the name free, then both insert it (held there until both have
    looked: on PostgreSQL the second insert meets the first's row; SQLite's writers take
    turns, so there the second looks after the first is stored): one account, and the
    other is told the name is taken (409 username_taken), not an internal error."""
    both_looked = threading.Barrier(2)

    def hold_the_insert(conn: Any, cursor: Any, statement: str, *rest: Any) -> None:
        if statement.startswith("INSERT INTO users"):
            with suppress(threading.BrokenBarrierError):
                both_looked.wait(timeout=2)

    event.listen(either.db, "before_cursor_execute", hold_the_insert)
    try:
        names = ("alice", "ALICE")
        outcomes = at_once(*(partial(_sign_up, either, name) for name in names))
    finally:
        event.remove(either.db, "before_cursor_execute", hold_the_insert)
    assert sorted(type(o).__name__ for o in outcomes) == ["Conflict", "User"], outcomes
    refused = next(o for o in outcomes if isinstance(o, Conflict))
    assert refused.code == "username_taken"
    with either.db.connect() as conn:
        assert conn.execute(select(func.count()).select_from(t.users)).scalar() == 1


def _sign_up(b: Backend, name: str) -> accounts.User | Conflict:
    try:
        return accounts.create_account(b, name, "correct horse")
    except Conflict as exc:
        return exc
