"""Limits on log-ins and sign-ups hold across server processes: the attempts are counted in
the database, so two app instances on one database (a SQLite file, or PostgreSQL) share
one count, and attempts racing on both are all counted."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from realpolitik.server import accounts, ratelimit
from realpolitik.server import tables as t
from realpolitik.server.app import create_app
from realpolitik.server.backend import Backend
from realpolitik.server.errors import TooManyAttempts, Unauthorized
from tests.server.conftest import FakeClock, fast_settings, register

LIMITS = {
    "login_failures_per_account_address": 6,
    "login_failures_per_account": 8,
    "login_attempts_per_address": 12,
}


@pytest.fixture(params=["sqlite", "postgres"])
def url(request: pytest.FixtureRequest, sqlite_url: str) -> str:
    return sqlite_url if request.param == "sqlite" else str(request.getfixturevalue("pg_url"))


@pytest.fixture
def two(url: str, clock: FakeClock) -> Iterator[tuple[TestClient, TestClient]]:
    """Two app instances on one database, as two server processes would be."""
    backends = [Backend.open(fast_settings(url, **LIMITS), clock=clock) for _ in range(2)]
    apps = [create_app(b.settings, backend=b) for b in backends]
    with TestClient(apps[0]) as one, TestClient(apps[1]) as other:
        yield one, other
    for b in backends:
        b.close()


def _login(client: TestClient, username: str, password: str) -> int:
    r = client.post("/api/sessions", json={"username": username, "password": password})
    if r.status_code == 429:
        assert 1 <= int(r.headers["Retry-After"]) <= 900
    return int(r.status_code)


def test_failures_on_one_account_from_one_address_are_counted_by_every_process(
    two: tuple[TestClient, TestClient], clock: FakeClock
) -> None:
    one, other = two
    register(one, "alice")
    codes = [_login((one, other)[k % 2], "alice", f"wrong {k}") for k in range(6)]
    assert codes == [401] * 6  # three on each process: six in all, the limit
    assert _login(one, "alice", "wrong again") == 429
    assert _login(other, "alice", "correct horse") == 429
    clock.advance(900)
    assert _login(other, "alice", "correct horse") == 200  # the window has ended
    assert _login(one, "alice", "wrong") == 401  # the success cleared the count


def test_attempts_from_one_address_are_counted_by_every_process(
    two: tuple[TestClient, TestClient],
) -> None:
    one, other = two
    codes = [_login((one, other)[k % 2], f"nobody{k}", "some password") for k in range(12)]
    assert codes == [401] * 12
    assert _login(one, "nobody-else", "some password") == 429
    r = other.post("/api/accounts", json={"username": "newbie", "password": "long enough"})
    assert r.status_code == 429 and int(r.headers["Retry-After"]) >= 1


@pytest.mark.parametrize(
    ("addresses", "limit"),
    [(1, "login_failures_per_account_address"), (20, "login_failures_per_account")],
)
def test_racing_attempts_are_all_counted(
    url: str, clock: FakeClock, addresses: int, limit: str
) -> None:
    """20 wrong passwords at once from two processes, from one address or from twenty:
    exactly the limit (of the account and address, or of the account) is checked."""
    settings = fast_settings(url, **LIMITS)
    backends = [Backend.open(settings, clock=clock) for _ in range(2)]
    accounts.create_account(backends[0], "alice", "correct horse")
    barrier = threading.Barrier(20)
    outcomes: list[str] = []

    def guess(k: int) -> None:
        barrier.wait()
        try:
            accounts.log_in(
                backends[k % 2], "alice", f"wrong {k}", address=f"10.0.0.{k % addresses}"
            )
        except Unauthorized:
            outcomes.append("checked")
        except TooManyAttempts:
            outcomes.append("refused")

    threads = [threading.Thread(target=guess, args=(k,)) for k in range(20)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout=120)
    for b in backends:
        b.close()
    checked = LIMITS[limit]
    assert sorted(outcomes) == ["checked"] * checked + ["refused"] * (20 - checked)


def test_ended_windows_are_purged(backend: Backend, clock: FakeClock) -> None:
    for k in range(3):
        with pytest.raises(Unauthorized):
            accounts.log_in(backend, f"nobody{k}", "some password", address="10.0.0.1")

    def rows() -> int:
        with backend.db.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(t.attempts)).scalar_one())

    assert rows() == 7  # the address, each account, and each account from the address
    with backend.db.connect() as conn:
        stored = set(conn.execute(select(t.attempts.c.subject)).scalars())
    assert not any("nobody" in s or "10.0.0.1" in s for s in stored)  # only digests
    assert accounts.purge(backend)[1] == 0
    clock.advance(backend.settings.login_window_seconds)
    assert accounts.purge(backend)[1] == 7 and rows() == 0


def test_an_ipv6_address_counts_as_its_64(backend: Backend) -> None:
    """A machine holding a /64 cannot take a new address for each attempt."""
    limit = backend.settings.login_attempts_per_address
    for k in range(limit):
        with pytest.raises(Unauthorized):
            accounts.log_in(backend, f"nobody{k}", "some password", address=f"2001:db8::{k:x}")
    with pytest.raises(TooManyAttempts):
        accounts.log_in(backend, "nobody", "some password", address="2001:db8::ffff:1")
    with pytest.raises(Unauthorized):  # the next /64 is another address
        accounts.log_in(backend, "nobody", "some password", address="2001:db8:0:1::1")
    assert ratelimit.address_key("::ffff:10.0.0.1") == "10.0.0.1"
    assert ratelimit.address_key("2001:db8::1") == "2001:db8::/64"
    assert ratelimit.address_key("testclient") == "testclient"


def test_an_account_s_lock_out_spares_the_addresses_it_logged_in_from(
    url: str, clock: FakeClock
) -> None:
    """Guesses spread over many addresses lock the account everywhere (429), but not for
    its owner at an address the account logged in from (within 30 days): anyone could
    otherwise keep a player out of their own account by guessing at it. An address it
    never logged in from stays locked; a known one still meets its own, tighter limit."""
    backend = Backend.open(fast_settings(url, **LIMITS), clock=clock)
    accounts.create_account(backend, "alice", "correct horse")
    home = "192.0.2.7"
    accounts.log_in(backend, "alice", "correct horse", address=home)
    for k in range(LIMITS["login_failures_per_account"]):
        with pytest.raises(Unauthorized):
            accounts.log_in(backend, "alice", f"wrong {k}", address=f"10.0.0.{k}")
    with pytest.raises(TooManyAttempts):
        accounts.log_in(backend, "alice", "correct horse", address="10.0.1.1")
    clock.advance(20 * 86400)  # a new window of guesses, the home address still known
    for k in range(LIMITS["login_failures_per_account"]):
        with pytest.raises(Unauthorized):
            accounts.log_in(backend, "alice", f"wrong {k}", address=f"10.0.0.{k}")
    with pytest.raises(TooManyAttempts):
        accounts.log_in(backend, "alice", "correct horse", address="10.0.1.1")
    user, _ = accounts.log_in(backend, "alice", "correct horse", address=home)
    assert user.username == "alice"
    for k in range(LIMITS["login_failures_per_account_address"]):  # at home, guessed at
        with pytest.raises(Unauthorized):
            accounts.log_in(backend, "alice", f"home guess {k}", address=home)
    with pytest.raises(TooManyAttempts):
        accounts.log_in(backend, "alice", "correct horse", address=home)
    clock.advance(31 * 86400)  # the last log-in from home a month past: no longer known
    for k in range(LIMITS["login_failures_per_account"]):
        with pytest.raises(Unauthorized):
            accounts.log_in(backend, "alice", f"wrong {k}", address=f"10.0.0.{k}")
    with pytest.raises(TooManyAttempts):
        accounts.log_in(backend, "alice", "correct horse", address=home)
    backend.close()
