"""The link in each notice mail that turns notices off without logging in (its page:
:mod:`.pages`; the ``List-Unsubscribe`` header of RFC 2369 and 8058: :mod:`.mail`).

Each notice mail gets a link of its own, ``{public_url}/unsubscribe/{token}``: a random
token bound to its user and to the kind of notice mailed, stored only as its SHA-256 (as
confirmation links are, :mod:`.contact`), used once, valid :data:`VALID_DAYS` days.
Following it (a POST) turns every notice off, or only that kind; changing the address
forgets the links mailed to the old one. A link unknown, expired or forged says only that
(nothing of any user or address); one used says it was used."""

from __future__ import annotations

import re
from dataclasses import dataclass

from sqlalchemy import Connection, delete, insert, select, update

from realpolitik.server import tables as t
from realpolitik.server.backend import Backend
from realpolitik.server.contact import SWITCHES
from realpolitik.server.db import reading, transaction
from realpolitik.server.security import new_token, token_hash

VALID_DAYS = 60
DAY = 86400.0
ALL, THIS = "all", "this"
"""What following a link turns off: every notice, or only the kind its mail was."""
_WELL_FORMED = re.compile(r"[A-Za-z0-9_-]{20,100}")


@dataclass(frozen=True, slots=True)
class Link:
    """Who a link is for: the user (by id, and the language their pages are in) and the
    kind of notice it was mailed with (``contact.PHASE`` or ``contact.REMINDER``)."""

    user_id: int
    language: str
    kind: str


class Refused(Exception):
    """A link that turns nothing off: ``unknown`` (never issued, forged, expired or
    forgotten: ``language`` is ``None``, no user is named) or ``used`` (``language``: its
    user's)."""

    def __init__(self, reason: str, language: str | None = None) -> None:
        super().__init__(f"this link is {reason}")
        self.reason = reason
        self.language = language


def issue(conn: Connection, site: str, user_id: int, kind: str, now: float) -> str:
    """A new link for a mail of a notice of ``kind`` to ``user_id`` (stored with the
    transaction of ``conn``, which queues the mail)."""
    token = new_token()
    conn.execute(
        insert(t.unsubscribe_tokens).values(
            token_hash=token_hash(token), user_id=user_id, kind=kind, created_at=now
        )
    )
    return f"{site}/unsubscribe/{token}"


def _find(conn: Connection, token: str, now: float) -> Link:
    """The link of ``token``, unused (:class:`Refused` otherwise)."""
    if not _WELL_FORMED.fullmatch(token):
        raise Refused("unknown")
    k, u = t.unsubscribe_tokens.c, t.users.c
    row = conn.execute(
        select(k.user_id, k.kind, k.created_at, k.used_at, u.language)
        .join_from(t.unsubscribe_tokens, t.users, u.id == k.user_id)
        .where(k.token_hash == token_hash(token))
    ).first()
    if row is None or row.created_at <= now - VALID_DAYS * DAY:
        raise Refused("unknown")
    if row.used_at is not None:
        raise Refused("used", row.language)
    return Link(row.user_id, row.language, row.kind)


def look(b: Backend, token: str) -> Link:
    """Who the link of ``token`` is for, changing nothing (:class:`Refused`: it would turn
    nothing off)."""
    with reading(b.db) as conn:
        return _find(conn, token, b.now())


def follow(b: Backend, token: str, which: str = ALL) -> Link:
    """Follow the link of ``token``: turn off every notice of its user (``which``:
    :data:`ALL`) or only the kind it was mailed with (:data:`THIS`); the link is used up.
    :class:`Refused` if it is unknown or was used (by another request meanwhile too);
    :class:`ValueError` for a ``which`` that is neither."""
    if which not in (ALL, THIS):
        raise ValueError(f"which must be {ALL!r} or {THIS!r}, not {which!r}")
    k, u = t.unsubscribe_tokens.c, t.users.c
    now = b.now()
    with transaction(b.db) as conn:
        link = _find(conn, token, now)
        used = conn.execute(
            update(t.unsubscribe_tokens)
            .where(k.token_hash == token_hash(token), k.used_at.is_(None))
            .values(used_at=now)
        )
        if used.rowcount != 1:
            raise Refused("used", link.language)
        kinds = [link.kind] if which == THIS else list(SWITCHES)
        off = {SWITCHES[kind]: False for kind in kinds}
        conn.execute(update(t.users).where(u.id == link.user_id).values(**off))
    return link


def purge(b: Backend) -> int:
    """Forget the links expired; return how many went (the scheduler calls this)."""
    k = t.unsubscribe_tokens.c
    with transaction(b.db) as conn:
        gone = conn.execute(
            delete(t.unsubscribe_tokens).where(k.created_at <= b.now() - VALID_DAYS * DAY)
        )
    return int(gone.rowcount or 0)
