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
from fastapi.testclient import TestClient

from realpolitik.server.backend import Backend
from tests.server.conftest import LiveServer, new_game, register, start_server


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


def test_orders_given_in_another_tab_are_told_to_their_player_alone(live: LiveServer) -> None:
    """Alice gives orders from her phone: the stream of her page on the desktop says so
    (the page then fetches them), carol's says nothing of them: what she hears next is a
    public message, and nothing in it tells of alice's orders."""
    base = live.url
    alice, bob, carol = (_account(base, n) for n in ("alice", "bob", "carol"))
    gid = httpx.post(
        base + "/api/games",
        json={"name": "tabs", "players": 3, "bots": None, "deadlines": "none"},
        headers=alice,
    ).json()["id"]
    for who in (bob, carol):
        assert httpx.post(f"{base}/api/games/{gid}/join", json={}, headers=who).status_code == 200
    power = httpx.get(f"{base}/api/games/{gid}", headers=alice).json()["my_powers"][0]
    legal = httpx.get(f"{base}/api/games/{gid}/legal", params={"power": power}, headers=alice)
    order = next(iter(legal.json().values()))[0]["order"]
    with (
        httpx.Client(base_url=base, timeout=10) as client,
        client.stream("GET", f"/api/games/{gid}/events", headers=alice) as mine,
        client.stream("GET", f"/api/games/{gid}/events", headers=carol) as theirs,
    ):
        desktop, others = Events(mine.iter_lines()), Events(theirs.iter_lines())
        assert "my_orders" not in desktop.next() and "my_orders" not in others.next()
        body = {"power": power, "orders": [order]}
        r = httpx.put(f"{base}/api/games/{gid}/orders", json=body, headers=alice)
        assert r.status_code == 200, r.text
        told = desktop.next()
        assert told["my_orders"] > 0 and told["ready"] == 0
        time.sleep(1.0)
        carols = httpx.get(f"{base}/api/games/{gid}", headers=carol).json()["my_powers"][0]
        r = httpx.post(
            f"{base}/api/games/{gid}/messages",
            json={"sender": carols, "body": "hello all"},
            headers=carol,
        )
        heard = others.next()
        assert heard["message"] == r.json()["id"] and "my_orders" not in heard
        assert "orders_given" not in heard and "orders_given" not in told


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


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_a_stream_hears_of_what_another_process_changed(
    database: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """Two server processes on one database: a stream open on one hears of a message sent
    and a phase processed through the other."""
    if database == "sqlite":
        url = f"sqlite:///{tmp_path / 'two.sqlite3'}"
    else:
        url = request.getfixturevalue("pg_url")
    env = {"REALPOLITIK_PUSH_SECONDS": "0.2"}
    one = start_server(url, tmp_path / "one.log", extra_env=env)
    try:
        other = start_server(url, tmp_path / "other.log", extra_env=env)
        try:
            _hear_across(one.url, other.url)
        finally:
            other.stop()
    finally:
        one.stop()


def _hear_across(listening: str, acting: str) -> None:
    alice, bob = _account(acting, "alice"), _account(acting, "bob")
    game = httpx.post(
        acting + "/api/games",
        json={"name": "two", "players": 2, "bots": None, "deadlines": "none"},
        headers=alice,
    ).json()
    gid = game["id"]
    assert httpx.post(f"{acting}/api/games/{gid}/join", json={}, headers=bob).status_code == 200
    with (
        httpx.Client(base_url=listening, timeout=20) as client,
        client.stream("GET", f"/api/games/{gid}/events", headers=alice) as stream,
    ):
        events = Events(stream.iter_lines())
        first = events.next()
        assert first["status"] == "active" and first["message"] == 0
        bobs = httpx.get(f"{acting}/api/games/{gid}", headers=bob).json()["my_powers"]
        r = httpx.post(
            f"{acting}/api/games/{gid}/messages",
            json={"sender": bobs[0], "body": "hello from the other process"},
            headers=bob,
        )
        assert r.status_code == 201, r.text
        assert events.next()["message"] == r.json()["id"]
        for who in (alice, bob):
            powers = httpx.get(f"{acting}/api/games/{gid}", headers=who).json()["my_powers"]
            for power in powers:
                r = httpx.post(
                    f"{acting}/api/games/{gid}/ready",
                    json={"power": power, "ready": True},
                    headers=who,
                )
                assert r.status_code == 200, r.text
        for _ in range(10):  # ready flags first, then the new phase
            change = events.next()
            if change["phase"] != first["phase"]:
                break
        assert change["phase"] != first["phase"] and change["version"] > first["version"]


def test_one_query_reads_every_followed_game(client: TestClient, backend: Backend) -> None:
    """The process reads the stamps of all the games its streams follow in one query, so
    the database work of push does not grow with the number of streams."""
    from sqlalchemy import event

    from realpolitik.server.events import Watcher

    alice = register(client, "alice")
    games = [new_game(client, alice, name=f"g{k}", start=True)["id"] for k in range(3)]
    watcher = Watcher(backend, interval=3600)  # read by hand here
    try:
        for gid in games * 20:  # sixty streams on three games
            watcher.follow(gid)
        statements: list[str] = []
        event.listen(backend.db, "before_cursor_execute", lambda *a: statements.append(a[2]))
        watcher.read()
        assert len([s for s in statements if "games" in s]) == 1, statements
        woken: list[int] = []
        watcher.follow(games[1], lambda: woken.append(1))  # a stream's wake-up call
        watcher.follow(games[0], lambda: woken.append(0))
        before = {gid: watcher.stamp(gid) for gid in games}
        power = client.get(f"/api/games/{games[1]}", headers=alice.headers).json()["my_powers"][0]
        r = client.post(
            f"/api/games/{games[1]}/messages",
            json={"sender": power, "body": "news"},
            headers=alice.headers,
        )
        assert r.status_code == 201, r.text
        watcher.read()
        assert watcher.stamp(games[1])["last_message"] == r.json()["id"]
        assert watcher.stamp(games[0]) == before[games[0]]
        assert woken == [1], "only the streams of the game that changed are woken"
        watcher.read()
        assert woken == [1], "and only when it changed"
        watcher.unfollow(games[1])
        watcher.unfollow(games[0])
        for gid in games * 20:
            watcher.unfollow(gid)
        assert watcher.stamp(games[0]) == {"gone": True}  # nobody follows it: not read
    finally:
        watcher.stop()


def _stream_opens(url: str) -> bool:
    """Whether a stream of ``url`` opens within a few seconds (it is closed at once)."""
    for _ in range(50):
        with httpx.stream("GET", url, timeout=10) as r:
            if r.status_code == 200:
                return True
            assert r.status_code == 503, r.status_code
        time.sleep(0.1)
    return False


def test_open_streams_are_limited_and_a_closed_one_frees_its_place(tmp_path: Path) -> None:
    """Past ``max_streams`` a stream is refused (503: the page polls instead); a stream
    whose client left gives its place back."""
    server = start_server(
        f"sqlite:///{tmp_path / 'streams.sqlite3'}",
        tmp_path / "server.log",
        extra_env={"REALPOLITIK_MAX_STREAMS": "1"},
    )
    try:
        alice = _account(server.url, "alice")
        r = httpx.post(server.url + "/api/games", json={"name": "g", "start": True}, headers=alice)
        url = f"{server.url}/api/games/{r.json()['id']}/events"
        with httpx.stream("GET", url, timeout=10) as first:
            assert first.status_code == 200
            second = httpx.get(url, timeout=10)
            assert second.status_code == 503 and "poll" in second.json()["detail"]
        for _ in range(5):  # each one opened and left: its place comes back every time
            assert _stream_opens(url), "a closed stream kept its place"
    finally:
        server.stop()


def test_one_client_cannot_take_every_stream(tmp_path: Path) -> None:
    """Past ``streams_per_client`` open streams of one user (or one address, not logged
    in), that client is refused (429 too_many_streams) while others still get theirs:
    before, one client could open ``max_streams`` and leave every player to poll."""
    server = start_server(
        f"sqlite:///{tmp_path / 'streams.sqlite3'}",
        tmp_path / "server.log",
        extra_env={"REALPOLITIK_STREAMS_PER_CLIENT": "2", "REALPOLITIK_MAX_STREAMS": "5"},
    )
    try:
        alice, bob = _account(server.url, "alice"), _account(server.url, "bob")
        r = httpx.post(server.url + "/api/games", json={"name": "g", "start": True}, headers=alice)
        url = f"{server.url}/api/games/{r.json()['id']}/events"
        with (
            httpx.stream("GET", url, headers=alice, timeout=10) as one,
            httpx.stream("GET", url, headers=alice, timeout=10) as two,
        ):
            assert one.status_code == two.status_code == 200
            third = httpx.get(url, headers=alice, timeout=10)
            assert third.status_code == 429, third.text
            assert third.json()["code"] == "too_many_streams" and "2" in third.json()["detail"]
            with (
                httpx.stream("GET", url, headers=bob, timeout=10) as theirs,
                httpx.stream("GET", url, timeout=10) as anonymous,
            ):
                assert theirs.status_code == anonymous.status_code == 200
        for _ in range(3):  # alice's closed streams gave their places back
            assert _stream_opens_for(url, alice)
    finally:
        server.stop()


def _stream_opens_for(url: str, headers: dict[str, str]) -> bool:
    for _ in range(50):
        with httpx.stream("GET", url, headers=headers, timeout=10) as r:
            if r.status_code == 200:
                return True
        time.sleep(0.1)
    return False
