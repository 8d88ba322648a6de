"""Messages between powers: private (one recipient), group (several) and public (all),
under the game's press rules.

``full`` press allows all three, ``public`` only public messages, ``none`` nothing. Unless
the game allows press at any time, messages are sent during the diplomacy part of a
movement phase only. A message is seen by its sender and recipients; a public one by all,
observers included. Its recipients are powers someone plays, a person or a bot (not those
out of a smaller table, whose units only hold).
"""

from __future__ import annotations

import unicodedata
from typing import Any

from sqlalchemy import ColumnElement, Connection, Text, cast, func, insert, or_, select

from realpolitik.server import engine, limits
from realpolitik.server import tables as t
from realpolitik.server.accounts import User
from realpolitik.server.backend import Backend
from realpolitik.server.db import reading, transaction
from realpolitik.server.errors import BadRequest, Conflict, not_playing
from realpolitik.server.games import shows_nothing
from realpolitik.server.gamesettings import GameSettings
from realpolitik.server.rows import (
    ACTIVE,
    FINISHED,
    powers_of,
    seats_of,
    visible_row,
)

MAX_PAGE = 500


def send(
    b: Backend, game_id: int, user: User, sender: str, recipients: list[str], body: str
) -> dict[str, Any]:
    """Send a message from one of the user's powers; ``recipients`` empty means public."""
    body = body.strip()
    if shows_nothing(body):  # (a zero-width space alone: a blank line in the page)
        raise BadRequest("a message cannot be empty", code="message_empty")
    controls = sorted({f"U+{ord(c):04X}" for c in body if _control(c)})
    if controls:
        said = ", ".join(controls)
        raise BadRequest(
            f"a message may not hold control characters ({said})",
            code="message_control",
            values={"characters": said},
        )
    if len(body) > b.settings.max_message_length:
        raise BadRequest(
            f"a message is at most {b.settings.max_message_length} characters",
            code="message_too_long",
            values={"n": b.settings.max_message_length},
        )
    sender = sender.upper()
    to = sorted({r.upper() for r in recipients})
    now = b.now()
    with transaction(b.db) as conn:
        row = visible_row(conn, game_id, user, None, lock=True)
        if row.state is None:  # (nobody plays a power yet)
            raise Conflict("this game has not started yet", code="not_started")
        seats = seats_of(conn, game_id)
        if sender not in powers_of(seats, user):
            raise not_playing(sender)
        game = engine.load(row.id, row.version, row.state)
        unknown = [r for r in to if r not in game.powers]
        if unknown:
            raise BadRequest(f"unknown recipient{'s' * (len(unknown) > 1)}: {', '.join(unknown)}")
        if sender in to:
            raise BadRequest("a message cannot be sent to its sender")
        seated = {p for s in seats for p in s.powers}  # a person's or a bot's
        unplayed = [r for r in to if r not in seated]
        if unplayed:  # out of a smaller table: their units only hold, nobody reads them
            raise BadRequest(
                f"nobody plays {', '.join(unplayed)} in this game: no message can reach it",
                code="recipient_not_played",
                values={"powers": ", ".join(unplayed)},
            )
        if row.status == ACTIVE and sender in game.status.conceded:
            raise Conflict(
                f"{sender} has conceded: it sends no messages while the game goes on",
                code="power_conceded",
                values={"power": sender},
            )
        _check_press(GameSettings.from_json(row.settings), row, to, now)
        limits.check_messages(b, conn, game_id, row.phase, sender)
        number = _next_number(conn, game_id, now)
        conn.execute(
            insert(t.messages).values(
                game_id=game_id,
                number=number,
                phase=row.phase,
                sender=sender,
                recipients=to,
                body=body,
                created_at=now,
            )
        )
    return {
        "id": number,
        "phase": row.phase,
        "sender": sender,
        "recipients": to,
        "body": body,
        "created_at": now,
    }


def _next_number(conn: Connection, game_id: int, now: float) -> int:
    """A new message's number in its game (the game's row locked): the millisecond it is
    sent, or one more than the game's last number if that is not earlier. Numbers a
    player reads then tell no more than the times they were sent: not how many messages
    between them went to others."""
    last = conn.execute(
        select(func.max(t.messages.c.number)).where(t.messages.c.game_id == game_id)
    ).scalar_one()
    return max(int(now * 1000), (last or 0) + 1)


def _control(char: str) -> bool:
    """A control character other than a line break or a tab."""
    return unicodedata.category(char) == "Cc" and char not in "\n\r\t"


def _check_press(settings: GameSettings, row: Any, to: list[str], now: float) -> None:
    if row.status == FINISHED:
        if to:
            raise Conflict("the game is over: only public messages", code="press_over")
        return
    if settings.press == "none":
        raise Conflict("this is a no-press game", code="press_none")
    if settings.press == "public" and to:
        raise Conflict("this game allows public messages only", code="press_public_only")
    if settings.press_anytime or row.status != ACTIVE:
        return
    if not str(row.phase).endswith("M"):
        raise Conflict(
            "messages are sent during the diplomacy phase only", code="press_diplomacy_only"
        )
    if row.press_until is not None and now > row.press_until:
        raise Conflict("the diplomacy phase is over: orders are being written", code="press_closed")


def inbox(
    b: Backend,
    game_id: int,
    user: User | None,
    *,
    after: int = 0,
    power: str | None = None,
    code: str | None = None,
) -> list[dict[str, Any]]:
    """The messages the user may read (all public ones; private and group ones of the
    powers they play), oldest first, ids (their numbers in the game) greater than
    ``after``."""
    with reading(b.db) as conn:
        visible_row(conn, game_id, user, code)
        mine = set(powers_of(seats_of(conn, game_id), user))
        if power is not None:
            if power.upper() not in mine:
                raise not_playing(power.upper())
            mine = {power.upper()}
        rows = conn.execute(
            select(t.messages)
            .where(
                t.messages.c.game_id == game_id,
                t.messages.c.number > after,
                _readable(sorted(mine)),
            )
            .order_by(t.messages.c.number)
            .limit(MAX_PAGE)
        ).all()
    return [
        {
            "id": r.number,
            "phase": r.phase,
            "sender": r.sender,
            "recipients": list(r.recipients),
            "body": r.body,
            "created_at": r.created_at,
        }
        for r in rows
    ]


def _readable(mine: list[str]) -> ColumnElement[bool]:
    """The messages the powers ``mine`` may read, chosen in the query (a page of the
    readable ones: a page filled with others' private messages and then filtered would
    come back empty, and the reader would ask for it again forever). ``recipients`` is a
    JSON list of power names: public when it holds no string, else a power's name in
    quotes."""
    m = t.messages.c
    recipients = cast(m.recipients, Text)
    return or_(
        ~recipients.like('%"%'),
        m.sender.in_(mine),
        *(recipients.like(f'%"{power}"%') for power in mine),
    )
