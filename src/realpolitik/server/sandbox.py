"""A sandbox's way back: its creator takes it back to an earlier phase of its history, to
play that phase again another way.

A sandbox keeps its whole history in its stored state (:func:`.play.stored_state`), so the
game layer's own :meth:`Game.rollback` makes the fork; the phases after the one gone back
to are dropped, and the orders given in it come back as its orders, none ready (to change
one and play again). One transaction on the game's locked row: the
scheduler, which skips a game another holds, never processes it halfway through.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, delete, select, update

from realpolitik.errors import GameError
from realpolitik.game.records import PhaseRecord
from realpolitik.phase import Phase
from realpolitik.server import engine, limits
from realpolitik.server import tables as t
from realpolitik.server.accounts import User
from realpolitik.server.backend import Backend
from realpolitik.server.db import transaction
from realpolitik.server.errors import BadRequest, Conflict, Forbidden, NotFound
from realpolitik.server.gamesettings import GameSettings
from realpolitik.server.play import begin_phase, store_orders, stored_state
from realpolitik.server.rows import ACTIVE, FINISHED, game_row, summary


def rollback(b: Backend, game_id: int, user: User, phase: str) -> dict[str, Any]:
    """Take the sandbox back to the start of ``phase``: a phase of its history (the orders
    given in it are given again, none ready), or the current one (its orders go); answer
    its summary, with a new version."""
    try:
        target = str(Phase.parse(phase))
    except ValueError as exc:
        raise BadRequest(str(exc)) from None
    with transaction(b.db) as conn:
        row = game_row(conn, game_id, lock=True)
        if row.creator_id != user.id:
            raise Forbidden("only the sandbox's creator can take it back")
        if not row.settings.get("sandbox", False):
            raise Conflict(
                "only a sandbox goes back to an earlier phase: this game is not one",
                code="not_sandbox",
            )
        if row.state is None:
            raise Conflict("this game has not started yet", code="not_started")
        if row.status == FINISHED:  # in play again: one more game of the creator's not over
            limits.lock_user(conn, user.id)
            limits.check_games(b, conn, user.id)
        played = list(
            conn.execute(
                select(t.phases.c.phase)
                .where(t.phases.c.game_id == game_id)
                .order_by(t.phases.c.idx)
            ).scalars()
        )
        if target != row.phase and target not in played:
            raise NotFound(
                f"{target} is not a phase of this game (played: {', '.join(played) or 'none'};"
                f" now: {row.phase})"
            )
        game = engine.fresh(row.state)
        if target == row.phase and game.is_over:  # (it ended in it: no start to go back to)
            raise Conflict(
                f"the game ended in {target}: go back to a phase before it", code="game_over"
            )
        if len(game.history) != len(played):  # a state stored without its history
            raise Conflict("this sandbox's history is not kept: it cannot go back")
        k = played.index(target) if target != row.phase else len(played)
        if k < len(played) and game.history[k].skipped:
            raise BadRequest(
                f"nobody had a choice in {target} (it was played by itself): "
                "go back to the phase before it"
            )
        try:
            fork = game.rollback(target)
        except GameError as exc:
            raise BadRequest(str(exc)) from None
        conn.execute(delete(t.phases).where(t.phases.c.game_id == game_id, t.phases.c.idx >= k))
        conn.execute(delete(t.orders).where(t.orders.c.game_id == game_id))
        if k < len(played):  # the orders given in it, to change rather than give all again
            _give_again(conn, game_id, game.history[k], b.now())
        conn.execute(
            update(t.games)
            .where(t.games.c.id == game_id)
            .values(
                state=stored_state(row, fork),
                phase=engine.phase_of(fork),
                status=ACTIVE,
                result=None,
                version=row.version + 1,
                alone=False,
                updated_at=b.now(),
            )
        )
        begin_phase(b, conn, game_id, fork, GameSettings.from_json(row.settings), first=k == 0)
        return summary(conn, game_row(conn, game_id), user, b.now())


def _give_again(conn: Connection, game_id: int, record: PhaseRecord, now: float) -> None:
    """Store the orders given in ``record``'s phase (conquista: with the supports accepted
    and the alliances declared) as that phase's orders again, none of them ready."""
    for power, orders in record.orders.items():
        accept = sorted(prov for p, prov in record.accepted if p == power)
        ally = record.declared.get(power)
        store_orders(
            conn, game_id, str(record.phase), power, [str(o) for o in orders], now,
            ready=False, accept=accept or None, ally=None if ally is None else list(ally),
        )  # fmt: skip
