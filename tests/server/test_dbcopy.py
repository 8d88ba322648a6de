"""``realpolitik copy-database``: a host's SQLite database copied whole into PostgreSQL
(or another SQLite file); the server goes on there as it was."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from realpolitik.cli import main
from realpolitik.server import engine
from realpolitik.server.app import create_app
from realpolitik.server.backend import Backend
from realpolitik.server.dbcopy import TABLES
from tests.server.conftest import FakeClock, fast_settings, new_game, register, start_server


def _host(url: str, clock: FakeClock) -> int:
    """A server's life on ``url``: two players, a game played a phase on, with orders and
    press; return the game's number."""
    b = Backend.open(fast_settings(url), clock=clock)
    with TestClient(create_app(b.settings, backend=b)) as c:
        alice, bob = register(c, "alice"), register(c, "bob")
        gid: int = new_game(c, alice, players=2, bots=None)["id"]
        assert c.post(f"/api/games/{gid}/join", json={}, headers=bob.headers).status_code == 200
        for who in (alice, bob):
            for power in c.get(f"/api/games/{gid}", headers=who.headers).json()["my_powers"]:
                r = c.post(f"/api/games/{gid}/ready", json={"power": power}, headers=who.headers)
                assert r.status_code == 200, r.text
        power = c.get(f"/api/games/{gid}", headers=alice.headers).json()["my_powers"][0]
        r = c.post(f"/api/games/{gid}/messages", json={"sender": power, "body": "hello"},
                   headers=alice.headers)  # fmt: skip
        assert r.status_code == 201, r.text
    b.close()
    engine.clear_cache()
    return gid


def _rows(url: str) -> dict[str, int]:
    b = Backend.open(fast_settings(url))
    try:
        with b.db.connect() as conn:
            return {
                tb.name: conn.execute(select(func.count()).select_from(tb)).scalar_one()
                for tb in TABLES
            }
    finally:
        b.close()


def _copy(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(["copy-database", *argv], stdout=out), out.getvalue()


def _seen(c: TestClient, gid: int, token: str) -> Any:
    headers = {"Authorization": f"Bearer {token}"}
    view = c.get(f"/api/games/{gid}", headers=headers).json()
    view.pop("now")
    return view, c.get(f"/api/games/{gid}/messages", headers=headers).json()


@pytest.mark.parametrize(
    ("start", "into"), [("sqlite", "postgresql"), ("sqlite", "sqlite"), ("postgresql", "sqlite")]
)
def test_a_server_goes_on_in_the_database_it_was_copied_to(
    start: str, into: str, tmp_path: Path, clock: FakeClock, request: pytest.FixtureRequest
) -> None:
    """Accounts, sessions, the game, its phase played and its press: all there in the copy,
    the player still logged in; new accounts and messages take ids after those copied."""
    source, target = (
        request.getfixturevalue("pg_url") if kind == "postgresql"
        else f"sqlite:///{tmp_path / f'{name}.sqlite3'}"
        for kind, name in ((start, "host"), (into, "moved"))
    )  # fmt: skip
    gid = _host(source, clock)
    b = Backend.open(fast_settings(source), clock=clock)
    with TestClient(create_app(b.settings, backend=b)) as c:
        token = c.post("/api/sessions", json={"username": "alice", "password": "correct horse"})
        before = _seen(c, gid, token.json()["token"])
    b.close()
    engine.clear_cache()

    status, said = _copy(target, "--database", source)
    assert status == 0, said
    rows = _rows(source)
    assert _rows(target) == rows and rows["users"] == 2 and rows["phases"] >= 1
    assert "users 2, " in said and "copied" in said and "serve it with --database" in said

    b = Backend.open(fast_settings(target), clock=clock)
    with TestClient(create_app(b.settings, backend=b)) as c:
        assert _seen(c, gid, token.json()["token"]) == before  # logged in still, all there
        carol = register(c, "carol")  # new ids after the copied ones
        assert carol.user_id == 3
        power = before[0]["my_powers"][0]
        r = c.post(f"/api/games/{gid}/messages", json={"sender": power, "body": "moved"},
                   headers={"Authorization": f"Bearer {token.json()['token']}"})  # fmt: skip
        assert r.status_code == 201, r.text
        assert r.json()["id"] > before[1][-1]["id"]
    b.close()
    engine.clear_cache()


def test_a_copy_is_refused_where_it_would_lose_or_mix_data(
    tmp_path: Path, clock: FakeClock, capsys: pytest.CaptureFixture[str]
) -> None:
    """Into a database that holds data, from itself, from a file that is not there (none is
    made) or a URL that is none: exit status 2, the reason on one line, nothing written."""
    source = f"sqlite:///{tmp_path / 'host.sqlite3'}"
    target = f"sqlite:///{tmp_path / 'moved.sqlite3'}"
    _host(source, clock)
    assert _copy(target, "--database", source)[0] == 0
    copied = _rows(target)
    cases = {
        (target, "--database", source): "the target database is not empty (rows: attempts 2, ",
        (source, "--database", source): "the source and the target are the same database",
        (f"sqlite:///{tmp_path / 'new.sqlite3'}", "--database", f"sqlite:///{tmp_path / 'none'}"):
            "there is no database file",
        ("nonsense", "--database", source): "not a database URL: 'nonsense'",
    }  # fmt: skip
    for argv, said in cases.items():
        status, out = _copy(*argv)
        assert status == 2 and out == "" and said in capsys.readouterr().err, argv
    assert _rows(target) == copied  # nothing written twice
    assert not (tmp_path / "none").exists()


@pytest.mark.parametrize(
    ("target", "said"),
    [
        ("mysql://ada:s3cret@127.0.0.1/db", "No module named 'MySQLdb' (realpolitik serves"),
        ("sqlite://", "an in-memory SQLite database keeps nothing"),
    ],
)
def test_a_target_that_cannot_be_a_server_s_database_is_named(
    target: str, said: str, tmp_path: Path, clock: FakeClock, capsys: pytest.CaptureFixture[str]
) -> None:
    """A URL of a database without its driver here (``mysql://``), or one kept in memory,
    ended the copy in a traceback (``ModuleNotFoundError``, ``TypeError: Invalid
    argument(s) 'max_overflow'``)."""
    source = f"sqlite:///{tmp_path / 'host.sqlite3'}"
    _host(source, clock)
    status, out = _copy(target, "--database", source)
    err = capsys.readouterr().err
    assert status == 2 and out == "" and said in err and "s3cret" not in err, err
    assert err.count("\n") == 1, err


@pytest.mark.parametrize("scheduler", ["1", "0"])
def test_a_copy_is_refused_while_a_server_still_serves_the_source(
    scheduler: str, tmp_path: Path, clock: FakeClock, capsys: pytest.CaptureFixture[str]
) -> None:
    """The README says to stop the server first, or what it writes meanwhile is lost: a
    server still running on the SQLite file (even one idle, without the scheduler) is
    named and the copy refused, the target left as it was; once it stops, the copy is
    made."""
    source = f"sqlite:///{tmp_path / 'host.sqlite3'}"
    target = f"sqlite:///{tmp_path / 'moved.sqlite3'}"
    _host(source, clock)
    server = start_server(
        source, tmp_path / "server.log", extra_env={"REALPOLITIK_SCHEDULER": scheduler}
    )
    try:
        status, out = _copy(target, "--database", source)
        err = capsys.readouterr().err
        assert status == 2 and out == "", (out, err)
        assert err.count("\n") == 1 and "is open in another process" in err, err
        assert "stop the server first" in err and str(tmp_path / "host.sqlite3") in err, err
        assert not (tmp_path / "moved.sqlite3").exists()
    finally:
        server.stop()
    status, out = _copy(target, "--database", source)
    assert status == 0, (out, capsys.readouterr().err)
    assert _rows(target) == _rows(source)


def test_a_copy_is_refused_while_a_server_still_serves_the_postgresql_source(
    pg_url: str, tmp_path: Path, clock: FakeClock, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same on PostgreSQL: a server's connections to the source database are named
    (``application_name``), found among the database's sessions, and the copy refused."""
    target = f"sqlite:///{tmp_path / 'moved.sqlite3'}"
    _host(pg_url, clock)
    server = start_server(pg_url, tmp_path / "server.log")
    try:
        status, out = _copy(target, "--database", pg_url)
        err = capsys.readouterr().err
        assert status == 2 and out == "", (out, err)
        assert err.count("\n") == 1 and "stop the server first" in err, err
        assert "is open in another process" in err and "postgresql+psycopg://" in err, err
        assert not (tmp_path / "moved.sqlite3").exists()
    finally:
        server.stop()
    status, out = _copy(target, "--database", pg_url)
    assert status == 0, (out, capsys.readouterr().err)
    assert _rows(target) == _rows(pg_url)
