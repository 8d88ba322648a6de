"""``kill -9`` of a real server process while it processes phases (at deadlines, and inside
requests whose ``ready`` completes a phase): after every kill the database is whole (no
half-applied phase: each phase record starts where the one before ended, and the game's
current position is where the last one ended), no acknowledged order is lost (each is in
its phase's record, or still stored for the current phase), and a restarted server goes on
with the games whose deadlines passed while it was down."""

from __future__ import annotations

import json
import random
import sqlite3
import threading
import time
from itertools import pairwise
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.conftest import LiveServer, start_server

GAMES = 4
KILLS = 4
SECOND = {"diplomacy": 1, "orders": 0, "retreats": 1, "adjustments": 1, "first_diplomacy": 1}

Ack = tuple[int, str, str, tuple[str, ...]]  # game, phase, power, the orders stored


def _sqlite_path(url: str) -> Path:
    return Path(url.removeprefix("sqlite:///"))


def _rows(url: str, sql: str) -> list[tuple[Any, ...]]:
    if url.startswith("sqlite"):
        conn = sqlite3.connect(_sqlite_path(url))
        try:
            return conn.execute(sql).fetchall()
        finally:
            conn.close()
    from sqlalchemy import create_engine, text

    engine = create_engine(url)
    try:
        with engine.connect() as c:
            return [tuple(r) for r in c.execute(text(sql))]
    finally:
        engine.dispose()


def _check_whole(url: str) -> int:
    """With the server down: the stored games are whole. Returns the phases stored."""
    if url.startswith("sqlite"):
        assert _rows(url, "PRAGMA integrity_check") == [("ok",)]
    records: dict[int, list[tuple[int, str, dict[str, Any]]]] = {}
    for game_id, idx, phase, record in _rows(
        url, "SELECT game_id, idx, phase, record FROM phases ORDER BY game_id, idx"
    ):
        rec = record if isinstance(record, dict) else json.loads(record)
        records.setdefault(int(game_id), []).append((int(idx), str(phase), rec))
    for game_id, phase, state in _rows(url, "SELECT id, phase, state FROM games"):
        done = records.get(int(game_id), [])
        assert [idx for idx, _, _ in done] == list(range(len(done))), game_id
        assert phase not in {p for _, p, _ in done}, (game_id, phase)
        for (_, _, before), (_, _, after) in pairwise(done):
            assert after["position"] == before["after"], (game_id, after["phase"])
        if done and state is not None:
            current = state if isinstance(state, dict) else json.loads(state)
            assert current["position"] == done[-1][2]["after"], game_id
    return sum(len(v) for v in records.values())


class Players:
    """Players of every game giving a legal order to each unit with ``ready`` (the last
    ready processes the phase inside its request), each acknowledgement written down."""

    def __init__(self, games: dict[int, list[tuple[dict[str, str], str]]]) -> None:
        self.games = games
        self.url = ""
        self.acks: list[Ack] = []
        self.given: set[tuple[int, str, str]] = set()
        self.refused: list[str] = []
        self.stop = threading.Event()
        self.rng = random.Random(7)

    def run(self) -> None:
        with httpx.Client(timeout=30) as http:
            while not self.stop.is_set():
                for game_id, seats in self.games.items():
                    for headers, power in seats:
                        try:
                            self._play(http, game_id, headers, power)
                        except httpx.HTTPError:
                            time.sleep(0.1)  # the server is down: wait for the next one

    def _play(self, http: httpx.Client, game_id: int, headers: dict[str, str], power: str) -> None:
        base = f"{self.url}/api/games/{game_id}"
        view = http.get(base, headers=headers).json()
        phase = view["phase"]
        if not phase.endswith("M") or (game_id, phase, power) in self.given:
            return
        legal = http.get(f"{base}/legal", params={"power": power}, headers=headers).json()
        orders = [self.rng.choice(options)["order"] for options in legal.values()]
        self.given.add((game_id, phase, power))
        r = http.put(
            f"{base}/orders",
            # for the phase read: if it moved on meanwhile, 409 (the orders listed may be
            # the next phase's, which were judged in it: 422, and this thread ended)
            json={"power": power, "orders": orders, "ready": True, "phase": phase},
            headers=headers,
        )
        if r.status_code == 200:
            body = r.json()
            stored = tuple(o["order"] for o in body["orders"])
            self.acks.append((game_id, body["phase"], power, stored))
        elif r.status_code != 409:  # 409: the phase moved on before the orders
            self.refused.append(r.text)  # (asserted by the test: this thread goes on)


def _check_acks(server: LiveServer, players: Players) -> tuple[int, int]:
    """Every acknowledged order set, found; returns how many were in a processed phase's
    record and how many are still waiting in the current phase."""
    processed = waiting = 0
    with httpx.Client(timeout=30) as http:
        for game_id, phase, power, stored in players.acks:
            headers = next(h for h, p in players.games[game_id] if p == power)
            r = http.get(f"{server.url}/api/games/{game_id}/history/{phase}", headers=headers)
            if r.status_code == 200:
                given = [
                    e["order"] for e in r.json()["orders"].get(power, []) if not e.get("implied")
                ]
                assert sorted(given) == sorted(stored), (game_id, phase, power)
                processed += 1
            else:
                r = http.get(
                    f"{server.url}/api/games/{game_id}/orders",
                    params={"power": power},
                    headers=headers,
                )
                assert r.json()["phase"] == phase, (game_id, phase, power)
                assert [o["order"] for o in r.json()["orders"]] == list(stored)
                waiting += 1
    return processed, waiting


def _tables(url: str) -> dict[int, list[tuple[dict[str, str], str]]]:
    """Three-player games with 1-s deadlines, each seat taken by an account: for each
    game, the (headers, power) of every power played."""
    games: dict[int, list[tuple[dict[str, str], str]]] = {}
    with httpx.Client(timeout=60) as http:
        for g in range(GAMES):
            seats: list[tuple[dict[str, str], str]] = []
            first: dict[str, Any] = {}
            for k in range(3):
                r = http.post(
                    f"{url}/api/accounts",
                    json={"username": f"g{g}p{k}", "password": "correct horse"},
                )
                headers = {"Authorization": f"Bearer {r.json()['token']}"}
                if k == 0:
                    first = http.post(
                        f"{url}/api/games",
                        json={"name": f"g{g}", "players": 3, "deadlines": SECOND, "bots": None},
                        headers=headers,
                    ).json()
                else:
                    r = http.post(f"{url}/api/games/{first['id']}/join", json={}, headers=headers)
                    assert r.status_code == 200, r.text
                seats.append((headers, ""))  # the last seat taken starts the game
            for headers, _ in list(seats):
                view = http.get(f"{url}/api/games/{first['id']}", headers=headers).json()
                seats += [(headers, p) for p in view["my_powers"]]
            games[first["id"]] = [s for s in seats if s[1]]
    return games


@pytest.mark.parametrize("db", ["sqlite", "postgres"])
def test_kill_9_during_processing_loses_nothing(
    db: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    url = (
        f"sqlite:///{tmp_path / 'crash.sqlite3'}"
        if db == "sqlite"
        else request.getfixturevalue("pg_url")
    )
    server = start_server(url, tmp_path / "server0.log", tick=0.2)
    players = Players({})
    stored = 0
    try:
        players.games = _tables(server.url)
        players.url = server.url
        thread = threading.Thread(target=players.run, daemon=True)
        thread.start()
        rng = random.Random(1)
        for kill in range(KILLS):
            time.sleep(rng.uniform(1.0, 2.5))
            server.proc.kill()  # SIGKILL: no shutdown, whatever was in flight
            server.proc.wait()
            time.sleep(1.5)  # deadlines pass while it is down
            now = _check_whole(url)
            assert now >= stored
            stored = now
            server = start_server(url, tmp_path / f"server{kill + 1}.log", tick=0.2)
            players.url = server.url
        time.sleep(3)
        players.stop.set()
        thread.join(timeout=60)
        assert not players.refused, players.refused[:3]
        processed, waiting = _check_acks(server, players)
        assert processed + waiting == len(players.acks) and processed > 0
    finally:
        players.stop.set()
        server.stop()
    assert _check_whole(url) > stored > 0  # and phases went on being processed
