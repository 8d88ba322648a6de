"""A user's email address: set (checked), confirmed by a link mailed to it, and the
notices it is sent (:mod:`.notices`), each of which the user may turn off.

Nothing but the confirmation is sent to an address until its link is followed. The link
holds a random token, stored only as its SHA-256 (as session tokens are), used once, and
valid for :data:`CONFIRM_HOURS`; changing the address forgets its links and its
confirmation. Confirmation mails are limited to ``confirmations_per_hour`` per user and
per address (:mod:`.ratelimit`): the server is no tool to flood someone's mailbox. The
address is shown to its owner only (``GET /api/me``), never in a game. Each notice mail
holds a link that turns notices off without logging in (:mod:`.unsubscribe`); the page
sends the player's time zone with the address and the notices (:mod:`.zones`)."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, delete, insert, select, update

from realpolitik.server import mail, ratelimit, zones
from realpolitik.server import tables as t
from realpolitik.server.accounts import User
from realpolitik.server.backend import Backend
from realpolitik.server.db import reading, transaction
from realpolitik.server.errors import BadRequest, Conflict, NotFound, TooManyAttempts
from realpolitik.server.security import new_token, token_hash

MAX_EMAIL = 254
CONFIRM_HOURS = 48
HOUR = 3600.0

PHASE, REMINDER = "phase", "reminder"
"""The kinds of notice (:mod:`.notices`): a new phase, a deadline near."""
SWITCHES = {PHASE: "notify_phase", REMINDER: "notify_deadline"}
"""The column of ``users`` that turns each kind on or off."""


@dataclass(frozen=True, slots=True)
class Contact:
    """What ``GET /api/me`` tells its owner of their address and notices."""

    email: str | None
    confirmed: bool
    notify_phase: bool
    notify_deadline: bool
    time_zone: str | None

    def to_json(self) -> dict[str, Any]:
        return {
            "email": self.email,
            "email_confirmed": self.confirmed,
            "notices": {"phase": self.notify_phase, "deadline": self.notify_deadline},
            "time_zone": self.time_zone,
        }


def _bad(message: str) -> BadRequest:
    return BadRequest(message, code="email_rule", values={"problem": message})


def check_email(email: str) -> str:
    """``email`` if it can be an address (400 naming what is wrong otherwise)."""
    if len(email) > MAX_EMAIL:
        raise _bad(f"an email address is at most {MAX_EMAIL} characters, not {len(email)}")
    if any(unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") for c in email):
        raise _bad("an email address may not hold control characters")
    if any(c.isspace() for c in email):
        raise _bad("an email address may not hold spaces")
    if email.count("@") != 1:
        raise _bad(f"an email address holds exactly one @, not {email.count('@')}")
    local, domain = email.split("@")
    if not local:
        raise _bad("an email address needs a name before the @")
    odd = sorted({c for c in local if not (c.isalnum() or c in _LOCAL_MARKS)})
    if odd:  # (a comma or angle brackets would name other recipients in the To header)
        raise _bad(f"the name before the @ may not hold {' '.join(odd)}")
    if local.startswith(".") or local.endswith(".") or ".." in local:
        raise _bad("the name before the @ may not start or end with a dot, or hold two in a row")
    labels = domain.split(".")
    if len(labels) < 2 or not all(labels):
        raise _bad(f"the domain after the @ needs a dot between names (example.org): {domain!r}")
    odd = sorted({c for c in domain if not (c.isalnum() or c in ".-")})
    if odd:
        raise _bad(f"the domain after the @ may not hold {' '.join(odd)}")
    return email


_LOCAL_MARKS = set("!#$%&'*+/=?^_`{|}~.-")
"""What the name before the @ may hold besides letters and digits (RFC 5322's atoms)."""


def contact_of(b: Backend, user: User) -> Contact:
    u = t.users.c
    with reading(b.db) as conn:
        row = conn.execute(
            select(
                u.email, u.email_confirmed_at, u.notify_phase, u.notify_deadline, u.time_zone
            ).where(u.id == user.id)
        ).one()
    confirmed = row.email_confirmed_at is not None
    return Contact(row.email, confirmed, row.notify_phase, row.notify_deadline, row.time_zone)


def _set_zone(b: Backend, user: User, zone: str | None) -> None:
    """Keep the time zone checked (:func:`.zones.check_zone`; ``None``: as it is)."""
    if zone is not None and (zone := zones.check_zone(zone)) is not None:
        with transaction(b.db) as conn:
            conn.execute(update(t.users).where(t.users.c.id == user.id).values(time_zone=zone))


def _forget_links(conn: Connection, user_id: int) -> None:
    """Forget the links mailed to the user's address: it changes or goes."""
    conn.execute(delete(t.email_tokens).where(t.email_tokens.c.user_id == user_id))
    conn.execute(delete(t.unsubscribe_tokens).where(t.unsubscribe_tokens.c.user_id == user_id))


def set_email(
    b: Backend, user: User, email: str | None, *, time_zone: str | None = None
) -> Contact:
    """Set the user's address (``None`` or empty: none) and mail it a confirmation link
    (on the host's ``public_url``); with the ``time_zone`` deadlines in mail are written in
    (checked first: an unknown one changes nothing). The address already confirmed, given
    again: it does not change. Mail off: 409."""
    if not b.settings.mail:
        raise Conflict("this server sends no mail", code="mail_off")
    if time_zone is not None:
        zones.check_zone(time_zone)
    if email:
        check_email(email)
    _set_zone(b, user, time_zone)
    u = t.users.c
    if not email:
        with transaction(b.db) as conn:
            _forget_links(conn, user.id)
            conn.execute(
                update(t.users).where(u.id == user.id).values(email=None, email_confirmed_at=None)
            )
        return contact_of(b, user)
    before = contact_of(b, user)
    if before.email == email and before.confirmed:
        return before
    _count_confirmation(b, user, email)
    token, now = new_token(), b.now()
    link = f"{b.settings.public_url}/#/confirm/{token}"
    with transaction(b.db) as conn:
        _forget_links(conn, user.id)
        conn.execute(
            update(t.users).where(u.id == user.id).values(email=email, email_confirmed_at=None)
        )
        conn.execute(
            insert(t.email_tokens).values(
                token_hash=token_hash(token),
                user_id=user.id,
                email=email,
                expires_at=now + CONFIRM_HOURS * HOUR,
            )
        )
        language = user.language
        body = mail.text(
            language, "confirm_body", username=user.username, hours=CONFIRM_HOURS, link=link
        )
        mail.queue(conn, now, email, mail.text(language, "confirm_subject"), body)
    return contact_of(b, user)


def _count_confirmation(b: Backend, user: User, email: str) -> None:
    """A confirmation mail asked for: within ``confirmations_per_hour`` for the user and
    for the address (429 otherwise; the counts are kept when it is refused)."""
    limit, now = b.settings.confirmations_per_hour, b.now()
    wait = 0
    with transaction(b.db) as conn:
        for kind, subject in (
            (ratelimit.CONFIRM_USER, str(user.id)),
            (ratelimit.CONFIRM_EMAIL, email.casefold()),
        ):
            counted = ratelimit.count(conn, kind, subject, window=HOUR, now=now)
            wait = counted.retry_after(limit, now)
            if wait:
                break
    if wait:
        raise TooManyAttempts(wait)


def confirm(b: Backend, token: str) -> int:
    """Follow a confirmation link: its address is confirmed; return its user's id. The
    token is used up; an unknown or used one: 404; an expired one: 400."""
    e = t.email_tokens.c
    now = b.now()
    with transaction(b.db) as conn:
        row = conn.execute(select(t.email_tokens).where(e.token_hash == token_hash(token))).first()
        if row is None:
            raise NotFound("this confirmation link is unknown or was used", code="token_unknown")
        conn.execute(delete(t.email_tokens).where(e.token_hash == row.token_hash))
        if row.expires_at <= now:
            expired = True
        else:
            expired = False
            u = t.users.c
            conn.execute(
                update(t.users)
                .where(u.id == row.user_id, u.email == row.email)
                .values(email_confirmed_at=now)
            )
    if expired:
        raise BadRequest(
            "this confirmation link has expired: set the address again for a new one",
            code="token_expired",
        )
    return int(row.user_id)


def purge(b: Backend) -> int:
    """Forget the links expired for as long as they were valid (until then, following one
    says it has expired); return how many went (the scheduler calls this)."""
    e = t.email_tokens.c
    with transaction(b.db) as conn:
        gone = conn.execute(
            delete(t.email_tokens).where(e.expires_at <= b.now() - CONFIRM_HOURS * HOUR)
        )
    return int(gone.rowcount or 0)


def set_notices(
    b: Backend,
    user: User,
    *,
    phase: bool | None,
    deadline: bool | None,
    time_zone: str | None = None,
) -> Contact:
    """Turn each kind of notice on or off (``None``: as it is), and keep the ``time_zone``
    deadlines in mail are written in (checked first: an unknown one changes nothing)."""
    _set_zone(b, user, time_zone)
    values: dict[str, bool] = {}
    if phase is not None:
        values[SWITCHES[PHASE]] = phase
    if deadline is not None:
        values[SWITCHES[REMINDER]] = deadline
    if values:
        with transaction(b.db) as conn:
            conn.execute(update(t.users).where(t.users.c.id == user.id).values(**values))
    return contact_of(b, user)
