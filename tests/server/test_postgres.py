"""Against a real PostgreSQL server (started by tools/ci_services.sh in ``make test``):
the API, and two server processes sharing one database, processing every phase once."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from realpolitik.server.app import create_app
from realpolitik.server.backend import Backend
from tests.server.conftest import (
    FakeClock,
    LiveServer,
    fast_settings,
    new_game,
    register,
    start_server,
)


@pytest.fixture
def pg_client(pg_url: str, clock: FakeClock) -> Iterator[TestClient]:
    settings = fast_settings(pg_url)
    b = Backend.open(settings, clock=clock)
    with TestClient(create_app(settings, backend=b)) as c:
        yield c
    b.close()


def test_play_on_postgres(pg_client: TestClient) -> None:
    c = pg_client
    alice, bob = register(c, "alice"), register(c, "bob")
    game = new_game(c, alice, players=7, start=False)
    gid = game["id"]
    assert c.post(f"/api/games/{gid}/join", json={}, headers=bob.headers).status_code == 200
    assert c.post(f"/api/games/{gid}/start", headers=alice.headers).status_code == 200
    for who in (alice, bob):
        state = c.get(f"/api/games/{gid}", headers=who.headers).json()
        power = state["my_powers"][0]
        legal = c.get(f"/api/games/{gid}/legal", params={"power": power}, headers=who.headers)
        orders = [opts[1]["order"] for opts in legal.json().values()]
        r = c.put(
            f"/api/games/{gid}/orders",
            json={"power": power, "orders": orders, "ready": True},
            headers=who.headers,
        )
        assert r.status_code == 200, r.text
        r = c.post(
            f"/api/games/{gid}/messages",
            json={"sender": power, "body": f"hello from {who.username}"},
            headers=who.headers,
        )
        assert r.status_code in (201, 409), r.text
    state = c.get(f"/api/games/{gid}", headers=alice.headers).json()
    assert state["phase"] == "F1901M"
    record = c.get(f"/api/games/{gid}/history/S1901M").json()
    assert sum(len(v) for v in record["orders"].values()) == 22


def test_two_servers_share_one_postgres(pg_url: str, tmp_path: Path) -> None:
    servers: list[LiveServer] = []
    http = httpx.Client(timeout=60)  # the bots of a new game think in its first request
    try:
        for k in range(2):
            servers.append(start_server(pg_url, tmp_path / f"server{k}.log", tick=0.2))
        a, b = servers
        r = http.post(a.url + "/api/accounts", json={"username": "host", "password": "secret pass"})
        token = r.json()["token"]
        headers = {"Authorization": f"Bearer {token}"}
        deadlines = {"diplomacy": 1, "orders": 0, "retreats": 1, "adjustments": 1,
                     "first_diplomacy": 1}  # fmt: skip
        r = http.post(
            b.url + "/api/games",
            json={"name": "race", "start": True, "deadlines": deadlines, "join": True},
            headers=headers,
        )
        assert r.status_code == 201, r.text
        gid = r.json()["id"]
        deadline = time.monotonic() + 60
        history: list[str] = []
        while time.monotonic() < deadline and len(history) < 5:
            time.sleep(0.5)
            history = [h["phase"] for h in http.get(f"{a.url}/api/games/{gid}/history").json()]
        assert len(history) >= 5, history
        assert len(history) == len(set(history)), history  # no phase twice
        assert history[:2] == ["S1901M", "F1901M"]
        same = http.get(f"{b.url}/api/games/{gid}/history").json()
        assert [h["phase"] for h in same][: len(history)] == history
    finally:
        http.close()
        for s in servers:
            s.stop()
    for s in servers:
        log = s.log.read_text()
        assert "Traceback" not in log, log[-3000:]
