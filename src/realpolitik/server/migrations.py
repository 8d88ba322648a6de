"""Versioned schema migrations: a small runner, one function per version, each in a
transaction; the versions applied are recorded in ``schema_version``.

Several server processes may start at once against one PostgreSQL: the runner takes an
advisory lock (SQLite: the database's write lock) so each migration runs exactly once.
To change the schema, add a function to :data:`MIGRATIONS`; never edit an applied one.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from sqlalchemy import JSON, Connection, Engine, inspect, select, sql, text, update

from realpolitik.server import tables as t

log = logging.getLogger(__name__)

_LOCK_KEY = 0x7265616C  # "real"


def _initial(conn: Connection) -> None:
    """Version 1: accounts, sessions, games, seats, orders, messages, phase records."""
    t.metadata.create_all(
        conn,
        tables=[t.users, t.sessions, t.games, t.seats, t.orders, t.messages, t.phases],
    )


def _accept_ally(conn: Connection) -> None:
    """Version 2: a power's accepted supports and declared alliance, with its orders
    (conquista). Version 1 creates the table as it is now, so only missing columns."""
    have = {c["name"] for c in inspect(conn).get_columns("orders")}
    for name in ("accept", "ally"):
        if name not in have:
            conn.execute(text(f"ALTER TABLE orders ADD COLUMN {name} JSON"))


def _big_game_ids(conn: Connection) -> None:
    """Version 3: game numbers are random below 2**53 (PostgreSQL: BIGINT; SQLite's
    INTEGER already holds them)."""
    if conn.dialect.name != "postgresql":
        return
    conn.exec_driver_sql("ALTER TABLE games ALTER COLUMN id TYPE BIGINT")
    for table in ("seats", "orders", "messages", "phases"):
        conn.exec_driver_sql(f"ALTER TABLE {table} ALTER COLUMN game_id TYPE BIGINT")


def _attempts_and_idle_sessions(conn: Connection) -> None:
    """Version 4: attempts counted in the database (limits shared by every process), a
    session's last use (idle sessions expire), an index of sessions by user."""
    have = {c["name"] for c in inspect(conn).get_columns("sessions")}
    if "last_seen_at" not in have:
        conn.execute(text("ALTER TABLE sessions ADD COLUMN last_seen_at FLOAT"))
    indexes = {i["name"] for i in inspect(conn).get_indexes("sessions")}
    if "ix_sessions_user" not in indexes:
        conn.execute(text("CREATE INDEX ix_sessions_user ON sessions (user_id)"))
    t.metadata.create_all(conn, tables=[t.attempts])


def _bots_alone(conn: Connection) -> None:
    """Version 5: whether a game is one of bots alone, kept with it (the scheduler's loops
    are split by it); a game then is if nobody is seated, until its next phase says."""
    have = {c["name"] for c in inspect(conn).get_columns("games")}
    if "alone" not in have:
        conn.execute(text("ALTER TABLE games ADD COLUMN alone BOOLEAN NOT NULL DEFAULT FALSE"))
    seated = select(t.seats.c.seat).where(
        t.seats.c.game_id == t.games.c.id, t.seats.c.user_id.is_not(None)
    )
    conn.execute(t.games.update().values(alone=~seated.exists()))


def _message_numbers(conn: Connection) -> None:
    """Version 6: messages are numbered in their game by the millisecond they were sent
    (see :data:`~realpolitik.server.tables.messages`); those before keep their id as
    their number, below every new one."""
    have = {c["name"] for c in inspect(conn).get_columns("messages")}
    if "number" not in have:
        conn.execute(text("ALTER TABLE messages ADD COLUMN number BIGINT"))
        conn.execute(text("UPDATE messages SET number = id"))
        if conn.dialect.name == "postgresql":
            conn.execute(text("ALTER TABLE messages ALTER COLUMN number SET NOT NULL"))
    conn.execute(text("DROP INDEX IF EXISTS ix_messages_game"))
    indexes = {i["name"] for i in inspect(conn).get_indexes("messages")}
    if "ix_messages_number" not in indexes:
        conn.execute(text("CREATE UNIQUE INDEX ix_messages_number ON messages (game_id, number)"))


def _mail(conn: Connection) -> None:
    """Version 7: an email address on accounts (confirmed by a link), its notices turned
    on or off, the links, the outbox of mail to send, the notices given."""
    have = {c["name"] for c in inspect(conn).get_columns("users")}
    added = {
        "email": "VARCHAR(254)",
        "email_confirmed_at": "FLOAT",
        "notify_phase": "BOOLEAN NOT NULL DEFAULT TRUE",
        "notify_deadline": "BOOLEAN NOT NULL DEFAULT TRUE",
    }
    for name, kind in added.items():
        if name not in have:
            conn.execute(text(f"ALTER TABLE users ADD COLUMN {name} {kind}"))
    t.metadata.create_all(conn, tables=[t.email_tokens, t.outbox, t.notices])


def _unsubscribe_and_zones(conn: Connection) -> None:
    """Version 8: a link in each notice mail that turns notices off without logging in
    (its tokens; the outbox keeps it for the List-Unsubscribe header), and the time zone
    deadlines in mail are written in. Version 7 creates the outbox as it is now, so only
    missing columns."""
    added = {("users", "time_zone"): "VARCHAR(64)", ("outbox", "unsubscribe"): "VARCHAR(500)"}
    for (table, name), kind in added.items():
        if name not in {c["name"] for c in inspect(conn).get_columns(table)}:
            conn.execute(text(f"ALTER TABLE {table} ADD COLUMN {name} {kind}"))
    t.metadata.create_all(conn, tables=[t.unsubscribe_tokens])


def _seats_left(conn: Connection) -> None:
    """Version 9: when a seat's player left the game under way, kept with the seat (the
    game's page tells the table whose powers a bot now plays); seats left before it are
    not known: null."""
    if "left_at" not in {c["name"] for c in inspect(conn).get_columns("seats")}:
        conn.execute(text("ALTER TABLE seats ADD COLUMN left_at FLOAT"))


_REPLAY = ("orders", "civil_disorder", "status")
"""The keys of a saved game's history record that version 10 keeps in ``phases.replay``
(:data:`realpolitik.server.engine.REPLAY` then)."""


def _sandbox_history(conn: Connection) -> None:
    """Version 10: a sandbox's history leaves its stored state (read, checked and written
    whole at every phase until then) for the rows of its phases: each row gets what going
    back to it needs beyond its record (``replay``: the orders as given, the powers in civil
    disorder, the status before it), taken from the state's history, which is emptied.
    A sandbox stored without its history (played before it was kept) stays so."""
    if "replay" not in {c["name"] for c in inspect(conn).get_columns("phases")}:
        conn.execute(text("ALTER TABLE phases ADD COLUMN replay JSON"))
    games = sql.table(
        "games", sql.column("id"), sql.column("settings", JSON), sql.column("state", JSON)
    )
    phases = sql.table(
        "phases", sql.column("game_id"), sql.column("phase"), sql.column("replay", JSON)
    )  # (as they are in version 10, whatever later versions make of them)
    started = conn.execute(select(games.c.id, games.c.settings).where(games.c.state.is_not(None)))
    boxes = [game_id for game_id, settings in started if settings.get("sandbox", False)]
    for game_id in boxes:
        state = conn.execute(select(games.c.state).where(games.c.id == game_id)).scalar_one()
        history = (state.get("history") or []) if isinstance(state, dict) else []
        for saved in history:
            conn.execute(
                update(phases)
                .where(phases.c.game_id == game_id, phases.c.phase == saved["phase"])
                .values(replay={k: saved[k] for k in _REPLAY if k in saved})
            )
        if history:
            conn.execute(
                update(games).where(games.c.id == game_id).values(state=state | {"history": []})
            )


def _draws_told(conn: Connection) -> None:
    """Version 11: a finished game's result keeps whether its winners share an agreed draw
    (``draw``, which the lobby shows: "Draw: ..." or "Winners: ..."); a game finished before
    it was kept is told by its stored state, whose result has always had its kind
    (``"draw"``, ``"victory"``, ``"concession"``, ``"shortened"``). A state without a result
    (none is known) is left as it was: read as winners."""
    g = t.games
    finished = conn.execute(select(g.c.id, g.c.result).where(g.c.status == "finished"))
    untold = [
        row.id for row in finished if isinstance(row.result, dict) and "draw" not in row.result
    ]
    for game_id in untold:
        row = conn.execute(select(g.c.result, g.c.state).where(g.c.id == game_id)).one()
        ended = (row.state or {}).get("result") if isinstance(row.state, dict) else None
        if not isinstance(ended, dict) or "kind" not in ended:
            continue
        told = {**row.result, "draw": ended["kind"] == "draw"}
        conn.execute(g.update().where(g.c.id == game_id).values(result=told))


def _who_left_and_conceded(conn: Connection) -> None:
    """Version 12: who left a seat under way and who conceded its powers, kept with the
    seat (the game's page names them to the table with the powers); seats left or powers
    conceded before it are not known: null (the page names the powers alone)."""
    have = {c["name"] for c in inspect(conn).get_columns("seats")}
    if "left_by" not in have:
        conn.execute(text("ALTER TABLE seats ADD COLUMN left_by INTEGER"))
    if "conceded_by" not in have:
        conn.execute(text("ALTER TABLE seats ADD COLUMN conceded_by JSON"))


Migration = tuple[int, str, Callable[[Connection], None]]
MIGRATIONS: tuple[Migration, ...] = (
    (1, "initial schema", _initial),
    (2, "accepted supports and alliances with the orders", _accept_ally),
    (3, "random game numbers below 2**53", _big_game_ids),
    (4, "attempts in the database, idle sessions", _attempts_and_idle_sessions),
    (5, "games of bots alone marked", _bots_alone),
    (6, "messages numbered by the millisecond sent, in their game", _message_numbers),
    (7, "email addresses, their notices and the outbox", _mail),
    (8, "links that turn notices off, time zones of mail", _unsubscribe_and_zones),
    (9, "when a seat's player left the game under way", _seats_left),
    (10, "a sandbox's history in the rows of its phases, not its state", _sandbox_history),
    (11, "draws told in the results of games finished before", _draws_told),
    (12, "who left a seat under way and who conceded its powers", _who_left_and_conceded),
)


def current_version(conn: Connection) -> int:
    if not inspect(conn).has_table("schema_version"):
        return 0
    versions = conn.execute(select(t.schema_version.c.version)).scalars().all()
    return max(versions, default=0)


def migrate(engine: Engine) -> int:
    """Apply the pending migrations; return the schema version. A database a later
    release has migrated further: :class:`ValueError` (nothing changed)."""
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({_LOCK_KEY})")
        t.schema_version.create(conn, checkfirst=True)
        version = current_version(conn)
        if version > MIGRATIONS[-1][0]:  # (a release gone back to: it would misread it)
            raise ValueError(
                f"its schema is version {version}, newer than this realpolitik's "
                f"({MIGRATIONS[-1][0]}): serve it with the release that wrote it, or a later one"
            )
        for number, name, apply in MIGRATIONS:
            if number <= version:
                continue
            log.info("applying migration %d: %s", number, name)
            apply(conn)
            conn.execute(
                t.schema_version.insert().values(version=number, name=name, applied_at=time.time())
            )
            version = number
    return version
