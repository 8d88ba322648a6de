"""The SMTP server mail goes through, named by a URL (``REALPOLITIK_SMTP_URL``):

- ``smtp://user:pass@host:587``: STARTTLS when the server offers it (a password is never
  sent in the clear except to this machine);
- ``smtps://user:pass@host:465``: TLS from the start;
- ``smtp://localhost:1025``: plain, without logging in (a relay on the same machine).

Sending uses the standard library's :mod:`smtplib`; it is done by the mail loop
(:mod:`.mail`), never in a request."""

from __future__ import annotations

import smtplib
import ssl
from collections.abc import Iterable
from dataclasses import dataclass
from email.message import EmailMessage
from urllib.parse import unquote, urlsplit

DEFAULT_PORTS = {"smtp": 587, "smtps": 465}
TIMEOUT = 30.0
LOCAL = ("localhost", "127.0.0.1", "::1")


class SmtpDown(Exception):
    """No mail could be tried: the server was not reached, or refused TLS or the log-in
    (the message says which server, as which user, and why; never the password)."""


@dataclass(frozen=True, slots=True)
class SmtpServer:
    scheme: str
    host: str
    port: int
    username: str | None = None
    password: str | None = None

    @classmethod
    def parse(cls, url: str) -> SmtpServer:
        """The server of ``url`` (:class:`ValueError` naming what is wrong)."""
        shown = _without_password(url)
        try:
            parts = urlsplit(url)
            port = parts.port
        except ValueError as exc:
            raise ValueError(f"REALPOLITIK_SMTP_URL is not a URL ({exc}): {shown!r}") from None
        if parts.scheme not in DEFAULT_PORTS:
            raise ValueError(
                f"REALPOLITIK_SMTP_URL must start with smtp:// or smtps://, not {shown!r}"
            )
        if not parts.hostname:
            raise ValueError(f"REALPOLITIK_SMTP_URL names no host: {shown!r}")
        return cls(
            parts.scheme,
            parts.hostname,
            port or DEFAULT_PORTS[parts.scheme],
            unquote(parts.username) if parts.username else None,
            unquote(parts.password) if parts.password else None,
        )

    def send(self, messages: Iterable[EmailMessage]) -> list[Exception | None]:
        """Send ``messages`` over one connection; for each, ``None`` (sent) or the error
        it met. A connection or log-in that fails raises :class:`SmtpDown` (no message was
        tried); a message that fails fails only itself, whatever the error (else the batch
        would be sent again, whole)."""
        todo = list(messages)
        try:
            client = self._connect()
        except smtplib.SMTPAuthenticationError as exc:
            raise SmtpDown(
                f"the SMTP server {self.host}:{self.port} refused the log-in as "
                f"{self.username}: {_said(exc)}"
            ) from exc
        except (OSError, smtplib.SMTPException) as exc:
            raise SmtpDown(
                f"cannot reach the SMTP server {self.host}:{self.port}: {_said(exc)}"
            ) from exc
        results: list[Exception | None] = []
        with client:
            for message in todo:
                try:
                    client.send_message(message)
                    results.append(None)
                except Exception as exc:  # (this message's failure: counted by the caller)
                    results.append(exc)
        return results

    def _connect(self) -> smtplib.SMTP:
        context = ssl.create_default_context()
        client: smtplib.SMTP
        if self.scheme == "smtps":
            client = smtplib.SMTP_SSL(self.host, self.port, timeout=TIMEOUT, context=context)
        else:
            client = smtplib.SMTP(self.host, self.port, timeout=TIMEOUT)
        try:
            client.ehlo()
            if self.scheme == "smtp" and client.has_extn("starttls"):
                client.starttls(context=context)
                client.ehlo()
                secure = True
            else:
                secure = self.scheme == "smtps"
            if self.username is not None:
                if not secure and self.host not in LOCAL:
                    raise smtplib.SMTPException(
                        f"{self.host} offers no STARTTLS: the password is not sent in the clear"
                    )
                client.login(self.username, self.password or "")
        except BaseException:
            client.close()
            raise
        return client


def _without_password(url: str) -> str:
    """``url`` with ``***`` for the password of its ``user:password@`` (up to its last @)."""
    scheme, slashes, rest = url.partition("://")
    login, at, place = rest.rpartition("@")
    if not at or ":" not in login:
        return url
    return f"{scheme}{slashes}{login.partition(':')[0]}:***@{place}"


def _said(exc: Exception) -> str:
    """What went wrong, as a line (an SMTP reply as its code and text, not a tuple of bytes)."""
    if isinstance(exc, smtplib.SMTPResponseException):
        reply = exc.smtp_error
        text = reply.decode(errors="replace") if isinstance(reply, bytes) else str(reply)
        return f"{exc.smtp_code} {' '.join(text.split())}"
    return " ".join(str(exc).split()) or type(exc).__name__
