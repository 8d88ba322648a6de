"""The editions through the server's API: tables without diplomacy, accepted supports and
alliances (conquista), builds written as the books write them (issue 17)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.server.conftest import new_game, register


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
