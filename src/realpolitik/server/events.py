"""Server push: ``GET /api/games/{id}/events`` is a stream of server-sent events; each
``change`` event says that what the caller sees of the game changed (a new phase or
version, deadlines, ready flags, a message it may read), so the page fetches it then
instead of polling. The stream checks the database (a few small queries) every
``push_seconds``, so changes made by any server process on the database are seen; it
ends after ``MAX_STREAM`` seconds and the browser reconnects (``retry``)."""

from __future__ import annotations

import json
import threading
from collections.abc import AsyncIterator
from functools import partial
from typing import Any

import anyio
from sqlalchemy import func, select

from realpolitik.server import tables as t
from realpolitik.server.accounts import User
from realpolitik.server.backend import Backend
from realpolitik.server.db import reading
from realpolitik.server.errors import ApiError
from realpolitik.server.games import visible_row
from realpolitik.server.press import inbox

MAX_STREAM = 600.0
KEEP_ALIVE = 15.0
RETRY_MS = 3000


class Busy(ApiError):
    status = 503


class Streams:
    """Counts the open streams of this process (at most ``limit``)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.open = 0
        self._lock = threading.Lock()

    def enter(self) -> None:
        with self._lock:
            if self.open >= self.limit:
                raise Busy("too many open event streams: poll the game instead")
            self.open += 1

    def leave(self) -> None:
        with self._lock:
            self.open -= 1


def game_stamp(b: Backend, game_id: int) -> dict[str, Any]:
    """What everyone may see change in a game: its version, phase, status, clock and the
    number of ready flags of the current phase."""
    with reading(b.db) as conn:
        row = conn.execute(
            select(
                t.games.c.version,
                t.games.c.phase,
                t.games.c.status,
                t.games.c.deadline_at,
                t.games.c.press_until,
            ).where(t.games.c.id == game_id)
        ).first()
        if row is None:
            return {"gone": True}
        ready = conn.execute(
            select(func.count())
            .select_from(t.orders)
            .where(
                t.orders.c.game_id == game_id,
                t.orders.c.phase == row.phase,
                t.orders.c.ready.is_(True),
            )
        ).scalar_one()
        seated = conn.execute(
            select(func.count())
            .select_from(t.seats)
            .where(t.seats.c.game_id == game_id, t.seats.c.user_id.is_not(None))
        ).scalar_one()
    return {
        "version": row.version,
        "phase": row.phase,
        "status": row.status,
        "deadline_at": row.deadline_at,
        "press_until": row.press_until,
        "ready": ready,
        "seated": seated,
    }


def check_visible(b: Backend, game_id: int, user: User | None, code: str | None) -> None:
    with reading(b.db) as conn:
        visible_row(conn, game_id, user, code)


async def stream(
    b: Backend, game_id: int, user: User | None, code: str | None, streams: Streams
) -> AsyncIterator[str]:
    """The event stream (the caller has checked that the game is visible and entered
    ``streams``; this leaves it)."""
    try:
        yield f"retry: {RETRY_MS}\n\n"
        last: dict[str, Any] | None = None
        message = 0
        quiet = 0.0
        lived = 0.0
        while lived < MAX_STREAM:
            stamp = await anyio.to_thread.run_sync(game_stamp, b, game_id)
            read = partial(inbox, b, game_id, user, after=message, code=code)
            try:
                new = await anyio.to_thread.run_sync(read)
            except ApiError:  # no longer visible to the caller (left an unlisted game)
                return
            if new:
                message = max(m["id"] for m in new)
            stamp["message"] = message
            if stamp != last:
                yield f"event: change\ndata: {json.dumps(stamp)}\n\n"
                last, quiet = stamp, 0.0
            elif quiet >= KEEP_ALIVE:
                yield ": still here\n\n"
                quiet = 0.0
            if stamp.get("gone"):
                return
            await anyio.sleep(b.settings.push_seconds)
            quiet += b.settings.push_seconds
            lived += b.settings.push_seconds
    finally:
        streams.leave()
