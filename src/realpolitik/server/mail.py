"""Mail: the outbox, and its delivery by the mail loop of the scheduler (never by a
request: a slow or absent SMTP server delays nothing a player waits for).

A mail is a row of ``outbox`` until it is sent. Several processes may deliver at once:
each takes its rows by marking them claimed for :data:`CLAIM_SECONDS` in one short
transaction (PostgreSQL: ``FOR UPDATE SKIP LOCKED``; SQLite: the write lock), so a mail
is sent by one of them, then sends them outside any transaction and deletes each row
sent. A failed send is tried again after 1, 2, 4, 8 minutes; after :data:`ATTEMPTS`
tries it is logged and dropped. The texts are in ``data/mail.json``, in the user's
language; every mail is plain text. A notice mail names the link that turns notices off
in the headers of RFC 2369 and 8058 (``List-Unsubscribe``, and ``List-Unsubscribe-Post``:
a mail client's own button POSTs to it), written whole on one line."""

from __future__ import annotations

import logging
from email import policy
from email.headerregistry import BaseHeader, HeaderRegistry, UnstructuredHeader
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from functools import cache
from typing import Any

from sqlalchemy import Connection, delete, insert, or_, select, update

from realpolitik.data import read_json
from realpolitik.server import tables as t
from realpolitik.server.backend import Backend
from realpolitik.server.db import for_update, transaction
from realpolitik.server.smtp import SmtpDown, SmtpServer

log = logging.getLogger(__name__)

ATTEMPTS = 5
RETRY_SECONDS = 60.0
"""The wait before the first retry, doubled after each failure."""
CLAIM_SECONDS = 300.0
"""A process sending a mail holds it this long (one that died meanwhile lets it go)."""
BATCH = 20
MAX_SUBJECT = 300


@cache
def _texts() -> dict[str, dict[str, str]]:
    texts: dict[str, dict[str, str]] = read_json("data", "mail.json")
    return texts


def text(language: str, key: str, **values: Any) -> str:
    """The text ``key`` of ``data/mail.json`` in ``language`` (English where it has none)."""
    texts = _texts()
    words = texts.get(language, texts["en"])
    return words.get(key, texts["en"][key]).format(**values)


def queue(
    conn: Connection,
    now: float,
    recipient: str,
    subject: str,
    body: str,
    *,
    unsubscribe: str | None = None,
) -> None:
    """Put a mail in the outbox (sent once the transaction of ``conn`` commits);
    ``unsubscribe``: the address whose POST turns its notices off (``List-Unsubscribe``)."""
    subject = " ".join(subject.split())  # no line breaks in a header
    if len(subject) > MAX_SUBJECT:
        subject = subject[: MAX_SUBJECT - 1] + "…"
    conn.execute(
        insert(t.outbox).values(
            recipient=recipient,
            subject=subject,
            body=body,
            created_at=now,
            attempts=0,
            next_at=now,
            unsubscribe=unsubscribe,
        )
    )


def _claim(b: Backend, now: float) -> list[Any]:
    o = t.outbox.c
    with transaction(b.db) as conn:
        stmt = (
            select(t.outbox)
            .where(o.next_at <= now, or_(o.claimed_until.is_(None), o.claimed_until <= now))
            .order_by(o.id)
            .limit(BATCH)
        )
        rows = conn.execute(for_update(conn, stmt, skip_locked=True)).all()
        if rows:
            conn.execute(
                update(t.outbox)
                .where(o.id.in_([r.id for r in rows]))
                .values(claimed_until=now + CLAIM_SECONDS)
            )
    return list(rows)


class _Whole(UnstructuredHeader, BaseHeader):
    """A header written as it is, on one line: a long URL folded by the standard policy
    becomes encoded words (``=?utf-8?q?...``), which no mail client reads as a URL."""

    def fold(self, *, policy: Any) -> str:
        return f"{self.name}: {self}{policy.linesep}"


_headers = HeaderRegistry()
_headers.map_to_type("list-unsubscribe", _Whole)
POLICY = policy.default.clone(header_factory=_headers)


def _message(b: Backend, row: Any) -> EmailMessage | ValueError:
    """The mail of an outbox row, or why it cannot be one (a header that would not do)."""
    message = EmailMessage(policy=POLICY)
    try:
        message["From"] = b.settings.mail_from
        message["To"] = row.recipient
        message["Subject"] = row.subject
        message["Date"] = formatdate(row.created_at, usegmt=True)
        message["Message-ID"] = make_msgid(domain=b.settings.mail_from.rpartition("@")[2] or None)
        message["Auto-Submitted"] = "auto-generated"  # no vacation replies
        if row.unsubscribe and not row.unsubscribe.isascii():  # (a site's name not in xn--)
            log.warning("mail %d: no List-Unsubscribe, its address is not ASCII", row.id)
        elif row.unsubscribe:
            message["List-Unsubscribe"] = f"<{row.unsubscribe}>"
            message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
        message.set_content(row.body)
    except ValueError as exc:
        return exc
    return message


def deliver(b: Backend) -> int:
    """Send the mail that is due (a batch at most); return how many were sent. Mail off
    (no SMTP server or sender): nothing."""
    if not b.settings.mail:
        return 0
    server = SmtpServer.parse(b.settings.smtp_url)
    rows = _claim(b, b.now())
    if not rows:
        return 0
    built = [_message(b, row) for row in rows]
    sendable = [m for m in built if isinstance(m, EmailMessage)]
    down: SmtpDown | None = None
    try:
        results: list[Exception | None] = server.send(sendable)
    except SmtpDown as exc:  # one problem: told in one line (not one a mail), below
        down, results = exc, [exc] * len(sendable)
    told = iter(results)
    errors = [m if isinstance(m, ValueError) else next(told) for m in built]
    sent = waiting = 0
    dropped: dict[str, list[int]] = {}
    o = t.outbox.c
    with transaction(b.db) as conn:
        for row, error in zip(rows, errors, strict=True):
            if error is None:
                conn.execute(delete(t.outbox).where(o.id == row.id))
                sent += 1
                continue
            tries = row.attempts + 1
            if tries >= ATTEMPTS:
                dropped.setdefault(str(error), []).append(row.id)
                conn.execute(delete(t.outbox).where(o.id == row.id))
                continue
            wait = RETRY_SECONDS * 2 ** (tries - 1)
            waiting += 1
            if error is not down:
                log.warning("mail %d not sent (try %d): %s", row.id, tries, error)
            conn.execute(
                update(t.outbox)
                .where(o.id == row.id)
                .values(attempts=tries, next_at=b.now() + wait, claimed_until=None)
            )
    if down is not None and waiting:
        log.warning("mail not sent: %s (%d mails wait)", down, waiting)
    for why, ids in dropped.items():
        listed = ", ".join(map(str, ids))
        log.error("%d mails dropped after %d attempts (%s): %s", len(ids), ATTEMPTS, listed, why)
    return sent
