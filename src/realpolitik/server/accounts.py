"""Accounts and sessions: create an account, log in (a session token), log out."""

from __future__ import annotations

import re
from dataclasses import dataclass

from sqlalchemy import delete, insert, select, update

from realpolitik.server import tables as t
from realpolitik.server.backend import Backend
from realpolitik.server.db import reading, transaction
from realpolitik.server.errors import BadRequest, Conflict, TooManyAttempts, Unauthorized
from realpolitik.server.security import new_token, token_hash

USERNAME_RE = re.compile(r"^[A-Za-z0-9_.-]{3,30}$")
LANGUAGES = ("en", "es", "fr", "pt")
MIN_PASSWORD = 8
MAX_PASSWORD = 200


@dataclass(frozen=True, slots=True)
class User:
    id: int
    username: str
    language: str


def check_username(username: str) -> str:
    if not USERNAME_RE.match(username):
        raise BadRequest(
            f"a username is 3 to 30 letters, digits, dots, dashes or underscores, not {username!r}"
        )
    return username


def check_password(password: str) -> str:
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise BadRequest(f"a password is {MIN_PASSWORD} to {MAX_PASSWORD} characters long")
    return password


def check_language(language: str) -> str:
    if language not in LANGUAGES:
        raise BadRequest(f"unknown language {language!r} (expected one of {', '.join(LANGUAGES)})")
    return language


def _attempt(b: Backend, address: str | None, account: str | None = None) -> None:
    """Count an attempt from ``address`` (and on ``account``); refuse it (429) before any
    password is hashed or checked when either is over its limit."""
    if address is None:
        return
    now = b.now()
    wait = b.limits.addresses.retry_after(address, now)
    if account is not None:
        wait = max(wait, b.limits.accounts.retry_after(account, now))
    if wait:
        raise TooManyAttempts(wait)
    b.limits.addresses.add(address, now)


def create_account(
    b: Backend, username: str, password: str, language: str = "en", *, address: str | None = None
) -> User:
    check_username(username)
    check_password(password)
    check_language(language)
    _attempt(b, address)
    hashed = b.passwords.hash(password)
    with transaction(b.db) as conn:
        taken = conn.execute(
            select(t.users.c.id).where(t.users.c.username_key == username.casefold())
        ).first()
        if taken is not None:
            raise Conflict(f"the username {username!r} is taken")
        user_id = conn.execute(
            insert(t.users).values(
                username=username,
                username_key=username.casefold(),
                password_hash=hashed,
                language=language,
                created_at=b.now(),
            )
        ).inserted_primary_key
        assert user_id is not None
    return User(int(user_id[0]), username, language)


def log_in(
    b: Backend, username: str, password: str, *, address: str | None = None
) -> tuple[User, str]:
    """Check the password; return the user and a new session token. With ``address``
    (a request from outside), attempts are limited per address and failures per account
    (429); an unknown username takes as long to refuse as a wrong password."""
    key = username.casefold()
    _attempt(b, address, key)
    with reading(b.db) as conn:
        row = conn.execute(select(t.users).where(t.users.c.username_key == key)).first()
    if row is None:
        b.passwords.verify(b.passwords.dummy_hash(), password)  # the same work as a real check
        _failed(b, address, key)
        raise Unauthorized("wrong username or password")
    if not b.passwords.verify(row.password_hash, password):
        _failed(b, address, key)
        raise Unauthorized("wrong username or password")
    if address is not None:
        b.limits.accounts.clear(key)
    token = new_token()
    now = b.now()
    with transaction(b.db) as conn:
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
                expires_at=now + b.settings.session_days * 86400,
            )
        )
    return User(row.id, row.username, row.language), token


def _failed(b: Backend, address: str | None, account: str) -> None:
    if address is not None:
        b.limits.accounts.add(account, b.now())


def log_out(b: Backend, token: str) -> None:
    with transaction(b.db) as conn:
        conn.execute(delete(t.sessions).where(t.sessions.c.token_hash == token_hash(token)))


def user_for_token(b: Backend, token: str) -> User:
    with reading(b.db) as conn:
        row = conn.execute(
            select(t.users.c.id, t.users.c.username, t.users.c.language, t.sessions.c.expires_at)
            .join(t.sessions, t.sessions.c.user_id == t.users.c.id)
            .where(t.sessions.c.token_hash == token_hash(token))
        ).first()
    if row is None or row.expires_at < b.now():
        raise Unauthorized("not logged in (or the session has expired)")
    return User(row.id, row.username, row.language)


def set_language(b: Backend, user: User, language: str) -> User:
    check_language(language)
    with transaction(b.db) as conn:
        conn.execute(update(t.users).where(t.users.c.id == user.id).values(language=language))
    return User(user.id, user.username, language)
