"""A bounded load test on localhost: many games and clients at once against one server
process; every acknowledged order and message must be found afterwards."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.server.conftest import LiveServer, start_server

GAMES = 8
HUMANS = 3  # per game; bots take the other four seats
PHASES = 2
MESSAGES = 3
TIME_LIMIT = 240.0


@pytest.fixture(params=["sqlite", "postgres"])
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[LiveServer]:
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'load.sqlite3'}"
    else:
        url = request.getfixturevalue("pg_url")
    live = start_server(url, tmp_path / "server.log", tick=0.5)
    yield live
    live.stop()


def _client(base: str, token: str | None = None) -> httpx.Client:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return httpx.Client(base_url=base + "/api", headers=headers, timeout=60)


def test_many_games_and_clients(server: LiveServer) -> None:
    started = time.monotonic()
    tokens: list[str] = []
    with _client(server.url) as anon:
        for k in range(GAMES * HUMANS):
            r = anon.post("/accounts", json={"username": f"user{k}", "password": "password!"})
            assert r.status_code == 201, r.text
            tokens.append(r.json()["token"])
    games: list[int] = []
    for g in range(GAMES):
        host = tokens[g * HUMANS]
        with _client(server.url, host) as c:
            gid = c.post("/games", json={"name": f"load {g}", "deadlines": "none"}).json()["id"]
            for k in range(1, HUMANS):
                with _client(server.url, tokens[g * HUMANS + k]) as other:
                    assert other.post(f"/games/{gid}/join", json={}).status_code == 200
            assert c.post(f"/games/{gid}/start").status_code == 200
        games.append(gid)

    acked_orders: dict[tuple[int, str, str], list[str]] = {}
    acked_messages: list[tuple[int, str, str]] = []
    failures: list[str] = []
    lock = threading.Lock()

    def player(gid: int, token: str, seed: int) -> None:
        rng = random.Random(seed)
        with _client(server.url, token) as c:
            for _ in range(PHASES):
                state = c.get(f"/games/{gid}").json()
                phase = state["phase"]
                for power in state["my_powers"]:
                    if not state["orders"][power]["to_act"]:
                        continue
                    legal = c.get(f"/games/{gid}/legal", params={"power": power}).json()
                    orders = [
                        rng.choice(opts)["order"] for k, opts in legal.items() if k != "WAIVE"
                    ]
                    if phase.endswith("A"):
                        orders = []  # builds and removals left to the rules
                    r = c.put(f"/games/{gid}/orders", json={"power": power, "orders": orders})
                    if r.status_code != 200:
                        failures.append(f"orders {r.status_code} {r.text}")
                        continue
                    with lock:
                        acked_orders[(gid, phase, power)] = [o["order"] for o in r.json()["orders"]]
                    for m in range(MESSAGES):
                        body = f"{gid}/{phase}/{power}/{m}/{seed}"
                        r = c.post(f"/games/{gid}/messages", json={"sender": power, "body": body})
                        if r.status_code == 201:
                            with lock:
                                acked_messages.append((gid, power, body))
                        elif r.status_code != 409:  # 409: press closed in this phase
                            failures.append(f"message {r.status_code} {r.text}")
                for power in state["my_powers"]:
                    if state["orders"][power]["to_act"]:
                        c.post(f"/games/{gid}/ready", json={"power": power, "ready": True})
                limit = time.monotonic() + 60
                while time.monotonic() < limit:
                    if c.get(f"/games/{gid}").json()["phase"] != phase:
                        break
                    time.sleep(0.2)

    threads = [
        threading.Thread(target=player, args=(gid, tokens[g * HUMANS + k], g * 10 + k))
        for g, gid in enumerate(games)
        for k in range(HUMANS)
    ]
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout=TIME_LIMIT)
    assert not any(th.is_alive() for th in threads), "clients still running"
    assert not failures, failures[:5]

    # nothing lost: every acknowledged order was adjudicated, every message is there
    with _client(server.url) as c:
        for (gid, phase, power), orders in acked_orders.items():
            record = c.get(f"/games/{gid}/history/{phase}")
            assert record.status_code == 200, (gid, phase)
            judged = {e["order"] for e in record.json()["orders"].get(power, [])}
            assert set(orders) <= judged, (gid, phase, power, orders, judged)
        found = set()
        for gid in games:
            for m in c.get(f"/games/{gid}/messages").json():
                found.add((gid, m["sender"], m["body"]))
        assert set(acked_messages) <= found
    assert acked_orders and acked_messages
    assert time.monotonic() - started < TIME_LIMIT
    log = server.log.read_text()
    assert "Traceback" not in log, log[-3000:]
