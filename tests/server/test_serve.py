"""``realpolitik serve`` given a database it cannot open: one line naming the database
(never its password) and why, exit status 2, no traceback."""

from __future__ import annotations

import os
import re
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from realpolitik.cli import main
from realpolitik.server.db import make_engine
from realpolitik.server.migrations import MIGRATIONS


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("sqlite:///{tmp}/no/such/folder/x.sqlite3", "unable to open database file"),
        ("sqlite:///{tmp}/garbage.sqlite3", "file is not a database"),
        ("nonsense://x", "Can't load plugin"),
        ("postgresql+psycopg://ada:s3cret@127.0.0.1:1/db", "Connection refused"),
        ("not a URL s3cret", "Could not parse"),
        ("mysql://ada:s3cret@127.0.0.1/db", "No module named 'MySQLdb' (realpolitik serves"),
        ("sqlite://", "an in-memory SQLite database keeps nothing"),
        ("sqlite:///:memory:", "an in-memory SQLite database keeps nothing"),
    ],
)
def test_a_database_that_cannot_be_opened_is_named_not_a_traceback(
    url: str,
    why: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    (tmp_path / "garbage.sqlite3").write_text("not a database, at all: " * 100)
    monkeypatch.setenv("REALPOLITIK_DATABASE_URL", "")  # serve sets it: restored after
    url = url.format(tmp=tmp_path)
    assert main(["serve", "--port", "1", "--database", url]) == 2
    err = capsys.readouterr().err
    assert err.startswith("realpolitik: error: cannot open the database ") and why in err, err
    assert err.count("\n") == 1 and "s3cret" not in err


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_database_that_cannot_be_written_is_refused_at_the_start(
    kind: str,
    tmp_path: Path,
    request: pytest.FixtureRequest,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A read-only database (a SQLite file opened read-only, as one the server's user may
    not write is; a PostgreSQL session that may not write) was served: the server started,
    said it served, and every write failed after. It is refused at the start, naming it."""
    if kind == "sqlite":
        path = tmp_path / "club.sqlite3"
        make_engine(f"sqlite:///{path}").dispose()
        url, why = f"sqlite:///file:{path}?mode=ro&uri=true", f"the file {path} is read-only"
    else:
        url = request.getfixturevalue("pg_url")
        make_engine(url).dispose()
        url += "?options=-c%20default_transaction_read_only%3Don"
        why = "cannot execute UPDATE in a read-only transaction"
    monkeypatch.setenv("REALPOLITIK_DATABASE_URL", "")

    def served(host: str, port: int) -> None:
        raise AssertionError("it went on to serve")

    monkeypatch.setattr("realpolitik.commands.serve.listen", served)
    assert main(["serve", "--port", "1", "--database", url]) == 2
    err = capsys.readouterr().err
    assert err.startswith("realpolitik: error: cannot open the database ") and why in err, err
    assert "the database cannot be written" in err and err.count("\n") == 1


@pytest.mark.parametrize("port", ["99999", "-1", "80a"])
def test_a_port_out_of_range_is_refused_before_serving(
    port: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--port 99999`` printed the server's start, then uvicorn's traceback
    (``OverflowError: bind(): port must be 0-65535``), exit status 1."""
    with pytest.raises(SystemExit) as stop:
        main(["serve", "--port", port, "--database", "sqlite://"])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and "Traceback" not in err
    assert f"argument --port: not a port number (0 to 65535): {port!r}" in err


def test_a_bad_port_in_the_environment_breaks_only_serve(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``PORT=abc`` (the default of ``--port``) made every command that lists the
    subcommands, ``realpolitik --help`` too, end in a ValueError traceback."""
    monkeypatch.setenv("PORT", "abc")
    with pytest.raises(SystemExit) as stop:
        main(["--help"])
    assert stop.value.code == 0 and "serve" in capsys.readouterr().out
    with pytest.raises(SystemExit) as stop:
        main(["serve", "--database", "sqlite://"])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and "not a port number (0 to 65535): 'abc'" in err


def test_the_log_shows_the_server_s_own_lines_and_hides_its_links_secrets(
    tmp_path: Path,
) -> None:
    """The server's own lines (a migration applied, a phase processed, a mail not sent)
    were never shown: uvicorn configures its own loggers only, so ``info`` was dropped and
    a warning came out bare, with no level. And the access log wrote each request's path
    whole: a mail's link that turns notices off (``/unsubscribe/TOKEN``) and an unlisted
    game's invitation (``/api/invitations/CODE``, ``?code=CODE``)."""
    import httpx

    from tests.server.conftest import start_server

    log = tmp_path / "server.log"
    live = start_server(
        f"sqlite:///{tmp_path}/fresh.sqlite3", log, extra_env={"REALPOLITIK_LOG_LEVEL": "info"}
    )
    try:
        httpx.get(live.url + "/unsubscribe/tok3nSECRET")
        httpx.get(live.url + "/api/invitations/c0deSECRET")
        httpx.get(live.url + "/api/games/12/events?code=c0deSECRET&x=1")
        httpx.get(live.url + "/api/games/12?x=1&cod%65=c0deSECRET")  # read as ?code= too
    finally:
        live.stop()
    text = log.read_text()
    assert "INFO:     applying migration 1: initial schema" in text, text
    assert '"GET /unsubscribe/*** HTTP/1.1" 404' in text, text
    assert '"GET /api/invitations/*** HTTP/1.1" 404' in text, text
    assert "/api/games/12/events?code=***&x=1" in text, text
    assert "/api/games/12?x=1&cod%65=*** HTTP/1.1" in text, text
    assert "SECRET" not in text, text


@pytest.mark.parametrize("workers", ["0", "-2", "two"])
def test_a_number_of_workers_below_one_is_refused(
    workers: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--workers 0`` and ``--workers -2`` served with one process, without a word."""
    with pytest.raises(SystemExit) as stop:
        main(["serve", "--workers", workers, "--database", "sqlite://"])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and "Traceback" not in err
    assert f"argument --workers: must be a whole number from 1, not {workers!r}" in err


def test_a_password_holding_an_at_sign_is_never_shown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``postgresql+psycopg://ada:s3@cret@db.example.org/x``: the URL is read with the
    password ``s3`` and the host ``cret@db.example.org``, so the server's line and the
    driver's ("failed to resolve host 'cret@db.example.org'") showed the rest of it."""
    monkeypatch.setenv("REALPOLITIK_DATABASE_URL", "")
    url = "postgresql+psycopg://ada:s3@cret@127.0.0.1:1/db"
    assert main(["serve", "--port", "1", "--database", url]) == 2
    assert main(["copy-database", f"sqlite:///{tmp_path / 'new.sqlite3'}", "--database", url]) == 2
    err = capsys.readouterr().err
    assert err.count("postgresql+psycopg://***@127.0.0.1:1/db: the password holds an @") == 2
    assert "cret" not in err and "%40" in err, err


def test_a_password_in_the_url_s_query_is_never_shown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """PostgreSQL reads a password from the URL's query too (``?password=``): the error
    showed it whole, where one in the user part is hidden."""
    monkeypatch.setenv("REALPOLITIK_DATABASE_URL", "")
    url = "postgresql+psycopg://ada@127.0.0.1:1/db?password=s3cretWORD&sslmode=disable"
    assert main(["serve", "--port", "1", "--database", url]) == 2
    assert main(["copy-database", f"sqlite:///{tmp_path / 'new.sqlite3'}", "--database", url]) == 2
    err = capsys.readouterr().err
    assert err.count("postgresql+psycopg://ada@127.0.0.1:1/db?password=***&sslmode=disable") == 2
    assert "s3cret" not in err, err


def test_a_database_a_newer_realpolitik_wrote_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A host who goes back to an older release after an upgrade: the server started on a
    schema it does not know (columns it never fills, meanings it never heard of), without
    a word. It stops, saying which versions."""
    url = f"sqlite:///{tmp_path / 'newer.sqlite3'}"
    monkeypatch.setenv("REALPOLITIK_DATABASE_URL", "")
    make_engine(url).dispose()
    conn = sqlite3.connect(tmp_path / "newer.sqlite3")
    latest = MIGRATIONS[-1][0]
    conn.execute("INSERT INTO schema_version VALUES (?, 'later', ?)", (latest + 1, time.time()))
    conn.commit()
    conn.close()
    capsys.readouterr()
    copy = ["copy-database", f"sqlite:///{tmp_path / 'copy.sqlite3'}", "--database", url]
    assert main(copy) == 2  # (before: copied, the target at this release's schema)
    err = capsys.readouterr().err
    assert f"its schema is version {latest + 1}, newer than this realpolitik's ({latest})" in err
    assert err.count("\n") == 1, err
    with pytest.raises(ValueError, match=f"version {latest + 1}, newer than"):
        make_engine(url)  # (what serve opens first)


def test_a_port_in_use_is_named_and_serving_is_never_said(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A port another program holds: the server printed "serving on http://...:PORT/"
    (and its database line), then uvicorn's "[Errno 98] error while attempting to bind"
    and its shutdown lines, exit status 3. It says one line naming the port, and never
    that it serves."""
    monkeypatch.setenv("REALPOLITIK_DATABASE_URL", "")
    holder = socket.socket()
    holder.bind(("127.0.0.1", 0))
    holder.listen()
    port = holder.getsockname()[1]
    try:
        url = f"sqlite:///{tmp_path / 'x.sqlite3'}"
        assert main(["serve", "--port", str(port), "--database", url]) == 2
    finally:
        holder.close()
    out, err = capsys.readouterr()
    said = [line for line in err.splitlines() if not line.startswith("INFO: ")]  # migrations
    assert "serving" not in out, out
    assert len(said) == 1 and "in use" in said[0], err
    assert said[0].startswith(f"realpolitik: error: cannot serve on 127.0.0.1 port {port}: ")


def test_port_0_serves_on_the_port_it_says(tmp_path: Path) -> None:
    """``--port 0`` (any free port): the server said "serving on http://127.0.0.1:0/",
    an address nobody can reach; it names the port it was given."""
    import httpx

    log = tmp_path / "server.log"
    env = {**os.environ, "REALPOLITIK_DATABASE_URL": f"sqlite:///{tmp_path / 'x.sqlite3'}"}
    cmd = [sys.executable, "-m", "realpolitik.cli", "serve", "--port", "0"]
    with log.open("wb") as handle:
        proc = subprocess.Popen(cmd, env=env, stdout=handle, stderr=subprocess.STDOUT)
    try:
        found = None
        deadline = time.monotonic() + 60
        while found is None and time.monotonic() < deadline and proc.poll() is None:
            found = re.search(r"serving on (http://127\.0\.0\.1:(\d+)/)", log.read_text())
            time.sleep(0.1)
        assert found is not None and found[2] != "0", log.read_text()
        assert httpx.get(found[1] + "api/meta", timeout=10).status_code == 200
    finally:
        proc.terminate()
        proc.wait(10)
