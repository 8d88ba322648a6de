"""Requests from one client, per process (:mod:`realpolitik.server.throttle`)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from realpolitik.server.app import create_app
from realpolitik.server.backend import Backend
from realpolitik.server.settings import Settings
from realpolitik.server.throttle import Throttle
from tests.server.conftest import FakeClock, fast_settings, register


def test_a_burst_then_the_rate() -> None:
    clock = FakeClock()
    throttle = Throttle(600, clock=clock)  # 10 a second, 100 at once
    assert [throttle.take("a") for _ in range(100)] == [0] * 100
    assert throttle.take("a") == 1  # the 101st waits a second (a tenth, rounded up)
    assert throttle.take("b") == 0  # another client has its own
    clock.advance(0.15)  # one and a half back
    assert throttle.take("a") == 0 and throttle.take("a") == 1
    clock.advance(60)  # a minute later: a full burst again, no more
    assert [throttle.take("a") for _ in range(101)] == [0] * 100 + [1]


def test_the_wait_is_the_time_until_one_request_may_go() -> None:
    clock = FakeClock()
    throttle = Throttle(6, clock=clock)  # one every 10 s, one at once
    assert throttle.take("a") == 0
    assert throttle.take("a") == 10
    clock.advance(4)
    assert throttle.take("a") == 6  # a refused request is not counted
    clock.advance(6)
    assert throttle.take("a") == 0


def test_a_clock_set_back_gives_nothing() -> None:
    clock = FakeClock()
    throttle = Throttle(60, clock=clock)
    for _ in range(10):
        throttle.take("a")
    clock.advance(-3600)
    assert throttle.take("a") > 0
    clock.advance(3600 + 1)
    assert throttle.take("a") == 0


def test_the_clients_kept_are_the_latest() -> None:
    clock = FakeClock()
    throttle = Throttle(6, clock=clock, max_clients=2)
    for client in ("a", "b"):
        assert throttle.take(client) == 0
    assert throttle.take("a") == 10  # "a" heard from again: now the latest
    assert throttle.take("c") == 0  # "b", the least recent, is forgotten
    assert throttle.take("a") == 10 and throttle.take("c") == 10
    assert throttle.take("b") == 0  # forgotten: a full burst again


def test_zero_is_no_limit_and_below_zero_is_refused() -> None:
    throttle = Throttle(0)
    assert not throttle.on
    with pytest.raises(ValueError, match="at least 0"):
        Throttle(-1)


def test_the_setting_is_read_from_the_environment() -> None:
    assert Settings.from_env({}).requests_per_minute == 600
    env = {"REALPOLITIK_REQUESTS_PER_MINUTE": "1200"}
    assert Settings.from_env(env).requests_per_minute == 1200
    for bad in ("-5", "ten", "1.5"):
        with pytest.raises(ValueError, match="REALPOLITIK_REQUESTS_PER_MINUTE"):
            Settings.from_env({"REALPOLITIK_REQUESTS_PER_MINUTE": bad})


@pytest.fixture
def limited(tmp_path: Path, clock: FakeClock) -> Iterator[TestClient]:
    """A server allowing 60 requests a minute per client: 10 at once, then one a second."""
    settings = fast_settings(f"sqlite:///{tmp_path / 'db.sqlite3'}", requests_per_minute=60)
    backend = Backend.open(settings, clock=clock)
    with TestClient(create_app(settings, backend=backend)) as client:
        yield client
    backend.close()


def test_a_client_over_its_rate_is_told_when_to_come_back(
    limited: TestClient, clock: FakeClock
) -> None:
    alice = register(limited, "alice")
    for _ in range(9):  # the sign-up was the first of ten
        assert limited.get("/api/games", headers=alice.headers).status_code == 200
    refused = limited.get("/api/games", headers=alice.headers)
    assert refused.status_code == 429
    assert refused.headers["retry-after"] == "1"
    assert refused.json() == {
        "detail": "too many requests: try again in 1 s",
        "code": "too_many_requests",
        "values": {"seconds": 1},
    }
    # what was given before stays: the account and its session work once it has waited
    assert limited.post("/api/games", json={"name": "x"}, headers=alice.headers).status_code == 429
    clock.advance(1)
    made = limited.post("/api/games", json={"name": "late"}, headers=alice.headers)
    assert made.status_code == 201, made.text
    clock.advance(10)
    assert [g["name"] for g in limited.get("/api/games", headers=alice.headers).json()["mine"]] == [
        "late"
    ]


def test_the_page_s_files_are_not_counted(limited: TestClient) -> None:
    for _ in range(10):
        assert limited.get("/api/meta").status_code == 200
    assert limited.get("/api/meta").status_code == 429
    for name in ("app.js", "style.css", "i18n.json"):
        assert limited.get(f"/static/{name}").status_code == 200


def test_another_address_is_another_client(tmp_path: Path, clock: FakeClock) -> None:
    settings = fast_settings(f"sqlite:///{tmp_path / 'db.sqlite3'}", requests_per_minute=60)
    backend = Backend.open(settings, clock=clock)
    app = create_app(settings, backend=backend)
    with TestClient(app, client=("192.0.2.1", 5000)) as first:
        for _ in range(10):
            first.get("/api/meta")
        assert first.get("/api/meta").status_code == 429
        with TestClient(app, client=("192.0.2.2", 5000)) as second:
            assert second.get("/api/meta").status_code == 200
        # one machine's IPv6 addresses are one client (its /64)
        with TestClient(app, client=("2001:db8::1", 5000)) as v6:
            for _ in range(10):
                v6.get("/api/meta")
        with TestClient(app, client=("2001:db8::2", 5000)) as same:
            assert same.get("/api/meta").status_code == 429
    backend.close()
