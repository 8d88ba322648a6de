"""Fixtures of the server tests: an app on a fresh SQLite file (or PostgreSQL), accounts,
a fake clock, a live server process, the PostgreSQL cluster of tools/ci_services.sh, and
the live server and headless Chromium of the web page's tests (``test_web_*.py``)."""

from __future__ import annotations

import os
import shlex
import shutil
import socket
import subprocess
import sys
import time
import uuid
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

warnings.filterwarnings("ignore", message=".*httpx.*", category=DeprecationWarning)

from fastapi.testclient import TestClient  # noqa: E402

from realpolitik.server import engine  # noqa: E402
from realpolitik.server.app import create_app  # noqa: E402
from realpolitik.server.backend import Backend  # noqa: E402
from realpolitik.server.settings import Settings  # noqa: E402
from tests.server.fakesmtp import FakeSmtp  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
IN_CI = bool(os.environ.get("CI"))
BOT_STRENGTH = 30
"""The search bot's budget in the servers under test: enough to play sensible orders, a
twentieth of its default (the bots' play is tested in ``tests/test_bots_search.py``; here
they only fill seats)."""
REQUESTS_PER_MINUTE = 1_000_000
"""Many tests' players share one address (and one server): the limit of requests per client
is there, never reached (``test_throttle.py`` reaches it)."""


class FakeClock:
    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def fast_settings(url: str, **kw: Any) -> Settings:
    base: dict[str, Any] = {
        "database_url": url,
        "scheduler": False,
        "password_time_cost": 1,
        "password_memory_kib": 1024,
        "bot_strength": BOT_STRENGTH,
        "requests_per_minute": REQUESTS_PER_MINUTE,
    }
    return Settings(**(base | kw))


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'test.sqlite3'}"


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def backend(sqlite_url: str, clock: FakeClock) -> Iterator[Backend]:
    b = Backend.open(fast_settings(sqlite_url), clock=clock)
    yield b
    b.close()
    engine.clear_cache()  # the next test's database reuses the game ids and versions


@pytest.fixture
def client(backend: Backend) -> Iterator[TestClient]:
    app = create_app(backend.settings, backend=backend)
    with TestClient(app) as c:
        yield c


@dataclass
class Player:
    username: str
    token: str
    user_id: int

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


def register(client: TestClient, username: str, password: str = "correct horse") -> Player:
    r = client.post("/api/accounts", json={"username": username, "password": password})
    assert r.status_code == 201, r.text
    body = r.json()
    return Player(username, body["token"], body["user"]["id"])


@pytest.fixture
def make_player(client: TestClient) -> Callable[[str], Player]:
    return lambda name: register(client, name)


def new_game(client: TestClient, owner: Player, **kw: Any) -> dict[str, Any]:
    body = {"name": "test game", "deadlines": "none"} | kw
    r = client.post("/api/games", json=body, headers=owner.headers)
    assert r.status_code == 201, r.text
    result: dict[str, Any] = r.json()
    return result


# --- mail ------------------------------------------------------------------------------------

SITE = "https://dip.example.org"


@pytest.fixture
def smtp() -> Iterator[FakeSmtp]:
    server = FakeSmtp()
    yield server
    server.close()


@dataclass
class Mailing:
    """A server that sends mail (to ``smtp``), on SQLite or PostgreSQL."""

    client: TestClient
    backend: Backend
    smtp: FakeSmtp


@pytest.fixture(params=["sqlite", "postgresql"])
def mailing(request: pytest.FixtureRequest, clock: FakeClock, smtp: FakeSmtp) -> Iterator[Mailing]:
    url = request.getfixturevalue("sqlite_url" if request.param == "sqlite" else "pg_url")
    settings = fast_settings(
        url, smtp_url=smtp.url, mail_from="realpolitik@example.org", public_url=SITE
    )
    backend = Backend.open(settings, clock=clock)
    with TestClient(create_app(settings, backend=backend)) as client:
        yield Mailing(client, backend, smtp)
    backend.close()
    engine.clear_cache()


# --- PostgreSQL -----------------------------------------------------------------------------


@pytest.fixture(scope="session")
def pg_admin_url() -> Iterator[str]:
    """The PostgreSQL of tools/ci_services.sh (``make test``), or one started here."""
    url = os.environ.get("REALPOLITIK_TEST_PG_URL")
    if url:
        yield url
        return
    script = ROOT / "tools" / "ci_services.sh"
    proc = subprocess.run(["bash", str(script), "start"], capture_output=True, text=True)
    if proc.returncode != 0:
        if IN_CI:
            pytest.fail(f"PostgreSQL could not be started: {proc.stderr[-2000:]}")
        pytest.skip("no PostgreSQL server here (tools/ci_services.sh install)")
    env = dict(
        line.removeprefix("export ").split("=", 1)
        for line in proc.stdout.splitlines()
        if line.startswith("export ")
    )
    try:
        yield env["REALPOLITIK_TEST_PG_URL"]
    finally:
        subprocess.run(["bash", str(script), "stop", env["RP_PG_DIR"]], check=False)


@pytest.fixture
def pg_url(pg_admin_url: str) -> Iterator[str]:
    """A new, empty database on the test cluster."""
    from sqlalchemy import create_engine, text

    name = f"rp_{uuid.uuid4().hex[:12]}"
    admin = create_engine(pg_admin_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f"CREATE DATABASE {name}"))
    url = pg_admin_url.rsplit("/", 1)[0] + f"/{name}"
    try:
        yield url
    finally:
        with admin.connect() as conn:
            conn.execute(text(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        admin.dispose()


# --- a real server process ----------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclass
class LiveServer:
    url: str
    proc: subprocess.Popen[bytes]
    log: Path

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def start_server(
    database_url: str,
    log: Path,
    *,
    tick: float = 0.3,
    extra_env: dict[str, str] | None = None,
    port: int | None = None,
) -> LiveServer:
    """``realpolitik serve`` in a subprocess on ``port`` (a free one if not given); waits
    until it answers."""
    import httpx

    port = port or free_port()
    env = (
        os.environ
        | {
            "REALPOLITIK_DATABASE_URL": database_url,
            "REALPOLITIK_TICK_SECONDS": str(tick),
            "REALPOLITIK_PASSWORD_TIME_COST": "1",
            "REALPOLITIK_PASSWORD_MEMORY_KIB": "1024",
            "REALPOLITIK_LOG_LEVEL": "warning",
            "REALPOLITIK_LOGIN_ATTEMPTS_PER_ADDRESS": "100000",  # many players, one address
            "REALPOLITIK_SIGNUPS_PER_ADDRESS": "100000",
            "REALPOLITIK_BOT_STRENGTH": str(BOT_STRENGTH),
            "REALPOLITIK_REQUESTS_PER_MINUTE": str(REQUESTS_PER_MINUTE),
        }
        | (extra_env or {})
    )
    cmd = [sys.executable, "-m", "realpolitik.cli", "serve", "--port", str(port)]
    handle = log.open("wb")
    proc = subprocess.Popen(cmd, env=env, stdout=handle, stderr=subprocess.STDOUT, cwd=log.parent)
    server = LiveServer(f"http://127.0.0.1:{port}", proc, log)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited: {shlex.join(cmd)}\n{log.read_text()[-3000:]}")
        try:
            if httpx.get(server.url + "/api/meta", timeout=2).status_code == 200:
                return server
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    server.stop()
    raise RuntimeError(f"server did not start:\n{log.read_text()[-3000:]}")


# --- the web page in a real browser (test_web_*.py; their helpers: browserkit.py) -------------

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """The live server (on SQLite) of every browser test: one a session, so one per xdist
    worker. Its tests' usernames are unique across their files."""
    folder = tmp_path_factory.mktemp("browser")
    live = start_server(f"sqlite:///{folder / 'game.sqlite3'}", folder / "server.log")
    yield live
    live.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Headless Chromium, driven by Playwright: one a session (one per xdist worker); each
    test opens its own pages."""
    if not Path(CHROMIUM).exists():
        if IN_CI:
            pytest.fail("no chromium: tools/ci_services.sh install")
        pytest.skip("no chromium here (tools/ci_services.sh install)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()
