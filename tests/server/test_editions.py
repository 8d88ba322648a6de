"""The editions through the server's API: tables without diplomacy, accepted supports and
alliances (conquista), builds written as the books write them (issue 17)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from realpolitik.game.editions import edition
from realpolitik.server import engine
from realpolitik.server.backend import Backend
from realpolitik.server.schemas import GameIn
from tests.server.conftest import FakeClock, new_game, register


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


def test_a_unit_accepted_twice_is_kept_once(client: TestClient) -> None:
    """``accept: ["A BER", "BER", "A BER"]`` was stored, answered and shown to the page as
    three acceptances of the one unit (34 at most, the list's limit)."""
    alice = register(client, "alice")
    game = new_game(client, alice, edition="conquista", start=True)
    gid, power = game["id"], game["my_powers"][0]
    foreign = "BER" if power != "GERMANY" else "PAR"
    body = {"power": power, "orders": [], "accept": [f"A {foreign}", foreign, f"A {foreign}"]}
    r = client.put(f"/api/games/{gid}/orders", headers=alice.headers, json=body)
    assert r.status_code == 200 and r.json()["accept"] == [foreign], r.text
    mine = client.get(f"/api/games/{gid}", headers=alice.headers).json()["orders"][power]
    assert mine["accept"] == [foreign]


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


def test_no_negotiation_while_orders_are_written_nor_in_retreats_or_adjustments(
    backend: Backend, client: TestClient, clock: FakeClock
) -> None:
    """The 2000 rulebook (seed 000), "Gestión del tiempo": "No debe permitirse la diplomacia
    o conversaciones en las fases de escritura o lectura de ordenes, entre los movimientos y
    las retiradas, durante y después de las retiradas, o durante los ajustes." On the
    rulebook clock press is open for the 30 minutes of diplomacy, closed for the writing
    after them, and closed in a retreat or an adjustment phase."""
    from sqlalchemy import update

    from realpolitik.formats.savegame import game_from_json, game_to_json
    from realpolitik.server import tables as t
    from tests.gamekit import at

    alice = register(client, "alice")
    game = new_game(client, alice, deadlines="rulebook", start=True)
    gid, power = game["id"], game["my_powers"][0]
    url = f"/api/games/{gid}/messages"

    def say(text: str) -> Any:
        return client.post(url, headers=alice.headers, json={"sender": power, "body": text})

    assert say("peace?").status_code in (200, 201)
    clock.advance(30 * 60 + 1)  # the diplomacy is over: 5 minutes to write the orders
    r = say("one more word")
    assert r.status_code == 409 and "orders are being written" in r.json()["detail"]
    other = "GERMANY" if power != "GERMANY" else "FRANCE"
    attack = {"units": {power: ["A BOH"], other: ["A MUN", "A TYR"]}}  # a retreat follows
    # one centre for two units: a removal follows (of its only unit: no choice, no phase)
    owing = {"units": {power: ["A BOH", "A GAL"]}, "centers": {power: ["VIE"]}}
    for phase, position in (("F1901R", attack), ("W1901A", owing)):
        with backend.db.begin() as conn:
            state = conn.execute(select(t.games.c.state).where(t.games.c.id == gid)).scalar_one()
            stored = at(game_from_json(state), "F1901M", position)
            stored.submit(power, ["A BOH H"])
            if other in position["units"]:
                stored.submit(other, ["A MUN - BOH", "A TYR S A MUN - BOH"])
            stored.process()
            assert str(stored.phase) == phase
            conn.execute(
                update(t.games).where(t.games.c.id == gid).values(
                    state=game_to_json(stored), phase=phase, version=t.games.c.version + 1,
                    press_until=clock.now, deadline_at=clock.now + 300,
                )
            )  # fmt: skip
        r = say("a word in " + phase)
        assert r.status_code == 409 and "diplomacy phase only" in r.json()["detail"], r.text


def test_conquista_an_alliance_stays_declared_in_later_turns(client: TestClient) -> None:
    """La Conquista: an alliance is declared "en la ronda en que la constituyan" and wins
    when two years old. In a later turn the game's view shows it as this power's
    declaration (``orders[power]["ally"]``), so the page ticks the partners and saving the
    panel (to accept a support, say) keeps the alliance: it showed none, and saving sent
    ``ally: []``, which ended it."""
    alice, bob = register(client, "alice"), register(client, "bob")
    game = new_game(client, alice, edition="conquista", players=7, bots="random")
    gid = game["id"]
    client.post(f"/api/games/{gid}/join", json={}, headers=bob.headers)
    assert client.post(f"/api/games/{gid}/start", headers=alice.headers).status_code == 200

    def me(who: Any) -> str:
        power: str = client.get(f"/api/games/{gid}", headers=who.headers).json()["my_powers"][0]
        return power

    a, b = me(alice), me(bob)
    for who, power, partner in ((alice, a, b), (bob, b, a)):
        body = {"power": power, "orders": [], "ally": [partner]}
        assert client.put(f"/api/games/{gid}/orders", headers=who.headers, json=body).is_success
        client.post(f"/api/games/{gid}/ready", headers=who.headers, json={"power": power})
    view = client.get(f"/api/games/{gid}", headers=alice.headers).json()
    assert view["phase"] == "F1914M"
    ticked = view["orders"][a]["ally"]
    assert ticked == sorted([a, b])
    orders = client.get(f"/api/games/{gid}/orders", headers=alice.headers, params={"power": a})
    assert orders.json()["ally"] == ticked
    # the page saves its panel with what it shows ticked, as orders.js does
    save: dict[str, Any] = {"power": a, "orders": [], "merge": True, "accept": [], "ally": ticked}
    assert client.put(f"/api/games/{gid}/orders", headers=alice.headers, json=save).is_success
    for who, power in ((alice, a), (bob, b)):
        client.post(f"/api/games/{gid}/ready", headers=who.headers, json={"power": power})
    record = client.get(f"/api/games/{gid}/history/F1914M").json()
    assert not [e for e in record.get("events", []) if "alliance" in str(e)], record.get("events")
    later = client.get(f"/api/games/{gid}", headers=bob.headers).json()
    assert later["phase"] != "F1914M" and later["orders"][b]["ally"] == sorted([a, b])


def test_conquista_the_alliances_standing_are_shown_to_everyone(client: TestClient) -> None:
    """La Conquista: an alliance's centres win together ("18 centros ... por una potencia o
    por una alianza"), once two years old, so everyone at the table, and an observer, sees
    the alliances standing, whom they join and since when, in their language. The view
    showed none: a player learnt of one only from the history's events."""
    alice, bob = register(client, "alice"), register(client, "bob")
    carol = register(client, "carol")
    game = new_game(client, alice, edition="conquista", players=7, bots="random")
    gid = game["id"]
    client.post(f"/api/games/{gid}/join", json={}, headers=bob.headers)
    assert client.post(f"/api/games/{gid}/start", headers=alice.headers).status_code == 200

    def view(who: Any, language: str = "en") -> Any:
        url = f"/api/games/{gid}"
        return client.get(url, headers=who.headers, params={"language": language}).json()

    a, b = view(alice)["my_powers"][0], view(bob)["my_powers"][0]
    assert view(carol)["alliances"] == []
    for who, power, partner in ((alice, a, b), (bob, b, a)):
        body = {"power": power, "orders": [], "ally": [partner]}
        assert client.put(f"/api/games/{gid}/orders", headers=who.headers, json=body).is_success
        assert view(carol)["alliances"] == []  # declared, not formed yet: nobody is told
        client.post(f"/api/games/{gid}/ready", headers=who.headers, json={"power": power})
    assert view(alice)["phase"] == "F1914M"
    standing = [{"members": sorted([a, b]), "formed": "S1914M", "since": "Spring 1914"}]
    for who in (alice, bob, carol):
        assert view(who)["alliances"] == standing
    assert view(carol, "es")["alliances"][0]["since"] == "Primavera de 1914"


def test_conquista_a_player_who_leaves_leaves_a_power_without_orders(
    backend: Backend, client: TestClient
) -> None:
    """La Conquista has no civil disorder (RULES.md §5): a player who leaves a started game
    (no bot replacing leavers) leaves powers whose units hold without orders; they are not
    in civil disorder, and nobody waits for them; a person who takes the seat plays them."""
    from realpolitik.formats.savegame import game_from_json
    from realpolitik.server import tables as t

    alice, bob = register(client, "alice"), register(client, "bob")
    gid = new_game(client, alice, edition="conquista", players=3, bots="random",
                   replace_leavers=False)["id"]  # fmt: skip
    assert client.post(f"/api/games/{gid}/join", json={}, headers=bob.headers).status_code == 200
    assert client.post(f"/api/games/{gid}/start", headers=alice.headers).status_code == 200
    left = client.get(f"/api/games/{gid}", headers=bob.headers).json()["my_powers"]
    assert client.post(f"/api/games/{gid}/leave", headers=bob.headers).status_code == 204
    with backend.db.begin() as conn:
        stored = conn.execute(select(t.games.c.state).where(t.games.c.id == gid)).scalar_one()
    game = game_from_json(stored)
    assert game.status.disorder == set(left) and game.civil_disorder == frozenset()
    assert not set(left) & set(game.waiting_for())
    after = client.get(f"/api/games/{gid}", headers=alice.headers).json()
    assert not set(left) & set(after["to_act"])


def test_the_map_is_drawn_in_the_edition_s_words(client: TestClient) -> None:
    """Grow's turns are Winter and Summer ("Inverno de 1901"): the server's map says so, now
    and in a processed phase's record (it drew Spring, as classic's)."""
    alice = register(client, "alice")
    game = new_game(client, alice, edition="grow", start=True)  # the other seats: bots
    gid, power = game["id"], game["my_powers"][0]
    now = client.get(f"/api/games/{gid}/map.svg", headers=alice.headers).text
    assert "Winter 1901" in now and "Spring 1901" not in now
    r = client.post(f"/api/games/{gid}/ready", json={"power": power}, headers=alice.headers)
    assert r.status_code == 200
    assert [h["phase"] for h in client.get(f"/api/games/{gid}/history").json()] == ["S1901M"]
    past = client.get(f"/api/games/{gid}/map.svg", params={"phase": "S1901M"}).text
    assert "Winter 1901" in past and "Spring 1901" not in past


def _stored_game(backend: Backend, gid: int) -> Any:
    from realpolitik.formats.savegame import game_from_json
    from realpolitik.server import tables as t

    with backend.db.begin() as conn:
        stored = conn.execute(select(t.games.c.state).where(t.games.c.id == gid)).scalar_one()
    return game_from_json(stored)


def test_a_shortened_game_ends_at_the_end_of_its_agreed_last_year(
    backend: Backend, client: TestClient
) -> None:
    """Grow's shortened game (RULES.md §4): the players agree a last year when the game is
    made, the first year itself (a game of one year) as well as a later one; at its end the
    power with most units on the board wins, years before the end the server gives a game
    of bots alone (bot_game_years, 10)."""
    from realpolitik.server.scheduler import tick

    alice = register(client, "alice")
    game = new_game(client, alice, edition="grow", bots="random", last_year=1901, join=False,
                    start=True)  # fmt: skip
    assert game["settings"]["last_year"] == 1901
    for _ in range(30):
        if client.get(f"/api/games/{game['id']}").json()["status"] == "finished":
            break
        tick(backend)
    over = _stored_game(backend, game["id"])
    assert over.is_over and over.result.kind == "shortened", over.result
    assert "most units on the board at the agreed end" in over.result.reason
    assert over.result.phase.year == 1901 and over.phase.year == 1902, over.result


def test_a_game_over_is_named_by_the_phase_it_ended_in(
    backend: Backend, client: TestClient
) -> None:
    """The game page and the lobby name a game over by the phase it ended in, not by the
    phase its state moved on to, which is never played ("Summer 1902" for a game ended in
    1901)."""
    from realpolitik.server.scheduler import tick

    alice = register(client, "alice")
    game = new_game(client, alice, edition="grow", bots="random", last_year=1901, start=True)
    url = f"/api/games/{game['id']}"
    for _ in range(30):
        state = client.get(url, headers=alice.headers).json()
        if state["status"] == "finished":
            break
        for power in set(state["to_act"]) & set(state["my_powers"]):
            r = client.post(f"{url}/ready", json={"power": power}, headers=alice.headers)
            assert r.status_code == 200, r.text
        tick(backend)
    over = _stored_game(backend, game["id"])
    assert over.is_over and over.result.phase.year == 1901 and over.phase.year == 1902
    ended = engine.phase_title(over, str(over.result.phase), "en")
    assert "1901" in ended and state["names"]["phase"] == ended
    mine = client.get("/api/games", headers=alice.headers).json()["mine"]
    assert [g["phase_name"] for g in mine] == [ended]


@pytest.mark.parametrize(
    ("fields", "said"),
    [
        ({"edition": "classic"}, "classic edition has no shortened game"),
        ({"edition": "conquista"}, "conquista edition has no shortened game"),
        ({"edition": "grow", "last_year": "1905"}, "last_year: Input should be a valid integer"),
        ({"edition": "grow", "last_year": True}, "last_year: Input should be a valid integer"),
        ({"edition": "grow", "last_year": 1902.5}, "last_year: Input should be a valid integer"),
        ({"edition": "grow", "last_year": 1900}, "must be from 1901 to 2001, not 1900"),
        ({"edition": "1971", "last_year": 1800}, "must be from 1901"),
        ({"edition": "grow", "last_year": 2002}, "to 2001, not 2002"),
        ({"edition": "1971", "players": 2, "last_year": 1913}, "must be from 1914 to 2014"),
    ],
)
def test_a_last_year_is_agreed_only_in_1971_and_grow_and_only_a_year_ahead(
    client: TestClient, fields: dict[str, Any], said: str
) -> None:
    """Classic's and conquista's books have no shortened game; a last year is from the
    first (a game of one year) to a hundred years on: anything else is refused naming why."""
    meta = client.get("/api/meta").json()
    assert set(meta["shortened_game"]) == {"1971", "grow"} and meta["max_game_years"] == 100
    assert (
        meta["shortened_game"]["1971"]["7"] == 1901 and meta["shortened_game"]["1971"]["2"] == 1914
    )
    alice = register(client, "alice")
    body = {"name": "g", "last_year": 1905} | fields
    r = client.post("/api/games", headers=alice.headers, json=body)
    assert r.status_code == 422 and said in str(r.json()["detail"]), r.text
    assert client.get("/api/games", headers=alice.headers).json()["mine"] == []


def test_the_agreed_last_year_stays_when_people_join_and_take_over_seats(
    backend: Backend, client: TestClient
) -> None:
    """A person joining a forming game, or taking a seat left empty in a started one, keeps
    the players' last year (the server's own end of a game of bots alone is forgotten when
    a person plays again; the agreed one is not), and bots playing alone keep it too."""
    alice, bob, carol = (register(client, n) for n in ("alice", "bob", "carol"))
    gid = new_game(client, alice, edition="1971", players=3, bots="random",
                   replace_leavers=False, last_year=1905)["id"]  # fmt: skip
    assert client.post(f"/api/games/{gid}/join", json={}, headers=bob.headers).status_code == 200
    assert client.post(f"/api/games/{gid}/start", headers=alice.headers).status_code == 200
    assert _stored_game(backend, gid).last_year == 1905
    assert client.post(f"/api/games/{gid}/leave", headers=bob.headers).status_code == 204
    assert client.post(f"/api/games/{gid}/join", json={}, headers=carol.headers).status_code == 200
    assert _stored_game(backend, gid).last_year == 1905
    # everyone leaves: bots play alone, and keep it
    for who in (alice, carol):
        assert client.post(f"/api/games/{gid}/leave", headers=who.headers).status_code == 204
    assert _stored_game(backend, gid).last_year == 1905
    assert client.post(f"/api/games/{gid}/join", json={}, headers=bob.headers).status_code == 200
    assert _stored_game(backend, gid).last_year == 1905
    summary = client.get(f"/api/games/{gid}", headers=bob.headers).json()
    assert summary["settings"]["last_year"] == 1905


def test_meta_says_who_plays_what_at_each_table(client: TestClient) -> None:
    """The new-game form tells who plays what before a game is made: the pairs of a table
    of four, the powers out of a smaller table, those off grow's smaller boards, in the
    page's language."""
    meta = client.get("/api/meta").json()
    four = meta["tables"]["classic"]["4"]
    assert four["groups"] == [["ENGLAND"], ["AUSTRIA", "FRANCE"], ["GERMANY", "TURKEY"],
                              ["RUSSIA", "ITALY"]]  # fmt: skip
    assert meta["tables"]["conquista"]["3b"]["out"] == ["ITALY"]
    assert meta["tables"]["grow"]["5"]["absent"] == ["RUSSIA", "TURKEY"]
    two = meta["tables"]["classic"]["2"]  # Italy is neutral there, neither out nor absent
    assert two["out"] == two["absent"] == []
    assert "2-extra" not in meta["tables"]["grow"]  # not in the grow book: named only
    assert meta["power_names"]["es"]["ENGLAND"] == "Inglaterra"
    assert meta["power_names"]["fr"]["GERMANY"] == "Allemagne"


def test_the_api_says_which_editions_have_a_second_three_player_table() -> None:
    """The new-game API's ``setup`` said "1971's and classic's 3b": classic has no such
    table (``classic has no setup '3b'``); conquista has. Each edition it names has it."""
    said = GameIn.model_fields["setup"].description or ""
    found = re.search(r"'setups': ([^)]*)\)", said)
    named = set(re.findall(r"(\w+)'s", found.group(1) if found else ""))
    assert named == {"1971", "conquista"}, said
    for name in named:
        assert "3b" in [s.id for s in edition(name).setups]
