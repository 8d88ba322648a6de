"""The database schema (SQLAlchemy Core). Changed only through :mod:`.migrations`."""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
)

metadata = MetaData()

GameId = BigInteger().with_variant(Integer, "sqlite")
"""A game's number: random below 2**53 (not guessable); SQLite's INTEGER is 64-bit."""

schema_version = Table(
    "schema_version",
    metadata,
    Column("version", Integer, primary_key=True),
    Column("name", String(200), nullable=False),
    Column("applied_at", Float, nullable=False),
)

users = Table(
    "users",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("username", String(40), nullable=False),
    Column("username_key", String(40), nullable=False, unique=True),
    Column("password_hash", String(300), nullable=False),
    Column("language", String(5), nullable=False, default="en"),
    Column("created_at", Float, nullable=False),
    # an email address for notices (contact.py; migration 7): only a confirmed one gets
    # any but its confirmation; each kind of notice may be turned off
    Column("email", String(254), nullable=True),
    Column("email_confirmed_at", Float, nullable=True),  # null: not confirmed
    Column("notify_phase", Boolean, nullable=False, default=True),
    Column("notify_deadline", Boolean, nullable=False, default=True),
    # the IANA time zone the deadlines in mail are written in (zones.py; migration 8):
    # sent by the page with the address or the notices; null: UTC
    Column("time_zone", String(64), nullable=True),
)

sessions = Table(
    "sessions",
    metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("expires_at", Float, nullable=False),  # the absolute end
    Column("last_seen_at", Float, nullable=True),  # its last use (a few minutes late at most)
)
Index("ix_sessions_user", sessions.c.user_id)

attempts = Table(
    "attempts",
    metadata,
    Column("kind", String(20), primary_key=True),  # ratelimit.ADDRESS | SIGNUP | ACCOUNT
    Column("subject", String(64), primary_key=True),  # the SHA-256 of the address or account
    Column("count", Integer, nullable=False),
    Column("expires_at", Float, nullable=False),
)
Index("ix_attempts_expires", attempts.c.expires_at)

games = Table(
    "games",
    metadata,
    Column("id", GameId, primary_key=True, autoincrement=False),
    Column("name", String(100), nullable=False),
    Column("creator_id", Integer, ForeignKey("users.id"), nullable=False),
    Column("status", String(10), nullable=False),  # forming | active | finished
    Column("settings", JSON, nullable=False),
    Column("invite_code", String(40), nullable=False, unique=True),
    Column("state", JSON, nullable=True),  # game_to_json(game) once started
    Column("phase", String(10), nullable=True),
    Column("version", Integer, nullable=False, default=0),
    Column("phase_started_at", Float, nullable=True),
    Column("press_until", Float, nullable=True),
    Column("deadline_at", Float, nullable=True),
    Column("needs_check", Boolean, nullable=False, default=False),
    # no person plays any more (nobody seated, or every seated person's powers are out):
    # the game is one of bots alone (play.bots_alone; migration 5)
    Column("alone", Boolean, nullable=False, default=False),
    Column("result", JSON, nullable=True),
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
)
Index("ix_games_status_deadline", games.c.status, games.c.deadline_at)

seats = Table(
    "seats",
    metadata,
    Column("game_id", GameId, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id"), nullable=True),
    Column("bot", String(20), nullable=True),
    Column("powers", JSON, nullable=False),
    Column("joined_at", Float, nullable=True),
    # when its player left the game under way (a bot or civil disorder took over); null:
    # never, or taken again since (migration 9)
    Column("left_at", Float, nullable=True),
    # who left it then (a user id, as conceded_by's: accounts are never deleted), named to
    # the table with its powers (null: as left_at, or left before it was kept; migration 12)
    Column("left_by", Integer, nullable=True),
    # who conceded each of its powers that conceded, {power: user id} (named to the table;
    # null: none, or conceded before it was kept; migration 12)
    Column("conceded_by", JSON, nullable=True),
)
Index("ix_seats_user", seats.c.user_id)

orders = Table(
    "orders",
    metadata,
    Column("game_id", GameId, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("phase", String(10), primary_key=True),
    Column("power", String(20), primary_key=True),
    Column("orders", JSON, nullable=False),
    Column("ready", Boolean, nullable=False, default=False),
    Column("updated_at", Float, nullable=False),
    # conquista: the foreign units whose support the power accepts (provinces), and the
    # alliance it declares (its members); null: none given (migration 2)
    Column("accept", JSON, nullable=True),
    Column("ally", JSON, nullable=True),
)

messages = Table(
    "messages",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),  # the database's own
    Column("game_id", GameId, ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
    # the number players see, increasing in its game: the millisecond it was sent (one
    # more than the game's last if that is not later), so the numbers a player reads say
    # nothing of the messages in between that they may not read (migration 6)
    Column("number", BigInteger, nullable=False),
    Column("phase", String(10), nullable=False),
    Column("sender", String(20), nullable=False),
    Column("recipients", JSON, nullable=False),  # [] = public
    Column("body", Text, nullable=False),
    Column("created_at", Float, nullable=False),
)
Index("ix_messages_number", messages.c.game_id, messages.c.number, unique=True)

phases = Table(
    "phases",
    metadata,
    Column("game_id", GameId, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("phase", String(10), nullable=False),
    Column("record", JSON, nullable=False),  # engine.record_json: what the history shows
    Column("created_at", Float, nullable=False),
    # what going back to the phase (a sandbox) or forking it needs beyond its record
    # (engine.REPLAY: the orders as given, the powers in civil disorder, the status before
    # it), written once as it is processed; null: played before it was kept (a sandbox's
    # until migration 10 moved its history here from its state; another game's until forks
    # took a past phase's status from it)
    Column("replay", JSON, nullable=True),
    UniqueConstraint("game_id", "phase", name="uq_phases_game_phase"),
)

email_tokens = Table(  # the links that confirm an address: single use, expiring (migration 7)
    "email_tokens",
    metadata,
    Column("token_hash", String(64), primary_key=True),  # the SHA-256 of the token only
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    Column("email", String(254), nullable=False),
    Column("expires_at", Float, nullable=False),
)
Index("ix_email_tokens_user", email_tokens.c.user_id)

outbox = Table(  # mail waiting to be sent (mail.py; migration 7): a row goes once sent
    "outbox",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("recipient", String(254), nullable=False),
    Column("subject", String(300), nullable=False),
    Column("body", Text, nullable=False),
    Column("created_at", Float, nullable=False),
    Column("attempts", Integer, nullable=False, default=0),
    Column("next_at", Float, nullable=False),  # not tried again before
    Column("claimed_until", Float, nullable=True),  # a process is sending it until then
    # the address whose POST turns this mail's notices off (List-Unsubscribe; migration 8)
    Column("unsubscribe", String(500), nullable=True),
)
Index("ix_outbox_next", outbox.c.next_at)

notices = Table(  # the notices each user was given, once per game, phase and kind
    "notices",
    metadata,
    Column("game_id", GameId, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("phase", String(10), primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("kind", String(10), primary_key=True),  # notices.PHASE | notices.REMINDER
    Column("created_at", Float, nullable=False),
)

unsubscribe_tokens = Table(  # the links that turn notices off, one per notice mail (migration 8)
    "unsubscribe_tokens",
    metadata,
    Column("token_hash", String(64), primary_key=True),  # the SHA-256 of the token only
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    Column("kind", String(10), nullable=False),  # the notice mailed: notices.PHASE | REMINDER
    Column("created_at", Float, nullable=False),
    Column("used_at", Float, nullable=True),  # null: not followed yet (a link works once)
)
Index("ix_unsubscribe_tokens_user", unsubscribe_tokens.c.user_id)
Index("ix_unsubscribe_tokens_created", unsubscribe_tokens.c.created_at)
