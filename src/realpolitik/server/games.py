"""Games before and around play: create, list, join by invitation, leave, start.

A game is *forming* until its creator starts it (bots fill the empty seats, if the game
has them) or its last seat is taken; powers are assigned at random when it starts. It is
then *active* until it is over (*finished*).
"""

from __future__ import annotations

import secrets
import unicodedata
from typing import Any

from sqlalchemy import Connection, Row, delete, func, insert, select, update

from realpolitik.game import Game
from realpolitik.server import engine, limits
from realpolitik.server import tables as t
from realpolitik.server.accounts import User
from realpolitik.server.backend import Backend
from realpolitik.server.db import reading, transaction
from realpolitik.server.errors import BadRequest, Conflict, Forbidden, NotFound, no_game
from realpolitik.server.gamesettings import GameSettings
from realpolitik.server.play import (
    begin_phase,
    bots_alone,
    process_for,
    take_over_seat,
    vacate_seat,
)
from realpolitik.server.rows import (
    ACTIVE,
    FINISHED,
    FORMING,
    Seat,
    game_row,
    open_seats,
    same_code,
    seats_left_by,
    seats_of,
    summary,
    visible_row,
)
from realpolitik.server.security import new_invite_code

NAME_LIMIT = 100
"""A game's name is 1 to 100 characters."""


def new_game_id(conn: Connection) -> int:
    """A fresh game number, random below 2**53 (safe in JavaScript): not guessable."""
    while True:
        candidate = secrets.randbelow(2**53 - 2**40) + 2**40
        if conn.execute(select(t.games.c.id).where(t.games.c.id == candidate)).first() is None:
            return candidate


def create_game(
    b: Backend,
    user: User,
    name: str,
    settings: GameSettings,
    *,
    join: bool = True,
    start: bool = False,
    game: Game | None = None,
) -> int:
    """Create a game; its creator takes the first seat (``join``); ``start``: it starts at
    once, in the same transaction (a game that cannot start, seats empty and no bots, is
    not created either). A sandbox: its creator takes every seat, and it starts at once
    (at ``game``'s position if given: a fork of another game, :func:`.sandbox.fork`)."""
    settings.validate()
    if settings.sandbox and not join:
        raise BadRequest("a sandbox is played by its creator: join must be true, not false")
    name = name.strip()
    if not 1 <= len(name) <= NAME_LIMIT:
        raise BadRequest(
            f"a game's name is 1 to {NAME_LIMIT} characters",
            code="game_name_length",
            values={"n": NAME_LIMIT},
        )
    hidden = sorted({f"U+{ord(c):04X}" for c in name if _hidden(c)})
    if hidden:  # the lobby shows names to everyone: no invisible or reordering characters
        said = ", ".join(hidden)
        raise BadRequest(
            f"a game's name may not hold control or blank characters ({said})",
            code="game_name_hidden",
            values={"characters": said},
        )
    now = b.now()
    with transaction(b.db) as conn:
        limits.lock_user(conn, user.id)
        limits.check_games(b, conn, user.id)
        if join:
            limits.check_seats(b, conn, user.id)
        key = conn.execute(
            insert(t.games).values(
                id=new_game_id(conn),
                name=name,
                creator_id=user.id,
                status=FORMING,
                settings=settings.to_json(),
                invite_code=new_invite_code(),
                version=0,
                needs_check=False,
                created_at=now,
                updated_at=now,
            )
        ).inserted_primary_key
        assert key is not None
        game_id = int(key[0])
        for seat in range(1, settings.players + 1):
            mine = join and (seat == 1 or settings.sandbox)
            conn.execute(
                insert(t.seats).values(
                    game_id=game_id,
                    seat=seat,
                    user_id=user.id if mine else None,
                    powers=[],
                    joined_at=now if mine else None,
                )
            )
        if start or settings.sandbox:
            _start(b, conn, user, game_id, game)
    if start or settings.sandbox:
        process_for(b, game_id, user)
    return game_id


BLANK_LETTERS = "\u115f\u1160\u3164\uffa0\u2800"
"""Characters that count as letters (or symbols) and are drawn as nothing: the Hangul
fillers and the blank braille pattern (a game's name made of them looks empty)."""


JOINERS = "\u200c\u200d"
"""The zero-width non-joiner and joiner, which spell emoji and some scripts: drawn as
nothing themselves, but shaping what is around them."""


def _hidden(char: str) -> bool:
    """A control or formatting character (a line break, a right-to-left override, a
    zero-width space), but for the joiners (:data:`JOINERS`); or a blank letter
    (:data:`BLANK_LETTERS`)."""
    if char in BLANK_LETTERS:
        return True
    return unicodedata.category(char) in ("Cc", "Cf", "Zl", "Zp") and char not in JOINERS


def without_hidden(text: str) -> str:
    """``text`` without its hidden characters (a game's name from before they were refused,
    given on to a fork of it)."""
    return "".join(c for c in text if not _hidden(c))


def shows_nothing(text: str) -> bool:
    """Whether ``text`` is drawn as nothing: blanks, joiners and hidden characters only (a
    zero-width space, a right-to-left mark, the blank braille pattern)."""
    return all(c.isspace() or c in JOINERS or _hidden(c) for c in text)


def get_summary(
    b: Backend, game_id: int, user: User | None, code: str | None = None
) -> dict[str, Any]:
    with reading(b.db) as conn:
        return summary(conn, visible_row(conn, game_id, user, code), user, b.now())


def _summary(b: Backend, game_id: int, user: User | None) -> dict[str, Any]:
    """The summary after a change the caller was allowed to make (no visibility check)."""
    with reading(b.db) as conn:
        return summary(conn, game_row(conn, game_id), user, b.now())


_LISTED = func.coalesce(t.games.c.settings["public"].as_boolean(), True).is_(True)
"""A listed game (``public``, true unless its settings say false), chosen in the query: the
200 newest games read and the unlisted ones left out after would leave the lobby empty
once 200 sandboxes or unlisted games are newer than every listed one."""


def list_games(
    b: Backend, user: User | None, language: str = "en"
) -> dict[str, list[dict[str, Any]]]:
    """The user's games, and the 200 newest other games not over (the public ones: forming
    ones to join, others to watch), each with its phase's name in ``language``
    (``phase_name``); newest first."""
    with reading(b.db) as conn:
        mine_ids: set[int] = set()
        if user is not None:
            mine_ids = set(
                conn.execute(
                    select(t.seats.c.game_id).where(t.seats.c.user_id == user.id)
                ).scalars()
            )
        newest = (t.games.c.created_at.desc(), t.games.c.id.desc())  # numbers are random
        rows = [
            *conn.execute(select(t.games).where(t.games.c.id.in_(mine_ids)).order_by(*newest)),
            *conn.execute(
                select(t.games)
                .where(t.games.c.id.not_in(mine_ids), t.games.c.status != FINISHED, _LISTED)
                .order_by(*newest)
                .limit(200)
            ),
        ]
        now = b.now()
        mine: list[dict[str, Any]] = []
        open_: list[dict[str, Any]] = []
        watch: list[dict[str, Any]] = []
        for row in rows:
            item = summary(conn, row, user, now)
            over = (row.state or {}).get("result")  # named by the phase it ended in
            phase = over["phase"] if over else row.phase
            item["phase_name"] = phase and engine.edition_phase_title(
                row.settings.get("edition", "classic"), phase, language
            )
            # open to join: forming, or started with a seat left empty (rows.open_seats);
            # one whose only open seats are bots' is to watch, its bots' to take over (most
            # games have bots: the games to join would be most of them)
            free = any(s["open"] and s["bot"] is None for s in item["seats"])
            if row.id in mine_ids:
                mine.append(item)
            else:
                (open_ if row.status == FORMING or free else watch).append(item)
    return {"mine": mine, "open": open_, "watch": watch}


def join(
    b: Backend, user: User, game_id: int, code: str | None, power: str | None = None
) -> dict[str, Any]:
    """Take a seat (one of :func:`.rows.open_seats`): without ``power``, a free one, in a
    forming game or left empty in a started one; with it, the seat that plays ``power`` in
    a started game, left empty or played by a bot: a late friend takes over a bot's powers
    (every power of its seat), with their units, centres and this phase's orders (see
    :func:`.play.take_over_seat`). Under the game row's lock, as the bots' orders and the
    processing of a phase are: of a take-over and the bot's turn, one goes first and the
    other sees it. The last seat of a forming game starts it in the same transaction (its
    creator's Start at that moment finds it started). Refused with nothing changed: no
    such game (or unlisted, without its code: 404); ``power`` no power of the game (400);
    a sandbox, a game over, already seated, ``power`` played by a person or out of the
    game, the game not started, or the caller left another seat of it under way that is
    still open to them (409: they take back only their own, :func:`.rows.seats_left_by`)."""
    with transaction(b.db) as conn:
        row = game_row(conn, game_id, lock=True)
        public = bool(row.settings.get("public", True))
        if not public and not (code and same_code(code, row.invite_code)):
            raise no_game(game_id)  # as every other request of an outsider
        if row.settings.get("sandbox", False):
            raise Conflict("a sandbox is played by its creator alone", code="sandbox")
        if row.status == FINISHED:
            raise Conflict("this game is over", code="game_over")
        seats = seats_of(conn, game_id)
        if any(s.user_id == user.id for s in seats):
            raise Conflict("you already have a seat in this game", code="already_seated")
        if power is None:
            opened = open_seats(row, seats, user)
            seat = _free_seat(seats, opened)
        else:
            opened = open_seats(row, seats)
            seat = _seat_of(row, seats, opened, power)
            _check_left(seats, user, seat, opened)
        limits.lock_user(conn, user.id)
        limits.check_seats(b, conn, user.id)
        conn.execute(
            update(t.seats)
            .where(t.seats.c.game_id == game_id, t.seats.c.seat == seat.seat)
            .values(user_id=user.id, joined_at=b.now(), bot=None, left_at=None, left_by=None)
        )
        started = row.status == FORMING and len(opened) == 1
        if row.status == ACTIVE:
            take_over_seat(b, conn, row, seat)
        elif started:  # the last seat: the game starts with the seat taken, as one change
            # (the creator's Start at the same moment then finds it started, not the joiner)
            _start(b, conn, None, game_id, None)
    if started:  # the bots' first orders, once the game is stored
        process_for(b, game_id, user)
    return _summary(b, game_id, user)


def _free_seat(seats: list[Seat], opened: set[int]) -> Seat:
    """The first open seat no bot plays (a forming game's, or one left empty)."""
    free = [s for s in seats if s.seat in opened and s.bot is None]
    if free:
        return free[0]
    if opened:  # only bots' seats: which one is the newcomer's choice
        raise Conflict(
            "every seat is played, some by bots: name the power of a bot's seat to take it"
            ' over ("power")',
            code="choose_a_bot_seat",
        )
    raise Conflict("this game has no free seat", code="no_free_seat")


def _seat_of(row: Row[Any], seats: list[Seat], opened: set[int], power: str) -> Seat:
    """The seat that plays ``power``, if one may take it."""
    power = power.strip().upper()
    if row.status == FORMING:
        raise Conflict(
            "this game has not started yet: powers are dealt when it starts (join it without"
            " naming a power)",
            code="not_started",
        )
    seat = next((s for s in seats if power in s.powers), None)
    if seat is None:
        played = ", ".join(sorted(p for s in seats for p in s.powers))
        raise BadRequest(
            f"{power!r} is no power of this game (its powers: {played})",
            code="no_such_power",
            values={"power": power},
        )
    if seat.user_id is not None:
        raise Conflict(
            f"{power} is played by a person: only an empty seat or a bot's can be taken",
            code="seat_taken",
            values={"power": power},
        )
    if seat.seat not in opened:
        raise Conflict(
            f"{power} is out of the game (conceded, or no unit and no centre left): its seat"
            " is not taken over",
            code="power_out",
            values={"power": power},
        )
    return seat


def _check_left(seats: list[Seat], user: User, seat: Seat, opened: set[int]) -> None:
    """Refuse (409) a seat to who left another seat of the game under way that is still
    ``opened``: they take back their own or none (:func:`.rows.seats_left_by`)."""
    left = [s for s in seats_left_by(seats, user) if s.seat in opened]
    if left and seat.seat not in {s.seat for s in left}:
        powers = ", ".join(p for s in left for p in s.powers)
        raise Conflict(
            f"you left this game's seat of {powers}: only that seat can be yours again",
            code="left_another_seat",
            values={"powers": powers},
        )


def invitation(b: Backend, code: str) -> dict[str, Any]:
    """What an invitation link shows before one logs in: the game it invites to."""
    with reading(b.db) as conn:
        row = conn.execute(select(t.games).where(t.games.c.invite_code == code)).first()
        if row is None:
            raise NotFound("no game has this invitation code", code="unknown_invitation")
        seats = seats_of(conn, row.id)
        creator = conn.execute(
            select(t.users.c.username).where(t.users.c.id == row.creator_id)
        ).scalar_one_or_none()
    return {
        "id": row.id,
        "name": row.name,
        "status": row.status,
        "creator": creator,
        "edition": row.settings.get("edition"),
        "players": len(seats),
        "free_seats": len(open_seats(row, seats)),  # what joining by the link may take
    }


def join_by_code(b: Backend, user: User, code: str) -> dict[str, Any]:
    with reading(b.db) as conn:
        game_id = conn.execute(
            select(t.games.c.id).where(t.games.c.invite_code == code)
        ).scalar_one_or_none()
    if game_id is None:
        raise NotFound("no game has this invitation code", code="unknown_invitation")
    return join(b, user, game_id, code)


def leave(b: Backend, user: User, game_id: int) -> None:
    """Give up one's seat. The creator leaving a forming game nobody else has joined
    cancels it (see :func:`cancel`); one others have joined goes to the first of them
    seated, who becomes its creator (starts it, holds its invitation link: the table is
    not left with a game nobody may start or invite to); a sandbox is not left but
    deleted."""
    with transaction(b.db) as conn:
        row = visible_row(conn, game_id, user, None, lock=True)
        everyone = seats_of(conn, game_id)
        seats = [s for s in everyone if s.user_id == user.id]
        if not seats:
            raise Conflict("you have no seat in this game", code="no_seat")
        if row.status == FINISHED:
            raise Conflict("this game is over", code="game_over")
        if row.settings.get("sandbox", False):
            raise Conflict("a sandbox is not left: delete it", code="sandbox")
        if row.status == FORMING and row.creator_id == user.id:
            others = [s.user_id for s in everyone if s.user_id not in (None, user.id)]
            if not others:
                _delete(conn, game_id)
                return
            conn.execute(
                update(t.games).where(t.games.c.id == game_id).values(creator_id=others[0])
            )
        under_way = row.status == ACTIVE  # (the table is told who left: game.js)
        left = {
            "left_at": b.now() if under_way else None,
            "left_by": user.id if under_way else None,
        }
        for seat in seats:
            conn.execute(
                update(t.seats)
                .where(t.seats.c.game_id == game_id, t.seats.c.seat == seat.seat)
                .values(user_id=None, joined_at=None, **left)
            )
            if row.status == ACTIVE:
                vacate_seat(b, conn, row, seat)
    if row.status == ACTIVE:  # a bot in the seat orders now, outside the transaction
        process_for(b, game_id, user)


def cancel(b: Backend, user: User, game_id: int) -> None:
    """Delete a forming game: its creator may while nobody else has joined it (it then
    no longer counts against the creator's cap of games, :mod:`.limits`); a sandbox, at
    any time."""
    with transaction(b.db) as conn:
        row = visible_row(conn, game_id, user, None, lock=True)
        if row.creator_id != user.id:
            raise Forbidden("only the game's creator can cancel it")
        if row.settings.get("sandbox", False):
            _delete(conn, game_id)
            return
        if row.status != FORMING:
            raise Conflict("this game has already started", code="already_started")
        if not _alone_in(seats_of(conn, game_id), user):
            raise Conflict(
                "other players have joined this game: it can no longer be cancelled",
                code="players_joined",
            )
        _delete(conn, game_id)


def _alone_in(seats: list[Seat], user: User) -> bool:
    """Nobody but ``user`` (seated or not) has a seat."""
    return all(s.user_id in (None, user.id) for s in seats)


def _delete(conn: Connection, game_id: int) -> None:
    """Delete a game: a forming one (it has only seats), or a sandbox with its orders,
    messages and phases."""
    for table in (t.orders, t.messages, t.phases, t.seats):
        conn.execute(delete(table).where(table.c.game_id == game_id))
    conn.execute(delete(t.games).where(t.games.c.id == game_id))


def start(b: Backend, user: User, game_id: int, *, game: Game | None = None) -> dict[str, Any]:
    """Start a forming game (its creator may; the last seat taken starts it too, in
    :func:`join`): a new game, or ``game`` (a sandbox forked from another game's position)."""
    with transaction(b.db) as conn:
        _start(b, conn, user, game_id, game)
    process_for(b, game_id, user)
    return _summary(b, game_id, user)


def _start(
    b: Backend, conn: Connection, user: User | None, game_id: int, game: Game | None
) -> None:
    """:func:`start` in the transaction ``conn`` (the bots' first orders come after it)."""
    if user is None:  # the last seat taken: the game starts by itself
        row = game_row(conn, game_id, lock=True)
    else:
        row = visible_row(conn, game_id, user, None, lock=True)
    if user is not None and row.creator_id != user.id:
        creator = conn.execute(
            select(t.users.c.username).where(t.users.c.id == row.creator_id)
        ).scalar_one()
        raise Forbidden(
            f"only the game's creator, {creator}, can start it",
            code="not_creator",
            values={"creator": creator},
        )
    if row.status != FORMING:
        raise Conflict("this game has already started", code="already_started")
    settings = GameSettings.from_json(row.settings)
    seats = seats_of(conn, game_id)
    empty = [s for s in seats if s.user_id is None]
    if empty and settings.bots is None:
        raise Conflict(
            (f"{len(empty)} seats are" if len(empty) > 1 else "1 seat is")
            + " empty and this game has no bots",
            code="seats_empty",
            values={"n": len(empty)},
        )
    if game is None:
        game = engine.new_game(
            variant=settings.variant,
            edition=settings.edition,
            seats=len(seats),
            seed=secrets.randbelow(2**31),
            setup=settings.setup,
            last_year=settings.last_year,
        )
    by_seat = engine.seat_powers(game)
    for s in seats:
        conn.execute(
            update(t.seats)
            .where(t.seats.c.game_id == game_id, t.seats.c.seat == s.seat)
            .values(
                powers=by_seat.get(s.seat, []),
                bot=settings.bots if s.user_id is None else None,
            )
        )
    now = b.now()
    result = conn.execute(
        update(t.games)
        .where(t.games.c.id == game_id, t.games.c.version == row.version)
        .values(
            status=ACTIVE,
            state=engine.to_state(game),
            phase=engine.phase_of(game),
            version=row.version + 1,
            updated_at=now,
            alone=bots_alone(game, seats_of(conn, game_id)),
        )
    )
    if result.rowcount != 1:
        raise Conflict("the game changed meanwhile; try again", code="changed_meanwhile")
    begin_phase(b, conn, game_id, game, settings, first=True)
