"""gzip for the page's files and the map pictures, never for JSON answers (which may hold
a player's private press beside text an opponent wrote)."""

from __future__ import annotations

import gzip

from fastapi.testclient import TestClient

from realpolitik.server.compression import compressed
from tests.server.conftest import new_game, register

GZIP = {"Accept-Encoding": "gzip"}
PLAIN = {"Accept-Encoding": "identity"}


def test_the_map_and_the_page_s_files_come_compressed_to_who_accepts_it(
    client: TestClient,
) -> None:
    alice = register(client, "alice")
    gid = new_game(client, alice, players=7, bots="random", start=True)["id"]
    power = client.get(f"/api/games/{gid}", headers=alice.headers).json()["my_powers"][0]
    for path in (
        f"/api/games/{gid}/map.svg?power={power}",
        "/static/board.js",
        "/static/i18n.json",
    ):
        with client.stream("GET", path, headers=alice.headers | GZIP) as packed:
            sent = b"".join(packed.iter_raw())
        plain = client.get(path, headers=alice.headers | PLAIN)
        assert packed.status_code == plain.status_code == 200, path
        assert packed.headers["content-encoding"] == "gzip", path
        assert "content-encoding" not in plain.headers, path
        assert gzip.decompress(sent) == plain.content
        assert len(sent) < len(plain.content) / 2, path


def test_json_answers_are_never_compressed(client: TestClient) -> None:
    alice, bob = register(client, "alice"), register(client, "bob")
    gid = new_game(client, alice, players=2, bots=None)["id"]
    client.post(f"/api/games/{gid}/join", json={}, headers=bob.headers)
    power = client.get(f"/api/games/{gid}", headers=bob.headers).json()["my_powers"][0]
    for k in range(20):  # press long enough to be worth compressing
        r = client.post(f"/api/games/{gid}/messages", headers=bob.headers,
                        json={"sender": power, "body": f"a long message, number {k}"})  # fmt: skip
        assert r.status_code == 201, r.text
    for path in (f"/api/games/{gid}", f"/api/games/{gid}/messages", "/api/games"):
        r = client.get(path, headers=alice.headers | GZIP)
        assert r.status_code == 200 and len(r.content) > 1024, path
        assert "content-encoding" not in r.headers, path
    assert not compressed(f"/api/games/{gid}/events")
