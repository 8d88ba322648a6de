"""Sandboxes (:mod:`realpolitik.server.sandbox`): one person gives the orders of every
power, sees the result and goes back to an earlier phase to try another line; nobody else
joins, lists or takes one back. On SQLite and PostgreSQL."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select, text

from realpolitik.formats.savegame import game_to_json
from realpolitik.server import engine
from realpolitik.server import tables as t
from realpolitik.server.app import create_app
from realpolitik.server.backend import Backend
from realpolitik.server.play import process_due, process_if_due
from tests.server.conftest import FakeClock, Player, fast_settings, new_game, register

CLASSIC = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]


@pytest.fixture(params=["sqlite", "postgresql"])
def served(
    request: pytest.FixtureRequest, clock: FakeClock
) -> Iterator[tuple[TestClient, Backend]]:
    url = request.getfixturevalue("sqlite_url" if request.param == "sqlite" else "pg_url")
    backend = Backend.open(fast_settings(url), clock=clock)
    with TestClient(create_app(backend.settings, backend=backend)) as client:
        yield client, backend
    backend.close()
    engine.clear_cache()


@pytest.fixture
def client(served: tuple[TestClient, Backend]) -> TestClient:
    return served[0]


def sandbox(client: TestClient, who: Player, **kw: Any) -> dict[str, Any]:
    r = client.post(
        "/api/games", json={"name": "what if", "sandbox": True} | kw, headers=who.headers
    )
    assert r.status_code == 201, r.text
    game: dict[str, Any] = r.json()
    return game


def view(client: TestClient, gid: int, who: Player) -> Any:
    r = client.get(f"/api/games/{gid}", headers=who.headers)
    assert r.status_code == 200, r.text
    return r.json()


def order(client: TestClient, gid: int, who: Player, power: str, orders: list[str]) -> None:
    r = client.put(
        f"/api/games/{gid}/orders", json={"power": power, "orders": orders}, headers=who.headers
    )
    assert r.status_code == 200, r.text


def ready_all(client: TestClient, gid: int, who: Player) -> None:
    s = view(client, gid, who)
    for power in [p for p in s["to_act"] if p in s["my_powers"]]:
        r = client.post(f"/api/games/{gid}/ready", json={"power": power}, headers=who.headers)
        assert r.status_code == 200, r.text


def rollback(client: TestClient, gid: int, who: Player | None, phase: str) -> Any:
    headers = who.headers if who else {}
    return client.post(f"/api/games/{gid}/rollback", json={"phase": phase}, headers=headers)


def played(client: TestClient, gid: int, who: Player) -> list[str]:
    r = client.get(f"/api/games/{gid}/history", headers=who.headers)
    assert r.status_code == 200, r.text
    return [h["phase"] for h in r.json()]


def units(state: Any, power: str) -> list[str]:
    return sorted(state["position"]["units"][power])


def test_a_sandbox_is_every_power_held_by_its_creator_alone(client: TestClient) -> None:
    alice, bob = register(client, "alice"), register(client, "bob")
    game = sandbox(client, alice)
    gid = game["id"]
    assert game["status"] == "active" and game["phase"] == "S1901M"  # started at once
    assert game["my_powers"] == CLASSIC
    assert all(s["player"] == "alice" and s["bot"] is None for s in game["seats"])
    settings = game["settings"]
    assert settings["sandbox"] and not settings["public"]
    assert (settings["bots"], settings["press"]) == (None, "none")
    assert not any(settings["deadlines"].values()) and game["deadline_at"] is None
    # listed for its creator only
    mine = client.get("/api/games", headers=alice.headers).json()["mine"]
    assert [g["id"] for g in mine] == [gid]
    others = client.get("/api/games", headers=bob.headers).json()
    assert gid not in [g["id"] for g in others["open"] + others["watch"] + others["mine"]]
    # nobody else joins, even with the invitation code; nobody else sees it without one
    assert client.get(f"/api/games/{gid}", headers=bob.headers).status_code == 404
    r = client.post(f"/api/games/{gid}/join", json={}, headers=bob.headers)
    assert r.status_code == 404
    r = client.post(
        f"/api/games/{gid}/join", json={"code": game["invite_code"]}, headers=bob.headers
    )
    assert r.status_code == 409 and r.json()["code"] == "sandbox"
    r = client.post(f"/api/invitations/{game['invite_code']}", headers=bob.headers)
    assert r.status_code == 409 and r.json()["code"] == "sandbox"
    # no press
    r = client.post(
        f"/api/games/{gid}/messages",
        json={"sender": "FRANCE", "recipients": ["GERMANY"], "body": "hello"},
        headers=alice.headers,
    )
    assert r.status_code == 409 and r.json()["code"] == "press_none"


def test_a_smaller_table_is_held_whole_too(client: TestClient) -> None:
    alice = register(client, "alice")
    game = sandbox(client, alice, players=3)
    assert len(game["seats"]) == 3 and all(s["player"] == "alice" for s in game["seats"])
    assert sorted(p for s in game["seats"] for p in s["powers"]) == game["my_powers"]
    assert len(game["my_powers"]) >= 6


@pytest.mark.parametrize(
    ("option", "named"),
    [
        ({"bots": "search"}, 'bots must be null, not "search"'),
        ({"public": True}, "public must be false, not true"),
        ({"press": "full"}, 'press must be "none", not "full"'),
        ({"press_anytime": True}, "press_anytime must be false"),
        ({"replace_leavers": True}, "replace_leavers must be false"),
        ({"deadlines": "rulebook"}, "deadlines must be none, not a time limit"),
        ({"deadlines": {"diplomacy": 0, "orders": 60}}, "deadlines must be none"),
        ({"join": False}, "join must be true, not false"),
        ({"start": False}, "start must be true, not false"),
    ],
)
def test_a_sandbox_with_an_option_that_contradicts_it_is_refused_naming_it(
    client: TestClient, served: tuple[TestClient, Backend], option: dict[str, Any], named: str
) -> None:
    alice = register(client, "alice")
    r = client.post(
        "/api/games", json={"name": "what if", "sandbox": True} | option, headers=alice.headers
    )
    assert r.status_code == 400, r.text
    assert named in r.json()["detail"], r.json()
    with served[1].db.connect() as conn:  # nothing created
        assert conn.execute(select(func.count()).select_from(t.games)).scalar_one() == 0


def test_a_sandbox_may_say_its_own_options(client: TestClient) -> None:
    alice = register(client, "alice")
    game = sandbox(
        client, alice, bots=None, public=False, press="none", deadlines="none", start=True
    )
    assert game["status"] == "active" and game["settings"]["sandbox"]


def test_orders_for_several_powers_then_a_phase_processed_when_all_are_ready(
    client: TestClient,
) -> None:
    alice = register(client, "alice")
    gid = sandbox(client, alice)["id"]
    order(client, gid, alice, "FRANCE", ["A PAR - BUR", "A MAR - SPA", "F BRE - MAO"])
    order(client, gid, alice, "GERMANY", ["A MUN - RUH"])
    powers = view(client, gid, alice)["to_act"]
    for power in powers[:-1]:
        client.post(f"/api/games/{gid}/ready", json={"power": power}, headers=alice.headers)
        assert view(client, gid, alice)["phase"] == "S1901M"  # not until every power is
    r = client.post(f"/api/games/{gid}/ready", json={"power": powers[-1]}, headers=alice.headers)
    assert r.status_code == 200
    s = view(client, gid, alice)
    assert s["phase"] == "F1901M"
    assert units(s, "FRANCE") == ["A BUR", "A SPA", "F MAO"]
    assert units(s, "GERMANY") == ["A RUH", "F KIE", "A BER"] or "A RUH" in units(s, "GERMANY")


def test_going_back_drops_the_later_phases_and_plays_the_phase_again(
    client: TestClient, served: tuple[TestClient, Backend]
) -> None:
    alice = register(client, "alice")
    gid = sandbox(client, alice)["id"]
    order(client, gid, alice, "FRANCE", ["A PAR - BUR"])
    ready_all(client, gid, alice)
    order(client, gid, alice, "FRANCE", ["A BUR - MUN"])
    ready_all(client, gid, alice)
    history = played(client, gid, alice)
    assert history[0] == "S1901M" and "F1901M" in history
    before = view(client, gid, alice)
    assert before["phase"] != "F1901M" and "A BUR" in units(before, "FRANCE")
    order(client, gid, alice, "FRANCE", ["A BUR H"])  # given in the phase left behind
    # back to the start of F1901M: the army is in Burgundy again, its order to give again
    r = rollback(client, gid, alice, "f1901m")
    assert r.status_code == 200, r.text
    assert r.json()["phase"] == "F1901M" and r.json()["version"] > before["version"]
    s = view(client, gid, alice)
    assert s["phase"] == "F1901M" and "A BUR" in units(s, "FRANCE")
    assert played(client, gid, alice) == history[: history.index("F1901M")]
    r = client.get(f"/api/games/{gid}/history/F1901M", headers=alice.headers)
    assert r.status_code == 404
    # the orders given in it are back, to change one rather than give them all again
    assert [o["order"] for o in s["orders"]["FRANCE"]["orders"]] == ["A BUR - MUN"]
    assert not any(s["ready"].values())
    with served[1].db.connect() as conn:  # no order of the phases left behind
        left = conn.execute(select(t.orders.c.phase).where(t.orders.c.game_id == gid)).all()
    assert {phase for (phase,) in left} == {"F1901M"}
    # another line: Burgundy to Belgium this time (a centre: a build is due)
    order(client, gid, alice, "FRANCE", ["A BUR - BEL"])
    ready_all(client, gid, alice)
    s = view(client, gid, alice)
    assert s["phase"] == "W1901A" and s["adjustments"]["FRANCE"] == 1
    assert "A BEL" in units(s, "FRANCE") and "A BUR" not in units(s, "FRANCE")
    record = client.get(f"/api/games/{gid}/history/F1901M", headers=alice.headers).json()
    assert [e["order"] for e in record["orders"]["FRANCE"] if not e.get("implied")] == [
        "A BUR - BEL"
    ]
    # back to the very start: the first position, nothing played
    assert rollback(client, gid, alice, "S1901M").status_code == 200
    s = view(client, gid, alice)
    assert s["phase"] == "S1901M" and "A PAR" in units(s, "FRANCE")
    assert played(client, gid, alice) == []


def test_a_concession_taken_back_is_no_longer_told(client: TestClient) -> None:
    # a power conceded in a later phase is in play again at the earlier one: its seat no
    # longer says who conceded it (the table said "France conceded by alice" of a France
    # playing on)
    alice = register(client, "alice")
    gid = sandbox(client, alice)["id"]
    ready_all(client, gid, alice)
    r = client.post(f"/api/games/{gid}/concede", json={"power": "FRANCE"}, headers=alice.headers)
    assert r.status_code == 200, r.text
    s = view(client, gid, alice)
    assert s["conceded"] == ["FRANCE"]
    assert [x["conceded_by"] for x in s["seats"] if "FRANCE" in x["powers"]] == [
        {"FRANCE": "alice"}
    ]
    assert rollback(client, gid, alice, "S1901M").status_code == 200
    s = view(client, gid, alice)
    assert s["conceded"] == []
    assert all(x["conceded_by"] == {} for x in s["seats"])
    # taken back to the start of the current phase, a concession made in it stands, and
    # so does the seat's word of it
    ready_all(client, gid, alice)
    assert (
        client.post(
            f"/api/games/{gid}/concede", json={"power": "ITALY"}, headers=alice.headers
        ).status_code
        == 200
    )
    assert rollback(client, gid, alice, "F1901M").status_code == 200
    s = view(client, gid, alice)
    assert s["conceded"] == ["ITALY"]
    assert [x["conceded_by"] for x in s["seats"] if x["conceded_by"]] == [{"ITALY": "alice"}]


def test_the_current_phase_taken_back_loses_its_orders(client: TestClient) -> None:
    alice = register(client, "alice")
    gid = sandbox(client, alice)["id"]
    order(client, gid, alice, "FRANCE", ["A PAR - BUR"])
    client.post(f"/api/games/{gid}/ready", json={"power": "FRANCE"}, headers=alice.headers)
    version = view(client, gid, alice)["version"]
    assert rollback(client, gid, alice, "S1901M").status_code == 200
    s = view(client, gid, alice)
    assert s["phase"] == "S1901M" and s["version"] == version + 1
    assert s["orders"]["FRANCE"]["orders"] == [] and not s["ready"]["FRANCE"]


def test_a_finished_sandbox_goes_back_into_play(client: TestClient) -> None:
    alice = register(client, "alice")
    gid = sandbox(client, alice)["id"]
    ready_all(client, gid, alice)
    for power in CLASSIC[:-1]:  # all but one concede in F1901M: the last one wins
        r = client.post(f"/api/games/{gid}/concede", json={"power": power}, headers=alice.headers)
        assert r.status_code == 200, r.text
    assert view(client, gid, alice)["status"] == "finished"
    r = rollback(client, gid, alice, "F1901M")  # it ended there: no start to go back to
    assert r.status_code == 409 and r.json()["code"] == "game_over"
    assert rollback(client, gid, alice, "S1901M").status_code == 200
    s = view(client, gid, alice)
    assert s["status"] == "active" and not s["is_over"] and s["conceded"] == []
    assert s["to_act"] == CLASSIC


def test_taking_back_is_refused_to_others_and_for_other_games(client: TestClient) -> None:
    alice, bob = register(client, "alice"), register(client, "bob")
    gid = sandbox(client, alice)["id"]
    ready_all(client, gid, alice)
    ready_all(client, gid, alice)  # a year of holds: no adjustment to make in its winter
    assert played(client, gid, alice) == ["S1901M", "F1901M", "W1901A"]
    version = view(client, gid, alice)["version"]
    assert rollback(client, gid, bob, "S1901M").status_code == 404  # unlisted: no game to bob
    client.cookies.clear()  # (the last account made logged the client in)
    assert rollback(client, gid, None, "S1901M").status_code == 401
    r = rollback(client, gid, alice, "S1905M")
    assert r.status_code == 404 and "S1905M" in r.json()["detail"]
    r = rollback(client, gid, alice, "spring")
    assert r.status_code == 400 and "bad phase" in r.json()["detail"]
    r = rollback(client, gid, alice, "W1901A")  # nobody had a choice in it
    assert r.status_code == 400 and "nobody had a choice in W1901A" in r.json()["detail"]
    assert rollback(client, 2**40 + 1, alice, "S1901M").status_code == 404
    assert view(client, gid, alice)["version"] == version  # nothing changed
    other = new_game(client, alice, start=True)
    r = rollback(client, other["id"], alice, "S1901M")
    assert r.status_code == 409 and r.json()["code"] == "not_sandbox"


def test_a_sandbox_is_deleted_not_left(
    client: TestClient, served: tuple[TestClient, Backend]
) -> None:
    alice, bob = register(client, "alice"), register(client, "bob")
    gid = sandbox(client, alice)["id"]
    order(client, gid, alice, "FRANCE", ["A PAR - BUR"])
    ready_all(client, gid, alice)
    order(client, gid, alice, "FRANCE", ["A BUR H"])
    r = client.post(f"/api/games/{gid}/leave", headers=alice.headers)
    assert r.status_code == 409 and r.json()["code"] == "sandbox"
    assert client.delete(f"/api/games/{gid}", headers=bob.headers).status_code == 404  # unlisted
    assert client.delete(f"/api/games/{gid}", headers=alice.headers).status_code == 204
    assert client.get(f"/api/games/{gid}", headers=alice.headers).status_code == 404
    with served[1].db.connect() as conn:
        for table in (t.games, t.seats, t.orders, t.phases):
            count = select(func.count()).select_from(table)
            assert conn.execute(count).scalar_one() == 0, table.name


def test_every_game_s_phase_rows_keep_what_going_back_needs_and_no_state_its_history(
    client: TestClient, served: tuple[TestClient, Backend]
) -> None:
    """A sandbox's rows, for going back; any other game's too, for a fork of a past
    phase (the status it began with)."""
    alice = register(client, "alice")
    box = sandbox(client, alice)["id"]
    game = new_game(client, alice, start=True, bots="random")
    order(client, box, alice, "FRANCE", ["A PAR - BUR"])
    for gid in (box, game["id"]):
        ready_all(client, gid, alice)
    with served[1].db.connect() as conn:
        states = dict(conn.execute(select(t.games.c.id, t.games.c.state)).all())
        rows = conn.execute(select(t.phases.c.game_id, t.phases.c.replay)).all()
    assert states[box]["history"] == [] and states[game["id"]]["history"] == []
    replay = {gid: kept for gid, kept in rows}
    assert set(replay[box]) == set(engine.REPLAY) == set(replay[game["id"]])
    assert replay[box]["orders"]["FRANCE"] == ["A PAR - BUR"]
    assert replay[box]["status"]["conceded"] == [] and replay[box]["civil_disorder"] == []


def test_a_sandbox_s_stored_state_does_not_grow_with_its_history(
    served: tuple[TestClient, Backend],
) -> None:
    """Processing a phase reads and writes the state alone: it stays the size of a
    position however many phases were played (it held them all, 3-4 kB each, before), and
    the earlier phases' rows are left as written."""
    client, backend = served
    alice = register(client, "alice")
    gid = sandbox(client, alice)["id"]
    ready_all(client, gid, alice)
    early = len(json.dumps(stored(backend, gid)))
    with backend.db.connect() as conn:
        first = conn.execute(select(t.phases).where(t.phases.c.game_id == gid)).one()
    for _ in range(10):
        ready_all(client, gid, alice)
    assert len(played(client, gid, alice)) >= 16
    assert len(json.dumps(stored(backend, gid))) < 1.1 * early
    with backend.db.connect() as conn:
        assert conn.execute(select(t.phases).where(t.phases.c.idx == 0)).one() == first
    # and the whole history is there to go back to
    assert rollback(client, gid, alice, "F1901M").status_code == 200
    assert played(client, gid, alice) == ["S1901M"]


def test_the_scheduler_waits_for_a_sandbox_taken_back(served: tuple[TestClient, Backend]) -> None:
    """Processing after going back finds nothing due: the phase waits for its orders."""
    client, backend = served
    alice = register(client, "alice")
    gid = sandbox(client, alice)["id"]
    ready_all(client, gid, alice)
    assert rollback(client, gid, alice, "S1901M").status_code == 200
    assert process_due(backend, gid, limit=3) == 0
    assert view(client, gid, alice)["phase"] == "S1901M"


def test_the_scheduler_skips_a_sandbox_being_taken_back_postgres(
    pg_url: str, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Going back holds the game's row: a process finding the phase due meanwhile moves on
    (SKIP LOCKED) rather than processing the phase being taken back."""
    settings = fast_settings(pg_url)
    b, other = Backend.open(settings, clock=clock), Backend.open(settings, clock=clock)
    with TestClient(create_app(settings, backend=b)) as client:
        alice = register(client, "alice")
        gid = sandbox(client, alice)["id"]
        ready_all(client, gid, alice)
        with b.db.begin() as conn:  # every power of F1901M ready: due, not yet processed
            for power in CLASSIC:
                conn.execute(
                    t.orders.insert().values(
                        game_id=gid, phase="F1901M", power=power, orders=[], ready=True,
                        updated_at=clock.now,
                    )
                )  # fmt: skip
        meanwhile: list[bool] = []
        to_state = engine.to_state

        def store_then_look(game: Any) -> Any:
            meanwhile.append(process_if_due(other, gid))  # the scheduler of another process
            return to_state(game)

        monkeypatch.setattr(engine, "to_state", store_then_look)
        assert rollback(client, gid, alice, "S1901M").status_code == 200
        monkeypatch.undo()
        assert meanwhile == [False]
        assert process_if_due(other, gid) is False  # nothing ready any more
        s = view(client, gid, alice)
        assert s["phase"] == "S1901M" and played(client, gid, alice) == []
    other.close()
    b.close()
    engine.clear_cache()


def test_conquista_supports_accepted_and_alliances_come_back_with_the_orders(
    client: TestClient,
) -> None:
    alice = register(client, "alice")
    gid = sandbox(client, alice, edition="conquista")["id"]
    url = f"/api/games/{gid}/orders"
    body = {"power": "FRANCE", "orders": ["A PAR H"], "accept": ["A BER"], "ally": ["ENGLAND"]}
    assert client.put(url, headers=alice.headers, json=body).status_code == 200
    ready_all(client, gid, alice)
    assert view(client, gid, alice)["phase"] != "S1914M"
    assert rollback(client, gid, alice, "S1914M").status_code == 200
    given = client.get(url, headers=alice.headers, params={"power": "FRANCE"}).json()
    assert [o["order"] for o in given["orders"]] == ["A PAR H"] and not given["ready"]
    assert given["accept"] == ["BER"] and given["ally"] == ["ENGLAND", "FRANCE"]


def test_a_finished_sandbox_back_in_play_counts_against_the_cap_of_games(
    sqlite_url: str, clock: FakeClock
) -> None:
    backend = Backend.open(fast_settings(sqlite_url, games_per_user=1), clock=clock)
    with TestClient(create_app(backend.settings, backend=backend)) as client:
        alice = register(client, "alice")
        old = sandbox(client, alice)["id"]
        ready_all(client, old, alice)
        for power in CLASSIC[:-1]:
            client.post(f"/api/games/{old}/concede", json={"power": power}, headers=alice.headers)
        assert view(client, old, alice)["status"] == "finished"
        sandbox(client, alice)  # the finished one no longer counts
        r = rollback(client, old, alice, "S1901M")
        assert r.status_code == 409 and r.json()["code"] == "too_many_games"
        assert view(client, old, alice)["status"] == "finished"  # nothing changed
    backend.close()
    engine.clear_cache()


# --- a sandbox forked from another game's position ------------------------------------------


def fork(client: TestClient, gid: int, who: Player, **body: Any) -> Any:
    return client.post(f"/api/games/{gid}/sandbox", json=body or None, headers=who.headers)


def two_player_game(
    client: TestClient, **kw: Any
) -> tuple[dict[str, Any], Player, Player, dict[str, Player]]:
    """A classic game alice creates and bob joins (three powers each; it starts in 1914):
    its summary, the two players, and who holds each power."""
    alice, bob = register(client, "alice"), register(client, "bob")
    game = new_game(client, alice, players=2, bots=None, **kw)
    r = client.post(
        f"/api/games/{game['id']}/join", json={"code": game["invite_code"]}, headers=bob.headers
    )
    assert r.status_code == 200, r.text
    holder = {p: who for who in (alice, bob) for p in view(client, game["id"], who)["my_powers"]}
    return game, alice, bob, holder


def play_phase(
    client: TestClient, gid: int, holder: dict[str, Player], orders: dict[str, list[str]]
) -> None:
    """Each power's ``orders`` given by whoever holds it, then every power ready."""
    for power, given in orders.items():
        order(client, gid, holder[power], power, given)
    for power in view(client, gid, holder["FRANCE"])["to_act"]:
        r = client.post(
            f"/api/games/{gid}/ready", json={"power": power}, headers=holder[power].headers
        )
        assert r.status_code == 200, r.text


def to_winter(client: TestClient, gid: int, holder: dict[str, Player]) -> None:
    """Germany dislodges the French army in Burgundy (F1914R), then takes Holland: a
    build due in W1914A."""
    play_phase(
        client, gid, holder,
        {"FRANCE": ["A PAR - BUR"], "GERMANY": ["A MUN - RUH", "A BER - MUN", "F KIE - HOL"]},
    )  # fmt: skip
    play_phase(
        client, gid, holder,
        {"FRANCE": ["A BUR H"], "GERMANY": ["A RUH - BUR", "A MUN S A RUH - BUR", "F HOL H"]},
    )  # fmt: skip
    assert view(client, gid, holder["FRANCE"])["phase"] == "F1914R"
    play_phase(client, gid, holder, {"FRANCE": ["A BUR - PIC"]})
    assert view(client, gid, holder["FRANCE"])["phase"] == "W1914A"


def stored(backend: Backend, gid: int) -> Any:
    with backend.db.connect() as conn:
        return conn.execute(select(t.games.c.state).where(t.games.c.id == gid)).scalar_one()


def test_a_sandbox_forked_from_the_current_phase_holds_its_position_for_every_power(
    served: tuple[TestClient, Backend],
) -> None:
    client, backend = served
    game, alice, bob, holder = two_player_game(client, name="Spring war", draw_votes="secret")
    gid = game["id"]
    to_winter(client, gid, holder)
    other = holder["GERMANY"]  # the only power with an adjustment due: its holder's
    me = alice if other is bob else bob  # orders and vote must not go to the other's fork
    theirs = next(p for p, who in holder.items() if who is other)
    real = view(client, gid, me)
    r = client.put(
        f"/api/games/{gid}/orders",
        json={"power": "GERMANY", "orders": ["A BER B"]},
        headers=other.headers,
    )
    assert r.status_code == 200, r.text
    r = client.post(f"/api/games/{gid}/draw", json={"power": theirs}, headers=other.headers)
    assert r.status_code == 200, r.text
    assert stored(backend, gid)["pending"]["votes"]  # (the game keeps them: the fork not)
    r = fork(client, gid, me)
    assert r.status_code == 201, r.text
    box = r.json()
    assert box["name"] == "Spring war · Winter 1914 Adjustments" and box["id"] != gid
    assert box["status"] == "active" and box["phase"] == "W1914A"
    assert box["settings"]["sandbox"] and not box["settings"]["public"]
    assert (box["settings"]["edition"], box["settings"]["players"]) == ("classic", 2)
    assert box["my_powers"] == sorted(holder)
    assert all(s["player"] == me.username for s in box["seats"])
    s = view(client, box["id"], me)
    assert s["position"]["units"] == real["position"]["units"]
    assert s["position"]["centers"] == real["position"]["centers"]
    assert s["adjustments"]["GERMANY"] == 1 and s["to_act"] == ["GERMANY"]
    assert s["orders"]["GERMANY"]["orders"] == []  # the other's build stayed in the game
    # nothing private went over: no order, no vote, no history
    with backend.db.connect() as conn:
        rows = conn.execute(select(t.orders).where(t.orders.c.game_id == box["id"])).all()
        phases = conn.execute(select(t.phases).where(t.phases.c.game_id == box["id"])).all()
    assert rows == [] and phases == []
    state = stored(backend, box["id"])
    assert state["pending"] == {"orders": {}, "accepted": {}, "declared": {}, "votes": {}}
    assert state["messages"] == [] and state["history"] == [] and state["result"] is None
    toss = stored(backend, gid)["status"]["coin_toss"]  # made on entering the winter: public
    assert toss is not None and state["status"]["coin_toss"] == toss
    # it plays on as any sandbox: the build, then spring
    order(client, box["id"], me, "GERMANY", ["A BER B"])
    ready_all(client, box["id"], me)
    s = view(client, box["id"], me)
    assert s["phase"] == "S1915M" and "A BER" in units(s, "GERMANY")
    assert view(client, gid, me)["phase"] == "W1914A"  # the game itself is untouched


def test_a_sandbox_forked_from_a_retreat_phase_of_the_history_has_its_dislodged_unit(
    served: tuple[TestClient, Backend],
) -> None:
    client = served[0]
    game, alice, _, holder = two_player_game(client)
    gid = game["id"]
    to_winter(client, gid, holder)
    r = client.put("/api/me/language", json={"language": "es"}, headers=alice.headers)
    assert r.status_code == 200, r.text
    r = fork(client, gid, alice, phase="f1914r")
    assert r.status_code == 201, r.text
    box = r.json()
    assert box["phase"] == "F1914R"
    assert box["name"] == "test game · Otoño de 1914, retiradas"  # in the player's language
    s = view(client, box["id"], alice)
    assert s["to_act"] == ["FRANCE"] and "A BUR" in units(s, "GERMANY")
    assert [d["unit"] for d in s["position"]["dislodged"]["FRANCE"]] == ["A BUR"]
    # the retreat played again another way: the army disbands this time
    order(client, box["id"], alice, "FRANCE", ["A BUR D"])
    ready_all(client, box["id"], alice)
    s = view(client, box["id"], alice)
    assert s["phase"] == "W1914A" and "A PIC" not in units(s, "FRANCE")
    # the movement phase before it: the army back in Burgundy, every power to order
    box = fork(client, gid, alice, phase="F1914M").json()
    s = view(client, box["id"], alice)
    assert box["phase"] == "F1914M" and "A BUR" in units(s, "FRANCE")
    assert s["orders"]["GERMANY"]["orders"] == [] and not s["position"]["dislodged"]
    # the coin toss for Italy, made on entering the winter: not yet in the autumn's forks
    with served[1].db.connect() as conn:
        states = dict(conn.execute(select(t.games.c.id, t.games.c.state)).all())
    assert states[box["id"]]["status"]["coin_toss"] is None
    toss = states[gid]["status"]["coin_toss"]
    assert toss is not None and toss["phase"] == "W1914A"
    # the game plays its winter: the adjustments phase, from the history, with its build
    # due and the toss made
    play_phase(client, gid, holder, {"GERMANY": ["A BER B"]})
    assert view(client, gid, alice)["phase"] == "S1915M"
    r = fork(client, gid, alice, phase="W1914A")
    assert r.status_code == 201, r.text
    s = view(client, r.json()["id"], alice)
    assert s["phase"] == "W1914A" and s["adjustments"]["GERMANY"] == 1
    assert "A BER" not in units(s, "GERMANY")
    with served[1].db.connect() as conn:
        state = conn.execute(
            select(t.games.c.state).where(t.games.c.id == r.json()["id"])
        ).scalar_one()
    assert state["status"]["coin_toss"] == toss


def test_a_fork_of_a_past_phase_starts_from_the_status_its_row_keeps(
    served: tuple[TestClient, Backend],
) -> None:
    """A fork of a past phase of a game keeps who had conceded by then, and not who
    conceded later: the phase's row keeps the status it began with (it used to be guessed
    from the game's current status, as if nobody had conceded)."""
    client = served[0]
    game, _, _, holder = two_player_game(client)
    gid = game["id"]
    first, later = [p for p in sorted(holder) if p not in ("FRANCE", "GERMANY")][:2]
    for power in (first, later):
        if power == later:
            to_winter(client, gid, holder)
        r = client.post(
            f"/api/games/{gid}/concede", json={"power": power}, headers=holder[power].headers
        )
        assert r.status_code == 200, r.text
    assert view(client, gid, holder[first])["conceded"] == sorted((first, later))
    seen = {}
    for phase in ("S1914M", "F1914R", "W1914A"):
        r = fork(client, gid, holder[first], phase=phase)
        assert r.status_code == 201, r.text
        seen[phase] = view(client, r.json()["id"], holder[first])["conceded"]
    assert seen == {"S1914M": [first], "F1914R": [first], "W1914A": sorted((first, later))}


def test_a_fork_is_refused_for_what_the_caller_may_not_see_or_ask(
    served: tuple[TestClient, Backend],
) -> None:
    client, _ = served
    game, alice, bob, _ = two_player_game(client, public=False)
    gid = game["id"]
    carol = register(client, "carol")
    # an unlisted game: not without being in it or its invitation code, as if it were not
    r = fork(client, gid, carol)
    assert r.status_code == 404
    assert r.json() == client.get(f"/api/games/{gid}", headers=carol.headers).json()
    r = client.post(
        f"/api/games/{gid}/sandbox", params={"code": game["invite_code"]}, headers=carol.headers
    )
    assert r.status_code == 201, r.text
    assert fork(client, gid, bob).status_code == 201  # a player of it
    assert fork(client, 2**41, alice).status_code == 404
    for bad in ("X1901M", "1901", "F1901Q"):
        r = fork(client, gid, alice, phase=bad)
        assert r.status_code == 400 and "bad phase" in r.json()["detail"], r.text
    r = fork(client, gid, alice, phase="F1917M")
    assert r.status_code == 404 and "F1917M" in r.json()["detail"]
    assert fork(client, gid, alice, phase="S1914M", units=[]).status_code == 422
    forming = new_game(client, alice, players=2, bots=None)["id"]
    r = fork(client, forming, alice)
    assert r.status_code == 409 and r.json()["code"] == "not_started"


def test_a_fork_of_an_earlier_phase_has_the_alliances_standing_then(
    client: TestClient,
) -> None:
    # conquista: Austria and France ally in S1914M and part in F1914M; a fork of F1914M
    # starts with their alliance (its age from S1914M), of S1914M and of now without it
    alice = register(client, "alice")
    gid = sandbox(client, alice, edition="conquista")["id"]
    pair = ["AUSTRIA", "FRANCE"]

    def declare(box: int, power: str, ally: list[str]) -> None:
        r = client.put(
            f"/api/games/{box}/orders",
            json={"power": power, "orders": [], "ally": ally},
            headers=alice.headers,
        )
        assert r.status_code == 200, r.text

    declare(gid, "AUSTRIA", pair)
    declare(gid, "FRANCE", pair)
    ready_all(client, gid, alice)
    assert view(client, gid, alice)["orders"]["AUSTRIA"]["ally"] == pair  # (standing)
    declare(gid, "AUSTRIA", [])
    ready_all(client, gid, alice)
    assert played(client, gid, alice)[:2] == ["S1914M", "F1914M"]
    assert view(client, gid, alice)["orders"]["AUSTRIA"]["ally"] == []
    backend = client.app.state.backend  # type: ignore[attr-defined]
    for kept in (True, False):  # the status its rows keep; rows of an older server: rebuilt
        if not kept:
            with backend.db.begin() as conn:
                conn.execute(t.phases.update().values(replay=None))
        for phase, standing in (("F1914M", pair), ("S1914M", []), (None, [])):
            r = fork(client, gid, alice, **({"phase": phase} if phase else {}))
            assert r.status_code == 201, r.text
            box = r.json()["id"]
            assert view(client, box, alice)["orders"]["FRANCE"]["ally"] == standing, phase
            if standing:  # formed in S1914M, as in the game
                with backend.db.connect() as conn:
                    saved = conn.execute(
                        select(t.games.c.state).where(t.games.c.id == box)
                    ).scalar_one()
                assert saved["status"]["alliances"] == [{"members": pair, "formed": "S1914M"}]


def test_a_fork_of_a_game_named_before_hidden_characters_were_refused(
    served: tuple[TestClient, Backend],
) -> None:
    """A game's name stored before control and formatting characters were refused (a
    right-to-left override, a zero-width space) is given on to its fork without them: the
    fork was refused, its name checked again (400)."""
    client, backend = served
    game, alice, _, _ = two_player_game(client)
    with backend.db.begin() as conn:
        conn.execute(
            t.games.update().where(t.games.c.id == game["id"]).values(name="Old\u202e war\u200b")
        )
    r = fork(client, game["id"], alice)
    assert r.status_code == 201, r.text
    assert r.json()["name"] == "Old war · Spring 1914 Movement"


def test_a_fork_counts_against_the_cap_of_games(sqlite_url: str, clock: FakeClock) -> None:
    backend = Backend.open(fast_settings(sqlite_url, games_per_user=2), clock=clock)
    with TestClient(create_app(backend.settings, backend=backend)) as client:
        game, alice, _, _ = two_player_game(client, name="n" * 100)
        gid = game["id"]
        r = fork(client, gid, alice)  # the game and this one: 2
        assert r.status_code == 201, r.text
        assert r.json()["name"] == "n" * 77 + " · Spring 1914 Movement"  # within 100 characters
        r = fork(client, gid, alice)
        assert r.status_code == 409 and r.json()["code"] == "too_many_games"
    backend.close()
    engine.clear_cache()


def test_a_fork_of_a_game_of_bots_alone_is_not_ended_by_their_years(
    sqlite_url: str, clock: FakeClock
) -> None:
    # a game nobody plays ends after bot_game_years (the server's end, kept in its state);
    # a sandbox forked from it is its creator's and plays on, as the game's players agreed
    backend = Backend.open(fast_settings(sqlite_url, bot_game_years=2), clock=clock)
    with TestClient(create_app(backend.settings, backend=backend)) as client:
        alice = register(client, "alice")
        game = new_game(client, alice, join=False, start=True, bots="random")
        s = view(client, game["id"], alice)
        assert s["phase"][1:5] == "1902" and not s["is_over"]  # bots alone: their last year
        r = fork(client, game["id"], alice)
        assert r.status_code == 201, r.text
        box = r.json()["id"]
        for _ in range(4):
            ready_all(client, box, alice)
        s = view(client, box, alice)
        assert not s["is_over"] and int(s["phase"][1:5]) > 1902, s["phase"]
    backend.close()
    engine.clear_cache()


# --- a database of version 9: the history kept whole in the sandbox's state ----------------


def _with_history(start: dict[str, Any], phases: list[tuple[dict[str, list[str]], str]]) -> Any:
    """The saved game of a sandbox played from its ``start`` in the library alone, as a
    database of version 9 stored it (its history whole): each phase its powers' orders
    (none for the others: they hold), after the concession of a power (or ``""``)."""
    game = engine.fresh(start)
    for orders, concedes in phases:
        if concedes:
            game.concede(concedes)
        for power in engine.powers_to_act(game):
            game.submit(power, orders.get(power, []))
        game.process()
    return game_to_json(game)


ALL_PHASES = select(t.phases).order_by(t.phases.c.game_id, t.phases.c.idx)


def test_a_database_of_version_9_migrates(request: pytest.FixtureRequest, clock: FakeClock) -> None:
    """On SQLite and PostgreSQL: a sandbox's history, kept in its state until version 10,
    goes to its phases' rows and leaves the state; the sandbox goes back as it did, the
    orders given and the status of the phase with it. One stored without its history still
    cannot go back; an ordinary game is left as it was."""
    for url in (request.getfixturevalue("sqlite_url"), request.getfixturevalue("pg_url")):
        b = Backend.open(fast_settings(url), clock=clock)
        with TestClient(create_app(b.settings, backend=b)) as c:
            alice = register(c, "alice")
            gid, old = sandbox(c, alice)["id"], sandbox(c, alice)["id"]
            start = stored(b, gid)
            order(c, gid, alice, "FRANCE", ["A PAR - BUR"])
            ready_all(c, gid, alice)
            r = c.post(f"/api/games/{gid}/concede", json={"power": "ITALY"}, headers=alice.headers)
            assert r.status_code == 200, r.text
            order(c, gid, alice, "FRANCE", ["A BUR - MUN"])
            ready_all(c, gid, alice)
            assert played(c, gid, alice) == ["S1901M", "F1901M", "W1901A"]
            ready_all(c, old, alice)
            game = new_game(c, alice, start=True, bots="random")["id"]
            ready_all(c, game, alice)
        saved = _with_history(
            start, [({"FRANCE": ["A PAR - BUR"]}, ""), ({"FRANCE": ["A BUR - MUN"]}, "ITALY")]
        )
        assert saved | {"history": []} == stored(b, gid)  # (the same game)
        with b.db.begin() as conn:  # back to version 9: the sandbox's history in its state
            before = conn.execute(ALL_PHASES).all()
            conn.execute(t.games.update().where(t.games.c.id == gid).values(state=saved))
            conn.execute(text("ALTER TABLE phases DROP COLUMN replay"))
            conn.execute(t.schema_version.delete().where(t.schema_version.c.version >= 10))
        b.close()
        engine.clear_cache()
        b = Backend.open(fast_settings(url), clock=clock)
        try:
            assert stored(b, gid) == saved | {"history": []}
            with b.db.connect() as conn:
                after = conn.execute(ALL_PHASES).all()
                replay = dict(
                    conn.execute(
                        select(t.phases.c.phase, t.phases.c.replay).where(t.phases.c.game_id == gid)
                    ).all()
                )
            assert [r[:-1] for r in after] == [r[:-1] for r in before]  # records untouched
            assert replay == {
                h["phase"]: {k: h[k] for k in engine.REPLAY} for h in saved["history"]
            }
            assert {r.game_id for r in after if r.replay is None} == {old, game}
            with TestClient(create_app(b.settings, backend=b)) as c:
                assert rollback(c, gid, alice, "F1901M").status_code == 200
                s = view(c, gid, alice)
                assert s["phase"] == "F1901M" and s["conceded"] == ["ITALY"]
                assert [o["order"] for o in s["orders"]["FRANCE"]["orders"]] == ["A BUR - MUN"]
                assert "A BUR" in units(s, "FRANCE") and not any(s["ready"].values())
                ready_all(c, gid, alice)  # played on: its new phases keep what going back needs
                assert rollback(c, gid, alice, "F1901M").status_code == 200
                assert rollback(c, gid, alice, "S1901M").status_code == 200
                s = view(c, gid, alice)
                assert s["conceded"] == [] and "A PAR" in units(s, "FRANCE")
                r = rollback(c, old, alice, "S1901M")  # (its state had no history: stored so)
                assert r.status_code == 409 and "not kept" in r.json()["detail"]
        finally:
            b.close()
            engine.clear_cache()
