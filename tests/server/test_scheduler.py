"""The deadline scheduler: fair between games (one phase per game per pass, the most
overdue first), games between bots alone end, and a game's stored state does not grow with
its length (its history lives in per-phase rows)."""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import delete, select, text
from sqlalchemy.exc import OperationalError

from realpolitik.server import play
from realpolitik.server import tables as t
from realpolitik.server.app import create_app
from realpolitik.server.backend import Backend
from realpolitik.server.scheduler import Scheduler, tick
from tests.server.conftest import FakeClock, fast_settings, new_game, register

SHORT = {"diplomacy": 60, "orders": 0, "retreats": 60, "adjustments": 60, "first_diplomacy": 0}


@pytest.fixture
def bots_backend(tmp_path: Path, clock: FakeClock) -> Iterator[Backend]:
    settings = fast_settings(f"sqlite:///{tmp_path / 'bots.sqlite3'}", bot_game_years=2)
    b = Backend.open(settings, clock=clock)
    yield b
    b.close()


@pytest.fixture
def bots_client(bots_backend: Backend) -> Iterator[TestClient]:
    with TestClient(create_app(bots_backend.settings, backend=bots_backend)) as c:
        yield c


def _versions(b: Backend) -> dict[int, int]:
    with b.db.connect() as conn:
        return {r.id: r.version for r in conn.execute(select(t.games.c.id, t.games.c.version))}


def _game(b: Backend, game_id: int) -> dict[str, object]:
    with b.db.connect() as conn:
        row = conn.execute(select(t.games).where(t.games.c.id == game_id)).one()
    return dict(row._mapping)


def _slow_bots(monkeypatch: pytest.MonkeyPatch, clock: FakeClock, slow: list[int]) -> list[int]:
    """The scheduler's games processed, in the order it takes them (the list returned, filled
    as it goes); the bots of the ``slow`` games think for a minute each phase."""
    order: list[int] = []
    process_due = play.process_due

    def spied(b: Backend, game_id: int, limit: int = 1) -> int:
        order.append(game_id)
        done = process_due(b, game_id, limit=limit)
        if game_id in slow:
            clock.advance(61)
        return done

    monkeypatch.setattr("realpolitik.server.scheduler.process_due", spied)
    return order


def test_a_pass_processes_one_phase_per_game(
    bots_client: TestClient, bots_backend: Backend, clock: FakeClock
) -> None:
    """Four games of bots alone (always due) and a game with deadlines: each pass takes
    one phase of every due game, so the other game is processed in the first pass after
    each of its deadlines, however long the bots play."""
    alice = register(bots_client, "alice")
    bots = [
        new_game(bots_client, alice, name=f"bots {k}", join=False, start=True)["id"]
        for k in range(4)
    ]
    human = new_game(bots_client, alice, start=True, deadlines=SHORT)["id"]
    for deadline in range(3):
        before = _versions(bots_backend)
        tick(bots_backend)
        after = _versions(bots_backend)
        for game_id in bots:
            if _game(bots_backend, game_id)["status"] != "finished":
                assert after[game_id] - before[game_id] == 1, "one phase per game per pass"
        clock.advance(61)  # the game's deadline has passed
        tick(bots_backend)
        assert _versions(bots_backend)[human] == after[human] + 1, ("late", deadline)


def test_a_deadline_passing_during_a_pass_waits_for_one_phase_only(
    bots_client: TestClient,
    bots_backend: Backend,
    clock: FakeClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Bots that think long: the deadline of a game with a person passes while the pass
    is on the first of four bots' games; it is processed next, not after the other three."""
    alice = register(bots_client, "alice")
    bots = [
        new_game(bots_client, alice, name=f"bots {k}", join=False, start=True)["id"]
        for k in range(4)
    ]
    human = new_game(bots_client, alice, start=True, deadlines=SHORT)["id"]
    order = _slow_bots(monkeypatch, clock, bots)
    before = _versions(bots_backend)[human]
    tick(bots_backend)
    assert order[1] == human and sorted(order[:1] + order[2:]) == sorted(bots)
    assert _versions(bots_backend)[human] == before + 1


def test_one_players_many_games_keep_anothers_deadline_waiting_one_phase(
    bots_client: TestClient,
    bots_backend: Backend,
    clock: FakeClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Measured on a live server: one account's 20 games (seated alone with six bots,
    1-second deadlines, never ordering) kept another person's game with 2-second deadlines
    14 to 18 s late, a pass taking a phase of each of them before that game's turn came
    again. A pass takes turns between the games' creators: another creator's game due
    again is processed after one phase of the busy creator's, as often as it falls due."""
    mallory, alice = register(bots_client, "mallory"), register(bots_client, "alice")
    many = [
        new_game(bots_client, mallory, name=f"busy {k}", start=True, deadlines=SHORT)["id"]
        for k in range(4)
    ]
    human = new_game(bots_client, alice, start=True, deadlines=SHORT)["id"]
    order = _slow_bots(monkeypatch, clock, many)  # alice's deadline passes again each time
    clock.advance(61)
    tick(bots_backend)
    assert sorted(g for g in order if g != human) == sorted(many), "each once"
    turns = "".join("a" if g == human else "m" for g in order)
    assert "mm" not in turns, turns  # alice's game after each phase of mallory's


def test_bots_alone_have_a_loop_of_their_own(
    bots_client: TestClient,
    bots_backend: Backend,
    clock: FakeClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """While the scheduler's loop of the games of bots alone is held in a phase (bots that
    think for ever), the deadlines of a game with a person are kept by the other loop."""
    alice = register(bots_client, "alice")
    bots = new_game(bots_client, alice, name="bots", join=False, start=True)["id"]
    human = new_game(bots_client, alice, start=True, deadlines=SHORT)["id"]
    thinking, release = threading.Event(), threading.Event()
    process_due = play.process_due

    def slow(b: Backend, game_id: int, limit: int = 1) -> int:
        if game_id == bots:
            thinking.set()
            release.wait(30)
        return process_due(b, game_id, limit=limit)

    monkeypatch.setattr("realpolitik.server.scheduler.process_due", slow)
    scheduler = Scheduler(bots_backend, 0.02)
    scheduler.start()
    try:
        assert thinking.wait(10)
        for _ in range(3):
            version = _versions(bots_backend)[human]
            clock.advance(61)
            deadline = time.monotonic() + 10
            while _versions(bots_backend)[human] == version and time.monotonic() < deadline:
                time.sleep(0.02)
            assert _versions(bots_backend)[human] > version
    finally:
        release.set()
        scheduler.stop()


def test_a_game_of_bots_alone_ends(bots_client: TestClient, bots_backend: Backend) -> None:
    alice = register(bots_client, "alice")
    game_id = new_game(bots_client, alice, join=False, start=True)["id"]
    for _ in range(200):
        if not tick(bots_backend):
            break
    row = _game(bots_backend, game_id)
    assert row["status"] == "finished"
    assert int(str(row["phase"])[1:5]) <= 1903  # the server's limit: 2 years, then the end
    view = bots_client.get(f"/api/games/{game_id}").json()
    assert view["is_over"] is True and view["winners"]


def test_a_game_whose_people_have_all_conceded_is_one_of_bots_alone(
    bots_client: TestClient, bots_backend: Backend
) -> None:
    """A person whose powers have all conceded plays no more: the game, always due, is
    left to the loop of bots alone and ends as their games do, instead of being processed
    for ever in the loop that keeps the people's deadlines (a way round the end of games
    of bots alone: create a game, concede, repeat)."""
    alice = register(bots_client, "alice")
    game = new_game(bots_client, alice, start=True)
    for power in game["my_powers"]:
        r = bots_client.post(
            f"/api/games/{game['id']}/concede", json={"power": power}, headers=alice.headers
        )
        assert r.status_code == 200, r.text
    assert tick(bots_backend, alone=False) == 0
    for _ in range(200):
        if not tick(bots_backend, alone=True):
            break
    row = _game(bots_backend, game["id"])
    assert row["status"] == "finished"
    assert int(str(row["phase"])[1:5]) <= 1903  # the server's limit: 2 years, then the end
    view = bots_client.get(f"/api/games/{game['id']}", headers=alice.headers).json()
    assert view["is_over"] is True and view["my_powers"] == game["my_powers"]


def test_games_from_before_the_mark_are_told_apart_by_who_is_seated(
    tmp_path: Path, clock: FakeClock
) -> None:
    """A database of schema version 4 (no mark of games of bots alone) migrates: a game
    with nobody seated is one of bots alone, one with a person seated is not."""
    url = f"sqlite:///{tmp_path / 'v4.sqlite3'}"
    b = Backend.open(fast_settings(url), clock=clock)
    with TestClient(create_app(b.settings, backend=b)) as c:
        alice = register(c, "alice")
        bots = new_game(c, alice, name="bots", join=False, start=True)["id"]
        human = new_game(c, alice, name="human", start=True)["id"]
    with b.db.begin() as conn:  # back to version 4
        conn.execute(text("ALTER TABLE games DROP COLUMN alone"))
        conn.execute(delete(t.schema_version).where(t.schema_version.c.version >= 5))
    b.close()
    b = Backend.open(fast_settings(url), clock=clock)
    try:
        assert _game(b, bots)["alone"] is True and _game(b, human)["alone"] is False
        assert bots in play.due_games(b, alone=True)
        assert human not in play.due_games(b, alone=True)
    finally:
        b.close()


def test_the_stored_state_does_not_grow_with_the_game(client: TestClient, backend: Backend) -> None:
    alice = register(client, "alice")
    game_id = new_game(client, alice, join=False, start=True)["id"]
    early = len(json.dumps(_game(backend, game_id)["state"]))
    for _ in range(12):
        tick(backend)
    row = _game(backend, game_id)
    with backend.db.connect() as conn:
        phases = conn.execute(
            select(t.phases.c.phase).where(t.phases.c.game_id == game_id).order_by(t.phases.c.idx)
        ).all()
    assert len(phases) >= 12
    assert len(json.dumps(row["state"])) < 1.5 * early
    # the past is still there: every processed phase answers, with its map
    for (phase,) in [*phases[:3], *phases[-2:]]:
        r = client.get(f"/api/games/{game_id}/history/{phase}")
        assert r.status_code == 200 and r.json()["phase"] == phase
        svg = client.get(f"/api/games/{game_id}/map.svg", params={"phase": phase})
        assert svg.status_code == 200 and svg.text.startswith("<svg")


def _read_work(
    client: TestClient, backend: Backend, game_id: int, headers: dict[str, str]
) -> dict[str, int]:
    """What one ``GET /api/games/{id}`` costs, counted: SQL statements, statements on the
    processed phases, games loaded from their stored state and that state's size, and
    history records parsed (the game's cache emptied first, as on a new process)."""
    from sqlalchemy import event

    from realpolitik.game import Game
    from realpolitik.server import engine

    work = {"statements": 0, "phase_reads": 0, "loads": 0, "state_bytes": 0, "history": 0}

    def statement(conn: object, cursor: object, sql: str, *args: object) -> None:
        work["statements"] += 1
        work["phase_reads"] += " phases" in sql

    from realpolitik.formats.savegame import game_from_json as real

    def from_json(data: Any) -> Game:
        work["loads"] += 1
        work["state_bytes"] += len(json.dumps(data))
        work["history"] += len(data.get("history") or [])
        return real(data)

    engine.clear_cache()
    event.listen(backend.db, "before_cursor_execute", statement)
    try:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(engine, "game_from_json", from_json)
            r = client.get(f"/api/games/{game_id}", headers=headers)
    finally:
        event.remove(backend.db, "before_cursor_execute", statement)
    assert r.status_code == 200, r.text
    return work


def test_reading_a_long_game_costs_what_a_new_one_does(
    client: TestClient, backend: Backend
) -> None:
    """A game's view is made from its stored current state (its history lives in per-phase
    rows, not read for the view): the same statements, no phase row, one load of a state
    no bigger than a new game's (allowing for the units and centres that changed hands)."""
    alice = register(client, "alice")
    long = new_game(client, alice, name="long", join=False, start=True)["id"]
    for _ in range(16):
        tick(backend)
    new = new_game(client, alice, name="new", join=False, start=True)["id"]
    with backend.db.connect() as conn:
        phases = conn.execute(select(t.phases.c.idx).where(t.phases.c.game_id == long)).all()
    assert len(phases) >= 16
    young = _read_work(client, backend, new, alice.headers)
    old = _read_work(client, backend, long, alice.headers)
    assert old["phase_reads"] == young["phase_reads"] == 0
    assert old["statements"] == young["statements"]
    assert old["loads"] == young["loads"] == 1 and old["history"] == young["history"] == 0
    assert old["state_bytes"] < 1.5 * young["state_bytes"], (old, young)


def test_a_database_out_of_reach_is_one_line_not_a_traceback_a_second(
    backend: Backend, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """PostgreSQL stopped for six seconds under two server processes wrote 2,657 lines:
    each loop's traceback (about a hundred lines) at every tick. The loop says it once,
    in one line, and once more when it works again; another failure is still told."""
    calls = {"n": 0}

    def down(b: Backend, *, alone: bool | None = None) -> list[int]:
        calls["n"] += 1
        if calls["n"] <= 30:
            raise OperationalError("SELECT", {}, Exception("connection refused\nmore"))
        if calls["n"] <= 32:
            raise RuntimeError("a bug")
        return []

    monkeypatch.setattr("realpolitik.server.scheduler.due_games", down)
    scheduler = Scheduler(backend, 0.005)
    with caplog.at_level(logging.INFO, logger="realpolitik.server.scheduler"):
        scheduler._threads = [threading.Thread(target=scheduler._run, args=(False,))]
        scheduler._threads[0].start()
        deadline = time.monotonic() + 20
        while calls["n"] < 40 and time.monotonic() < deadline:
            time.sleep(0.01)
        scheduler.stop()
    said = [(r.levelname, r.getMessage(), r.exc_info is not None) for r in caplog.records]
    assert said[0] == (
        "ERROR",
        "scheduler pass failed: (builtins.Exception) connection "
        "refused (the database is out of reach; said again each minute)",
        False,
    )
    assert ("ERROR", "scheduler pass failed: a bug", True) in said  # a new failure, whole
    assert said[-1][:2] == ("WARNING", "scheduler pass works again")
    assert len(said) == 3, said


def test_a_game_that_fails_at_every_pass_is_told_once(
    backend: Backend, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A game whose processing always fails (a bug, a state this release cannot read) wrote
    its traceback at every pass, once a second for as long as the server ran; the other
    games go on, and the game is told again when it is processed after all."""
    broken = {"on": True}

    def process(b: Backend, game_id: int, limit: int = 1) -> int:
        if game_id == 7 and broken["on"]:
            raise KeyError("position")
        return 1

    monkeypatch.setattr("realpolitik.server.scheduler.due_games", lambda b, alone=None: [7, 8])
    monkeypatch.setattr("realpolitik.server.scheduler.process_due", process)
    with caplog.at_level(logging.INFO, logger="realpolitik.server.scheduler"):
        assert [tick(backend) for _ in range(5)] == [1] * 5  # game 8 each time
        broken["on"] = False
        assert tick(backend) == 2
    said = [(r.levelname, r.getMessage(), r.exc_info is not None) for r in caplog.records]
    assert said == [
        ("ERROR", "processing game 7 failed: 'position'", True),
        ("WARNING", "processing game 7 works again", False),
    ]
