"""The app's guard and every kind of bad input: bodies over the limit get 413 before they
are read, error answers never echo the input, odd input gets a clear 4xx (never a 500),
and an unexpected error is answered (500) without an exception reaching the HTTP server."""

from __future__ import annotations

import json
import logging
import socket
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event
from sqlalchemy.exc import OperationalError
from starlette.responses import PlainTextResponse
from starlette.routing import Route, Router

from realpolitik.server import engine
from realpolitik.server.app import create_app
from realpolitik.server.backend import Backend
from realpolitik.server.guard import Guard
from tests.server.conftest import FakeClock, fast_settings, new_game, register, start_server

MARKER = "ECHO-MARKER-7f3a"


def test_a_body_over_the_limit_is_refused_before_it_is_read(
    client: TestClient, backend: Backend
) -> None:
    limit = backend.settings.max_body_bytes
    big = b'{"username":"alice","password":"' + b"A" * (limit + 10) + b'"}'
    r = client.post("/api/sessions", content=big, headers={"content-type": "application/json"})
    assert r.status_code == 413, r.text
    assert str(limit) in r.json()["detail"] and len(r.content) < 200

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it arrives
        yield b'{"username":"alice","password":"'
        for _ in range(limit // 1000 + 2):
            yield b"A" * 1000
        yield b'"}'

    r = client.post("/api/sessions", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413 and len(r.content) < 200
    ok = client.post("/api/accounts", json={"username": "alice", "password": "x" * 100})
    assert ok.status_code == 201


def test_errors_never_echo_the_input(client: TestClient) -> None:
    alice = register(client, "alice")
    game = new_game(client, alice, start=True)
    answers = [
        client.post("/api/sessions", json={"username": "a", "password": "b", "x": MARKER}),
        client.post("/api/sessions", json={"username": MARKER, "password": 5}),
        client.put(
            f"/api/games/{game['id']}/orders",
            json={"power": "FRANCE", "orders": [], "x": MARKER * 100},
            headers=alice.headers,
        ),
    ]
    for r in answers:
        assert r.status_code == 422, r.text
        assert MARKER not in r.text
        assert r.json()["detail"]


def test_a_phase_name_is_not_echoed(client: TestClient) -> None:
    """A phase in a path or query longer than any phase is refused, not said back."""
    alice = register(client, "alice")
    game = new_game(client, alice, start=True)
    for r in (
        client.get(f"/api/games/{game['id']}/history/{MARKER * 100}", headers=alice.headers),
        client.get(f"/api/games/{game['id']}/map.svg?phase={MARKER * 100}", headers=alice.headers),
    ):
        assert r.status_code == 422, r.text
        assert MARKER not in r.text
    r = client.get(f"/api/games/{game['id']}/history/S1999M", headers=alice.headers)
    assert r.status_code == 404 and "S1999M" in r.json()["detail"]


LONG = MARKER * 500  # 8,000 characters: under the body limit, over every name's length


@pytest.mark.parametrize(
    ("method", "path", "field", "body"),
    [
        ("POST", "/api/games", "edition", {"name": "g", "edition": LONG}),
        ("POST", "/api/games", "variant", {"name": "g", "variant": LONG}),
        ("POST", "{game}/messages", "recipients.0", {"sender": "{power}", "recipients": [LONG],
                                                    "body": "hi"}),
        ("PUT", "{game}/orders", "accept.0", {"power": "{power}", "orders": [], "accept": [LONG]}),
        ("PUT", "{game}/orders", "ally.0", {"power": "{power}", "orders": [], "ally": [LONG]}),
        ("GET", "{game}/legal?power=" + LONG, "query.power", None),
        ("GET", "{game}/orders?power=" + LONG, "query.power", None),
        ("GET", "{game}/messages?power=" + LONG, "query.power", None),
        ("GET", "{game}/map.svg?power=" + LONG, "query.power.0", None),
    ],
)  # fmt: skip
def test_a_name_longer_than_any_is_refused_by_its_length_not_said_back(
    client: TestClient, method: str, path: str, field: str, body: dict[str, Any] | None
) -> None:
    """An edition, a variant, a recipient, a unit accepted, an ally or a power of any
    length was read as a name and said back whole in the error ("unknown edition
    'ECHO…'", "you do not play ECHO…": 8 kB of the caller's text in an 8 kB answer). Each
    is refused by its length (422 naming the field), as a phase or a power in a body is."""
    alice = register(client, "alice")
    game = new_game(client, alice, edition="conquista", start=True)
    power = game["my_powers"][0]
    url = path.replace("{game}", f"/api/games/{game['id']}")
    sent = json.loads(json.dumps(body).replace("{power}", power)) if body else None
    r = client.request(method, url, json=sent, headers=alice.headers)
    assert r.status_code == 422, r.text
    assert MARKER not in r.text and len(r.content) < 1000, r.text[:300]
    assert r.json()["detail"].startswith(f"{field}: String should have at most"), r.text


@pytest.mark.parametrize(
    ("body", "content_type"),
    [
        (b"power=FRANCE", "application/x-www-form-urlencoded"),
        (b"NaN", "application/json"),
        (b"1e999999", "application/json"),
        (b'{"power": NaN, "orders": []}', "application/json"),
        (b'{"power": "FRANCE", "orders": [1e999999]}', "application/json"),
        (b'{"power": "FRANCE", "orders": ["A PAR H\\udcff"]}', "application/json"),
        (b'{"power": "FRANCE\\udcff", "orders": []}', "application/json"),
        (b"\xff\xfe", "application/json"),
        (b"[" * 5000 + b"]" * 5000, "application/json"),
    ],
)
def test_bad_bodies_get_a_clear_4xx(client: TestClient, body: bytes, content_type: str) -> None:
    alice = register(client, "alice")
    game = new_game(client, alice, start=True)
    r = client.put(
        f"/api/games/{game['id']}/orders",
        content=body,
        headers=alice.headers | {"content-type": content_type},
    )
    assert 400 <= r.status_code < 500, r.text
    assert r.json()["detail"]


@pytest.mark.parametrize(
    ("body", "content_type", "why"),
    [
        (b'{"power": "\xff", "orders": []}', "application/json", "body: JSON decode error: "
         "the body is not UTF-8 text"),
        (b"[" * 5000 + b"]" * 5000, "application/json", "the body is nested too deeply"),
        (b'{"power": "FRANCE", "orders": [], "ready": ' + b"9" * 5000 + b"}",
         "application/json", "a number has too many digits"),
        (b'{"power": "FRANCE", "orders": [}', "application/json", "body, at character 31: "
         "JSON decode error: Expecting value"),
        (b"power=FRANCE", "application/x-www-form-urlencoded", "the body must be JSON"),
        (b'{"power": "FRANCE", "orders": []}', "text/plain", "the body must be JSON"),
        (b'{"power": "FRANCE", "orders": []}', None, "the body must be JSON"),
    ],
)  # fmt: skip
def test_a_body_not_read_as_json_is_refused_naming_why(
    client: TestClient, body: bytes, content_type: str | None, why: str
) -> None:
    """A body that is not JSON gets 422 saying why: not UTF-8, nested too deeply, a number
    too long (FastAPI answered "There was an error parsing the body"), or not sent as JSON
    at all ("Input should be a valid dictionary or object to extract fields from")."""
    alice = register(client, "alice")
    game = new_game(client, alice, start=True)
    headers = alice.headers | ({"content-type": content_type} if content_type else {})
    r = client.put(f"/api/games/{game['id']}/orders", content=body, headers=headers)
    assert r.status_code == 422, r.text
    assert why in r.json()["detail"], r.text


@pytest.mark.parametrize(
    ("fields", "said"),
    [
        ({"deadlines": {"diplomacy": True}}, "deadlines.DeadlinesIn.diplomacy: Input should be "
         "a valid integer"),
        ({"players": "3"}, "players: Input should be a valid integer"),
        ({"public": "false"}, "public: Input should be a valid boolean"),
        ({"start": 1}, "start: Input should be a valid boolean"),
    ],
)  # fmt: skip
def test_a_field_of_another_json_type_is_refused_not_converted(
    client: TestClient, fields: dict[str, Any], said: str
) -> None:
    """``true`` was read as one second of diplomacy, ``"false"`` as false, ``"3"`` as three
    players: a value of another type is refused, naming the field."""
    alice = register(client, "alice")
    r = client.post("/api/games", json={"name": "g"} | fields, headers=alice.headers)
    assert r.status_code == 422 and said in r.json()["detail"], r.text
    assert client.get("/api/games", headers=alice.headers).json()["mine"] == []


def test_a_field_named_body_is_named_in_the_error(client: TestClient) -> None:
    alice = register(client, "alice")
    game = new_game(client, alice, start=True)
    r = client.post(
        f"/api/games/{game['id']}/messages",
        json={"sender": game["my_powers"][0], "body": 5},
        headers=alice.headers,
    )
    assert r.status_code == 422 and r.json()["detail"].startswith("body: "), r.text


def test_a_body_of_many_wrong_fields_gets_a_short_answer(client: TestClient) -> None:
    """Ten thousand unknown keys, 100 kB under the limit, were each named in a 1.4 MB
    answer (both the detail and the list of errors): the answer names the first ones and
    counts the rest."""
    alice = register(client, "alice")
    game = new_game(client, alice)
    many = {f"k{n}": 1 for n in range(10_000)}
    r = client.post(f"/api/games/{game['id']}/join", json=many, headers=alice.headers)
    assert r.status_code == 422
    assert len(r.content) < 10_000, len(r.content)
    answer = r.json()
    assert answer["detail"].startswith("k0: Extra inputs are not permitted; k1: ")
    assert answer["detail"].endswith("; and 9980 more"), answer["detail"][-80:]
    assert len(answer["errors"]) == 20 and answer["errors"][0]["loc"] == ["body", "k0"]


def test_a_lone_surrogate_in_a_game_name_is_refused(client: TestClient) -> None:
    alice = register(client, "alice")
    r = client.post(
        "/api/games",
        content=b'{"name": "x\\udcff"}',
        headers=alice.headers | {"content-type": "application/json"},
    )
    assert r.status_code == 422 and "unicode" in r.json()["detail"]
    assert client.get("/api/games", headers=alice.headers).json()["mine"] == []


@pytest.mark.parametrize("game_id", ["100000000000000000000", str(2**63), "-1", "0", "1.5"])
def test_game_ids_out_of_range_get_a_4xx(client: TestClient, game_id: str) -> None:
    alice = register(client, "alice")
    for path in ("", "/history", "/messages", "/map.svg"):
        r = client.get(f"/api/games/{game_id}{path}", headers=alice.headers)
        assert r.status_code in (404, 422), (path, r.text)
    r = client.post(f"/api/games/{game_id}/join", json={}, headers=alice.headers)
    assert r.status_code in (404, 422)


def test_after_out_of_range_gets_a_4xx(client: TestClient) -> None:
    alice = register(client, "alice")
    game = new_game(client, alice, start=True)
    r = client.get(
        f"/api/games/{game['id']}/messages",
        params={"after": str(2**64)},
        headers=alice.headers,
    )
    assert r.status_code == 422


def test_a_non_ascii_invitation_code_is_refused(client: TestClient) -> None:
    alice, bob = register(client, "alice"), register(client, "bob")
    game = new_game(client, alice, public=False)
    for code in ("é", "\u202e", "コード"):
        r = client.post(f"/api/games/{game['id']}/join", json={"code": code}, headers=bob.headers)
        assert r.status_code == 404, r.text  # as no game: the code is not its
        r = client.post(f"/api/invitations/{code}", headers=bob.headers)
        assert r.status_code == 404, r.text


def test_an_unexpected_error_is_answered_not_raised(backend: Backend) -> None:
    app = create_app(backend.settings, backend=backend)

    @app.get("/api/boom")
    def boom() -> None:
        raise RuntimeError("boom")

    with TestClient(app, raise_server_exceptions=True) as c:  # an escaping error would raise
        r = c.get("/api/boom")
        assert r.status_code == 500 and "boom" not in r.text
        assert c.get("/api/meta").status_code == 200


def _peak_kib(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    return next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmHWM"))


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc")
def test_a_live_server_refuses_huge_bodies_and_keeps_its_connections(tmp_path: Path) -> None:
    """Through uvicorn: a 64 MiB body (declared, or chunked) is refused with a short 413
    without being read (the server's peak memory grows by less than 32 MiB), and bad input
    on a keep-alive connection leaves the connection serving."""
    server = start_server(f"sqlite:///{tmp_path / 'guard.sqlite3'}", tmp_path / "server.log")
    try:
        with httpx.Client(base_url=server.url, timeout=60) as http:
            r = http.post("/api/accounts", json={"username": "alice", "password": "x" * 12})
            headers = {"Authorization": f"Bearer {r.json()['token']}"}
            r = http.post("/api/games", json={"name": "g", "start": True}, headers=headers)
            game_id = r.json()["id"]
            peak = _peak_kib(server.proc.pid)

            def chunks() -> Iterator[bytes]:
                yield b'{"power":"FRANCE","orders":[],"x":"'
                for _ in range(64):
                    yield b"A" * 2**20
                yield b'"}'

            def put(body: Iterator[bytes] | bytes) -> httpx.Response:
                return http.put(
                    f"/api/games/{game_id}/orders",
                    content=body,
                    headers=headers | {"content-type": "application/json"},
                )

            for body in (chunks(), b"A" * 64 * 2**20):
                r = put(body)
                assert r.status_code == 413 and len(r.content) < 200
            assert _peak_kib(server.proc.pid) - peak < 32 * 1024
            bad = [
                http.get(f"/api/games/{2**63}", headers=headers),
                http.get(f"/api/games/{game_id}/messages?after={2**64}", headers=headers),
                http.put(
                    f"/api/games/{game_id}/orders",
                    content=b"power=FRANCE",
                    headers=headers | {"content-type": "application/x-www-form-urlencoded"},
                ),
                http.put(
                    f"/api/games/{game_id}/orders",
                    content=b'{"power": NaN, "orders": [1e999999]}',
                    headers=headers | {"content-type": "application/json"},
                ),
                http.post(
                    "/api/games",
                    content=b'{"name": "x\\udcff"}',
                    headers=headers | {"content-type": "application/json"},
                ),
                http.post(f"/api/games/{game_id}/join", json={"code": "é"}, headers=headers),
            ]
            assert all(400 <= r.status_code < 500 for r in bad), [r.status_code for r in bad]
            for _ in range(5):  # the same connection still serves
                assert http.get(f"/api/games/{game_id}", headers=headers).status_code == 200
    finally:
        server.stop()
    assert "Traceback" not in server.log.read_text()


def _raw_request(port: int, head: str, parts: list[bytes], pause: float = 0.0) -> bytes:
    """Send a request as a client that writes its whole body before it reads (as Python's
    urllib and many others do), then read the answer (its head and its Content-Length).
    A reset while the body is still sent fails the test: the answer was lost with it."""
    with socket.create_connection(("127.0.0.1", port), timeout=60) as sock:
        sock.sendall(head.encode())
        for part in parts:
            if pause:
                time.sleep(pause)
            sock.sendall(part)
        answer = b""
        while b"\r\n\r\n" not in answer or len(answer.split(b"\r\n\r\n", 1)[1]) < int(
            answer.lower().split(b"content-length:", 1)[1].split(b"\r\n", 1)[0]
        ):
            chunk = sock.recv(65536)
            assert chunk, f"the server closed the connection with {answer!r} answered"
            answer += chunk
    return answer


def _chunked(body: bytes, size: int) -> list[bytes]:
    pieces = [body[i : i + size] for i in range(0, len(body), size)]
    return [b"%x\r\n%s\r\n" % (len(p), p) for p in pieces] + [b"0\r\n\r\n"]


def test_a_live_server_answers_an_oversized_body_413_on_every_route(tmp_path: Path) -> None:
    """A body over the limit, sent whole before the answer is read, gets its 413 naming the
    limit on every route (one that reads a body, one that has none, one that does not
    exist): declared, chunked, sent slowly, or with a Content-Length larger than what comes.
    The server reads and drops the rest of the body before it closes: closing with it unread
    reset the connection, and the client writing it lost the answer (urllib: 'Broken
    pipe')."""
    limit = 131072
    server = start_server(f"sqlite:///{tmp_path / 'big.sqlite3'}", tmp_path / "server.log")
    port = int(server.url.rsplit(":", 1)[1])
    big = b"A" * (4 * 2**20)
    try:
        for path in ("/api/sessions", "/api/games/1/orders", "/api/no-such-route", "/"):
            start = f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            answers = {
                "declared": _raw_request(
                    port, start + f"Content-Length: {len(big)}\r\n\r\n", [big]
                ),
                "chunked": _raw_request(
                    port, start + "Transfer-Encoding: chunked\r\n\r\n", _chunked(big, 2**16)
                ),
                "slowly": _raw_request(
                    port,
                    start + "Transfer-Encoding: chunked\r\n\r\n",
                    _chunked(b"A" * (limit * 3), 2**15),
                    pause=0.05,
                ),
                "lying length": _raw_request(
                    port, start + f"Content-Length: {len(big)}\r\n\r\n", [b"A" * 1000]
                ),
                "waiting for 100 Continue": _raw_request(
                    port, start + f"Content-Length: {len(big)}\r\nExpect: 100-continue\r\n\r\n", []
                ),
            }
            for how, answer in answers.items():
                assert answer.startswith(b"HTTP/1.1 413 "), (path, how, answer[:200])
                assert f"limit of {limit} bytes".encode() in answer, (path, how, answer)
            request = urllib.request.Request(
                server.url + path, data=big, headers={"content-type": "application/json"}
            )
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(request, timeout=60)
            assert refused.value.code == 413, path
        assert httpx.get(server.url + "/api/meta").status_code == 200
    finally:
        server.stop()
    assert "Traceback" not in server.log.read_text()


@pytest.fixture(params=["sqlite", "postgresql"])
def any_client(request: pytest.FixtureRequest, clock: FakeClock) -> Iterator[TestClient]:
    """A client of a server on SQLite, then on PostgreSQL."""
    url = request.getfixturevalue("sqlite_url" if request.param == "sqlite" else "pg_url")
    b = Backend.open(fast_settings(url), clock=clock)
    try:
        with TestClient(create_app(b.settings, backend=b)) as client:
            yield client
    finally:
        b.close()
        engine.clear_cache()


def test_the_nul_character_is_refused_in_every_field(any_client: TestClient) -> None:
    """PostgreSQL cannot store NUL: each of these answered 500 there (an unauthenticated
    log-in and invitation among them). Now a 4xx naming it, on either database, and
    nothing stored."""
    client = any_client
    alice = register(client, "alice")
    game = new_game(client, alice, players=2, press_anytime=True, start=True)
    gid, power = game["id"], game["my_powers"][0]
    h = alice.headers
    answers = {
        "log-in": client.post("/api/sessions", json={"username": "a\0b", "password": "x" * 9}),
        "invitation": client.get("/api/invitations/ab%00cd"),
        "join by code": client.post("/api/invitations/ab%00cd", headers=h),
        "game name": client.post("/api/games", json={"name": "a\0b"}, headers=h),
        "message": client.post(
            f"/api/games/{gid}/messages", json={"sender": power, "body": "hi\0"}, headers=h
        ),
        "orders": client.put(
            f"/api/games/{gid}/orders", json={"power": power, "orders": ["A PAR\0 H"]}, headers=h
        ),
        "history": client.get(f"/api/games/{gid}/history/S1901M%00", headers=h),
        "map": client.get(f"/api/games/{gid}/map.svg", params={"phase": "S1\0"}, headers=h),
        "code": client.get(f"/api/games/{gid}", params={"code": "a\0"}),
    }
    for what, r in answers.items():
        assert r.status_code in (400, 422), (what, r.status_code, r.text)
        assert "NUL" in r.json()["detail"], (what, r.text)
    assert client.get(f"/api/games/{gid}/messages", headers=h).json() == []
    mine = client.get("/api/games", headers=h).json()["mine"]
    assert [g["id"] for g in mine] == [gid]


@pytest.mark.parametrize(
    "char",
    ["\u202e", "\u0007", "\u200b", "\n", "\u2028", "\u3164", "\u115f", "\uffa0", "\u2800"],
)
def test_a_game_name_holds_no_control_characters(client: TestClient, char: str) -> None:
    """The lobby shows game names to everyone: a right-to-left override would reorder
    what follows it, a zero-width space or a bell hide in it; nor the letters drawn as
    nothing (the Hangul fillers, the blank braille pattern), of which a name that looks
    empty was made."""
    alice = register(client, "alice")
    r = client.post("/api/games", json={"name": f"abc{char}def"}, headers=alice.headers)
    assert r.status_code == 400, r.text
    assert f"U+{ord(char):04X}" in r.json()["detail"]
    ok = client.post("/api/games", json={"name": "café 👩\u200d👩 ok"}, headers=alice.headers)
    assert ok.status_code == 201, ok.text  # letters, emoji and their joiners are fine


def test_a_message_holds_no_control_characters_but_line_breaks(client: TestClient) -> None:
    alice = register(client, "alice")
    game = new_game(client, alice, players=2, press_anytime=True, start=True)
    url, power = f"/api/games/{game['id']}/messages", game["my_powers"][0]
    r = client.post(url, json={"sender": power, "body": "ring\u0007"}, headers=alice.headers)
    assert r.status_code == 400 and "U+0007" in r.json()["detail"], r.text
    r = client.post(url, json={"sender": power, "body": "two\n\tlines"}, headers=alice.headers)
    assert r.status_code == 201, r.text


def test_a_key_given_twice_is_refused_not_read_as_the_last(client: TestClient) -> None:
    """``{"power": "A", "power": "B"}`` was read as B without a word: which was meant
    cannot be told, so it is refused (422 naming the key), and nothing is stored."""
    alice = register(client, "alice")
    game = new_game(client, alice, players=2, start=True)
    gid, (first, second, *_) = game["id"], game["my_powers"]
    url = f"/api/games/{gid}/orders"
    legal = client.get(
        f"/api/games/{gid}/legal", params={"power": second}, headers=alice.headers
    ).json()
    order = next(iter(legal.values()))[0]["order"]  # read as the second's before
    body = f'{{"power": "{first}", "orders": {json.dumps([order])}, "power": "{second}"}}'
    r = client.put(url, content=body, headers=alice.headers | {"content-type": "application/json"})
    assert r.status_code == 422, r.text
    assert "'power' is given twice" in r.json()["detail"]
    for power in (first, second):
        stored = client.get(url, params={"power": power}, headers=alice.headers).json()
        assert stored["orders"] == [], stored
    nested = b'{"name": "g", "deadlines": {"orders": 60, "orders": 0}}'
    r = client.post(
        "/api/games", content=nested, headers=alice.headers | {"content-type": "application/json"}
    )
    assert r.status_code == 422 and "'orders' is given twice" in r.json()["detail"], r.text
    r = client.post(
        "/api/games",
        content=b'{"name": }',
        headers=alice.headers | {"content-type": "application/json"},
    )
    assert r.status_code == 422 and "Expecting value" in r.json()["detail"], r.text


def test_requests_meeting_the_database_out_of_reach_say_it_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Every request meeting PostgreSQL stopped logged its whole traceback (about a hundred
    lines each); one line says it now, and another when requests are answered again."""
    state = {"down": True}

    def page(request: Any) -> PlainTextResponse:
        if state["down"]:
            raise OperationalError("SELECT", {}, Exception("connection refused"))
        return PlainTextResponse("ok")

    # (a router, as the app's stack has it inside the guard: a whole Starlette app would
    # answer 500 itself first)
    app = Guard(Router(routes=[Route("/", page)]), max_body=1000)
    with caplog.at_level(logging.INFO, logger="realpolitik.server.guard"), TestClient(app) as c:
        answers = [c.get("/") for _ in range(5)]
        assert [r.status_code for r in answers] == [503] * 5
        assert answers[0].json()["detail"] == (
            "the server cannot use its database now (the database is out of reach): try again later"
        )
        state["down"] = False
        assert c.get("/").status_code == 200
    said = [(r.levelname, r.getMessage(), r.exc_info is not None) for r in caplog.records]
    assert said == [
        ("ERROR", "answering requests failed: (builtins.Exception) connection refused "
                  "(the database is out of reach; said again each minute)", False),
        ("WARNING", "answering requests works again", False),
    ]  # fmt: skip


def test_a_full_or_read_only_database_is_said_so_and_nothing_is_lost(
    client: TestClient, backend: Backend, caplog: pytest.LogCaptureFixture
) -> None:
    """The database's disk full (SQLite's page limit stands for it) or the database made
    read-only: a write is answered 503 naming it (code ``database_unavailable``; it was a
    500 "internal error", and the log said the database was out of reach), reads still
    work, nothing stored before is changed, and writes work again once it is fixed."""
    alice = register(client, "alice")
    game = new_game(client, alice, players=2, press_anytime=True, start=True)
    gid, power = game["id"], game["my_powers"][0]
    h = alice.headers
    messages, orders = f"/api/games/{gid}/messages", f"/api/games/{gid}/orders"
    assert client.post(messages, json={"sender": power, "body": "before"}, headers=h).is_success
    given = client.get(orders, params={"power": power}, headers=h).json()["orders"]
    legal = client.get(f"/api/games/{gid}/legal", params={"power": power}, headers=h).json()
    hold = next(str(o["order"]) for options in legal.values() for o in options)
    pragma: dict[str, str | None] = {"now": None}

    @event.listens_for(backend.db, "connect")
    def _limited(dbapi_conn: Any, record: Any) -> None:
        if pragma["now"]:
            dbapi_conn.execute(pragma["now"])

    with backend.db.connect() as conn:
        pages = conn.exec_driver_sql("PRAGMA page_count").scalar_one()
    troubles = {
        "the database's disk is full": f"PRAGMA max_page_count = {pages}",
        "the database is read-only": "PRAGMA query_only = ON",
    }
    for trouble, statement in troubles.items():
        pragma["now"] = statement
        backend.db.dispose()
        with caplog.at_level(logging.INFO, logger="realpolitik.server.guard"):
            for _ in range(200):  # until the pages left are used up
                r = client.post(messages, json={"sender": power, "body": "x" * 1900}, headers=h)
                if r.status_code != 201:
                    break
            assert r.status_code == 503, (trouble, r.text)
            assert r.json()["code"] == "database_unavailable"
            assert r.json()["detail"] == (
                f"the server cannot use its database now ({trouble}): try again later"
            )
            r = client.put(orders, json={"power": power, "orders": [hold]}, headers=h)
            if r.status_code == 200:  # (a full disk: rewritten in the pages it had)
                given = r.json()["orders"]
            else:
                assert r.status_code == 503 and trouble in r.json()["detail"], r.text
        assert f"({trouble}; said again each minute)" in caplog.text
        assert client.get(orders, params={"power": power}, headers=h).json()["orders"] == given
        pragma["now"] = None
        backend.db.dispose()
    said = [m["body"] for m in client.get(messages, headers=h).json()]
    assert said[0] == "before" and set(said[1:]) <= {"x" * 1900}
    assert client.post(messages, json={"sender": power, "body": "after"}, headers=h).is_success
    r = client.put(orders, json={"power": power, "orders": [hold]}, headers=h)
    assert r.status_code == 200, r.text
