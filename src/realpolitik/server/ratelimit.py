"""Limits on attempts (log-ins, sign-ups), counted in the database so that they hold for
every server process on it: an attacker who spreads guesses over ``--workers N`` (or over
machines) meets one count.

Each limited thing (an address, an account) has one row per kind: a count and the end of
its window, which starts at the first attempt counted (a fixed window: at most ``limit``
attempts per ``window`` seconds, twice that across a window's end at worst). A counted
attempt is one atomic upsert (``INSERT ... ON CONFLICT DO UPDATE ... RETURNING``), so
attempts racing on several processes are all counted. The thing is stored only as a
SHA-256 (no usernames or addresses kept in the table); rows whose window has ended are
purged by the scheduler (:func:`purge`). Which limits a log-in meets, and in what order,
is :mod:`.accounts`' policy.
"""

from __future__ import annotations

import hashlib
import ipaddress
import math
from dataclasses import dataclass

from sqlalchemy import Connection, case, delete, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from realpolitik.server import tables as t

ADDRESS = "address"
"""Log-ins and sign-ups from one client address."""
SIGNUP = "signup"
"""Sign-ups from one client address."""
ACCOUNT = "account"
"""Failed log-ins to one account, from every address."""
ACCOUNT_ADDRESS = "account_address"
"""Log-ins to one account from one address since the last successful one there."""
KNOWN = "account_known"
"""An address one account logged in from, for :data:`KNOWN_SECONDS` after: the account's
own lock-out (:data:`ACCOUNT`) spares it, so that guesses at an account from elsewhere do
not keep its owner out."""
KNOWN_SECONDS = 30 * 86400.0
CONFIRM_USER = "confirm_user"
"""Confirmation mails one user asked for (:mod:`.contact`)."""
CONFIRM_EMAIL = "confirm_email"
"""Confirmation mails sent to one email address, whoever asked."""


def address_key(address: str) -> str:
    """What the limits count an address as: an IPv4 address itself, an IPv6 address its
    /64 (one machine commonly holds a whole /64, and could otherwise change address at each
    attempt)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def pair(account: str, address: str) -> str:
    """The subject of one account's attempts from one address (the account's length first,
    so that no other account and address join into the same text)."""
    return f"{len(account)}:{account}@{address}"


def _subject(subject: str) -> str:
    return hashlib.sha256(subject.encode("utf-8", "surrogatepass")).hexdigest()


def count(conn: Connection, kind: str, subject: str, *, window: float, now: float) -> Count:
    """Count one attempt on ``subject``; return the count in its window, with the window."""
    a = t.attempts
    values = {"kind": kind, "subject": _subject(subject), "count": 1, "expires_at": now + window}
    insert = pg_insert if conn.dialect.name == "postgresql" else sqlite_insert
    ended = a.c.expires_at <= now
    stmt = (
        insert(a)
        .values(values)
        .on_conflict_do_update(
            index_elements=[a.c.kind, a.c.subject],
            set_={
                "count": case((ended, 1), else_=a.c.count + 1),
                "expires_at": case((ended, now + window), else_=a.c.expires_at),
            },
        )
        .returning(a.c.count, a.c.expires_at)
    )
    number, expires_at = conn.execute(stmt).one()
    return Count(int(number), float(expires_at))


def hold(conn: Connection, kind: str, subject: str, *, until: float) -> None:
    """Keep ``subject`` as ``kind`` until ``until`` (one row, its window ending then)."""
    a = t.attempts
    values = {"kind": kind, "subject": _subject(subject), "count": 1, "expires_at": until}
    insert = pg_insert if conn.dialect.name == "postgresql" else sqlite_insert
    conn.execute(
        insert(a)
        .values(values)
        .on_conflict_do_update(index_elements=[a.c.kind, a.c.subject], set_={"expires_at": until})
    )


def held(conn: Connection, kind: str, subject: str, *, now: float) -> bool:
    """Whether ``subject`` is kept as ``kind`` at ``now`` (see :func:`hold`)."""
    a = t.attempts
    found = select(a.c.count).where(
        a.c.kind == kind, a.c.subject == _subject(subject), a.c.expires_at > now
    )
    return conn.execute(found).first() is not None


def clear(conn: Connection, kind: str, subject: str) -> None:
    a = t.attempts
    conn.execute(delete(a).where(a.c.kind == kind, a.c.subject == _subject(subject)))


def uncount(conn: Connection, kind: str, subject: str) -> None:
    """Take back one attempt counted on ``subject`` (one that turned out not to be a
    failure), in one atomic update."""
    a = t.attempts
    conn.execute(
        update(a)
        .where(a.c.kind == kind, a.c.subject == _subject(subject), a.c.count > 0)
        .values(count=a.c.count - 1)
    )


def purge(conn: Connection, now: float) -> int:
    """Forget the attempts whose window has ended; return how many rows went."""
    result = conn.execute(delete(t.attempts).where(t.attempts.c.expires_at <= now))
    return int(result.rowcount or 0)


@dataclass(frozen=True, slots=True)
class Count:
    """An attempt's place in its window: ``number`` (1 for the first) and the window's end."""

    number: int
    expires_at: float

    def retry_after(self, limit: int, now: float) -> int:
        """Whole seconds to wait when this attempt is over ``limit`` (0: it is within)."""
        if self.number <= limit:
            return 0
        return max(1, math.ceil(self.expires_at - now))
