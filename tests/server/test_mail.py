"""The outbox and its delivery (:mod:`realpolitik.server.mail`) through a real SMTP
conversation: a failed send is tried again later, then dropped; a mail is sent once
however many processes deliver; the host's settings name the server."""

from __future__ import annotations

import logging
import re
import time
from dataclasses import replace

import pytest
from sqlalchemy import func, select

from realpolitik.data import read_json
from realpolitik.server import mail
from realpolitik.server import tables as t
from realpolitik.server.backend import Backend
from realpolitik.server.db import transaction
from realpolitik.server.scheduler import Scheduler
from realpolitik.server.settings import Settings
from realpolitik.server.smtp import SmtpServer
from tests.server.conftest import FakeClock, Mailing, free_port, new_game, register


def _queue(b: Backend, n: int = 1) -> None:
    with transaction(b.db) as conn:
        for k in range(n):
            mail.queue(conn, b.now(), f"p{k}@example.org", f"subject\r\nBcc: x@y.org {k}", "body")


def _waiting(b: Backend) -> int:
    with b.db.connect() as conn:
        count: int = conn.execute(select(func.count()).select_from(t.outbox)).scalar_one()
    return count


def test_a_failed_send_is_tried_again_later(mailing: Mailing, clock: FakeClock) -> None:
    b = mailing.backend
    _queue(b)
    mailing.smtp.failing = True
    assert mail.deliver(b) == 0
    assert _waiting(b) == 1
    mailing.smtp.failing = False
    assert mail.deliver(b) == 0  # not before its time
    clock.advance(mail.RETRY_SECONDS)
    assert mail.deliver(b) == 1
    assert _waiting(b) == 0
    [sent] = mailing.smtp.mailbox
    assert sent["Subject"] == "subject Bcc: x@y.org 0"  # a line break cannot add a header
    assert sent["Bcc"] is None and sent["Auto-Submitted"] == "auto-generated"
    assert mail.deliver(b) == 0  # sent once


def test_a_mail_never_sent_is_dropped_and_logged(
    mailing: Mailing, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    b = mailing.backend
    _queue(b)
    mailing.smtp.failing = True
    with caplog.at_level(logging.WARNING, logger="realpolitik.server.mail"):
        for _ in range(mail.ATTEMPTS):
            assert mail.deliver(b) == 0
            clock.advance(mail.RETRY_SECONDS * 2**mail.ATTEMPTS)
    assert _waiting(b) == 0
    assert "dropped after 5 attempts" in caplog.text
    assert mailing.smtp.mailbox == []


def test_an_absent_server_fails_the_send_not_the_loop(mailing: Mailing, clock: FakeClock) -> None:
    b = mailing.backend
    nowhere = replace(b.settings, smtp_url=f"smtp://127.0.0.1:{free_port()}")
    down = Backend(nowhere, b.db, b.passwords, clock)
    _queue(down, 2)
    assert mail.deliver(down) == 0
    assert _waiting(b) == 2
    clock.advance(mail.RETRY_SECONDS)
    assert mail.deliver(b) == 2  # the right server, once it is due again
    assert len(mailing.smtp.mailbox) == 2


def test_a_mail_claimed_by_one_process_is_not_sent_by_another(
    mailing: Mailing, clock: FakeClock
) -> None:
    b = mailing.backend
    _queue(b, 3)
    claimed = mail._claim(b, b.now())  # another process is sending these
    assert len(claimed) == 3
    assert mail.deliver(b) == 0
    clock.advance(mail.CLAIM_SECONDS)  # it died meanwhile: they are sent after all
    assert mail.deliver(b) == 3


def test_mail_failing_stops_no_phase(mailing: Mailing, clock: FakeClock) -> None:
    """The scheduler's mail loop meets a failing SMTP server while its other loop
    processes a game past its deadline: the phase is processed, the notice waits."""
    b, c = mailing.backend, mailing.client
    alice = register(c, "alice")
    c.put("/api/me/email", json={"email": "alice@example.org"}, headers=alice.headers)
    assert mail.deliver(b) == 1
    token = mailing.smtp.link("alice@example.org").rsplit("/", 1)[1]
    assert c.post("/api/email/confirm", json={"token": token}).status_code == 200
    mailing.smtp.failing = True
    game = new_game(c, alice, bots="random", deadlines="daily", start=True)
    scheduler = Scheduler(b, 0.05)
    scheduler.start()
    try:
        deadline = time.monotonic() + 30
        while _tries(b) == 0 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _tries(b) >= 1  # the new phase's notice, not sent
        clock.advance(2 * 86400)
        while time.monotonic() < deadline:
            if c.get(f"/api/games/{game['id']}").json()["phase"] != "S1901M":
                break
            time.sleep(0.05)
        assert c.get(f"/api/games/{game['id']}").json()["phase"] != "S1901M"
    finally:
        scheduler.stop()


def _tries(b: Backend) -> int:
    with b.db.connect() as conn:
        return int(
            conn.execute(select(func.coalesce(func.max(t.outbox.c.attempts), 0))).scalar_one()
        )


def test_the_smtp_server_is_named_by_a_url() -> None:
    plain = SmtpServer.parse("smtp://localhost:1025")
    assert (plain.scheme, plain.host, plain.port, plain.username) == (
        "smtp",
        "localhost",
        1025,
        None,
    )
    tls = SmtpServer.parse("smtps://me%40example.org:p%3Ass@mail.example.org")
    assert (tls.port, tls.username, tls.password) == (465, "me@example.org", "p:ss")
    assert SmtpServer.parse("smtp://u:p@mail.example.org").port == 587
    for bad in ("http://mail.example.org", "smtp://", "mail.example.org:25", "smtp://h:99999"):
        with pytest.raises(ValueError, match="REALPOLITIK_SMTP_URL"):
            Settings.from_env({"REALPOLITIK_SMTP_URL": bad})


def test_mail_is_on_with_a_server_a_sender_and_the_site_s_address() -> None:
    """The links in mail lead to ``REALPOLITIK_PUBLIC_URL``, never to the address a request
    names (its sender chooses it): mail without it does not start."""
    assert not Settings.from_env({}).mail
    site = {"REALPOLITIK_PUBLIC_URL": "https://dip.example.org"}
    with pytest.raises(ValueError, match="REALPOLITIK_MAIL_FROM must be set"):
        Settings.from_env({"REALPOLITIK_SMTP_URL": "smtp://localhost:1025"} | site)
    with pytest.raises(ValueError, match="REALPOLITIK_PUBLIC_URL must be set"):
        Settings.from_env({"REALPOLITIK_SMTP_URL": "smtp://localhost:1025"})
    for bad in ("dip.example.org", "ftp://dip.example.org", "https://", "https://d.org/?x=1"):
        with pytest.raises(ValueError, match="REALPOLITIK_PUBLIC_URL must be a site"):
            Settings.from_env(site | {"REALPOLITIK_PUBLIC_URL": bad})
    on = Settings.from_env(
        {
            "REALPOLITIK_SMTP_URL": "smtp://localhost:1025",
            "REALPOLITIK_MAIL_FROM": "dip@example.org",
            "REALPOLITIK_PUBLIC_URL": "https://dip.example.org/",
            "REALPOLITIK_REMIND_SECONDS": "1800",
        }
    )
    assert on.mail and on.public_url == "https://dip.example.org" and on.remind_seconds == 1800


def test_a_mail_that_cannot_be_sent_holds_back_no_other(mailing: Mailing) -> None:
    """A row whose mail cannot even be written (a line break in its recipient, as no
    address set today can hold) fails alone: the others of its batch are sent, once."""
    b = mailing.backend
    with transaction(b.db) as conn:
        mail.queue(conn, b.now(), "first@example.org", "one", "body")
        mail.queue(conn, b.now(), "bad@example.org\nBcc: x@y.org", "two", "body")
        mail.queue(conn, b.now(), "last@example.org", "three", "body")
    assert mail.deliver(b) == 2
    assert [m["To"] for m in mailing.smtp.mailbox] == ["first@example.org", "last@example.org"]
    assert _waiting(b) == 1 and _tries(b) == 1  # tried again later, then dropped
    assert mail.deliver(b) == 0 and len(mailing.smtp.mailbox) == 2


def test_a_long_list_unsubscribe_address_is_sent_whole_on_one_line(mailing: Mailing) -> None:
    """Folded by the standard policy, a URL longer than a line would be sent as encoded
    words (``=?utf-8?q?...``), which no mail client reads as an address."""
    b = mailing.backend
    url = "https://a-rather-long-site-name.example.org/dip/unsubscribe/" + "T" * 43
    with transaction(b.db) as conn:
        mail.queue(conn, b.now(), "p@example.org", "Le jeu : " + "é" * 80, "body", unsubscribe=url)
        mail.queue(conn, b.now(), "q@example.org", "no notice", "body")
    assert mail.deliver(b) == 2
    notice, plain = mailing.smtp.mailbox
    lines = mailing.smtp.header_lines(notice)
    assert f"List-Unsubscribe: <{url}>" in lines
    assert "List-Unsubscribe-Post: List-Unsubscribe=One-Click" in lines
    assert all(len(line) <= 78 for line in lines if not line.startswith("List-Unsubscribe:"))
    assert notice["Subject"] == "Le jeu : " + "é" * 80  # other headers folded as before
    assert plain["List-Unsubscribe"] is None and plain["List-Unsubscribe-Post"] is None


def test_every_language_has_every_text_with_the_same_blanks() -> None:
    texts = read_json("data", "mail.json")
    blanks = {k: set(re.findall(r"{(\w+)}", v)) for k, v in texts["en"].items()}
    for language in ("es", "fr", "pt"):
        words = texts[language]
        assert set(words) == set(blanks), language
        for key, text in words.items():
            assert set(re.findall(r"{(\w+)}", text)) == blanks[key], (language, key)
        assert len(words["weekdays"].split()) == 7 and len(words["months"].split()) == 12


def test_a_server_out_of_reach_is_one_line_a_try_and_its_mail_waits(
    mailing: Mailing, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    """An SMTP server that is not there, or refuses the log-in, said so once for every mail
    of the batch ("mail 1 not sent (try 1): [Errno 111] Connection refused", twenty lines a
    try for one problem; "(535, b'5.7.8 ...')" for a wrong password, naming no server);
    now one line names the server, the user and why, never the password."""
    b = mailing.backend
    port = free_port()
    wrong = f"smtp://ada:s3cret@127.0.0.1:{mailing.smtp.port}"
    mailing.smtp.password = "right"
    for url, why in [
        (f"smtp://127.0.0.1:{port}", f"cannot reach the SMTP server 127.0.0.1:{port}: "),
        (wrong, f"the SMTP server 127.0.0.1:{mailing.smtp.port} refused the log-in as ada: 535"),
    ]:
        down = Backend(replace(b.settings, smtp_url=url), b.db, b.passwords, clock)
        _queue(down, 4)
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="realpolitik.server.mail"):
            for _ in range(mail.ATTEMPTS - 1):
                assert mail.deliver(down) == 0
                clock.advance(mail.RETRY_SECONDS * 2**mail.ATTEMPTS)
        lines = caplog.text.splitlines()
        assert len(lines) == mail.ATTEMPTS - 1 and all(why in line for line in lines), lines
        assert "4 mails wait" in lines[0] and "s3cret" not in caplog.text
        assert _waiting(b) == 4
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="realpolitik.server.mail"):
            assert mail.deliver(down) == 0
        [line] = caplog.text.splitlines()
        assert "4 mails dropped after 5 attempts" in line and why in line, line
        assert _waiting(b) == 0


@pytest.mark.parametrize(
    "url", ["smtpx://ada:s3cret@mail.example.org", "smtp://ada:s3cret@mail.example.org:99999",
            "smtp://ada:s3cret@", "smtp://ada:s3@cret@:25"],
)  # fmt: skip
def test_a_bad_smtp_url_is_named_without_its_password(url: str) -> None:
    """The error that stops the server wrote the URL whole, its password in it, to the
    host's terminal or journal."""
    with pytest.raises(ValueError, match="REALPOLITIK_SMTP_URL") as bad:
        Settings.from_env({"REALPOLITIK_SMTP_URL": url})
    assert "cret" not in str(bad.value) and "ada:***@" in str(bad.value), bad.value
