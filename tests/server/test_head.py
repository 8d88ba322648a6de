"""HEAD is answered wherever GET is (:mod:`realpolitik.server.head`): the GET's status and
headers, no body; an event stream asked with HEAD ends at once, its place given back."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.server.conftest import new_game, register


def test_head_answers_as_get_without_the_body(client: TestClient) -> None:
    alice = register(client, "alice")
    gid = new_game(client, alice, start=True)["id"]
    paths = [
        "/",
        "/static/app.js",
        "/api/meta",
        "/api/games",
        "/api/me",
        f"/api/games/{gid}",
        f"/api/games/{gid}/map.svg",
        f"/api/games/{gid}/history",
        f"/api/games/{gid}/messages",
        f"/api/games/{gid}/legal?power=NOBODY",
        "/api/games/1",
        "/api/accounts",
        "/no/such/page",
    ]
    plain = alice.headers | {"Accept-Encoding": "identity"}  # lengths as they are (no gzip)
    for path in paths:
        get = client.get(path, headers=plain)
        head = client.head(path, headers=plain)
        assert head.status_code == get.status_code, (path, head.status_code, get.status_code)
        assert head.content == b"", path
        assert head.headers.get("content-type") == get.headers.get("content-type"), path
        if "map.svg" not in path:  # (a map's text differs by a moment of its clock)
            assert int(head.headers["content-length"]) == len(get.content), path
    assert client.head("/").status_code == 200  # it was 405, as for every API GET route
    assert client.head("/api/accounts").headers["allow"] == "POST"


def test_an_event_stream_asked_with_head_ends_and_gives_its_place_back(
    client: TestClient,
) -> None:
    alice = register(client, "alice")
    gid = new_game(client, alice, start=True)["id"]
    for _ in range(25):  # more than a client's streams at once (20)
        r = client.head(f"/api/games/{gid}/events", headers=alice.headers)
        assert r.status_code == 200 and r.content == b""
        assert r.headers["content-type"].startswith("text/event-stream")
    with client.stream("GET", f"/api/games/{gid}/events", headers=alice.headers) as r:
        assert r.status_code == 200
