"""The editions through the server's API: tables without diplomacy, accepted supports and
alliances (conquista), builds written as the books write them (issue 17)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from realpolitik.server import engine
from tests.server.conftest import new_game, register


@pytest.fixture(autouse=True)
def _forget_games() -> Iterator[None]:
    """The server caches games by id and version, process-wide: each test here has a fresh
    database whose game ids start again at 1."""
    with engine._cache_lock:
        engine._cache.clear()
    yield


def test_conquista_two_players_has_no_press(client: TestClient) -> None:
    """La Conquista, 2 players: "En esta variante sin Diplomacia y de pura Guerra": the
    table gets no press and its rulebook clock has no diplomacy time, only the writing."""
    alice = register(client, "alice")
    meta = client.get("/api/meta").json()
    assert meta["without_press"] == {"classic": [], "1971": [], "grow": [], "conquista": [2]}
    r = client.post(
        "/api/games",
        headers=alice.headers,
        json={"name": "g", "edition": "conquista", "players": 2, "press": "full"},
    )
    assert r.status_code == 400 and "without diplomacy" in r.json()["detail"]
    game = new_game(client, alice, edition="conquista", players=2, deadlines="rulebook",
                    start=True)  # fmt: skip
    assert game["settings"]["press"] == "none"
    d = game["settings"]["deadlines"]
    assert d["diplomacy"] == 0 and d["first_diplomacy"] == 0 and d["orders"] == 300
    assert game["press_until"] == game["now"] and game["deadline_at"] - game["now"] == 300
    power = next(s["powers"][0] for s in game["seats"] if s["player"] == "alice")
    r = client.post(f"/api/games/{game['id']}/messages", headers=alice.headers,
                    json={"sender": power, "body": "peace?"})  # fmt: skip
    assert r.status_code == 409
    seven = new_game(client, alice, edition="conquista", players=7)
    assert seven["settings"]["press"] == "full"


def test_conquista_accept_and_ally_with_the_orders(client: TestClient) -> None:
    """La Conquista: "Un ejército de una potencia puede apoyar al de otra potencia. Esto
    tendrá validez solo en el caso en que ambas potencias lo hagan constar en sus órdenes";
    "los jugadores que la integran deben darlo a conocer junto con las instrucciones para
    sus ejércitos". ``PUT /orders`` takes ``accept`` and ``ally`` with the orders."""
    alice = register(client, "alice")
    game = new_game(client, alice, edition="conquista", start=True)
    gid, power = game["id"], game["my_powers"][0]
    foreign = "A BER" if power != "GERMANY" else "A PAR"
    partner = "ENGLAND" if power != "ENGLAND" else "FRANCE"
    url = f"/api/games/{gid}/orders"
    bad = [({"accept": ["A NTH"]}, "no unit"), ({"ally": ["PRUSSIA"]}, "unknown power")]
    for extra, word in bad:
        r = client.put(url, headers=alice.headers, json={"power": power, "orders": []} | extra)
        assert r.status_code == 422 and word in r.json()["detail"], r.text
    body = {"power": power, "orders": [], "accept": [foreign], "ally": [partner]}
    r = client.put(url, headers=alice.headers, json=body)
    assert r.status_code == 200, r.text
    assert r.json()["accept"] == [foreign.split()[1]]
    assert r.json()["ally"] == sorted([power, partner])
    r = client.put(url, headers=alice.headers, json={"power": power, "orders": []})
    assert r.json()["accept"] == [foreign.split()[1]]  # null: kept
    assert client.get(url, headers=alice.headers, params={"power": power}).json()["ally"]
    client.post(f"/api/games/{gid}/ready", headers=alice.headers, json={"power": power})
    record = client.get(f"/api/games/{gid}/history/S1914M").json()
    assert record["accepted"] == {power: [foreign.split()[1]]}
    assert record["declared"] == {power: sorted([power, partner])}


def test_accept_is_conquista_only(client: TestClient) -> None:
    alice = register(client, "alice")
    game = new_game(client, alice, start=True)
    gid, power = game["id"], game["my_powers"][0]
    r = client.put(f"/api/games/{gid}/orders", headers=alice.headers,
                   json={"power": power, "orders": [], "accept": ["A PAR"]})  # fmt: skip
    assert r.status_code == 422 and "conquista" in r.json()["detail"]


def test_the_api_documents_accept_and_ally(client: TestClient) -> None:
    schemas = client.get("/openapi.json").json()["components"]["schemas"]
    fields = schemas["OrdersIn"]["properties"]
    assert "Conquista" in fields["accept"]["description"]
    assert "alliance" in fields["ally"]["description"]
