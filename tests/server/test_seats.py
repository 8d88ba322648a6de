"""Seats taken in a started game: a late friend takes over a bot's power (its units,
centres and this phase's orders), as one takes a seat left empty; who may, what is
refused (nothing changed), the draw votes, and the bot's turn racing the take-over; the
last seat of a forming game taken as its creator starts it."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

import httpx
import pytest
import uvicorn
from fastapi.testclient import TestClient
from sqlalchemy import inspect, select, text

from realpolitik.server import engine, games, play
from realpolitik.server import tables as t
from realpolitik.server.app import create_app
from realpolitik.server.backend import Backend
from realpolitik.server.scheduler import tick
from tests.server.conftest import (
    FakeClock,
    Player,
    fast_settings,
    free_port,
    new_game,
    register,
)


def view(client: TestClient, gid: int, who: Player | None = None) -> Any:
    r = client.get(f"/api/games/{gid}", headers=who.headers if who else {})
    assert r.status_code == 200, r.text
    return r.json()


def take(client: TestClient, gid: int, who: Player, power: str | None, **body: Any) -> Any:
    extra = {} if power is None else {"power": power}
    return client.post(f"/api/games/{gid}/join", json=body | extra, headers=who.headers)


def _three_at_table(client: TestClient, bots: str | None) -> tuple[Player, Player, Player, int]:
    """Alice's game of three under way with Bob in a seat: Dave in the third (no bots), or
    a bot (``bots``); Carol not seated."""
    alice, bob, carol = (register(client, n) for n in ("alice", "bob", "carol"))
    gid = new_game(client, alice, players=3, bots=bots)["id"]
    assert take(client, gid, bob, None).status_code == 200
    if bots is None:
        assert take(client, gid, register(client, "dave"), None).status_code == 200
    else:
        assert client.post(f"/api/games/{gid}/start", headers=alice.headers).status_code == 200
    return alice, bob, carol, gid


def bot_seat(game: dict[str, Any]) -> dict[str, Any]:
    """The first seat a bot plays."""
    return next(s for s in game["seats"] if s["bot"])


def stored(backend: Backend, gid: int) -> tuple[Any, ...]:
    """What a refusal must leave as it was: the game's row and its seats."""
    with backend.db.connect() as conn:
        game = conn.execute(
            select(t.games.c.version, t.games.c.state, t.games.c.phase).where(t.games.c.id == gid)
        ).one()
        seats = conn.execute(
            select(t.seats.c.seat, t.seats.c.user_id, t.seats.c.bot).where(t.seats.c.game_id == gid)
        ).all()
        orders = conn.execute(
            select(t.orders.c.power, t.orders.c.ready).where(t.orders.c.game_id == gid)
        ).all()
    return tuple(game), sorted(map(tuple, seats)), sorted(map(tuple, orders))


@pytest.fixture
def table(client: TestClient) -> tuple[Player, Player, int]:
    """Alice's three-player game, started with two random bots; Carol arrives late."""
    alice, carol = register(client, "alice"), register(client, "carol")
    gid = new_game(client, alice, players=3, bots="random", start=True)["id"]
    return alice, carol, gid


# --- a late friend takes over a bot -------------------------------------------------------


def test_a_late_friend_takes_over_a_bot_s_power(
    client: TestClient, table: tuple[Player, Player, int]
) -> None:
    """The bot's seat goes to Carol: its powers with their units and centres, and the
    orders the bot gave this phase, hers to keep or change but not ready; the phase waits
    for her as for any player."""
    alice, carol, gid = table
    before = view(client, gid, alice)
    seat = bot_seat(before)
    power = seat["powers"][0]
    assert seat["open"] and not seat["taken"]
    r = take(client, gid, carol, power.lower())
    assert r.status_code == 200, r.text
    assert r.json()["my_powers"] == seat["powers"] and r.json()["is_player"]
    after = view(client, gid, carol)
    mine = next(s for s in after["seats"] if s["seat"] == seat["seat"])
    assert mine == seat | {"player": "carol", "taken": True, "bot": None, "open": False}
    assert after["position"] == before["position"] and after["phase"] == before["phase"]
    assert after["centers"] == before["centers"]
    given = after["orders"][power]
    assert given["orders"] and given["ready"] is False  # the bot's, to change
    assert after["ready"][power] is False
    for p in before["my_powers"]:  # Alice is ready: the phase waits for Carol now
        assert client.post(f"/api/games/{gid}/ready", json={"power": p}, headers=alice.headers)
    assert view(client, gid, carol)["phase"] == before["phase"]
    for p in seat["powers"]:  # (a seat of three players plays two or three powers)
        r = client.put(f"/api/games/{gid}/orders", headers=carol.headers,
                       json={"power": p, "orders": [], "ready": True})  # fmt: skip
        assert r.status_code == 200, r.text
    assert r.json()["processed"], r.text


def test_who_joins_without_a_power_is_told_to_choose_a_bot_s_seat(
    client: TestClient, table: tuple[Player, Player, int], backend: Backend
) -> None:
    """Every seat played, some by bots: a join (or an invitation) naming no power is
    refused with the code the page says as 'choose one' (no bot is turned out at random)."""
    _, carol, gid = table
    was = stored(backend, gid)
    r = take(client, gid, carol, None)
    assert r.status_code == 409 and r.json()["code"] == "choose_a_bot_seat", r.text
    assert stored(backend, gid) == was


def test_a_game_of_bots_alone_taken_over_is_played_by_a_person_again(
    client: TestClient, backend: Backend
) -> None:
    """Nobody seated: the bots play alone (the scheduler's own loop, ended after some
    years); taken over, the game is a person's again and waits for them."""
    alice, carol = register(client, "alice"), register(client, "carol")
    gid = new_game(client, alice, players=2, bots="random", start=True, join=False)["id"]
    with backend.db.connect() as conn:
        assert conn.execute(select(t.games.c.alone).where(t.games.c.id == gid)).scalar()
    power = bot_seat(view(client, gid))["powers"][0]
    assert take(client, gid, carol, power).status_code == 200
    with backend.db.connect() as conn:
        assert not conn.execute(select(t.games.c.alone).where(t.games.c.id == gid)).scalar()
    phase = view(client, gid)["phase"]
    tick(backend)
    tick(backend, alone=True)
    assert view(client, gid)["phase"] == phase  # waiting for Carol's orders


def test_an_unlisted_game_s_bot_is_taken_over_with_its_invitation(client: TestClient) -> None:
    """The link says how many seats it opens: the bots' (it said none: only empty seats
    were counted, never a bot's, which a game under way offers)."""
    alice, carol = register(client, "alice"), register(client, "carol")
    game = new_game(client, alice, players=3, bots="random", start=True, public=False)
    link = f"/api/invitations/{game['invite_code']}"
    assert client.get(link).json()["free_seats"] == 2
    power = bot_seat(view(client, game["id"], alice))["powers"][0]
    assert take(client, game["id"], carol, power).status_code == 404
    r = take(client, game["id"], carol, power, code=game["invite_code"])
    assert r.status_code == 200 and r.json()["my_powers"], r.text
    assert client.get(link).json()["free_seats"] == 1
    forming = new_game(client, alice, players=3, bots="random", public=False)
    assert client.get(f"/api/invitations/{forming['invite_code']}").json()["free_seats"] == 2


# --- refused, nothing changed -------------------------------------------------------------


def test_a_take_over_refused_says_why_and_changes_nothing(
    client: TestClient, backend: Backend, table: tuple[Player, Player, int]
) -> None:
    alice, carol, gid = table
    dave = register(client, "dave")
    game = view(client, gid, alice)
    bots = [s for s in game["seats"] if s["bot"]]
    mine = game["my_powers"][0]
    was = stored(backend, gid)
    refusals: list[tuple[int, str, int, str | None, str]] = [
        (gid + 1, "FRANCE", 404, "no_game", "no game"),  # no such game
        (gid, "ATLANTIS", 400, "no_such_power", "no power of this game"),
        (gid, mine, 409, "seat_taken", "played by a person"),
    ]
    for game_id, power, status, code, said in refusals:
        r = take(client, game_id, carol, power)
        assert r.status_code == status and r.json().get("code") == code, (power, r.text)
        assert said in r.json()["detail"], r.text
        assert stored(backend, gid) == was, power
    r = client.post(f"/api/games/{gid}/join", json={"power": ""}, headers=carol.headers)
    assert r.status_code == 422  # (an empty name is no name)
    # already seated: the same person twice, and a player in the game
    assert take(client, gid, carol, bots[0]["powers"][0]).status_code == 200
    was = stored(backend, gid)
    for who in (carol, alice):
        r = take(client, gid, who, bots[1]["powers"][0])
        assert r.status_code == 409 and r.json()["code"] == "already_seated", r.text
        assert "already have a seat" in r.json()["detail"], r.text
    assert stored(backend, gid) == was
    # a forming game: no powers dealt yet
    forming = new_game(client, alice, players=3, bots="random")["id"]
    r = take(client, forming, dave, "FRANCE")
    assert r.status_code == 409 and r.json()["code"] == "not_started", r.text
    assert view(client, forming, alice)["seats"][1]["taken"] is False
    # a game over: every person votes for a draw
    for p in view(client, gid, alice)["my_powers"]:
        client.post(f"/api/games/{gid}/draw", json={"power": p}, headers=alice.headers)
    for p in view(client, gid, carol)["my_powers"]:
        client.post(f"/api/games/{gid}/draw", json={"power": p}, headers=carol.headers)
    assert view(client, gid)["status"] == "finished"
    was = stored(backend, gid)
    r = take(client, gid, dave, bots[1]["powers"][0])
    assert r.status_code == 409 and r.json()["code"] == "game_over", r.text
    assert stored(backend, gid) == was


def test_a_conceded_power_s_seat_is_not_taken_over(
    client: TestClient, backend: Backend, table: tuple[Player, Player, int]
) -> None:
    """Bob conceded and left: a bot holds his seat, but its powers are out of the game, and
    the seat is neither offered nor taken."""
    _, carol, gid = table
    bob = register(client, "bob")
    seat = bot_seat(view(client, gid))
    power = seat["powers"][-1]
    assert take(client, gid, bob, power).status_code == 200
    for p in seat["powers"]:
        r = client.post(f"/api/games/{gid}/concede", json={"power": p}, headers=bob.headers)
        assert r.status_code == 200, r.text
    assert client.post(f"/api/games/{gid}/leave", headers=bob.headers).status_code == 204
    seat = next(s for s in view(client, gid)["seats"] if power in s["powers"])
    assert seat["bot"] and not seat["open"]
    was = stored(backend, gid)
    r = take(client, gid, carol, power)
    assert r.status_code == 409 and r.json()["code"] == "power_out", r.text
    assert stored(backend, gid) == was


def test_the_lobby_lists_a_game_with_a_bot_s_seat_to_watch_its_seats_open(
    client: TestClient, table: tuple[Player, Player, int]
) -> None:
    """A game whose only open seats are bots' is one to watch (most games have bots: they
    would crowd out the games waiting for players), its bots' seats marked open; taken
    over, they are not."""
    _, carol, gid = table
    lobby = client.get("/api/games", headers=carol.headers).json()
    assert [g["id"] for g in lobby["watch"]] == [gid] and lobby["open"] == []
    listed = lobby["watch"][0]
    assert [s["open"] for s in listed["seats"]] == [not s["taken"] for s in listed["seats"]]
    for seat in [s for s in view(client, gid)["seats"] if s["bot"]]:
        who = register(client, f"friend{seat['seat']}")
        assert take(client, gid, who, seat["powers"][0]).status_code == 200
    lobby = client.get("/api/games", headers=carol.headers).json()
    assert not any(s["open"] for s in lobby["watch"][0]["seats"])


# --- draw votes ---------------------------------------------------------------------------


@pytest.mark.parametrize("bots", ["random", None])
def test_a_leaver_s_draw_vote_is_not_the_newcomer_s(client: TestClient, bots: str | None) -> None:
    """Bob voted for a draw and left (a bot took his seat, or it stayed empty); Carol takes
    it over. His vote is not hers: Alice's vote does not draw the game (it did, Bob's vote
    counted for Carol), Carol's own does."""
    alice, bob, carol = (register(client, n) for n in ("alice", "bob", "carol"))
    gid = new_game(client, alice, players=2, bots=bots)["id"]
    assert take(client, gid, bob, None).status_code == 200  # full: it starts
    theirs = view(client, gid, bob)["my_powers"]
    for p in theirs:
        r = client.post(f"/api/games/{gid}/draw", json={"power": p}, headers=bob.headers)
        assert r.status_code == 200 and not r.json()["is_over"], r.text
    assert client.post(f"/api/games/{gid}/leave", headers=bob.headers).status_code == 204
    r = take(client, gid, carol, theirs[0] if bots else None)
    assert r.status_code == 200, r.text
    seen = view(client, gid, carol)["draw_votes"]
    people = view(client, gid, alice)["my_powers"] + theirs
    assert sorted(seen["voters"]) == sorted(people) and seen["votes"] == []
    for p in view(client, gid, alice)["my_powers"]:
        r = client.post(f"/api/games/{gid}/draw", json={"power": p}, headers=alice.headers)
        assert r.status_code == 200 and not r.json()["is_over"], r.text
    for p in theirs:
        r = client.post(f"/api/games/{gid}/draw", json={"power": p}, headers=carol.headers)
    assert r.json()["is_over"] and r.json()["draw"], r.text


# --- races: the bot's turn, double clicks, two friends at once ----------------------------


def test_a_take_over_while_the_bot_thinks_wins_and_the_bot_s_orders_are_dropped(
    client: TestClient, backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bot's turn and the take-over at the same moment: Carol takes the seat while
    its bot is thinking (outside any transaction); the bot's orders, come after, are not
    stored for her power (nor as ready: the phase would have been played on them)."""
    alice, carol = register(client, "alice"), register(client, "carol")
    gid = new_game(client, alice, players=3, bots="random")["id"]
    seen: list[int] = []
    think = engine.seat_orders

    def slow_bot(game: Any, power: str, kind: str, seed: int, strength: Any = None) -> list[str]:
        if seen == [] and power == target[0]:
            seen.append(take(client, gid, carol, power).status_code)  # meanwhile
        return think(game, power, kind, seed, strength)

    target: list[str] = []
    monkeypatch.setattr(engine, "seat_orders", slow_bot)
    # the game starts: the bots' first orders are asked outside the start's transaction
    with monkeypatch.context() as m:
        m.setattr(play, "order_bots", lambda b, game_id: 0)
        assert client.post(f"/api/games/{gid}/start", headers=alice.headers).status_code == 200
    target.append(bot_seat(view(client, gid))["powers"][0])
    assert play.order_bots(backend, gid) == 0  # the take-over came first: nothing stored
    assert seen == [200]
    given = view(client, gid, carol)["orders"][target[0]]
    assert given["orders"] == [] and given["ready"] is False
    assert play.order_bots(backend, gid) > 0  # the other bot, asked again, orders
    assert view(client, gid, carol)["orders"][target[0]]["ready"] is False


def test_a_take_over_just_after_the_bot_ordered_finds_its_orders_not_ready(
    client: TestClient, backend: Backend
) -> None:
    alice, carol = register(client, "alice"), register(client, "carol")
    gid = new_game(client, alice, players=3, bots="random", start=True)["id"]
    power = bot_seat(view(client, gid))["powers"][0]
    with backend.db.connect() as conn:
        ready = conn.execute(
            select(t.orders.c.ready).where(t.orders.c.game_id == gid, t.orders.c.power == power)
        ).scalar()
    assert ready is True  # the bot's, given at the start
    assert take(client, gid, carol, power).status_code == 200
    assert view(client, gid, carol)["orders"][power]["ready"] is False


@pytest.fixture(params=["sqlite", "postgresql"])
def racing(request: pytest.FixtureRequest, clock: FakeClock) -> Iterator[tuple[Backend, str]]:
    """A backend on SQLite or PostgreSQL, and a live server's address on it: requests in
    threads, truly at once."""
    url = request.getfixturevalue("sqlite_url" if request.param == "sqlite" else "pg_url")
    backend = Backend.open(fast_settings(url, signups_per_address=100), clock=clock)
    port = free_port()
    app = create_app(backend.settings, backend=backend)
    server = uvicorn.Server(uvicorn.Config(app, port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        threading.Event().wait(0.05)
    yield backend, f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)
    backend.close()
    engine.clear_cache()


def at_once(*calls: Callable[[], Any]) -> list[Any]:
    """Run ``calls`` in threads released together; their results, in order."""
    start = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(k: int) -> None:
        start.wait()
        results[k] = calls[k]()

    threads = [threading.Thread(target=run, args=(k,)) for k in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


def account(base: str, name: str) -> dict[str, str]:
    r = httpx.post(f"{base}/api/accounts", json={"username": name, "password": "x" * 8}, timeout=60)
    assert r.status_code == 201, r.text
    return {"Authorization": f"Bearer {r.json()['token']}"}


def test_double_clicks_and_two_friends_at_once_take_a_seat_once(
    racing: tuple[Backend, str],
) -> None:
    """Over HTTP, in threads released together: one friend's double click takes one seat
    (the second: 409, already seated); two friends on one bot's seat, one gets it (the
    other: 409 seat_taken); on two bots' seats, both do."""
    backend, base = racing
    host = account(base, "alice")
    body = {"name": "late friends", "players": 4, "bots": "random", "start": True}
    game = httpx.post(f"{base}/api/games", json=body, headers=host, timeout=60).json()
    url = f"{base}/api/games/{game['id']}"
    bots = [s for s in game["seats"] if s["bot"]]
    friends = {name: account(base, name) for name in ("carol", "dave", "erin", "fred")}

    def join(who: str, power: str) -> httpx.Response:
        return httpx.post(url + "/join", json={"power": power}, headers=friends[who], timeout=60)

    twice = at_once(lambda: join("carol", bots[0]["powers"][0]),
                    lambda: join("carol", bots[0]["powers"][0]))  # fmt: skip
    assert sorted(r.status_code for r in twice) == [200, 409], [r.text for r in twice]
    one = at_once(lambda: join("dave", bots[1]["powers"][0]),
                  lambda: join("erin", bots[1]["powers"][0]))  # fmt: skip
    assert sorted(r.status_code for r in one) == [200, 409], [r.text for r in one]
    assert next(r for r in one if r.status_code == 409).json()["code"] == "seat_taken"
    seats = httpx.get(url, headers=host, timeout=60).json()["seats"]
    players = sorted(s["player"] for s in seats if s["player"])
    assert players[0] == "alice" and len(players) == 3 and "carol" in players
    loser = "erin" if "dave" in players else "dave"
    both = at_once(lambda: join(loser, bots[2]["powers"][0]),
                   lambda: join("fred", bots[2]["powers"][0]))  # fmt: skip
    assert sorted(r.status_code for r in both) == [200, 409]
    with backend.db.connect() as conn:
        held = conn.execute(
            select(t.seats.c.user_id, t.seats.c.bot).where(t.seats.c.game_id == game["id"])
        ).all()
    assert all(user_id is not None and bot is None for user_id, bot in held), held
    assert len({user_id for user_id, _ in held}) == 4  # nobody twice


def test_the_bot_s_turn_and_the_take_over_at_once_never_both_win(
    racing: tuple[Backend, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Again and again, the scheduler's work (the bots order, the phase is looked at) and
    a friend's take-over released together, on the same seat, the bot thinking for longer
    each time (the take-over comes after its orders are stored, or while it thinks):
    whichever goes first, the friend holds the seat and their power's orders are never
    ready (the phase is never played on the bot's orders for them)."""
    backend, base = racing
    host = account(base, "alice")
    think = engine.seat_orders
    delay = [0.0]

    def slow_bot(*args: Any) -> list[str]:
        time.sleep(delay[0])
        return think(*args)

    monkeypatch.setattr(engine, "seat_orders", slow_bot)
    orders: list[bool | None] = []
    for k in range(32):  # 8 at least, until each has come first (a loaded machine: later)
        if k >= 8 and set(orders) == {None, False}:
            break
        delay[0] = 0.05 * (k % 8)
        body = {"name": f"race {k}", "players": 2, "bots": "random"}
        game = httpx.post(f"{base}/api/games", json=body, headers=host, timeout=60).json()
        gid = game["id"]
        started = httpx.post(f"{base}/api/games/{gid}/start", headers=host, timeout=60).json()
        with backend.db.begin() as conn:  # the bots' first orders undone: theirs to give again
            conn.execute(t.orders.delete().where(t.orders.c.game_id == gid))
        power = next(s for s in started["seats"] if s["bot"])["powers"][0]
        friend = account(base, f"friend{k}")
        url, body = f"{base}/api/games/{gid}/join", {"power": power}
        results = at_once(
            partial(play.process_due, backend, gid),  # the scheduler's work on the game
            partial(httpx.post, url, json=body, headers=friend, timeout=60),
        )
        assert results[1].status_code == 200, results[1].text
        with backend.db.connect() as conn:
            row = conn.execute(select(t.games.c.phase).where(t.games.c.id == gid)).one()
            ready = conn.execute(
                select(t.orders.c.ready).where(t.orders.c.game_id == gid, t.orders.c.power == power)
            ).scalar()
        assert row.phase == started["phase"]  # Alice has not said ready: nothing processed
        assert ready in (None, False), (k, ready)
        orders.append(ready)
        mine = httpx.get(f"{base}/api/games/{gid}", headers=friend, timeout=60).json()
        assert power in mine["my_powers"] and mine["ready"][power] is False
    assert set(orders) == {None, False}, orders  # both came first, some time


def test_the_last_seat_taken_as_the_creator_starts_the_game_is_taken(
    racing: tuple[Backend, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The last seat of a forming game taken while its creator presses Start: the friend
    has the seat and is told so (200), the game started once. The join stored the seat,
    then started the game apart: the creator's Start came in between, and the friend,
    seated, was told 409 'this game has already started'. (The join's start is held back
    here to let the creator's come between, as it did now and then on its own.)"""
    backend, base = racing
    host, guest = account(base, "alice"), account(base, "bob")
    body = {"name": "two friends", "players": 2, "bots": None}
    gid = httpx.post(f"{base}/api/games", json=body, headers=host, timeout=60).json()["id"]
    start = games.start

    def late_start(b: Backend, user: Any, game_id: int, **kw: Any) -> dict[str, Any]:
        if user is None:  # the start of the join (the creator's has its user)
            time.sleep(0.6)
        return start(b, user, game_id, **kw)

    monkeypatch.setattr(games, "start", late_start)

    def creator_starts() -> httpx.Response:
        time.sleep(0.2)
        return httpx.post(f"{base}/api/games/{gid}/start", headers=host, timeout=60)

    started, joined = at_once(
        creator_starts,
        partial(httpx.post, f"{base}/api/games/{gid}/join", json={}, headers=guest, timeout=60),
    )
    assert joined.status_code == 200, joined.text
    assert joined.json()["status"] == "active"
    assert started.status_code == 409, started.text  # too late: the join started it
    assert started.json()["code"] in ("already_started", "seats_empty")
    game = httpx.get(f"{base}/api/games/{gid}", headers=guest, timeout=60).json()
    assert game["status"] == "active" and game["version"] == 1 and game["my_powers"]
    with backend.db.connect() as conn:
        held = conn.execute(select(t.seats.c.user_id).where(t.seats.c.game_id == gid)).scalars()
        assert None not in list(held)


@pytest.mark.parametrize("bots", ["random", None])
def test_a_seat_with_a_conceded_power_is_left_and_taken_over(
    client: TestClient, bots: str | None
) -> None:
    """Bob conceded one of his seat's two powers and left: the leave was a 500 without bots
    (the conceded power put in civil disorder), and so was taking the seat over (the
    conceded power brought back from it). The seat is taken with the power still in; the
    conceded one stays out."""
    _, bob, carol, gid = _three_at_table(client, bots)
    out, still = view(client, gid, bob)["my_powers"][:2]
    r = client.post(f"/api/games/{gid}/concede", json={"power": out}, headers=bob.headers)
    assert r.status_code == 200, r.text
    r = client.post(f"/api/games/{gid}/leave", headers=bob.headers)
    assert r.status_code == 204, r.text
    r = take(client, gid, carol, still)
    assert r.status_code == 200, r.text
    seen = view(client, gid, carol)
    assert set(seen["my_powers"]) >= {out, still} and out in seen["conceded"]
    assert still in seen["to_act"] and out not in seen["to_act"]


# --- a seat left: the table is told -------------------------------------------------------


def _seat_of(game: dict[str, Any], power: str) -> dict[str, Any]:
    return next(s for s in game["seats"] if power in s["powers"])


@pytest.mark.parametrize("bots", ["random", None])
def test_a_seat_left_says_so_until_it_is_taken_again(client: TestClient, bots: str | None) -> None:
    """Bob leaves: his seat says it was left (a bot plays it on, or its powers are in civil
    disorder: the game's page tells the table); a bot's seat from the start does not. Carol
    takes it over: no longer."""
    _, bob, carol, gid = _three_at_table(client, bots)
    if bots is not None:
        assert not bot_seat(view(client, gid))["left"]  # a bot from the start: no news
    theirs = view(client, gid, bob)["my_powers"]
    assert not _seat_of(view(client, gid), theirs[0])["left"]
    assert client.post(f"/api/games/{gid}/leave", headers=bob.headers).status_code == 204
    seen = view(client, gid)  # (an observer)
    assert _seat_of(seen, theirs[0])["left"] and _seat_of(seen, theirs[0])["bot"] == bots
    assert seen["disorder"] == ([] if bots else sorted(theirs))
    assert take(client, gid, carol, theirs[0]).status_code == 200
    seen = view(client, gid)
    assert not _seat_of(seen, theirs[0])["left"] and seen["disorder"] == []


@pytest.mark.parametrize("bots", ["random", None])
def test_who_left_takes_back_only_the_seat_they_left(
    client: TestClient, backend: Backend, bots: str | None
) -> None:
    """Bob leaves: he may come back to his own seat, not take another one (a bot's, or one
    left empty: he would read its orders of this phase and its powers' private messages,
    then come back to his own powers knowing them). He is offered only his own seat; once
    another player has taken it, he is a newcomer like any other."""
    alice, bob, carol, gid = _three_at_table(client, bots)
    theirs = view(client, gid, bob)["my_powers"]
    assert client.post(f"/api/games/{gid}/leave", headers=bob.headers).status_code == 204
    if bots is None:  # Alice leaves too: her seat is open to anyone but Bob
        hers = view(client, gid, alice)["my_powers"]
        assert client.post(f"/api/games/{gid}/leave", headers=alice.headers).status_code == 204
    bots_seats = [
        s for s in view(client, gid)["seats"] if s["bot"] and theirs[0] not in s["powers"]
    ]
    other = hers[0] if bots is None else bots_seats[0]["powers"][0]
    seats = view(client, gid, bob)["seats"]
    assert [s["open"] for s in seats] == [theirs[0] in s["powers"] for s in seats]
    assert _seat_of(view(client, gid, carol), other)["open"]
    before = stored(backend, gid)
    r = take(client, gid, bob, other)
    assert r.status_code == 409 and r.json()["code"] == "left_another_seat", r.text
    assert r.json()["values"] == {"powers": ", ".join(theirs)}
    assert stored(backend, gid) == before
    r = take(client, gid, bob, theirs[-1] if bots else None)  # his own: without bots, the
    assert r.status_code == 200, r.text  # free seat he is given, though Alice's comes first
    assert view(client, gid, bob)["my_powers"] == theirs
    # Bob leaves again and Carol takes his seat: Bob may then take what is open to all
    assert client.post(f"/api/games/{gid}/leave", headers=bob.headers).status_code == 204
    assert take(client, gid, carol, theirs[0]).status_code == 200
    r = take(client, gid, bob, other)
    assert r.status_code == 200, r.text


def test_who_left_a_seat_no_longer_open_is_a_newcomer(client: TestClient) -> None:
    """Bob concedes every power of his seat and leaves: there is nothing of his to come
    back to (nor to take back, knowing another seat's secrets), so he is told and offered
    what a newcomer is, and a bot's seat is his to take; he was told there was no free
    seat, and refused a bot's naming his own seat, which nobody may take."""
    _, bob, _, gid = _three_at_table(client, "random")
    theirs = view(client, gid, bob)["my_powers"]
    for mine in theirs:
        r = client.post(f"/api/games/{gid}/concede", json={"power": mine}, headers=bob.headers)
        assert r.status_code == 200, r.text
    assert client.post(f"/api/games/{gid}/leave", headers=bob.headers).status_code == 204
    seats = view(client, gid, bob)["seats"]
    assert [s["open"] for s in seats] == [bool(s["bot"]) and s["powers"] != theirs for s in seats]
    r = take(client, gid, bob, None)
    assert r.status_code == 409 and r.json()["code"] == "choose_a_bot_seat", r.text
    other = next(s["powers"][0] for s in seats if s["open"])
    r = take(client, gid, bob, other)
    assert r.status_code == 200 and other in r.json()["my_powers"], r.text


@pytest.mark.parametrize("bots", ["random", None])
def test_the_table_is_told_who_left_and_who_conceded(client: TestClient, bots: str | None) -> None:
    """Bob concedes one of his seat's powers and leaves: his seat names him (to whom the
    players are named: its members, not an outsider) as who conceded it and who left. Carol
    takes the seat over: nobody left it any more, and the conceded power is still Bob's
    concession, not hers; her own concession is hers."""
    alice, bob, carol, gid = _three_at_table(client, bots)
    out, still = view(client, gid, bob)["my_powers"][:2]
    assert _seat_of(view(client, gid, alice), out)["conceded_by"] == {}
    r = client.post(f"/api/games/{gid}/concede", json={"power": out}, headers=bob.headers)
    assert r.status_code == 200, r.text
    assert _seat_of(view(client, gid, alice), out)["conceded_by"] == {out: "bob"}
    assert client.post(f"/api/games/{gid}/leave", headers=bob.headers).status_code == 204
    seat = _seat_of(view(client, gid, alice), out)
    assert seat["left_by"] == "bob" and seat["conceded_by"] == {out: "bob"}, seat
    client.cookies.clear()  # (the last account made's session: Dave's, seated, or Carol's)
    hidden = _seat_of(view(client, gid), out)  # an outsider: the players are not named
    assert hidden["left"] and hidden["left_by"] is None and hidden["conceded_by"] == {}
    assert take(client, gid, carol, still).status_code == 200
    seat = _seat_of(view(client, gid, alice), out)
    assert seat["left_by"] is None and seat["conceded_by"] == {out: "bob"}, seat
    r = client.post(f"/api/games/{gid}/concede", json={"power": still}, headers=carol.headers)
    assert r.status_code == 200, r.text
    seat = _seat_of(view(client, gid, alice), out)
    assert seat["conceded_by"] == {out: "bob", still: "carol"}, seat


def _two_seats_at_version(
    url: str, clock: FakeClock, version: int, *undo: str
) -> tuple[Backend, Player, Player, int]:
    """A database at ``url`` holding Alice's game of two seats, Bob in the other, put back
    to schema ``version`` (``undo``: the SQL that takes the later versions' columns away),
    then opened again (the later migrations have run on it): with Alice, Bob and the game."""
    b = Backend.open(fast_settings(url), clock=clock)
    with TestClient(create_app(b.settings, backend=b)) as c:
        alice, bob = register(c, "alice"), register(c, "bob")
        gid = new_game(c, alice, players=2, bots="random")["id"]
        assert take(c, gid, bob, None).status_code == 200
    with b.db.begin() as conn:
        for statement in undo:
            conn.execute(text(statement))
        conn.execute(t.schema_version.delete().where(t.schema_version.c.version > version))
    b.close()
    engine.clear_cache()
    return Backend.open(fast_settings(url), clock=clock), alice, bob, gid


def test_a_database_of_version_11_migrates(
    request: pytest.FixtureRequest, clock: FakeClock
) -> None:
    """On SQLite and PostgreSQL: the seats get who left them and who conceded their powers,
    unknown (null) for those before; a seat left after names its leaver."""
    for url in (request.getfixturevalue("sqlite_url"), request.getfixturevalue("pg_url")):
        drop = "ALTER TABLE seats DROP COLUMN {}"
        b, alice, bob, gid = _two_seats_at_version(
            url, clock, 11, drop.format("left_by"), drop.format("conceded_by")
        )
        try:
            with b.db.connect() as conn:
                seats = {c["name"] for c in inspect(conn).get_columns("seats")}
                assert {"left_by", "conceded_by"} <= seats
                rows = conn.execute(select(t.seats.c.left_by, t.seats.c.conceded_by)).all()
                assert [tuple(r) for r in rows] == [(None, None), (None, None)]
            with TestClient(create_app(b.settings, backend=b)) as c:
                theirs = view(c, gid, bob)["my_powers"]
                assert c.post(f"/api/games/{gid}/leave", headers=bob.headers).status_code == 204
                assert _seat_of(view(c, gid, alice), theirs[0])["left_by"] == "bob"
        finally:
            b.close()
            engine.clear_cache()


def test_a_database_of_version_8_migrates(request: pytest.FixtureRequest, clock: FakeClock) -> None:
    """On SQLite and PostgreSQL: the seats get when their player left, unknown (null) for
    those left before; a seat left after is told."""
    for url in (request.getfixturevalue("sqlite_url"), request.getfixturevalue("pg_url")):
        b, _, bob, gid = _two_seats_at_version(
            url, clock, 8, "ALTER TABLE seats DROP COLUMN left_at"
        )
        try:
            with b.db.connect() as conn:
                seats = {c["name"] for c in inspect(conn).get_columns("seats")}
                assert "left_at" in seats
                assert conn.execute(select(t.seats.c.left_at)).scalars().all() == [None, None]
            with TestClient(create_app(b.settings, backend=b)) as c:
                theirs = view(c, gid, bob)["my_powers"]
                assert c.post(f"/api/games/{gid}/leave", headers=bob.headers).status_code == 204
                assert _seat_of(view(c, gid), theirs[0])["left"]
        finally:
            b.close()
            engine.clear_cache()
