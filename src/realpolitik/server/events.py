"""Server push: ``GET /api/games/{id}/events`` is a stream of server-sent events; each
``change`` event says that what the caller sees of the game changed (a new phase or
version, deadlines, ready flags, seats taken, a message it may read), so the page fetches
it then instead of polling.

One :class:`Watcher` per server process reads the stamps of every game an open stream
follows, all in one query every ``push_seconds``: changes made by any process on the
database (another worker, another machine) are seen within that time, and the cost is one
query per process per second, not one per stream. A stream reads the caller's own
messages only when its game's stamp changed. A stream ends after ``MAX_STREAM`` seconds
and the browser reconnects (``retry``)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable, Iterable
from functools import partial
from typing import Any

import anyio
from sqlalchemy import func, select

from realpolitik.server import tables as t
from realpolitik.server.accounts import User
from realpolitik.server.backend import Backend
from realpolitik.server.db import reading
from realpolitik.server.errors import ApiError
from realpolitik.server.logs import Failures
from realpolitik.server.press import inbox
from realpolitik.server.rows import visible_row

log = logging.getLogger(__name__)

MAX_STREAM = 600.0
KEEP_ALIVE = 15.0
RETRY_MS = 3000
GONE: dict[str, Any] = {"gone": True}


class Busy(ApiError):
    status = 503


class Streams:
    """Counts the open streams of this process: at most ``limit`` in all, and
    ``per_client`` of one client (a user, or an address for those not logged in), so
    that one client cannot take every place and leave the others to poll."""

    def __init__(self, limit: int, per_client: int | None = None) -> None:
        self.limit = limit
        self.per_client = limit if per_client is None else per_client
        self.open = 0
        self._clients: Counter[str] = Counter()
        self._lock = threading.Lock()

    def enter(self, client: str = "") -> None:
        with self._lock:
            if self._clients[client] >= self.per_client:
                raise ApiError(
                    f"you have {self.per_client} event streams open, the most one may: "
                    "close one, or poll the game instead",
                    status=429,
                    code="too_many_streams",
                    values={"n": self.per_client},
                )
            if self.open >= self.limit:
                raise Busy("too many open event streams: poll the game instead")
            self.open += 1
            self._clients[client] += 1

    def leave(self, client: str = "") -> None:
        with self._lock:
            self.open -= 1
            self._clients[client] -= 1
            if self._clients[client] <= 0:
                del self._clients[client]


def game_stamps(b: Backend, game_ids: Iterable[int]) -> dict[int, dict[str, Any]]:
    """What everyone may see change in each game: its version, phase, status, clock, the
    number of ready flags of the current phase, of seats taken; and what only some may:
    its last message's number (whoever may read it) and when orders of the current phase
    were last given (whoever gave them). One query for all the games; a game that is gone
    is left out."""
    ids = sorted(set(game_ids))
    if not ids:
        return {}
    g = t.games.c
    ready = (
        select(func.count())
        .select_from(t.orders)
        .where(t.orders.c.game_id == g.id, t.orders.c.phase == g.phase, t.orders.c.ready)
        .scalar_subquery()
    )
    seated = (
        select(func.count())
        .select_from(t.seats)
        .where(t.seats.c.game_id == g.id, t.seats.c.user_id.is_not(None))
        .scalar_subquery()
    )
    last = (
        select(func.coalesce(func.max(t.messages.c.number), 0))
        .where(t.messages.c.game_id == g.id)
        .scalar_subquery()
    )
    given = (
        select(func.max(t.orders.c.updated_at))
        .where(t.orders.c.game_id == g.id, t.orders.c.phase == g.phase)
        .scalar_subquery()
    )
    query = select(
        g.id,
        g.version,
        g.phase,
        g.status,
        g.deadline_at,
        g.press_until,
        ready,
        seated,
        last,
        given,
    ).where(g.id.in_(ids))
    with reading(b.db) as conn:
        rows = conn.execute(query).all()
    return {
        row[0]: {
            "version": row[1],
            "phase": row[2],
            "status": row[3],
            "deadline_at": row[4],
            "press_until": row[5],
            "ready": row[6],
            "seated": row[7],
            "last_message": row[8],
            "orders_given": row[9],
        }
        for row in rows
    }


def game_stamp(b: Backend, game_id: int) -> dict[str, Any]:
    """One game's stamp (:func:`game_stamps`), ``GONE`` if there is no such game."""
    return game_stamps(b, [game_id]).get(game_id, GONE)


class Watcher:
    """The stamps of the games this process's streams follow, read from the database in
    one query every ``interval`` seconds by one thread (started by the first follower).
    The table of stamps is replaced whole: readers never see it half built."""

    def __init__(self, backend: Backend, interval: float) -> None:
        self.backend = backend
        self.interval = interval
        self.reads = 0  # queries made (tests count them)
        self._followers: Counter[int] = Counter()
        self._stamps: dict[int, dict[str, Any]] = {}
        self._wakers: dict[int, set[Callable[[], object]]] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def follow(self, game_id: int, wake: Callable[[], object] | None = None) -> dict[str, Any]:
        """Follow a game (until :meth:`unfollow`); return its stamp (read now, unless
        another stream follows it already). ``wake`` is called (from the watcher's thread)
        when the game's stamp changes."""
        with self._lock:
            if wake is not None:
                self._wakers.setdefault(game_id, set()).add(wake)
            if self._followers[game_id] > 0:
                self._followers[game_id] += 1
                return self._stamps.get(game_id, GONE)
        stamp = game_stamp(self.backend, game_id)
        with self._lock:
            self._followers[game_id] += 1
            self._stamps = self._stamps | {game_id: stamp}
            if self._thread is None and not self._stop.is_set():
                self._thread = threading.Thread(
                    target=self._run, name="realpolitik-push", daemon=True
                )
                self._thread.start()
        return stamp

    def unfollow(self, game_id: int, wake: Callable[[], object] | None = None) -> None:
        with self._lock:
            self._wakers.get(game_id, set()).discard(wake)
            if not self._wakers.get(game_id, True):
                del self._wakers[game_id]
            self._followers[game_id] -= 1
            if self._followers[game_id] <= 0:
                del self._followers[game_id]
                self._stamps = {k: v for k, v in self._stamps.items() if k != game_id}

    def stamp(self, game_id: int) -> dict[str, Any]:
        return self._stamps.get(game_id, GONE)

    def read(self) -> None:
        """Read every followed game's stamp now."""
        with self._lock:
            ids = list(self._followers)
        if not ids:
            return
        found = game_stamps(self.backend, ids)
        self.reads += 1
        with self._lock:  # games unfollowed meanwhile are not put back
            old, self._stamps = self._stamps, {k: found.get(k, GONE) for k in self._followers}
            woken = [
                wake
                for k, v in self._stamps.items()
                if old.get(k) != v
                for wake in self._wakers.get(k, ())
            ]
        for wake in woken:
            with contextlib.suppress(RuntimeError):  # its event loop closed: stream ending
                wake()

    def _run(self) -> None:
        failures = Failures(log, "reading the followed games")
        while not self._stop.wait(self.interval):
            try:
                self.read()
                failures.worked()
            except Exception as exc:  # the database away for a moment: try again next time
                failures.failed(exc)

    def stop(self) -> None:
        self._stop.set()
        thread = self._thread
        if thread is not None:
            thread.join(timeout=10)


def check_visible(b: Backend, game_id: int, user: User | None, code: str | None) -> None:
    with reading(b.db) as conn:
        visible_row(conn, game_id, user, code)


def my_orders_given(b: Backend, game_id: int, user: User) -> float:
    """When orders of the current phase were last given (or made ready) for the powers
    ``user`` plays, 0 if none were: another tab of theirs shows them then."""
    o, s = t.orders.c, t.seats.c
    with reading(b.db) as conn:
        row = conn.execute(select(t.games.c.phase).where(t.games.c.id == game_id)).first()
        seats = conn.execute(select(s.powers).where(s.game_id == game_id, s.user_id == user.id))
        mine = sorted({p for (powers,) in seats for p in powers})
        if row is None or not mine:
            return 0.0
        where = (o.game_id == game_id, o.phase == row.phase, o.power.in_(mine))
        return float(conn.execute(select(func.max(o.updated_at)).where(*where)).scalar() or 0)


async def stream(
    b: Backend,
    game_id: int,
    user: User | None,
    code: str | None,
    streams: Streams,
    watcher: Watcher,
    client: str = "",
) -> AsyncIterator[str]:
    """The event stream (the caller has checked that the game is visible and entered
    ``streams`` as ``client``; this leaves it). It sleeps until the watcher says the game
    changed (or a keep-alive is due): an idle stream costs nothing."""
    try:
        yield f"retry: {RETRY_MS}\n\n"
        loop = asyncio.get_running_loop()
        changed = asyncio.Event()
        wake = partial(loop.call_soon_threadsafe, changed.set)
        shared = await anyio.to_thread.run_sync(watcher.follow, game_id, wake)
        try:
            async for event in _changes(b, game_id, user, code, watcher, shared, changed):
                yield event
        finally:
            watcher.unfollow(game_id, wake)
    finally:
        streams.leave(client)


async def _changes(
    b: Backend,
    game_id: int,
    user: User | None,
    code: str | None,
    watcher: Watcher,
    shared: dict[str, Any],
    changed: asyncio.Event,
) -> AsyncIterator[str]:
    seen: dict[str, Any] | None = None  # the shared stamp last looked at
    last: dict[str, Any] | None = None  # the event last sent
    message = 0  # the last message id the caller may read
    given, mine = None, 0.0  # the orders last given (anyone's), and the caller's
    now = time.monotonic()
    end, alive = now + MAX_STREAM, now + KEEP_ALIVE
    while time.monotonic() < end:
        if shared != seen:
            seen = shared
            if shared.get("gone"):
                yield f"event: change\ndata: {json.dumps(GONE)}\n\n"
                return
            read = partial(inbox, b, game_id, user, after=message, code=code)
            try:  # also checks that the caller may still see the game
                new = await anyio.to_thread.run_sync(read)
            except ApiError:  # no longer visible to the caller (left an unlisted game)
                return
            if new:
                message = max(m["id"] for m in new)
            if user is not None and shared.get("orders_given") != given:
                given = shared.get("orders_given")
                mine = await anyio.to_thread.run_sync(my_orders_given, b, game_id, user)
            event = public(shared)
            event["message"] = message
            if mine:
                event["my_orders"] = mine
            if event != last:
                yield f"event: change\ndata: {json.dumps(event)}\n\n"
                last = event
                alive = time.monotonic() + KEEP_ALIVE
        try:  # the keep-alives' times say nothing of changes the caller was not told of
            await asyncio.wait_for(
                changed.wait(), timeout=max(0.0, min(alive, end) - time.monotonic())
            )
        except TimeoutError:
            if time.monotonic() >= alive:
                yield ": still here\n\n"
                alive = time.monotonic() + KEEP_ALIVE
        changed.clear()
        shared = watcher.stamp(game_id)


def public(stamp: dict[str, Any]) -> dict[str, Any]:
    """What every stream of the game says of its ``stamp``: all but when the last message
    was sent and the last orders given (each caller is told of their own)."""
    return {k: v for k, v in stamp.items() if k not in ("last_message", "orders_given")}
