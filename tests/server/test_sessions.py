"""Sessions end: after their lifetime, or sooner when unused for the idle time; ended
sessions are refused at once, and their rows are purged (by the scheduler, and at log-out).
Log-out ends one session, or every session of the user."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import delete, func, select, text

from realpolitik.server import accounts, engine
from realpolitik.server import tables as t
from realpolitik.server.backend import Backend
from realpolitik.server.db import make_engine
from realpolitik.server.migrations import MIGRATIONS, current_version
from realpolitik.server.scheduler import Scheduler
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
