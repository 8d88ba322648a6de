"""The map picture of a game: the current position (with the caller's own orders) or a
processed phase (with every order and its result), drawn by :mod:`realpolitik.render`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import select

from realpolitik.server import engine
from realpolitik.server import tables as t
from realpolitik.server.accounts import User
from realpolitik.server.backend import Backend
from realpolitik.server.db import reading
from realpolitik.server.errors import Conflict, NotFound, not_playing
from realpolitik.server.play import phase_said
from realpolitik.server.rows import powers_of, seats_of, visible_row


def map_svg(
    b: Backend,
    game_id: int,
    user: User | None,
    *,
    phase: str | None = None,
    power: Sequence[str] | None = None,
    language: str = "en",
    code: str | None = None,
    unit_scale: float = engine.UNIT_SCALE,
) -> str:
    with reading(b.db) as conn:
        row = visible_row(conn, game_id, user, code)
        if row.state is None:
            raise Conflict("this game has not started yet", code="not_started")
        stored: dict[str, list[str]] = {}
        record: Any = None
        after: Any = None
        if phase is not None:
            phase = phase_said(phase)
            found = conn.execute(
                select(t.phases.c.idx, t.phases.c.record).where(
                    t.phases.c.game_id == game_id, t.phases.c.phase == phase
                )
            ).first()
            if found is None:
                raise NotFound(f"phase {phase} of game {game_id} has not been processed")
            record = found.record
            after = record.get("after")
        elif power:
            mine = powers_of(seats_of(conn, game_id), user)
            for name in dict.fromkeys(p.upper() for p in power):
                if name not in mine:
                    raise not_playing(name)
                hit = conn.execute(
                    select(t.orders.c.orders).where(
                        t.orders.c.game_id == game_id,
                        t.orders.c.phase == row.phase,
                        t.orders.c.power == name,
                    )
                ).first()
                stored[name] = list(hit.orders) if hit else []
    game = engine.load(row.id, row.version, row.state)
    if record is not None:
        return engine.render_record(game, record, after, language=language, unit_scale=unit_scale)
    return engine.render_current(game, stored, language=language, unit_scale=unit_scale)
