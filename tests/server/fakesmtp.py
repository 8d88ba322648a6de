"""A tiny SMTP server for the tests, on a free localhost port in a thread: it takes mail
as a real server would (so :mod:`smtplib` is exercised whole) and keeps it in
:attr:`FakeSmtp.mailbox` (and each one's bytes as sent, by Message-ID, in
:attr:`FakeSmtp.raw`); ``failing`` makes it refuse each mail with a 451, ``password`` asks
for a log-in (AUTH PLAIN) and refuses any other with a 535."""

from __future__ import annotations

import base64
import re
import socket
import threading
from email import message_from_bytes, policy
from email.message import EmailMessage


class FakeSmtp:
    def __init__(self) -> None:
        self.mailbox: list[EmailMessage] = []
        self.raw: dict[str, bytes] = {}
        self.failing = False
        self.password: str | None = None
        self._lock = threading.Lock()
        self._server = socket.create_server(("127.0.0.1", 0))
        self.port: int = self._server.getsockname()[1]
        self.url = f"smtp://127.0.0.1:{self.port}"
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._server.close()

    def messages_to(self, address: str) -> list[EmailMessage]:
        with self._lock:
            return [m for m in self.mailbox if m["To"] == address]

    def link(self, address: str) -> str:
        """The confirmation link of the last mail to ``address``."""
        body = self.messages_to(address)[-1].get_content()
        found = re.search(r"(\S+/#/confirm/\S+)", body)
        assert found, body
        return found.group(1)

    @staticmethod
    def unsubscribe_link(message: EmailMessage) -> str:
        """The link that turns notices off in the body of ``message``."""
        body = message.get_content()
        found = re.search(r"(\S+/unsubscribe/\S+)", body)
        assert found, body
        return found.group(1)

    def header_lines(self, message: EmailMessage) -> list[str]:
        """The header lines of ``message`` as they were sent (folded ones apart)."""
        head = self.raw[message["Message-ID"]].split(b"\r\n\r\n")[0]
        return head.decode("ascii").split("\r\n")

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self._server.accept()
            except OSError:
                return
            threading.Thread(target=self._session, args=(conn,), daemon=True).start()

    def _session(self, conn: socket.socket) -> None:
        with conn, conn.makefile("rb") as reader:

            def say(line: str) -> None:
                conn.sendall(line.encode() + b"\r\n")

            say("220 fake ESMTP")
            while True:
                raw = reader.readline()
                if not raw:
                    return
                verb = raw.decode(errors="replace").strip().split(" ")[0].upper()
                if verb in ("EHLO", "HELO"):
                    say("250-fake")
                    if self.password is not None:
                        say("250-AUTH PLAIN")
                    say("250 8BITMIME")
                elif verb == "AUTH":
                    given = base64.b64decode(raw.split()[-1]).split(b"\0")[-1].decode()
                    ok = given == self.password
                    say("235 welcome" if ok else "535 5.7.8 Authentication credentials invalid")
                elif verb == "MAIL":
                    say("451 try again later" if self.failing else "250 ok")
                elif verb in ("RCPT", "RSET", "NOOP"):
                    say("250 ok")
                elif verb == "DATA":
                    say("354 end with .")
                    lines = []
                    while (line := reader.readline()) not in (b".\r\n", b""):
                        lines.append(line[1:] if line.startswith(b"..") else line)
                    message = message_from_bytes(b"".join(lines), policy=policy.default)
                    assert isinstance(message, EmailMessage)
                    with self._lock:
                        self.mailbox.append(message)
                        self.raw[message["Message-ID"]] = b"".join(lines)
                    say("250 queued")
                elif verb == "QUIT":
                    say("221 bye")
                    return
                else:
                    say("502 not here")
