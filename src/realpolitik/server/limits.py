"""What one user may hold at once, so that one account cannot fill the database: the
caps a host sets in :class:`.settings.Settings` (defaults in brackets).

* ``games_per_user`` (20): games the user has created that are not over. A game ends, or
  its creator cancels it while it is forming and nobody else has joined (a sandbox: at any
  time), to make room; a finished sandbox taken back into play counts again.
* ``seats_per_user`` (50): games not over in which the user has a seat (a seat taken in
  a game being formed squats it for everyone else).
* ``messages_per_phase`` (300): messages one power sends in one phase of a game (after
  the game, its last phase: public messages only).
* ``sessions_per_user`` (50): a log-in past it ends the user's least recently used
  session instead of being refused (the owner must always be able to log in; kept by
  :mod:`.accounts`).
* ``draw_votes_per_window`` (20): draw votes one power casts in one game per
  ``login_window_seconds`` (each vote rewrites the game; 429 with Retry-After).

A cap reached refuses the new thing (409, or 429 for the draw votes) with a code naming
it and its number; nothing already stored is touched. Each check runs in the
transaction that stores the new thing, after the row it counts under is locked (the
user's, the game's), so requests racing each other cannot both slip under a cap.
"""

from __future__ import annotations

from sqlalchemy import Connection, func, select

from realpolitik.server import ratelimit
from realpolitik.server import tables as t
from realpolitik.server.backend import Backend
from realpolitik.server.db import for_update
from realpolitik.server.errors import Conflict, TooManyAttempts
from realpolitik.server.rows import FINISHED

DRAW_VOTES = "draw_vote"
"""The kind of the draw votes counted in :mod:`.ratelimit`'s table."""


def lock_user(conn: Connection, user_id: int) -> None:
    """Hold the user's row until the transaction ends: the user's own requests that
    count games or seats take turns."""
    conn.execute(for_update(conn, select(t.users.c.id).where(t.users.c.id == user_id)))


def check_games(b: Backend, conn: Connection, user_id: int) -> None:
    """Refuse (409 ``too_many_games``) a new game from a user who has created
    ``games_per_user`` games that are not over (the user's row locked first)."""
    cap = b.settings.games_per_user
    g = t.games.c
    created = conn.execute(
        select(func.count()).where(g.creator_id == user_id, g.status != FINISHED)
    ).scalar_one()
    if created >= cap:
        raise Conflict(
            f"you have created {created} games that are not over, the most allowed at once "
            f"({cap}): cancel one still forming, or wait for one to end",
            code="too_many_games",
            values={"n": cap},
        )


def check_seats(b: Backend, conn: Connection, user_id: int) -> None:
    """Refuse (409 ``too_many_seats``) a seat to a user who has one in ``seats_per_user``
    games that are not over (the user's row locked first)."""
    cap = b.settings.seats_per_user
    s, g = t.seats.c, t.games.c
    seated = conn.execute(
        select(func.count(func.distinct(s.game_id)))
        .select_from(t.seats.join(t.games, g.id == s.game_id))
        .where(s.user_id == user_id, g.status != FINISHED)
    ).scalar_one()
    if seated >= cap:
        raise Conflict(
            f"you have a seat in {seated} games that are not over, the most allowed at once "
            f"({cap}): leave one, or wait for one to end",
            code="too_many_seats",
            values={"n": cap},
        )


def check_messages(b: Backend, conn: Connection, game_id: int, phase: str, sender: str) -> None:
    """Refuse (409 ``too_many_messages``) a message from a power that has sent
    ``messages_per_phase`` in this phase of the game (the game's row locked first)."""
    cap = b.settings.messages_per_phase
    m = t.messages.c
    sent = conn.execute(
        select(func.count()).where(m.game_id == game_id, m.phase == phase, m.sender == sender)
    ).scalar_one()
    if sent >= cap:
        raise Conflict(
            f"{sender} has sent {sent} messages in {phase}, the most allowed in one phase ({cap})",
            code="too_many_messages",
            values={"power": sender, "n": cap},
        )


def count_draw_vote(b: Backend, conn: Connection, game_id: int, power: str) -> None:
    """Count a draw vote of ``power`` in the game; refuse it (429) past
    ``draw_votes_per_window`` in the window. Counted in the caller's transaction: a
    refused vote is not counted (the count stays at the cap until the window ends)."""
    s, now = b.settings, b.now()
    counted = ratelimit.count(
        conn, DRAW_VOTES, f"{game_id}:{power}", window=s.login_window_seconds, now=now
    )
    wait = counted.retry_after(s.draw_votes_per_window, now)
    if wait:
        raise TooManyAttempts(wait)
