"""Processing a phase: one transaction, never twice, even with several processes (each
with its own connections) racing for it; schema migrations run once."""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from realpolitik.server import tables as t
from realpolitik.server.app import create_app
from realpolitik.server.backend import Backend
from realpolitik.server.db import _write_ahead_log, make_engine
from realpolitik.server.migrations import MIGRATIONS, current_version
from realpolitik.server.play import process_if_due
from tests.server.conftest import FakeClock, fast_settings, new_game, register

DEADLINES = {"diplomacy": 60, "orders": 0, "retreats": 60, "adjustments": 60, "first_diplomacy": 0}


def _race(url: str, clock: FakeClock, game_id: int, racers: int = 6) -> list[bool]:
    backends = [Backend.open(fast_settings(url), clock=clock) for _ in range(racers)]
    barrier = threading.Barrier(racers)
    results: list[Any] = [None] * racers

    def run(k: int) -> None:
        barrier.wait()
        try:
            results[k] = process_if_due(backends[k], game_id)
        except Exception as exc:  # a loser may see a conflict: it must change nothing
            results[k] = exc

    threads = [threading.Thread(target=run, args=(k,)) for k in range(racers)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout=120)
    for b in backends:
        b.close()
    return results


def _check_once(url: str, clock: FakeClock) -> None:
    settings = fast_settings(url)
    b = Backend.open(settings, clock=clock)
    with TestClient(create_app(settings, backend=b)) as c:
        alice = register(c, "alice")
        game = new_game(c, alice, start=True, deadlines=DEADLINES)
    clock.advance(61)
    results = _race(url, clock, game["id"])
    assert results.count(True) == 1, results
    assert all(r is False or r is True or isinstance(r, Exception) for r in results)
    with b.db.connect() as conn:
        phases = (
            conn.execute(select(t.phases.c.phase).where(t.phases.c.game_id == game["id"]))
            .scalars()
            .all()
        )
        row = conn.execute(select(t.games).where(t.games.c.id == game["id"])).one()
    assert phases == ["S1901M"]
    assert row.phase == "F1901M" and row.version == game["version"] + 1
    b.close()


def test_a_phase_is_processed_once_sqlite(sqlite_url: str, clock: FakeClock) -> None:
    _check_once(sqlite_url, clock)


def test_a_phase_is_processed_once_postgres(pg_url: str, clock: FakeClock) -> None:
    _check_once(pg_url, clock)


@pytest.mark.parametrize("db", ["sqlite", "postgres"])
def test_migrations_run_once_and_are_recorded(
    db: str, sqlite_url: str, request: pytest.FixtureRequest
) -> None:
    url = sqlite_url if db == "sqlite" else request.getfixturevalue("pg_url")
    engines: list[Any] = []
    errors: list[Exception] = []

    def start() -> None:
        try:
            engines.append(make_engine(url))
        except Exception as exc:
            errors.append(exc)

    threads = [threading.Thread(target=start) for _ in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout=60)
    assert not errors, errors
    with engines[0].connect() as conn:
        assert current_version(conn) == MIGRATIONS[-1][0]
        rows = conn.execute(select(t.schema_version)).all()
    assert [r.version for r in rows] == [m[0] for m in MIGRATIONS]
    for e in engines:
        e.dispose()


def test_a_failed_processing_changes_nothing(
    backend: Backend, client: TestClient, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    from realpolitik.server import engine

    alice = register(client, "alice")
    game = new_game(client, alice, start=True, deadlines=DEADLINES)
    clock.advance(61)

    def boom(*args: Any, **kw: Any) -> Any:
        raise RuntimeError("crash while saving")

    monkeypatch.setattr(engine, "to_state", boom)
    with pytest.raises(RuntimeError):
        process_if_due(backend, game["id"])
    monkeypatch.undo()
    with backend.db.connect() as conn:
        assert not conn.execute(select(t.phases)).all()
        row = conn.execute(select(t.games)).one()
    assert row.phase == "S1901M" and row.version == game["version"]
    assert process_if_due(backend, game["id"])


def _merge_race(url: str, clock: FakeClock, monkeypatch: pytest.MonkeyPatch) -> None:
    """Three submissions of one power with ``merge`` at once (in separate backends, as two
    processes would be): every unit's order is kept."""
    from realpolitik.server import engine
    from realpolitik.server.accounts import User
    from realpolitik.server.play import submit_orders

    settings = fast_settings(url)
    b = Backend.open(settings, clock=clock)
    with TestClient(create_app(settings, backend=b)) as c:
        alice = register(c, "alice")
        game = new_game(c, alice, players=2, start=True)
        power = game["my_powers"][0]
        units = c.get(f"/api/games/{game['id']}", headers=alice.headers).json()["position"]
    holds = [f"{u} H" for u in units["units"][power]][:3]
    check = engine.judge_orders

    def slow_check(*args: Any, **kw: Any) -> Any:
        time.sleep(0.3)  # widen the window between reading and writing the orders
        return check(*args, **kw)

    monkeypatch.setattr(engine, "judge_orders", slow_check)
    user = User(alice.user_id, "alice", "en")
    backends = [Backend.open(settings, clock=clock) for _ in holds]
    errors: list[Exception] = []

    def submit(k: int) -> None:
        try:
            submit_orders(backends[k], game["id"], user, power, [holds[k]], merge=True)
        except Exception as exc:
            errors.append(exc)

    threads = [threading.Thread(target=submit, args=(k,)) for k in range(len(holds))]
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout=120)
    monkeypatch.undo()
    assert not errors, errors
    with b.db.connect() as conn:
        stored = conn.execute(
            select(t.orders.c.orders).where(t.orders.c.power == power)
        ).scalar_one()
    assert sorted(stored) == sorted(holds)
    for other in [b, *backends]:
        other.close()


def test_merged_submissions_keep_each_other_sqlite(
    sqlite_url: str, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    _merge_race(sqlite_url, clock, monkeypatch)


def test_merged_submissions_keep_each_other_postgres(
    pg_url: str, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    _merge_race(pg_url, clock, monkeypatch)


def test_a_process_skips_a_game_another_one_holds_postgres(pg_url: str, clock: FakeClock) -> None:
    """Several server processes on one PostgreSQL: one that finds a game locked by another
    moves on (SKIP LOCKED) instead of queueing behind it; the phase is processed once."""
    settings = fast_settings(pg_url)
    b = Backend.open(settings, clock=clock)
    with TestClient(create_app(settings, backend=b)) as c:
        alice = register(c, "alice")
        game = new_game(c, alice, start=True, deadlines=DEADLINES)
    clock.advance(61)
    other = Backend.open(settings, clock=clock)
    with other.db.begin() as conn:
        conn.execute(select(t.games).where(t.games.c.id == game["id"]).with_for_update())
        started = time.monotonic()
        result: list[Any] = []
        th = threading.Thread(target=lambda: result.append(process_if_due(b, game["id"])))
        th.start()
        th.join(timeout=5)
        waited = time.monotonic() - started
    th.join(timeout=60)
    assert result == [False] and waited < 5
    assert process_if_due(b, game["id"]) is True
    assert process_if_due(b, game["id"]) is False
    other.close()
    b.close()


def test_wal_mode_waits_for_a_lock_sqlite_busy_handler_skips(tmp_path: Path) -> None:
    """Switching a new file to WAL while another connection holds a lock fails at once in
    SQLite (no busy handler): two workers starting on a new file crashed one of them
    ("database is locked"). The switch now waits for the lock to go."""
    path = tmp_path / "new.sqlite3"
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN EXCLUSIVE")
    holder.execute("CREATE TABLE t (x)")
    release = threading.Timer(0.3, holder.execute, args=("COMMIT",))
    release.start()
    other = sqlite3.connect(path, isolation_level=None, timeout=0.05, check_same_thread=False)
    try:
        _write_ahead_log(other.cursor(), patience=10)
        assert other.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        release.join()
        other.close()
        holder.close()


def test_sqlite_commits_reach_the_disk_before_they_are_acknowledged(tmp_path: Path) -> None:
    """Every connection of the embedded default writes each commit through to the disk
    (``synchronous=FULL``, 2): under ``NORMAL`` a power cut could lose orders and messages
    already acknowledged, as PostgreSQL's default never does."""
    engine = make_engine(f"sqlite:///{tmp_path / 'durable.sqlite3'}")
    try:
        with engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 2
            assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
    finally:
        engine.dispose()


def test_orders_are_not_stored_for_a_seat_left_while_they_were_checked(
    backend: Backend, client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A player's submission checked while the same player leaves the seat (another tab):
    it is refused (403) once the seat is gone, not stored for powers the player no longer
    plays, where the next player to take the seat would find them as their own."""
    from realpolitik.server import engine, games
    from realpolitik.server.accounts import User

    alice, bob, carol = (register(client, n) for n in ("alice", "bob", "carol"))
    game = new_game(client, alice, players=2, bots=None, replace_leavers=False)
    gid = game["id"]
    assert client.post(f"/api/games/{gid}/join", json={}, headers=bob.headers).status_code == 200
    power = client.get(f"/api/games/{gid}", headers=alice.headers).json()["my_powers"][0]
    legal = client.get(f"/api/games/{gid}/legal", params={"power": power}, headers=alice.headers)
    given = [options[-1]["order"] for options in legal.json().values()]
    check = engine.judge_orders

    def leave_meanwhile(*args: Any, **kw: Any) -> Any:
        monkeypatch.setattr(engine, "judge_orders", check)
        games.leave(backend, User(alice.user_id, "alice", "en"), gid)  # the other tab
        return check(*args, **kw)

    monkeypatch.setattr(engine, "judge_orders", leave_meanwhile)
    r = client.put(
        f"/api/games/{gid}/orders", json={"power": power, "orders": given}, headers=alice.headers
    )
    assert r.status_code == 403, r.text
    assert client.post(f"/api/games/{gid}/join", json={}, headers=carol.headers).status_code == 200
    mine = client.get(f"/api/games/{gid}/orders", params={"power": power}, headers=carol.headers)
    assert mine.json()["orders"] == []


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_database_error_names_no_value_it_was_given(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """A failed statement's error, which the log writes whole (a request's unexpected error,
    a scheduler's pass), ended with its parameters: a message's private text, an email
    address, a password's hash. It names the statement only."""
    url = request.getfixturevalue("pg_url") if kind == "postgresql" else (
        f"sqlite:///{tmp_path / 'quiet.sqlite3'}"
    )  # fmt: skip
    engine = make_engine(url)
    row = {"username": "ada", "username_key": "ada", "password_hash": "$argon2id$s3cret",
           "language": "en", "created_at": 0.0, "email": "ada@s3cret.org"}  # fmt: skip
    try:
        with engine.begin() as conn:
            conn.execute(t.users.insert().values(row))
        with pytest.raises(IntegrityError) as failed, engine.begin() as conn:
            conn.execute(t.users.insert().values(row))  # the same username_key again
    finally:
        engine.dispose()
    assert "INSERT INTO users" in str(failed.value) and "s3cret" not in str(failed.value)


def test_one_players_requests_have_the_bots_think_one_at_a_time(
    client: TestClient, backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Ready that ends a phase has the bots think for the next one inside the request
    (a second of CPU for six search bots). One account playing 20 games against bots,
    marking them all ready at full speed, took another player's game view from 17 to
    345 ms (p50; p95 1.3 s): as many bots thinking at once as requests, on one core. A
    player's second such request while the first thinks leaves its phase to the
    scheduler (within a second) instead of thinking alongside."""
    from realpolitik.server import play
    from realpolitik.server.scheduler import tick

    alice = register(client, "alice")
    games = [new_game(client, alice, name=f"vs bots {k}", start=True) for k in range(2)]
    thinking, release = threading.Event(), threading.Event()
    now, most = [0], [0]
    seat_orders = play._seat_orders

    def slow(*args: Any, **kw: Any) -> list[str]:
        now[0] += 1
        most[0] = max(most[0], now[0])
        thinking.set()
        release.wait(10)
        try:
            return seat_orders(*args, **kw)
        finally:
            now[0] -= 1

    monkeypatch.setattr(play, "_seat_orders", slow)

    def ready(game: dict[str, Any]) -> dict[str, Any]:
        power = game["my_powers"][0]
        body = {"power": power, "orders": [], "ready": True}
        r = client.put(f"/api/games/{game['id']}/orders", json=body, headers=alice.headers)
        assert r.status_code == 200, r.text
        result: dict[str, Any] = r.json()
        return result

    first = threading.Thread(target=ready, args=(games[0],))
    first.start()
    assert thinking.wait(10)
    second = ready(games[1])  # while the first request's bots think
    release.set()
    first.join(10)
    assert most[0] == 1, "bots thinking in two of alice's requests at once"
    assert second["processed"] is False
    tick(backend)  # the scheduler processes it
    view = client.get(f"/api/games/{games[1]['id']}", headers=alice.headers).json()
    assert view["phase"] != "S1901M"
