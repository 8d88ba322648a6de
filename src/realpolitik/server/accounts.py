"""Accounts and sessions: create an account, log in (a session token), log out, change
the password (which ends the other sessions).

A session ends ``session_days`` after the log-in, or sooner when unused for
``session_idle_days``; ended sessions are refused at once and their rows purged by the
scheduler and at log-out. A user holds at most ``sessions_per_user`` sessions: a log-in
past that ends the least recently used one (never refused: see :mod:`.limits`).

Attempts are limited in the database (:mod:`.ratelimit`: every process shares the counts),
in a window of ``login_window_seconds`` (15 minutes), and refused with 429 and Retry-After
before any password is hashed or checked. Players see each other's usernames, so a
player's wrong passwords must throttle the player, not the account they name:

1. per address: ``login_attempts_per_address`` (50) log-ins and sign-ups, whatever the
   account (credential stuffing from one address);
2. per account and address: ``login_failures_per_account_address`` (10) failed log-ins
   since the last success from that address (which clears the count): the guesser's own
   address is refused, and the owner still logs in from theirs;
3. per account: ``login_failures_per_account`` (100) failed log-ins from all addresses
   together, the last guard against guesses spread over many addresses; past it the
   account is refused from everywhere until the window ends (a successful log-in is taken
   back from this count, so the owner's own log-ins do not bring it nearer);
4. per address, for sign-ups: ``signups_per_address`` (10).

A password change checks the current password: it is an attempt as a log-in is (limits 1
to 3), so a stolen session cannot be used to guess the password.

An attempt refused by one limit is not counted by the later ones: guesses refused at the
guesser's address bring the account no nearer its cap, so reaching it takes many addresses.
An address is the connection's (an IPv6 one counts as its /64); behind a reverse proxy,
uvicorn replaces it with ``X-Forwarded-For`` only when the proxy is trusted
(``FORWARDED_ALLOW_IPS``), never the application itself.

A sign-up must say when a username is taken (a player picks the name the others will
see, and there is no e-mail to send a "you already have an account" note to), so the
answer is made no cheaper than a log-in: the password is hashed first, and sign-ups from
one address have their own, tighter limit besides the log-in one."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from sqlalchemy import (
    ColumnElement,
    Connection,
    bindparam,
    delete,
    func,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError

from realpolitik.server import ratelimit
from realpolitik.server import tables as t
from realpolitik.server.backend import Backend
from realpolitik.server.db import for_update, reading, transaction
from realpolitik.server.errors import BadRequest, Conflict, Forbidden, TooManyAttempts, Unauthorized
from realpolitik.server.security import new_token, token_hash

USERNAME_RE = re.compile(r"[A-Za-z0-9_.-]{3,30}")
"""A username, whole (``fullmatch``: ``$`` would let a final line break through)."""
LANGUAGES = ("en", "es", "fr", "pt")
MIN_PASSWORD = 8
MAX_PASSWORD = 200
DAY = 86400.0
TOUCH_SECONDS = 300.0
"""A session's last use is written at most this often (not on every request)."""


@dataclass(frozen=True, slots=True)
class User:
    id: int
    username: str
    language: str


def check_username(username: str) -> str:
    if not USERNAME_RE.fullmatch(username):
        raise BadRequest(
            f"a username is 3 to 30 letters, digits, dots, dashes or underscores, not {username!r}",
            code="username_rule",
        )
    return username


def check_password(password: str) -> str:
    """A new password: its length, and no control character (a tab or a line break in a
    password is a pasting accident that no keyboard at the log-in form types again).
    Passwords set before this check still log in."""
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise BadRequest(
            f"a password is {MIN_PASSWORD} to {MAX_PASSWORD} characters long",
            code="password_rule",
        )
    control = next((c for c in password if unicodedata.category(c) == "Cc"), None)
    if control is not None:
        raise BadRequest(
            f"a password may not hold a control character such as a tab or a line break "
            f"(found U+{ord(control):04X})",
            code="password_control",
        )
    return password


def check_language(language: str) -> str:
    if language not in LANGUAGES:
        raise BadRequest(f"unknown language {language!r} (expected one of {', '.join(LANGUAGES)})")
    return language


def _attempt(
    b: Backend, address: str | None, *, account: str | None = None, signup: bool = False
) -> bool:
    """Count an attempt from ``address`` (on ``account``; a sign-up) against each limit of
    the module's policy in turn, and refuse it (429) at the first it is over, without
    counting it against the later ones. Return whether the account's own count took it
    (not from an address it is known at: :data:`.ratelimit.KNOWN`)."""
    if address is None:
        return False
    s, now = b.settings, b.now()
    address = ratelimit.address_key(address)
    limits = [(ratelimit.ADDRESS, address, s.login_attempts_per_address)]
    if account is not None:
        pair = ratelimit.pair(account, address)
        limits.append((ratelimit.ACCOUNT_ADDRESS, pair, s.login_failures_per_account_address))
        limits.append((ratelimit.ACCOUNT, account, s.login_failures_per_account))
    if signup:
        limits.append((ratelimit.SIGNUP, address, s.signups_per_address))
    wait = 0
    with transaction(b.db) as conn:  # the counts are kept when the attempt is refused
        if account is not None and ratelimit.held(conn, ratelimit.KNOWN, pair, now=now):
            limits = [(k, subject, limit) for k, subject, limit in limits if k != ratelimit.ACCOUNT]
        for kind, subject, limit in limits:
            counted = ratelimit.count(conn, kind, subject, window=s.login_window_seconds, now=now)
            wait = counted.retry_after(limit, now)
            if wait:
                break
    if wait:
        raise TooManyAttempts(wait)
    return any(kind == ratelimit.ACCOUNT for kind, _, _ in limits)


def create_account(
    b: Backend, username: str, password: str, language: str = "en", *, address: str | None = None
) -> User:
    check_username(username)
    check_password(password)
    check_language(language)
    _attempt(b, address, signup=True)
    hashed = b.passwords.hash(password)  # first: a taken name costs what a free one does
    taken = Conflict(
        f"the username {username!r} is taken",
        code="username_taken",
        values={"username": username},
    )
    try:
        with transaction(b.db) as conn:
            if conn.execute(
                select(t.users.c.id).where(t.users.c.username_key == username.casefold())
            ).first():
                raise taken
            user_id = conn.execute(
                insert(t.users).values(
                    username=username,
                    username_key=username.casefold(),
                    password_hash=hashed,
                    language=language,
                    created_at=b.now(),
                )
            ).inserted_primary_key
    except IntegrityError:  # taken by a sign-up at the same moment (PostgreSQL: no lock)
        raise taken from None
    assert user_id is not None
    return User(int(user_id[0]), username, language)


def log_in(
    b: Backend, username: str, password: str, *, address: str | None = None
) -> tuple[User, str]:
    """Check the password; return the user and a new session token. With ``address``
    (a request from outside), attempts are limited as the module says (429); an unknown
    username takes as long to refuse as a wrong password. A password changed while it was
    checked refuses it (401): the change ends every other session, this one too."""
    key = username.casefold()
    counted = _attempt(b, address, account=key)
    with reading(b.db) as conn:
        row = conn.execute(select(t.users).where(t.users.c.username_key == key)).first()
    if row is None:
        b.passwords.verify(b.passwords.dummy_hash(), password)  # the same work as a real check
        raise Unauthorized("wrong username or password", code="wrong_login")
    if not b.passwords.verify(row.password_hash, password):
        raise Unauthorized("wrong username or password", code="wrong_login")
    token = new_token()
    now = b.now()
    with transaction(b.db) as conn:
        held = conn.execute(
            for_update(conn, select(t.users.c.password_hash).where(t.users.c.id == row.id))
        ).scalar()
        if held != row.password_hash:  # changed since it was checked: the old one opens nothing
            raise Unauthorized("wrong username or password", code="wrong_login")
        if b.passwords.needs_rehash(row.password_hash):
            conn.execute(
                update(t.users)
                .where(t.users.c.id == row.id)
                .values(password_hash=b.passwords.hash(password))
            )
        conn.execute(
            insert(t.sessions).values(
                token_hash=token_hash(token),
                user_id=row.id,
                created_at=now,
                expires_at=now + b.settings.session_days * DAY,
                last_seen_at=now,
            )
        )
        _trim_sessions(b, conn, row.id, token_hash(token))
        _succeeded(conn, key, address, now, counted=counted)
    return User(row.id, row.username, row.language), token


def _succeeded(
    conn: Connection, account: str, address: str | None, now: float, *, counted: bool
) -> None:
    """A right password from ``address``: the failures of the account there are forgiven,
    the attempt is taken back from the account's count if ``counted`` there (it was not a
    failure), and the address is known to the account (:data:`.ratelimit.KNOWN`)."""
    if address is not None:
        pair = ratelimit.pair(account, ratelimit.address_key(address))
        ratelimit.clear(conn, ratelimit.ACCOUNT_ADDRESS, pair)
        if counted:
            ratelimit.uncount(conn, ratelimit.ACCOUNT, account)
        ratelimit.hold(conn, ratelimit.KNOWN, pair, until=now + ratelimit.KNOWN_SECONDS)


def change_password(
    b: Backend, user: User, token: str, current: str, new: str, *, address: str | None = None
) -> None:
    """Replace the password of ``user`` once ``current`` is checked (a wrong one: 403;
    attempts limited as a log-in's, 429), and end every session of the user but the one of
    ``token``: whoever held the old password may have logged in with it."""
    check_password(new)
    key = user.username.casefold()
    counted = _attempt(b, address, account=key)
    users = t.users.c
    with reading(b.db) as conn:
        stored = conn.execute(select(users.password_hash).where(users.id == user.id)).scalar_one()
    if not b.passwords.verify(stored, current):
        raise Forbidden("the current password is wrong", code="wrong_password")
    hashed = b.passwords.hash(new)
    s = t.sessions.c
    with transaction(b.db) as conn:
        changed = conn.execute(  # only from the password checked: a change meanwhile wins
            update(t.users)
            .where(users.id == user.id, users.password_hash == stored)
            .values(password_hash=hashed)
        ).rowcount
        if not changed:
            raise Forbidden("the current password is wrong", code="wrong_password")
        conn.execute(
            delete(t.sessions).where(s.user_id == user.id, s.token_hash != token_hash(token))
        )
        _succeeded(conn, key, address, b.now(), counted=counted)


def _trim_sessions(b: Backend, conn: Connection, user_id: int, keep: str) -> int:
    """End the user's least recently used sessions beyond ``sessions_per_user``, never the
    one whose hash is ``keep`` (the log-in's own: the owner can always log in); return how
    many ended."""
    s = t.sessions.c
    last_use = func.coalesce(s.last_seen_at, s.created_at)
    newest = (
        select(s.token_hash)
        .where(s.user_id == user_id, s.token_hash != keep)
        .order_by(last_use.desc(), s.token_hash)
        .limit(max(0, b.settings.sessions_per_user - 1))
    )
    gone = conn.execute(
        delete(t.sessions).where(
            s.user_id == user_id, s.token_hash != keep, s.token_hash.not_in(newest)
        )
    )
    return int(gone.rowcount or 0)


def log_out(b: Backend, token: str, *, everywhere: bool = False) -> None:
    """End the session of ``token`` (``everywhere``: every session of its user), and
    purge the user's sessions that have ended."""
    s = t.sessions
    with transaction(b.db) as conn:
        user_id = conn.execute(
            select(s.c.user_id).where(s.c.token_hash == token_hash(token))
        ).scalar()
        conn.execute(delete(s).where(s.c.token_hash == token_hash(token)))
        if user_id is not None:
            mine = s.c.user_id == user_id
            conn.execute(delete(s).where(mine if everywhere else mine & _ended(b, b.now())))


def _ended(b: Backend, now: float) -> ColumnElement[bool]:
    """The sessions past their lifetime, or unused for longer than the idle time."""
    s = t.sessions
    last_use = func.coalesce(s.c.last_seen_at, s.c.created_at)
    return or_(s.c.expires_at <= now, last_use <= now - b.settings.session_idle_days * DAY)


# built once (every request asks it): building a statement costs more than running it
_SESSION_USER = (
    select(
        t.users.c.id,
        t.users.c.username,
        t.users.c.language,
        t.sessions.c.expires_at,
        func.coalesce(t.sessions.c.last_seen_at, t.sessions.c.created_at).label("last_use"),
    )
    .join(t.sessions, t.sessions.c.user_id == t.users.c.id)
    .where(t.sessions.c.token_hash == bindparam("token_hash"))
)


def user_for_token(b: Backend, token: str) -> User:
    """The user of a session; a session past its lifetime or idle for too long is refused
    (401). Its last use is written down at most every :data:`TOUCH_SECONDS`."""
    hashed, now = token_hash(token), b.now()
    s = t.sessions
    with reading(b.db) as conn:
        row = conn.execute(_SESSION_USER, {"token_hash": hashed}).first()
    if (
        row is None
        or row.expires_at <= now
        or row.last_use <= now - b.settings.session_idle_days * DAY
    ):
        raise Unauthorized("not logged in (or the session has expired)", code="not_logged_in")
    if now - row.last_use >= TOUCH_SECONDS:
        with transaction(b.db) as conn:
            conn.execute(update(s).where(s.c.token_hash == hashed).values(last_seen_at=now))
    return User(row.id, row.username, row.language)


def purge(b: Backend) -> tuple[int, int]:
    """Delete the sessions that have ended and the attempts whose window has; return how
    many of each went (the scheduler calls this every few minutes)."""
    now = b.now()
    with transaction(b.db) as conn:
        sessions = conn.execute(delete(t.sessions).where(_ended(b, now))).rowcount
        attempts = ratelimit.purge(conn, now)
    return int(sessions or 0), attempts


def set_language(b: Backend, user: User, language: str) -> User:
    check_language(language)
    with transaction(b.db) as conn:
        conn.execute(update(t.users).where(t.users.c.id == user.id).values(language=language))
    return User(user.id, user.username, language)
