"""Secrecy: every endpoint tried with every other player's token, and as an observer.

Nobody reads or changes another power's orders; nobody reads any order of the current
phase but their own before it is processed; observers see only what is public."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from realpolitik.server import events
from realpolitik.server.accounts import User
from realpolitik.server.backend import Backend
from tests.server.conftest import FakeClock, Player, new_game, register


@pytest.fixture
def table(client: TestClient) -> dict[str, Any]:
    """A 3-player game (alice, bob, carol) with orders and private messages given, and an
    observer account (olga)."""
    players = [register(client, n) for n in ("alice", "bob", "carol")]
    olga = register(client, "olga")
    game = new_game(client, players[0], players=3, bots=None)
    gid = game["id"]
    for p in players[1:]:
        assert client.post(f"/api/games/{gid}/join", json={}, headers=p.headers).status_code == 200
    powers: dict[str, list[str]] = {}
    orders: dict[str, list[str]] = {}
    for p in players:
        mine = client.get(f"/api/games/{gid}", headers=p.headers).json()["my_powers"]
        powers[p.username] = mine
        for power in mine:
            legal = client.get(
                f"/api/games/{gid}/legal", params={"power": power}, headers=p.headers
            ).json()
            given = [opts[-1]["order"] for opts in legal.values()]  # a support or a move
            r = client.put(
                f"/api/games/{gid}/orders",
                json={"power": power, "orders": given},
                headers=p.headers,
            )
            assert r.status_code == 200, r.text
            orders[power] = given
    a, b = powers["alice"][0], powers["bob"][0]
    secret = "meet me in Burgundy, alice only"
    r = client.post(
        f"/api/games/{gid}/messages",
        json={"sender": b, "recipients": [a], "body": secret},
        headers=players[1].headers,
    )
    assert r.status_code == 201, r.text
    r = client.post(
        f"/api/games/{gid}/messages",
        json={"sender": a, "recipients": [], "body": "hello everyone"},
        headers=players[0].headers,
    )
    assert r.status_code == 201
    return {
        "gid": gid,
        "players": {p.username: p for p in players},
        "olga": olga,
        "powers": powers,
        "orders": orders,
        "secret": secret,
    }


def _others(table: dict[str, Any], owner: str) -> list[Player]:
    return [p for name, p in table["players"].items() if name != owner] + [table["olga"]]


def test_nobody_touches_another_powers_orders(client: TestClient, table: dict[str, Any]) -> None:
    gid = table["gid"]
    for owner, powers in table["powers"].items():
        for power in powers:
            for other in [*_others(table, owner), None]:
                h = other.headers if other else {}
                calls = [
                    client.get(f"/api/games/{gid}/legal", params={"power": power}, headers=h),
                    client.get(f"/api/games/{gid}/orders", params={"power": power}, headers=h),
                    client.put(
                        f"/api/games/{gid}/orders",
                        json={"power": power, "orders": []},
                        headers=h,
                    ),
                    client.post(f"/api/games/{gid}/ready", json={"power": power}, headers=h),
                    client.post(f"/api/games/{gid}/draw", json={"power": power}, headers=h),
                    client.post(f"/api/games/{gid}/concede", json={"power": power}, headers=h),
                    client.get(f"/api/games/{gid}/map.svg", params={"power": power}, headers=h),
                    client.get(f"/api/games/{gid}/messages", params={"power": power}, headers=h),
                    client.post(
                        f"/api/games/{gid}/messages",
                        json={"sender": power, "recipients": [], "body": "forged"},
                        headers=h,
                    ),
                ]
                expected = (401, 403) if other is None else (403,)
                for r in calls:
                    assert r.status_code in expected, (r.request.url, r.text)
    # and the orders are all still there, untouched
    for owner, powers in table["powers"].items():
        p = table["players"][owner]
        for power in powers:
            got = client.get(f"/api/games/{gid}/orders", params={"power": power}, headers=p.headers)
            assert [o["order"] for o in got.json()["orders"]] == table["orders"][power]


def test_no_order_is_readable_before_processing(client: TestClient, table: dict[str, Any]) -> None:
    gid = table["gid"]
    for owner, powers in table["powers"].items():
        theirs = {o for power in powers for o in table["orders"][power]}
        for other in [*_others(table, owner), None]:
            h = other.headers if other else {}
            others_own = set()
            if other is not None and other.username in table["powers"]:
                others_own = {
                    o for power in table["powers"][other.username] for o in table["orders"][power]
                }
            secret = theirs - others_own
            responses = [
                client.get(f"/api/games/{gid}", headers=h),
                client.get(f"/api/games/{gid}", params={"language": "fr"}, headers=h),
                client.get("/api/games", headers=h),
                client.get(f"/api/games/{gid}/history", headers=h),
                client.get(f"/api/games/{gid}/history/S1901M", headers=h),
                client.get(f"/api/games/{gid}/messages", headers=h),
                client.get(f"/api/games/{gid}/map.svg", headers=h),
            ]
            if other is not None and other.username in table["powers"]:
                mine = table["powers"][other.username][0]
                responses.append(
                    client.get(f"/api/games/{gid}/map.svg", params={"power": mine}, headers=h)
                )
            for r in responses:
                for order in secret:
                    assert order not in r.text, (r.request.url, order)
            state = responses[0].json()
            assert set(state["orders"]) <= set(
                table["powers"].get(getattr(other, "username", ""), [])
            )


def test_private_messages_reach_only_their_recipients(
    client: TestClient, table: dict[str, Any]
) -> None:
    gid, secret = table["gid"], table["secret"]
    players = table["players"]
    for name, who in [("alice", players["alice"]), ("bob", players["bob"])]:
        bodies = [
            m["body"] for m in client.get(f"/api/games/{gid}/messages", headers=who.headers).json()
        ]
        assert secret in bodies, name
    for who in (players["carol"], table["olga"], None):
        r = client.get(f"/api/games/{gid}/messages", headers=who.headers if who else {})
        bodies = [m["body"] for m in r.json()]
        assert secret not in bodies and "hello everyone" in bodies


def test_orders_are_revealed_after_processing(client: TestClient, table: dict[str, Any]) -> None:
    gid = table["gid"]
    for name, p in table["players"].items():
        for power in table["powers"][name]:
            r = client.post(f"/api/games/{gid}/ready", json={"power": power}, headers=p.headers)
            assert r.status_code == 200, r.text
    record = client.get(f"/api/games/{gid}/history/S1901M").json()  # an observer's view
    for power, given in table["orders"].items():
        shown = {e["order"] for e in record["orders"][power]}
        assert set(given) <= shown


def test_observer_sees_the_board_but_no_orders(client: TestClient, table: dict[str, Any]) -> None:
    gid = table["gid"]
    state = client.get(f"/api/games/{gid}", headers=table["olga"].headers).json()
    assert state["my_powers"] == [] and state["orders"] == {}
    assert state["position"]["units"] and "invite_code" not in state
    anon = client.get(f"/api/games/{gid}").json()
    assert anon["orders"] == {} and "invite_code" not in anon


def _reads(gid: int, phase: str) -> list[str]:
    return [
        f"/api/games/{gid}",
        f"/api/games/{gid}/history",
        f"/api/games/{gid}/history/{phase}",
        f"/api/games/{gid}/messages",
        f"/api/games/{gid}/map.svg",
        f"/api/games/{gid}/map.svg?phase={phase}",
    ]


def test_an_unlisted_game_is_seen_only_by_members_and_invitation_holders(
    client: TestClient,
) -> None:
    alice, bob, olga = (register(client, n) for n in ("alice", "bob", "olga"))
    game = new_game(client, alice, players=2, public=False, start=True)
    gid, code = game["id"], game["invite_code"]
    for power in game["my_powers"]:
        client.post(f"/api/games/{gid}/ready", json={"power": power}, headers=alice.headers)
    past = client.get(f"/api/games/{gid}/history", headers=alice.headers).json()
    for path in _reads(gid, past[0]["phase"]):
        assert client.get(path, headers=alice.headers).status_code == 200, path
        for who in (olga.headers, {}):
            r = client.get(path, headers=who)
            assert r.status_code == 404, (path, r.text)
            assert "alice" not in r.text
        wrong = client.get(
            path,
            params={"code": code[:-1] + ("y" if code.endswith("x") else "x")},
            headers=olga.headers,
        )
        assert wrong.status_code == 404, path
        held = client.get(path, params={"code": code}, headers=bob.headers)
        assert held.status_code == 200, (path, held.text)
    lobby = client.get("/api/games", headers=olga.headers).json()
    assert all(g["id"] != gid for part in lobby.values() for g in part)


def _acts(gid: int, power: str) -> list[tuple[str, str, dict[str, Any] | None]]:
    """Every request naming a game that is not a plain read: (method, path, JSON body)."""
    g = f"/api/games/{gid}"
    return [
        ("GET", f"{g}/legal?power={power}", None),
        ("GET", f"{g}/orders?power={power}", None),
        ("PUT", f"{g}/orders", {"power": power, "orders": []}),
        ("POST", f"{g}/ready", {"power": power}),
        ("POST", f"{g}/draw", {"power": power}),
        ("POST", f"{g}/concede", {"power": power}),
        ("POST", f"{g}/messages", {"sender": power, "body": "hello"}),
        ("POST", f"{g}/rollback", {"phase": "S1901M"}),
        ("POST", f"{g}/sandbox", {}),
        ("POST", f"{g}/start", None),
        ("POST", f"{g}/leave", None),
        ("POST", f"{g}/join", {}),
        ("DELETE", g, None),
    ]


@pytest.mark.parametrize("started", [True, False])
def test_an_unlisted_game_answers_an_outsiders_every_request_as_no_game(
    client: TestClient, started: bool
) -> None:
    """Whatever an outsider without the invitation does with an unlisted game's number (a
    link seen over a shoulder), the answer is the one for a number that is no game's: not
    'you do not play FRANCE', 'not started' or 'only the creator', which would tell that it
    exists, whether it started, or that it is a sandbox. Nothing changes."""
    alice, olga = register(client, "alice"), register(client, "olga")
    games = [new_game(client, alice, players=2, public=False, start=started)]
    if started:
        games.append(new_game(client, alice, sandbox=True))
    none = 2**52 + 1  # no game's
    for game in games:
        gid = game["id"]
        power = "FRANCE"
        before = client.get(f"/api/games/{gid}", headers=alice.headers).json()
        for method, path, body in _acts(gid, power):
            r = client.request(method, path, json=body, headers=olga.headers)
            gone = client.request(
                method, path.replace(str(gid), str(none)), json=body, headers=olga.headers
            )
            assert gone.status_code == 404, (path, gone.text)
            assert r.status_code == 404, (path, r.text)
            assert r.json()["detail"] == gone.json()["detail"].replace(str(none), str(gid))
        after = client.get(f"/api/games/{gid}", headers=alice.headers).json()
        assert _without_now(after) == _without_now(before)


def test_a_creator_who_does_not_play_still_sees_the_unlisted_game(client: TestClient) -> None:
    alice, olga = register(client, "alice"), register(client, "olga")
    game = new_game(client, alice, public=False, join=False, start=True)
    assert client.get(f"/api/games/{game['id']}", headers=alice.headers).status_code == 200
    assert client.get(f"/api/games/{game['id']}", headers=olga.headers).status_code == 404


def test_game_ids_cannot_be_guessed(client: TestClient) -> None:
    alice = register(client, "alice")
    ids = [new_game(client, alice, name=f"g{k}")["id"] for k in range(4)]
    assert len(set(ids)) == 4
    assert all(2**40 <= i < 2**53 for i in ids)  # spread over 2^53: not 1, 2, 3...
    for gid in ids:
        assert client.get(f"/api/games/{gid}", headers=alice.headers).status_code == 200


# --- secret actions leave no trace others can see ----------------------------------------------


def _seen(client: TestClient, backend: Backend, gid: int, who: Player | None) -> list[Any]:
    """Everything ``who`` (None: anyone) can read of a game and the lobby, and what its
    event stream says (when their own orders were given too), each without the clock's
    ``now``."""
    h = who.headers if who else {}

    def read(path: str, **params: Any) -> Any:
        r = client.get(path, params=params, headers=h)
        assert r.status_code == 200, (path, r.text)
        if r.headers["content-type"].startswith("application/json"):
            return _without_now(r.json())
        return r.text

    seen = [
        read(f"/api/games/{gid}"),
        read(f"/api/games/{gid}", language="es"),
        read("/api/games"),
        read(f"/api/games/{gid}/history"),
        read(f"/api/games/{gid}/messages"),
        read(f"/api/games/{gid}/map.svg"),
        events.public(events.game_stamp(backend, gid)),
    ]
    if who is not None:
        user = User(who.user_id, who.username, "en")
        seen.append(events.my_orders_given(backend, gid, user))
        for power in client.get(f"/api/games/{gid}", headers=h).json()["my_powers"]:
            seen.append(read(f"/api/games/{gid}/orders", power=power))
    return seen


def _without_now(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_now(v) for k, v in value.items() if k != "now"}
    if isinstance(value, list):
        return [_without_now(v) for v in value]
    return value


@pytest.mark.parametrize("votes", ["secret", "public"])
def test_a_secret_draw_vote_or_orders_change_nothing_others_see(
    client: TestClient, backend: Backend, clock: FakeClock, votes: str
) -> None:
    """Where draw votes are secret, nothing another player, an observer or anyone sees
    changes when a vote is cast or withdrawn (the game's version, its stream's stamp, the
    lobby), nor when orders are given without ready; the voter sees the vote. Where they
    are public, the others see it (the reads compared do show a vote)."""
    alice, bob, carol, olga = (register(client, n) for n in ("alice", "bob", "carol", "olga"))
    gid = new_game(client, alice, players=3, bots=None, draw_votes=votes)["id"]
    for p in (bob, carol):
        assert client.post(f"/api/games/{gid}/join", json={}, headers=p.headers).status_code == 200
    mine = client.get(f"/api/games/{gid}", headers=alice.headers).json()["my_powers"]
    others = (bob, carol, olga, None)
    before = [_seen(client, backend, gid, who) for who in others]

    clock.advance(5)
    for agree in (True, False, True):
        r = client.post(
            f"/api/games/{gid}/draw", json={"power": mine[0], "agree": agree}, headers=alice.headers
        )
        assert r.status_code == 200 and not r.json()["is_over"], r.text
    view = client.get(f"/api/games/{gid}", headers=alice.headers).json()
    assert view["draw_votes"]["votes"] == [mine[0]]  # the voter sees the vote
    after = [_seen(client, backend, gid, who) for who in others]
    if votes == "public":
        assert all(a != b for a, b in zip(after, before, strict=True))
        return
    assert after == before

    legal = client.get(
        f"/api/games/{gid}/legal", params={"power": mine[0]}, headers=alice.headers
    ).json()
    given = [options[-1]["order"] for options in legal.values()]
    r = client.put(
        f"/api/games/{gid}/orders", json={"power": mine[0], "orders": given}, headers=alice.headers
    )
    assert r.status_code == 200, r.text
    assert [_seen(client, backend, gid, who) for who in others] == before
