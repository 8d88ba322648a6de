"""Server push: the event stream of a game tells its watchers of each change they may see
(a message, a phase), never of another pair's private press, and only to those who may
see the game; a live server, since a stream does not end by itself."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.conftest import LiveServer, start_server


@pytest.fixture
def live(tmp_path: Path) -> Iterator[LiveServer]:
    server = start_server(
        f"sqlite:///{tmp_path / 'push.sqlite3'}",
        tmp_path / "server.log",
        extra_env={"REALPOLITIK_PUSH_SECONDS": "0.2"},
    )
    yield server
    server.stop()


def _account(base: str, name: str) -> dict[str, str]:
    r = httpx.post(base + "/api/accounts", json={"username": name, "password": "password!"})
    assert r.status_code == 201, r.text
    return {"Authorization": f"Bearer {r.json()['token']}"}


class Events:
    """Read a stream's ``change`` events (each with a time limit)."""

    def __init__(self, lines: Iterator[str]) -> None:
        self.lines = lines

    def next(self) -> dict[str, Any]:
        kind = None
        for line in self.lines:
            if line.startswith("event: "):
                kind = line.removeprefix("event: ")
            elif line.startswith("data: ") and kind == "change":
                data: dict[str, Any] = json.loads(line.removeprefix("data: "))
                return data
        raise AssertionError("the stream ended")


def test_watchers_learn_of_changes_they_may_see(live: LiveServer) -> None:
    base = live.url
    alice, bob, carol = (_account(base, n) for n in ("alice", "bob", "carol"))
    game = httpx.post(
        base + "/api/games",
        json={"name": "push", "players": 3, "bots": None, "deadlines": "none"},
        headers=alice,
    ).json()
    gid = game["id"]
    for who in (bob, carol):
        assert httpx.post(f"{base}/api/games/{gid}/join", json={}, headers=who).status_code == 200
    powers = {
        name: httpx.get(f"{base}/api/games/{gid}", headers=who).json()["my_powers"]
        for name, who in (("alice", alice), ("bob", bob), ("carol", carol))
    }
    with (
        httpx.Client(base_url=base, timeout=10) as client,
        client.stream("GET", f"/api/games/{gid}/events", headers=carol) as stream,
    ):
        assert stream.status_code == 200
        assert stream.headers["content-type"].startswith("text/event-stream")
        events = Events(stream.iter_lines())
        first = events.next()
        assert first["phase"] == game["phase"] or first["status"] == "active"
        # private press between alice and bob: carol's stream says nothing
        r = httpx.post(
            f"{base}/api/games/{gid}/messages",
            json={"sender": powers["alice"][0], "recipients": [powers["bob"][0]], "body": "x"},
            headers=alice,
        )
        assert r.status_code == 201, r.text
        time.sleep(1.0)
        r = httpx.post(
            f"{base}/api/games/{gid}/messages",
            json={"sender": powers["bob"][0], "body": "hello all"},
            headers=bob,
        )
        public = r.json()["id"]
        change = events.next()
        assert change["message"] == public  # the first change she hears of is this one
        for power in powers["carol"]:
            httpx.post(f"{base}/api/games/{gid}/ready", json={"power": power}, headers=carol)
        assert events.next()["ready"] >= 1


def test_an_unlisted_games_stream_is_for_its_members(live: LiveServer) -> None:
    base = live.url
    alice, olga = _account(base, "alice"), _account(base, "olga")
    game = httpx.post(
        base + "/api/games",
        json={"name": "secret", "public": False, "deadlines": "none", "start": True},
        headers=alice,
    ).json()
    r = httpx.get(f"{base}/api/games/{game['id']}/events", headers=olga, timeout=10)
    assert r.status_code == 404
    with httpx.stream(
        "GET", f"{base}/api/games/{game['id']}/events", headers=alice, timeout=10
    ) as stream:
        assert stream.status_code == 200
        assert Events(stream.iter_lines()).next()["status"] == "active"
