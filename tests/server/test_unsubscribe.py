"""The link in each notice mail that turns notices off without logging in
(:mod:`realpolitik.server.unsubscribe`, its page :mod:`realpolitik.server.pages`): in the
body and the List-Unsubscribe headers, a GET that changes nothing, a one-click POST that
turns every notice off, used once, bound to its user and kind, and a clear refusal in
every other case."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, inspect, select, text

from realpolitik.server import engine, notices, unsubscribe
from realpolitik.server import tables as t
from realpolitik.server.app import create_app
from realpolitik.server.backend import Backend
from tests.server.conftest import SITE, FakeClock, Mailing, Player, fast_settings, register
from tests.server.test_notices import _confirmed, _deadline, _game, _ready, _sent, _view

ONE_CLICK = {"List-Unsubscribe": "One-Click"}


def _notified(m: Mailing, who: Player, **game: Any) -> tuple[dict[str, Any], str]:
    """A game of ``who`` started and its new-phase notice mailed: the game, the mail's link."""
    started = _game(m, who, deadlines="daily", **game)
    assert notices.notify(m.backend) == 1
    [message] = _sent(m)[f"{who.username}@example.org"]
    return started, m.smtp.unsubscribe_link(message)


def _notices(m: Mailing, who: Player) -> dict[str, bool]:
    """The user's notices as stored (their session may have ended)."""
    u = t.users.c
    with m.backend.db.connect() as conn:
        row = conn.execute(
            select(u.notify_phase, u.notify_deadline).where(u.id == who.user_id)
        ).one()
    return {"phase": row.notify_phase, "deadline": row.notify_deadline}


def _path(link: str) -> str:
    assert link.startswith(SITE + "/unsubscribe/"), link
    return link.removeprefix(SITE)


def _anonymous(m: Mailing) -> TestClient:
    """A client of the same app without any session (the TestClient keeps no cookie of a
    Bearer log-in, but this one is sure to hold none)."""
    return TestClient(m.client.app)


def test_a_notice_mail_names_its_link_in_the_body_and_the_headers(mailing: Mailing) -> None:
    alice = _confirmed(mailing, "alice")
    _game(mailing, alice, deadlines="daily")
    assert notices.notify(mailing.backend) == 1
    [message] = _sent(mailing)["alice@example.org"]
    link = mailing.smtp.unsubscribe_link(message)
    token = link.rsplit("/", 1)[1]
    assert len(token) >= 40
    assert f"To stop these notices, open {link}" in message.get_content().splitlines()
    lines = mailing.smtp.header_lines(message)
    assert f"List-Unsubscribe: <{link}>" in lines  # whole, on one line, as sent
    assert "List-Unsubscribe-Post: List-Unsubscribe=One-Click" in lines
    with mailing.backend.db.connect() as conn:  # only its hash is kept
        stored = conn.execute(select(t.unsubscribe_tokens)).one()
    assert token not in stored.token_hash and stored.kind == notices.PHASE


def test_the_confirmation_mail_has_no_unsubscribe_link(mailing: Mailing) -> None:
    alice = register(mailing.client, "alice")
    mailing.client.put("/api/me/email", json={"email": "alice@example.org"}, headers=alice.headers)
    [confirmation] = _sent(mailing)["alice@example.org"]
    assert confirmation["List-Unsubscribe"] is None
    assert "/unsubscribe/" not in confirmation.get_content()


def test_a_one_click_post_logged_out_stops_every_notice(mailing: Mailing, clock: FakeClock) -> None:
    alice = _confirmed(mailing, "alice")
    game, link = _notified(mailing, alice)
    r = _anonymous(mailing).post(_path(link), data=ONE_CLICK)
    assert r.status_code == 200, r.text
    assert "realpolitik mails you no more notices" in r.text
    assert _notices(mailing, alice) == {"phase": False, "deadline": False}
    _ready(mailing, game, alice)  # the next phase: nothing is sent
    assert _view(mailing, game, alice)["phase"] != game["phase"]
    assert notices.notify(mailing.backend) == 0
    clock.advance(_deadline(mailing, game) - clock.now - 60)  # nor a reminder
    assert notices.notify(mailing.backend) == 0
    assert _sent(mailing) == {}
    r = mailing.client.put(  # back on in the account, as before
        "/api/me/notices", json={"deadline": True}, headers=alice.headers
    )
    assert r.json()["notices"] == {"phase": False, "deadline": True}
    assert notices.notify(mailing.backend) == 1
    assert "orders due" in _sent(mailing)["alice@example.org"][0]["Subject"]


def test_a_get_changes_nothing_and_shows_a_button_that_posts(mailing: Mailing) -> None:
    alice = _confirmed(mailing, "alice")
    _, link = _notified(mailing, alice)
    head = _anonymous(mailing).head(_path(link))  # a link checker's look
    assert (head.status_code, head.text) == (200, "")
    for _ in range(2):  # a scanner opens it, then its owner
        r = _anonymous(mailing).get(_path(link))
        assert r.status_code == 200, r.text
        assert _notices(mailing, alice) == {"phase": True, "deadline": True}
    assert r.headers["content-type"].startswith("text/html")
    assert r.headers["cache-control"] == "no-store"
    assert r.headers["referrer-policy"] == "no-referrer"
    page = r.text
    assert '<form method="post"' in page and "<script" not in page
    assert '<button id="stop-all" name="stop" value="all">Stop all notices</button>' in page
    assert "Only those of new phases</button>" in page
    assert "alice" not in page  # neither the name nor the address
    r = _anonymous(mailing).post(_path(link), data={"stop": "all"})  # the button
    assert r.status_code == 200
    assert _notices(mailing, alice) == {"phase": False, "deadline": False}


def test_only_the_kind_of_its_mail_may_be_stopped(mailing: Mailing, clock: FakeClock) -> None:
    alice = _confirmed(mailing, "alice")
    game, _ = _notified(mailing, alice)
    clock.advance(_deadline(mailing, game) - clock.now - 60)
    assert notices.notify(mailing.backend) == 1  # a reminder
    [mailed] = _sent(mailing)["alice@example.org"]
    reminder = mailing.smtp.unsubscribe_link(mailed)
    assert "Only the reminders</button>" in mailing.client.get(_path(reminder)).text
    r = _anonymous(mailing).post(_path(reminder), data={"stop": "this"})
    assert r.status_code == 200
    assert "no more reminders (notices of new phases still come)" in r.text
    assert _notices(mailing, alice) == {"phase": True, "deadline": False}


def test_a_link_unknown_forged_used_or_expired_is_refused_clearly(
    mailing: Mailing, clock: FakeClock
) -> None:
    alice, bob = _confirmed(mailing, "alice"), _confirmed(mailing, "bob")
    _, link = _notified(mailing, alice)
    _, bobs = _notified(mailing, bob)
    anyone = _anonymous(mailing)
    token = link.rsplit("/", 1)[1]
    forged = token[:-1] + ("A" if token[-1] != "A" else "B")
    for path in (f"/unsubscribe/{forged}", "/unsubscribe/x", "/unsubscribe/" + "a" * 3000):
        for method in ("GET", "POST"):
            r = anyone.request(method, path, data=ONE_CLICK)
            assert r.status_code == 404, (method, path, r.text)
            assert "This link is unknown or has expired: nothing was changed" in r.text
            assert "alice" not in r.text and "bob" not in r.text
    assert _notices(mailing, alice) == {"phase": True, "deadline": True}
    r = anyone.post(_path(link), data={"stop": "everything"})
    assert r.status_code == 400 and "not a choice the page offers" in r.text
    r = anyone.post(_path(link), data={"stop": ["all", "this"]})
    assert r.status_code == 400
    assert _notices(mailing, alice) == {"phase": True, "deadline": True}
    assert anyone.post(_path(link), data=ONE_CLICK).status_code == 200
    mailing.client.put("/api/me/notices", json={"phase": True}, headers=alice.headers)
    for method in ("GET", "POST"):  # used: once only
        r = anyone.request(method, _path(link), data=ONE_CLICK)
        assert r.status_code == 410 and "This link was used already" in r.text
    assert _notices(mailing, alice) == {"phase": True, "deadline": False}
    assert _notices(mailing, bob) == {"phase": True, "deadline": True}  # alice's link is hers
    clock.advance(unsubscribe.VALID_DAYS * unsubscribe.DAY)
    r = anyone.post(_path(bobs), data=ONE_CLICK)
    assert r.status_code == 404 and "has expired" in r.text
    assert _notices(mailing, bob) == {"phase": True, "deadline": True}
    assert unsubscribe.purge(mailing.backend) == 2
    with mailing.backend.db.connect() as conn:
        left = conn.execute(select(func.count()).select_from(t.unsubscribe_tokens)).scalar()
    assert left == 0


def test_a_new_address_forgets_the_links_mailed_to_the_old_one(mailing: Mailing) -> None:
    alice = _confirmed(mailing, "alice")
    _, link = _notified(mailing, alice)
    mailing.client.put("/api/me/email", json={"email": "new@example.org"}, headers=alice.headers)
    assert _anonymous(mailing).post(_path(link), data=ONE_CLICK).status_code == 404
    assert _notices(mailing, alice) == {"phase": True, "deadline": True}


def test_the_pages_speak_the_users_language(mailing: Mailing) -> None:
    bob, ana = _confirmed(mailing, "bob", "es"), _confirmed(mailing, "ana", "pt")
    _, link = _notified(mailing, bob)
    _, ana_link = _notified(mailing, ana)
    anyone = _anonymous(mailing)
    french = {"Accept-Language": "fr-CA, en;q=0.5"}
    page = anyone.get(_path(link), headers=french).text  # the user's, not the browser's
    assert '<html lang="es">' in page and "Dejar todos los avisos" in page
    done = anyone.post(_path(link), data=ONE_CLICK).text
    assert "Hecho: realpolitik ya no te enviará avisos." in done
    assert f'href="{SITE}/#/account"' in done
    assert "Este enlace ya se usó" in anyone.get(_path(link)).text
    page = anyone.get(_path(ana_link)).text
    assert '<html lang="pt-BR">' in page and "Parar todos os avisos" in page
    unknown = anyone.get("/unsubscribe/" + "b" * 43, headers=french)
    assert unknown.status_code == 404 and "Ce lien est inconnu ou a expiré" in unknown.text


def test_a_database_of_version_7_migrates(request: pytest.FixtureRequest, clock: FakeClock) -> None:
    """On SQLite and PostgreSQL: the users keep their notices and get no zone; the outbox
    and the links are ready."""
    for url in (request.getfixturevalue("sqlite_url"), request.getfixturevalue("pg_url")):
        b = Backend.open(fast_settings(url), clock=clock)
        with TestClient(create_app(b.settings, backend=b)) as c:
            register(c, "alice")
        with b.db.begin() as conn:  # back to version 7
            conn.execute(text("DROP TABLE unsubscribe_tokens"))
            conn.execute(text("ALTER TABLE users DROP COLUMN time_zone"))
            conn.execute(text("ALTER TABLE outbox DROP COLUMN unsubscribe"))
            conn.execute(t.schema_version.delete().where(t.schema_version.c.version >= 8))
        b.close()
        engine.clear_cache()
        b = Backend.open(fast_settings(url), clock=clock)
        try:
            with b.db.connect() as conn:
                row = conn.execute(select(t.users)).one()
                assert "unsubscribe_tokens" in inspect(conn).get_table_names()
                outbox = {c["name"] for c in inspect(conn).get_columns("outbox")}
            assert row.time_zone is None and row.notify_phase is True
            assert "unsubscribe" in outbox
        finally:
            b.close()
            engine.clear_cache()
