"""A stored game as its rows say: its status (forming, active, finished), its seats, who
may see it and the summary anyone may read. The lobby (:mod:`.games`, which calls play to
start a game or fill a seat) and play (:mod:`.play`) both read games through it, so play
never imports the lobby.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, Row, bindparam, select

from realpolitik.server import engine
from realpolitik.server import tables as t
from realpolitik.server.accounts import User
from realpolitik.server.db import for_update
from realpolitik.server.errors import no_game
from realpolitik.server.gamesettings import table_of

FORMING, ACTIVE, FINISHED = "forming", "active", "finished"


@dataclass(frozen=True, slots=True)
class Seat:
    seat: int
    user_id: int | None
    username: str | None
    bot: str | None
    powers: tuple[str, ...]
    left: bool = False  # its player left the game under way (a bot or civil disorder took over)
    leaver: str | None = None  # who left it then (None: not known, left before it was kept)
    conceded_by: tuple[tuple[str, str], ...] = ()  # (power, username) of its powers conceded


# The reads of every game view, built once: building a statement costs more than running
# it on SQLite (0.1-0.2 ms against 0.02 ms).
_GAME = select(t.games).where(t.games.c.id == bindparam("game_id"))
_LEAVERS = t.users.alias("leavers")
_SEATS = (
    select(t.seats, t.users.c.username, _LEAVERS.c.username.label("leaver"))
    .outerjoin(t.users, t.users.c.id == t.seats.c.user_id)
    .outerjoin(_LEAVERS, _LEAVERS.c.id == t.seats.c.left_by)
    .where(t.seats.c.game_id == bindparam("game_id"))
    .order_by(t.seats.c.seat)
)


def game_row(conn: Connection, game_id: int, *, lock: bool = False) -> Row[Any]:
    stmt = for_update(conn, _GAME) if lock else _GAME
    row = conn.execute(stmt, {"game_id": game_id}).first()
    if row is None:
        raise no_game(game_id)
    return row


def visible_row(
    conn: Connection, game_id: int, user: User | None, code: str | None, *, lock: bool = False
) -> Row[Any]:
    """The game, if the caller may see it: a listed game anyone may; an unlisted one its
    creator, the players seated in it and whoever holds its invitation code. Otherwise
    404, as if there were no such game (whatever the caller asked to do with it: an
    outsider learns neither that it exists nor what it is). ``lock``: its row locked."""
    row = game_row(conn, game_id, lock=lock)
    if row.settings.get("public", True):
        return row
    if code and same_code(code, row.invite_code):
        return row
    if user is not None:
        if row.creator_id == user.id:
            return row
        seated = conn.execute(
            select(t.seats.c.seat).where(t.seats.c.game_id == game_id, t.seats.c.user_id == user.id)
        ).first()
        if seated is not None:
            return row
    raise no_game(game_id)


def seats_of(conn: Connection, game_id: int) -> list[Seat]:
    rows = conn.execute(_SEATS, {"game_id": game_id}).all()
    conceders = {int(u) for r in rows for u in (r.conceded_by or {}).values()}
    named = _usernames(conn, conceders) if conceders else {}
    return [
        Seat(
            r.seat,
            r.user_id,
            r.username,
            r.bot,
            tuple(r.powers),
            r.left_at is not None,
            r.leaver if r.left_at is not None else None,
            tuple(
                (p, named[int(u)])
                for p, u in sorted((r.conceded_by or {}).items())
                if int(u) in named
            ),
        )
        for r in rows
    ]


def _usernames(conn: Connection, ids: set[int]) -> dict[int, str]:
    """The usernames of the accounts ``ids`` (who conceded powers: a few, seldom)."""
    u = t.users.c
    return {r.id: r.username for r in conn.execute(select(u.id, u.username).where(u.id.in_(ids)))}


def powers_of(seats: list[Seat], user: User | None) -> list[str]:
    if user is None:
        return []
    return sorted(p for s in seats if s.user_id == user.id for p in s.powers)


def open_seats(row: Row[Any], seats: list[Seat], user: User | None = None) -> set[int]:
    """The seats a person (``user``, if known) may take (by :func:`.games.join`; the lobby
    and the game's page offer them): in a forming game, each seat nobody has taken; in a
    game under way, a seat left empty or played by a bot, if one of its powers is still in
    the game (a unit or a centre, not conceded: :func:`.engine.powers_in`); none in a game
    over or a sandbox. Who left a seat of the game under way may take back only that one
    while it is open (:func:`seats_left_by`). One home for the rule: what is offered is
    what join allows."""
    if row.status == FINISHED or row.settings.get("sandbox", False):
        return set()
    unseated = [s for s in seats if s.user_id is None]
    if row.state is None or not unseated:
        return {s.seat for s in unseated}
    playing = set(
        engine.derived(
            row.id,
            row.version,
            ("powers_in",),
            lambda: engine.powers_in(engine.load(row.id, row.version, row.state)),
        )
    )
    opened = {s.seat for s in unseated if playing.intersection(s.powers)}
    own = {s.seat for s in seats_left_by(seats, user)} & opened
    return own or opened  # who left a seat still open takes back only that one


def seats_left_by(seats: list[Seat], user: User | None) -> list[Seat]:
    """The seats of a game under way that ``user`` left and nobody has taken since: the
    only ones they may take back (another seat's orders of the phase and its powers'
    private messages would be theirs to read, and their own seat theirs to come back to,
    knowing them)."""
    if user is None:
        return []
    return [s for s in seats if s.left and s.user_id is None and s.leaver == user.username]


def summary(
    conn: Connection,
    row: Row[Any],
    user: User | None,
    now: float,
    seats: list[Seat] | None = None,
) -> dict[str, Any]:
    """What anyone may know of a game (and, for its creator, the invitation code). The
    players' usernames (and ``creator_id``, the creator's account) are shown to the game's
    members, to others only if the game's settings say so (``taken`` tells a free seat
    from a taken one; ``open``, a seat the caller may take, a bot's too: :func:`open_seats`;
    ``left``, a seat whose player left the game under way, until it is taken again;
    ``left_by`` and ``conceded_by``, who left it then and who conceded its powers, named as
    the players are). ``seats``: the game's seats if the caller has read them already."""
    if seats is None:
        seats = seats_of(conn, row.id)
    member = user is not None and (
        row.creator_id == user.id or any(s.user_id == user.id for s in seats)
    )
    names = member or bool(row.settings.get("show_names", False))
    opened = open_seats(row, seats, user)
    out: dict[str, Any] = {
        "id": row.id,
        "name": row.name,
        "status": row.status,
        "phase": row.phase,
        "version": row.version,
        "settings": row.settings,
        "table": table_of(row.settings),
        "creator_id": row.creator_id if names else None,  # (a player: named as they are)
        "seats": [
            {
                "seat": s.seat,
                "player": s.username if names else None,
                "taken": s.user_id is not None,
                "bot": s.bot,
                "powers": list(s.powers),
                "open": s.seat in opened,
                "left": s.left,
                # who left it, who conceded its powers: named to whom the players are
                "left_by": s.leaver if names else None,
                "conceded_by": dict(s.conceded_by) if names else {},
            }
            for s in seats
        ],
        "my_powers": powers_of(seats, user),
        "is_player": user is not None and any(s.user_id == user.id for s in seats),
        "press_until": row.press_until,
        "deadline_at": row.deadline_at,
        "now": now,
        "result": row.result,
    }
    if user is not None and row.creator_id == user.id:
        out["invite_code"] = row.invite_code
    return out


def same_code(given: str, expected: str) -> bool:
    """Compare invitation codes in constant time (any text: bytes, not str, are compared)."""
    return secrets.compare_digest(given.encode("utf-8", "replace"), expected.encode())
