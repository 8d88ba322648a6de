"""Sessions end: after their lifetime, or sooner when unused for the idle time; ended
sessions are refused at once, and their rows are purged (by the scheduler, and at log-out).
Log-out ends one session, or every session of the user; a password change ends every
session of the user but the one that made it."""

from __future__ import annotations

import time
from collections.abc import Iterator

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import delete, func, select, text, update

from realpolitik.server import accounts, engine
from realpolitik.server import tables as t
from realpolitik.server.backend import Backend
from realpolitik.server.db import make_engine
from realpolitik.server.errors import Unauthorized
from realpolitik.server.migrations import MIGRATIONS, current_version
from realpolitik.server.scheduler import Scheduler
from realpolitik.server.security import token_hash
from tests.server.conftest import FakeClock, Player, fast_settings, register

DAY = 86400.0


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request: pytest.FixtureRequest, sqlite_url: str, clock: FakeClock) -> Iterator[Backend]:
    """The server's state on a SQLite file, and on PostgreSQL."""
    url = sqlite_url if request.param == "sqlite" else str(request.getfixturevalue("pg_url"))
    b = Backend.open(fast_settings(url), clock=clock)
    yield b
    b.close()
    engine.clear_cache()


def _me(client: TestClient, player: Player) -> int:
    return int(client.get("/api/me", headers=player.headers).status_code)


def _log_in(client: TestClient, player: Player) -> Player:
    body = {"username": player.username, "password": "correct horse"}
    r = client.post("/api/sessions", json=body)
    assert r.status_code == 200, r.text
    return Player(player.username, r.json()["token"], player.user_id)


def _sessions(backend: Backend) -> int:
    with backend.db.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(t.sessions)).scalar_one())


def test_an_unused_session_ends_after_the_idle_time(
    client: TestClient, backend: Backend, clock: FakeClock
) -> None:
    idle = backend.settings.session_idle_days * DAY
    alice = register(client, "alice")
    clock.advance(idle - 60)
    assert _me(client, alice) == 200  # used just in time: the idle time starts again
    clock.advance(idle - 60)
    assert _me(client, alice) == 200
    clock.advance(idle)
    assert _me(client, alice) == 401


def test_a_session_in_use_ends_after_its_lifetime(
    client: TestClient, backend: Backend, clock: FakeClock
) -> None:
    lifetime = backend.settings.session_days * DAY
    step = backend.settings.session_idle_days * DAY / 2
    alice = register(client, "alice")
    used = 0.0
    while used + step < lifetime:
        clock.advance(step)
        used += step
        assert _me(client, alice) == 200
    clock.advance(lifetime - used)
    assert _me(client, alice) == 401


def test_a_session_is_touched_at_most_every_few_minutes(
    client: TestClient, backend: Backend, clock: FakeClock
) -> None:
    alice = register(client, "alice")

    def last_seen() -> float:
        with backend.db.connect() as conn:
            return float(conn.execute(select(t.sessions.c.last_seen_at)).scalar_one())

    first = last_seen()
    clock.advance(accounts.TOUCH_SECONDS - 1)
    assert _me(client, alice) == 200 and last_seen() == first
    clock.advance(1)
    assert _me(client, alice) == 200 and last_seen() == first + accounts.TOUCH_SECONDS


def test_ended_sessions_are_purged(client: TestClient, backend: Backend, clock: FakeClock) -> None:
    register(client, "alice")  # idle from now on
    clock.advance(backend.settings.session_idle_days * DAY - 10)
    bob = register(client, "bob")
    assert accounts.purge(backend) == (0, 0) and _sessions(backend) == 2
    clock.advance(10)
    assert accounts.purge(backend)[0] == 1 and _sessions(backend) == 1  # alice's
    assert _me(client, bob) == 200


def test_log_out_ends_the_session_and_purges_the_users_ended_ones(
    client: TestClient, backend: Backend, clock: FakeClock
) -> None:
    alice = register(client, "alice")  # session 1, left idle
    clock.advance(backend.settings.session_idle_days * DAY)
    second, third = _log_in(client, alice), _log_in(client, alice)
    bob = register(client, "bob")
    assert _sessions(backend) == 4
    assert client.delete("/api/sessions", headers=second.headers).status_code == 204
    assert _me(client, second) == 401 and _me(client, third) == 200
    assert _sessions(backend) == 2  # the idle one went with it; bob's and the third stay
    assert (
        client.delete(
            "/api/sessions", params={"everywhere": "true"}, headers=third.headers
        ).status_code
        == 204
    )
    assert _me(client, third) == 401 and _me(client, bob) == 200 and _sessions(backend) == 1


def test_the_scheduler_purges_ended_sessions(backend: Backend, clock: FakeClock) -> None:
    accounts.create_account(backend, "alice", "correct horse")
    accounts.log_in(backend, "alice", "correct horse")
    clock.advance(backend.settings.session_days * DAY)
    scheduler = Scheduler(backend, 0.05, purge_every=0.05)
    scheduler.start()
    try:
        deadline = time.monotonic() + 20
        while _sessions(backend) and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        scheduler.stop()
    assert _sessions(backend) == 0


def test_sessions_from_before_the_idle_time_are_kept(sqlite_url: str, clock: FakeClock) -> None:
    """A database of schema version 3 (sessions without their last use) migrates; its
    sessions count from their log-in."""
    b = Backend.open(fast_settings(sqlite_url), clock=clock)
    accounts.create_account(b, "alice", "correct horse")
    _, token = accounts.log_in(b, "alice", "correct horse")
    with b.db.begin() as conn:  # back to version 3
        conn.execute(text("DROP TABLE attempts"))
        conn.execute(text("DROP INDEX ix_sessions_user"))
        conn.execute(text("ALTER TABLE sessions DROP COLUMN last_seen_at"))
        conn.execute(delete(t.schema_version).where(t.schema_version.c.version >= 4))
    b.close()
    engine = make_engine(sqlite_url)
    with engine.connect() as conn:
        assert current_version(conn) == MIGRATIONS[-1][0]
    engine.dispose()
    b = Backend.open(fast_settings(sqlite_url), clock=clock)
    assert accounts.user_for_token(b, token).username == "alice"
    clock.advance(b.settings.session_idle_days * DAY)
    assert accounts.purge(b) == (1, 0)
    b.close()


# --- changing the password ------------------------------------------------------------------

NEW = "battery staple"


def _change(
    client: TestClient, player: Player, current: str = "correct horse", new: str = NEW
) -> httpx.Response:
    body = {"current_password": current, "new_password": new}
    r: httpx.Response = client.put("/api/me/password", json=body, headers=player.headers)
    return r


def _log_in_with(client: TestClient, username: str, password: str) -> int:
    r = client.post("/api/sessions", json={"username": username, "password": password})
    return int(r.status_code)


def test_a_password_change_ends_the_other_sessions_and_keeps_this_one(
    client: TestClient,
) -> None:
    alice = register(client, "alice")
    phone, laptop = _log_in(client, alice), _log_in(client, alice)
    bob = register(client, "bob")
    assert _change(client, alice).status_code == 204
    assert _me(client, alice) == 200
    assert _me(client, phone) == 401 and _me(client, laptop) == 401
    assert _me(client, bob) == 200
    assert _log_in_with(client, "alice", "correct horse") == 401
    assert _log_in_with(client, "alice", NEW) == 200
    assert _log_in_with(client, "bob", "correct horse") == 200
    stale = _change(client, phone, NEW, "another password")  # a session ended by the change
    assert stale.status_code == 401 and stale.json()["code"] == "not_logged_in"
    assert _log_in_with(client, "alice", NEW) == 200


def test_a_log_in_with_the_old_password_as_it_changes_gets_no_session(
    backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whoever holds the old password logs in again and again; the owner changes it while
    one log-in is between its check of the old password and storing its session (the
    change ending every other session then): that log-in is refused (401), or it would
    keep a way in that the change was made to close. (Over HTTP, four such log-ins in a
    loop kept 3 or 4 sessions past every change, on SQLite and PostgreSQL.)"""
    alice = accounts.create_account(backend, "alice", "correct horse")
    _, own = accounts.log_in(backend, "alice", "correct horse")
    check = backend.passwords.verify

    def changed_meanwhile(stored: str, password: str) -> bool:
        right = check(stored, password)
        monkeypatch.setattr(backend.passwords, "verify", check)  # the change checks as ever
        accounts.change_password(backend, alice, own, "correct horse", NEW)
        return right

    monkeypatch.setattr(backend.passwords, "verify", changed_meanwhile)
    with pytest.raises(Unauthorized):
        accounts.log_in(backend, "alice", "correct horse")
    with backend.db.connect() as conn:
        kept = conn.execute(select(t.sessions.c.token_hash)).scalars().all()
    assert kept == [token_hash(own)]
    assert accounts.log_in(backend, "alice", NEW)[0].id == alice.id


def test_a_wrong_current_password_is_refused_and_limited_as_log_ins_are(
    client: TestClient, backend: Backend, clock: FakeClock
) -> None:
    """A stolen session cannot guess the password: a wrong current password is 403, and
    the attempts are counted with the log-ins from the address (429, even for the right
    password, until the window ends)."""
    alice = register(client, "alice")
    limit = backend.settings.login_failures_per_account_address
    for k in range(limit):
        r = _change(client, alice, f"wrong {k}")
        assert r.status_code == 403, r.text
        assert r.json() == {
            "detail": "the current password is wrong",
            "code": "wrong_password",
            "values": {},
        }
    refused = _change(client, alice)
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1
    assert _log_in_with(client, "alice", "correct horse") == 429  # the same count
    assert _me(client, alice) == 200  # the session itself is not ended
    clock.advance(backend.settings.login_window_seconds)
    assert _change(client, alice).status_code == 204
    assert _log_in_with(client, "alice", NEW) == 200


@pytest.mark.parametrize(
    ("new", "status", "said", "code"),
    [
        ("short", 400, "8 to 200 characters", "password_rule"),
        ("x" * 201, 400, "8 to 200 characters", "password_rule"),
        ("x" * 401, 422, "at most 400 characters", None),
        ("", 422, "at least 1 character", None),
        ("nul\0inside", 422, "NUL", None),
        ("tab\tinside", 400, "control character", "password_control"),
        ("line break\n", 400, "U+000A", "password_control"),
        ("\x7fdelete key", 400, "U+007F", "password_control"),
        ("next line\x85!", 400, "U+0085", "password_control"),
    ],
)
def test_a_new_password_is_checked_as_a_sign_up_s(
    client: TestClient, new: str, status: int, said: str, code: str | None
) -> None:
    alice = register(client, "alice")
    other = _log_in(client, alice)
    r = _change(client, alice, new=new)
    assert r.status_code == status, r.text
    assert said in r.text
    if code is not None:
        assert r.json()["code"] == code
    assert _me(client, other) == 200  # nothing changed
    assert _log_in_with(client, "alice", "correct horse") == 200
    r = client.post("/api/accounts", json={"username": "bob", "password": new})
    assert (r.status_code, said in r.text) == (status, True)  # a sign-up checks the same


def test_a_password_set_before_the_control_character_rule_still_logs_in(
    client: TestClient, backend: Backend
) -> None:
    register(client, "alice")
    with backend.db.begin() as conn:  # as an older server stored it
        conn.execute(update(t.users).values(password_hash=backend.passwords.hash("old\tpassword")))
    assert _log_in_with(client, "alice", "old\tpassword") == 200


def test_a_password_change_needs_a_session(client: TestClient) -> None:
    alice = register(client, "alice")
    client.cookies.clear()  # the sign-up's
    body = {"current_password": "correct horse", "new_password": NEW}
    r = client.put("/api/me/password", json=body)
    assert r.status_code == 401 and r.json()["code"] == "not_logged_in"
    r = client.put("/api/me/password", json=body, headers={"Authorization": "Bearer nope"})
    assert r.status_code == 401
    client.cookies.set("rp_session", alice.token)
    r = client.put("/api/me/password", json=body)  # a cookie without the page's header
    assert r.status_code == 403
    r = client.put("/api/me/password", json=body, headers={"X-Requested-With": "realpolitik"})
    assert r.status_code == 204
    client.cookies.clear()
    assert _log_in_with(client, "alice", NEW) == 200


def test_a_malformed_password_change_is_refused(client: TestClient, backend: Backend) -> None:
    alice = register(client, "alice")
    h = alice.headers | {"content-type": "application/json"}
    url = "/api/me/password"
    bodies: list[bytes] = [
        b"",
        b"not json",
        b"[]",
        b'{"current_password": "correct horse"}',
        b'{"new_password": "battery staple"}',
        b'{"current_password": 12345678, "new_password": "battery staple"}',
        b'{"current_password": "correct horse", "new_password": null}',
        b'{"current_password": "correct horse", "new_password": ["battery staple"]}',
        b'{"current_password": "correct horse", "new_password": "battery staple", "x": 1}',
        b'{"current_password": "correct horse", "new_password": "a", "new_password": "b"}',
        b'{"current_password": "correct\\u0000horse", "new_password": "battery staple"}',
        b'{"current_password": "correct horse", "new_password": "\\udcff battery"}',
    ]
    for body in bodies:
        r = client.put(url, content=body, headers=h)
        assert r.status_code in (400, 422), (body, r.status_code, r.text)
    huge = b'{"current_password": "correct horse", "new_password": "%s"}' % (
        b"x" * backend.settings.max_body_bytes
    )
    assert client.put(url, content=huge, headers=h).status_code == 413
    assert _log_in_with(client, "alice", "correct horse") == 200  # unchanged throughout


def test_log_out_everywhere_from_the_page_ends_every_session(client: TestClient) -> None:
    """The page's way (the cookie and its header) ends this session and the others."""
    alice = register(client, "alice")
    other = _log_in(client, alice)
    client.cookies.set("rp_session", alice.token)
    r = client.delete(
        "/api/sessions",
        params={"everywhere": "true"},
        headers={"X-Requested-With": "realpolitik"},
    )
    assert r.status_code == 204 and "rp_session" not in r.cookies
    client.cookies.clear()
    assert _me(client, alice) == 401 and _me(client, other) == 401
