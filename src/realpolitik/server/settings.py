"""Server settings, read from the environment (``REALPOLITIK_*``).

``REALPOLITIK_DATABASE_URL`` picks the storage: SQLite by default (a file created on first
run), PostgreSQL with e.g. ``postgresql+psycopg://user:pass@host/dbname``.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

from realpolitik.server.smtp import SmtpServer

DEFAULT_DATABASE_URL = "sqlite:///realpolitik.sqlite3"
LOG_LEVELS = ("critical", "error", "warning", "info", "debug", "trace")
"""uvicorn's log levels (``trace``: below ``debug``)."""


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything the server can be told. ``Settings.from_env()`` reads the environment."""

    database_url: str = DEFAULT_DATABASE_URL
    scheduler: bool = True
    """Run the background loop that processes phases at their deadline."""
    tick_seconds: float = 1.0
    session_days: float = 30.0
    """A session's absolute lifetime: it ends this many days after the log-in."""
    session_idle_days: float = 7.0
    """A session unused for this many days ends before its lifetime."""
    secure_cookies: bool = False
    """Mark the session cookie ``Secure`` (set it when served over HTTPS)."""
    password_time_cost: int = 2
    password_memory_kib: int = 19 * 1024
    max_message_length: int = 2000
    pool_size: int = 10
    bot_game_years: int = 10
    """A game no person plays (nobody seated, or every seated person's powers conceded or
    out) ends after this many years (the one with most centres wins, as in a shortened
    game): bots alone would otherwise play forever."""
    bot_strength: int | None = None
    """The search bot's budget (adjudications per movement phase; ``None``: its default)."""
    requests_per_minute: int = 600
    """Requests from one address to one server process, per minute, in bursts of up to a
    sixth of it; more are refused (429) until it has waited (:mod:`.throttle`; 0: no limit)."""
    max_body_bytes: int = 128 * 1024
    """A request body over this many bytes is refused (413) before it is read whole."""
    push_seconds: float = 1.0
    """How often an open event stream checks its game for changes."""
    max_streams: int = 1000
    """Open event streams per process at most (more are refused: the page polls)."""
    streams_per_client: int = 20
    """Open event streams per process of one user (not logged in: one address)."""
    login_failures_per_account_address: int = 10
    """Failed log-ins to one account from one address since its last success there, per
    window (the sender's address is throttled, not the account: see :mod:`.accounts`)."""
    login_failures_per_account: int = 100
    """Failed log-ins to one account from all addresses together, per window: the last
    guard against guesses spread over many addresses (past it, the account is refused)."""
    login_attempts_per_address: int = 50
    """Log-ins and sign-ups from one address, per window (all processes together)."""
    signups_per_address: int = 10
    """Sign-ups from one address, per window: a sign-up tells whether a username is free,
    so probing names costs what guessing passwords does, and is counted more tightly."""
    login_window_seconds: float = 900.0
    games_per_user: int = 20
    """Games a user has created that are not over, at most (:mod:`.limits`)."""
    seats_per_user: int = 50
    """Games not over in which a user has a seat, at most."""
    messages_per_phase: int = 300
    """Messages one power sends in one phase of a game, at most."""
    sessions_per_user: int = 50
    """A user's sessions at most: a log-in past it ends the least recently used one."""
    draw_votes_per_window: int = 20
    """Draw votes one power casts in one game per ``login_window_seconds``."""
    smtp_url: str = ""
    """Where mail is sent (:mod:`.mail`): ``smtp://user:pass@host:587`` (STARTTLS when
    the server offers it), ``smtps://...`` (TLS), ``smtp://localhost:1025`` (plain).
    Empty: no mail, and the page offers no email address."""
    mail_from: str = ""
    """The sender of the mail (both it and ``smtp_url`` set: mail is on)."""
    public_url: str = ""
    """The site's address as players reach it (``https://dip.example.org``), for the links
    in mail: needed with ``smtp_url`` (never the address a request names, which its sender
    chooses: a confirmation mailed to someone else would link to any site)."""
    remind_seconds: float = 3600.0
    """A reminder goes this long before a deadline to a player whose powers are not ready."""
    confirmations_per_hour: int = 3
    """Confirmation mails one user may ask for in an hour (and one address may be sent)."""
    log_level: str = "info"
    """The server's log level, its own lines and uvicorn's (``warning``: no line per
    request): one of :data:`LOG_LEVELS`."""

    @property
    def mail(self) -> bool:
        """Whether mail is on (the host gave an SMTP server, a sender and the site's address)."""
        return bool(self.smtp_url and self.mail_from and self.public_url)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if env is None else env
        default = cls()

        def flag(name: str, value: bool) -> bool:
            raw = env.get(name)
            if raw is None:
                return value
            if raw.lower() in ("1", "true", "yes", "on"):
                return True
            if raw.lower() in ("0", "false", "no", "off"):
                return False
            raise ValueError(f"{name} must be a boolean (1/0, true/false), not {raw!r}")

        def number(name: str, value: float) -> float:
            raw = env.get(name)
            if raw is None:
                return value
            try:
                got = float(raw)
            except ValueError:
                got = math.nan
            if not math.isfinite(got) or got <= 0:
                raise ValueError(f"{name} must be a number > 0, not {raw!r}")
            return got

        def whole(name: str, value: int, least: int = 0) -> int:
            got = _whole(name, env.get(name), least)
            return value if got is None else got

        return cls(
            database_url=env.get("REALPOLITIK_DATABASE_URL", default.database_url),
            scheduler=flag("REALPOLITIK_SCHEDULER", default.scheduler),
            tick_seconds=number("REALPOLITIK_TICK_SECONDS", default.tick_seconds),
            session_days=number("REALPOLITIK_SESSION_DAYS", default.session_days),
            session_idle_days=number("REALPOLITIK_SESSION_IDLE_DAYS", default.session_idle_days),
            secure_cookies=flag("REALPOLITIK_SECURE_COOKIES", default.secure_cookies),
            password_time_cost=whole(
                "REALPOLITIK_PASSWORD_TIME_COST", default.password_time_cost, least=1
            ),
            password_memory_kib=whole(
                "REALPOLITIK_PASSWORD_MEMORY_KIB", default.password_memory_kib, least=8
            ),
            max_message_length=whole("REALPOLITIK_MAX_MESSAGE_LENGTH", default.max_message_length),
            pool_size=whole("REALPOLITIK_POOL_SIZE", default.pool_size),
            login_failures_per_account_address=whole(
                "REALPOLITIK_LOGIN_FAILURES_PER_ACCOUNT_ADDRESS",
                default.login_failures_per_account_address,
                least=1,
            ),
            login_failures_per_account=whole(
                "REALPOLITIK_LOGIN_FAILURES_PER_ACCOUNT",
                default.login_failures_per_account,
                least=1,
            ),
            login_attempts_per_address=whole(
                "REALPOLITIK_LOGIN_ATTEMPTS_PER_ADDRESS",
                default.login_attempts_per_address,
                least=1,
            ),
            signups_per_address=whole(
                "REALPOLITIK_SIGNUPS_PER_ADDRESS", default.signups_per_address
            ),
            login_window_seconds=number(
                "REALPOLITIK_LOGIN_WINDOW_SECONDS", default.login_window_seconds
            ),
            games_per_user=whole("REALPOLITIK_GAMES_PER_USER", default.games_per_user),
            seats_per_user=whole("REALPOLITIK_SEATS_PER_USER", default.seats_per_user),
            messages_per_phase=whole("REALPOLITIK_MESSAGES_PER_PHASE", default.messages_per_phase),
            sessions_per_user=whole("REALPOLITIK_SESSIONS_PER_USER", default.sessions_per_user),
            draw_votes_per_window=whole(
                "REALPOLITIK_DRAW_VOTES_PER_WINDOW", default.draw_votes_per_window
            ),
            push_seconds=number("REALPOLITIK_PUSH_SECONDS", default.push_seconds),
            max_streams=whole("REALPOLITIK_MAX_STREAMS", default.max_streams),
            streams_per_client=whole("REALPOLITIK_STREAMS_PER_CLIENT", default.streams_per_client),
            max_body_bytes=whole("REALPOLITIK_MAX_BODY_BYTES", default.max_body_bytes, least=1),
            requests_per_minute=whole(
                "REALPOLITIK_REQUESTS_PER_MINUTE", default.requests_per_minute
            ),
            bot_game_years=whole("REALPOLITIK_BOT_GAME_YEARS", default.bot_game_years),
            bot_strength=_whole("REALPOLITIK_BOT_STRENGTH", env.get("REALPOLITIK_BOT_STRENGTH")),
            smtp_url=_smtp_url(env.get("REALPOLITIK_SMTP_URL", default.smtp_url)),
            public_url=_public_url(
                env.get("REALPOLITIK_PUBLIC_URL", default.public_url),
                mail=bool(env.get("REALPOLITIK_SMTP_URL")),
            ),
            mail_from=_mail_from(
                env.get("REALPOLITIK_MAIL_FROM", default.mail_from),
                mail=bool(env.get("REALPOLITIK_SMTP_URL")),
            ),
            remind_seconds=number("REALPOLITIK_REMIND_SECONDS", default.remind_seconds),
            confirmations_per_hour=whole(
                "REALPOLITIK_CONFIRMATIONS_PER_HOUR", default.confirmations_per_hour
            ),
            log_level=_log_level(env.get("REALPOLITIK_LOG_LEVEL", default.log_level)),
        )


def _whole(name: str, raw: str | None, least: int = 0) -> int | None:
    """A whole number >= ``least`` from the environment variable ``name`` (``raw``; unset:
    None). A limit whose 0 would shut everyone out (every log-in refused) has ``least`` 1."""
    if raw is None or raw == "":
        return None
    if not (raw.isascii() and raw.isdigit()) or int(raw) < least:  # ("²" is a digit to isdigit)
        raise ValueError(f"{name} must be a whole number >= {least}, not {raw!r}")
    return int(raw)


def _public_url(raw: str, *, mail: bool) -> str:
    """``raw`` without its last ``/`` if it is a site's address (or empty without mail)."""
    if not raw:
        if mail:
            raise ValueError(
                "REALPOLITIK_PUBLIC_URL must be set with REALPOLITIK_SMTP_URL: the links in "
                "mail lead to it (e.g. https://dip.example.org)"
            )
        return raw
    url = urlsplit(raw)
    if url.scheme not in ("http", "https") or not url.hostname or url.query or url.fragment:
        raise ValueError(
            f"REALPOLITIK_PUBLIC_URL must be a site's address (https://dip.example.org), "
            f"not {raw!r}"
        )
    return raw.rstrip("/")


def _mail_from(raw: str, *, mail: bool) -> str:
    """The sender ``raw``, needed with an SMTP server (without one, mail would be off)."""
    if mail and not raw:
        raise ValueError(
            "REALPOLITIK_MAIL_FROM must be set with REALPOLITIK_SMTP_URL: the sender of the "
            "mail (e.g. realpolitik@example.org)"
        )
    return raw


def _log_level(raw: str) -> str:
    """``raw`` in lower case if uvicorn knows it as a log level."""
    if raw.lower() not in LOG_LEVELS:
        raise ValueError(
            f"REALPOLITIK_LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {raw!r}"
        )
    return raw.lower()


def _smtp_url(raw: str) -> str:
    """``raw`` if it is an SMTP server's address mail can be sent to (or empty)."""
    if raw:
        SmtpServer.parse(raw)
    return raw
