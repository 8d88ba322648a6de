"""Notices mailed to players (:mod:`realpolitik.server.notices`): a new phase where they
must act, a deadline near while their powers are not ready; once each per game, phase and
user; only to a confirmed address, each kind unless turned off."""

from __future__ import annotations

import time
from datetime import datetime, timedelta, timezone
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import inspect, select, text

from realpolitik.server import engine, mail, notices
from realpolitik.server import tables as t
from realpolitik.server.app import create_app
from realpolitik.server.backend import Backend
from tests.server.conftest import (
    SITE,
    FakeClock,
    Mailing,
    Player,
    fast_settings,
    new_game,
    register,
)


def _confirmed(m: Mailing, name: str, language: str = "en") -> Player:
    r = m.client.post(
        "/api/accounts",
        json={"username": name, "password": "correct horse", "language": language},
    )
    who = Player(name, r.json()["token"], r.json()["user"]["id"])
    address = f"{name}@example.org"
    m.client.put("/api/me/email", json={"email": address}, headers=who.headers)
    mail.deliver(m.backend)
    token = m.smtp.link(address).rsplit("/", 1)[1]
    assert m.client.post("/api/email/confirm", json={"token": token}).status_code == 200
    m.smtp.mailbox.clear()
    return who


def _game(m: Mailing, *players: Player, **kw: Any) -> dict[str, Any]:
    """A game of ``players`` (the first creates it), bots in the other seats, started."""
    game = new_game(m.client, players[0], bots="random", **kw)
    for who in players[1:]:
        r = m.client.post(f"/api/games/{game['id']}/join", json={}, headers=who.headers)
        assert r.status_code == 200, r.text
    r = m.client.post(f"/api/games/{game['id']}/start", headers=players[0].headers)
    assert r.status_code == 200, r.text
    started: dict[str, Any] = r.json()
    return started


def _view(m: Mailing, game: dict[str, Any], who: Player) -> dict[str, Any]:
    view: dict[str, Any] = m.client.get(f"/api/games/{game['id']}", headers=who.headers).json()
    return view


def _ready(m: Mailing, game: dict[str, Any], who: Player) -> None:
    for power in _view(m, game, who)["my_powers"]:
        r = m.client.post(
            f"/api/games/{game['id']}/ready", json={"power": power}, headers=who.headers
        )
        assert r.status_code == 200, r.text


def _sent(m: Mailing) -> dict[str, list[Any]]:
    """Notices queued now, and delivered: each recipient's mail."""
    mail.deliver(m.backend)
    out: dict[str, list[Any]] = {}
    for message in m.smtp.mailbox:
        out.setdefault(message["To"], []).append(message)
    m.smtp.mailbox.clear()
    return out


def _deadline(m: Mailing, game: dict[str, Any]) -> float:
    with m.backend.db.connect() as conn:
        at = conn.execute(select(t.games.c.deadline_at).where(t.games.c.id == game["id"]))
        value: float = at.scalar_one()
    return value


def test_a_new_phase_is_told_once(mailing: Mailing) -> None:
    alice = _confirmed(mailing, "alice")
    game = _game(mailing, alice, name="Friday game", deadlines="daily")
    assert notices.notify(mailing.backend) == 1
    [message] = _sent(mailing)["alice@example.org"]
    assert message["Subject"] == "Friday game: Spring 1901 Movement has begun"
    body = message.get_content()
    power = _view(mailing, game, alice)["my_powers"][0]
    assert power.capitalize() in body and "UTC" in body
    assert f"{SITE}/#/game/{game['id']}" in body
    assert f"To choose which you get, open your account: {SITE}/#/account" in body
    assert notices.notify(mailing.backend) == 0  # once per phase
    assert _sent(mailing) == {}
    _ready(mailing, game, alice)  # the bots are: the phase is processed
    assert _view(mailing, game, alice)["phase"] != "S1901M"
    assert notices.notify(mailing.backend) == 1
    [message] = _sent(mailing)["alice@example.org"]
    assert "has begun" in message["Subject"] and "Spring 1901 Movement" not in message["Subject"]


def test_nothing_is_sent_to_an_address_not_confirmed(mailing: Mailing) -> None:
    alice = register(mailing.client, "alice")
    mailing.client.put("/api/me/email", json={"email": "alice@example.org"}, headers=alice.headers)
    _game(mailing, alice, deadlines="daily")
    assert notices.notify(mailing.backend) == 0
    [confirmation] = _sent(mailing)["alice@example.org"]  # only the confirmation
    assert "confirm" in confirmation["Subject"]


def test_a_phase_begun_before_the_confirmation_is_not_told(
    mailing: Mailing, clock: FakeClock
) -> None:
    alice = register(mailing.client, "alice")
    _game(mailing, alice, deadlines="daily")
    clock.advance(60)
    mailing.client.put("/api/me/email", json={"email": "alice@example.org"}, headers=alice.headers)
    mail.deliver(mailing.backend)
    token = mailing.smtp.link("alice@example.org").rsplit("/", 1)[1]
    mailing.client.post("/api/email/confirm", json={"token": token})
    assert notices.notify(mailing.backend) == 0


def test_the_notices_may_be_turned_off(mailing: Mailing, clock: FakeClock) -> None:
    alice = _confirmed(mailing, "alice")
    r = mailing.client.put("/api/me/notices", json={"phase": False}, headers=alice.headers)
    assert r.json()["notices"] == {"phase": False, "deadline": True}
    game = _game(mailing, alice, deadlines="daily")
    assert notices.notify(mailing.backend) == 0
    r = mailing.client.put("/api/me/notices", json={"deadline": False}, headers=alice.headers)
    assert r.json()["notices"] == {"phase": False, "deadline": False}
    clock.advance(_deadline(mailing, game) - clock.now - 60)
    assert notices.notify(mailing.backend) == 0
    mailing.client.put("/api/me/notices", json={"deadline": True}, headers=alice.headers)
    assert notices.notify(mailing.backend) == 1
    [reminder] = _sent(mailing)["alice@example.org"]
    assert reminder["Subject"].endswith("orders due in 1 min")
    assert ", in 1 minute. Not ready yet" in reminder.get_content()  # (not "1 minutes")


def test_a_reminder_goes_once_to_the_players_not_ready(mailing: Mailing, clock: FakeClock) -> None:
    alice, bob = _confirmed(mailing, "alice"), _confirmed(mailing, "bob", "es")
    game = _game(mailing, alice, bob, name="Daily", deadlines="daily")
    assert notices.notify(mailing.backend) == 2  # the new phase, to both
    spanish = _sent(mailing)["bob@example.org"][0]
    assert spanish["Subject"] == "Daily: ha empezado Primavera de 1901"
    assert "Para elegir cuáles recibes, abre tu cuenta" in spanish.get_content()
    _ready(mailing, game, bob)
    deadline = _deadline(mailing, game)
    clock.advance(deadline - clock.now - mailing.backend.settings.remind_seconds - 60)
    assert notices.notify(mailing.backend) == 0  # not yet within the hour
    clock.advance(120)
    assert notices.notify(mailing.backend) == 1
    sent = _sent(mailing)
    assert list(sent) == ["alice@example.org"]  # bob is ready
    [reminder] = sent["alice@example.org"]
    assert reminder["Subject"] == "Daily: orders due in 59 min"
    power = _view(mailing, game, alice)["my_powers"][0]
    assert f"Not ready yet: {power.capitalize()}" in reminder.get_content()
    assert notices.notify(mailing.backend) == 0  # once


def test_no_reminder_in_a_game_without_deadlines(mailing: Mailing, clock: FakeClock) -> None:
    alice = _confirmed(mailing, "alice")
    _game(mailing, alice, deadlines="none")
    assert notices.notify(mailing.backend) == 1  # the new phase (no deadline: said so)
    assert "none" in _sent(mailing)["alice@example.org"][0].get_content()
    clock.advance(30 * 86400)
    assert notices.notify(mailing.backend) == 0


def test_a_notice_found_by_two_processes_is_sent_once(mailing: Mailing) -> None:
    """One process finds the notice due, another gives it meanwhile: the first, going on
    with what it found, meets the record and sends nothing."""
    alice = _confirmed(mailing, "alice")
    game = _game(mailing, alice, deadlines="daily")
    b = mailing.backend
    found = notices._candidates(b, notices.PHASE, b.now())
    assert [r.game_id for r in found] == [game["id"]]
    assert notices.notify(b) == 1  # the other process
    users = {found[0].user_id: found}
    assert notices._notify_game(b, notices.PHASE, game["id"], users, b.now()) == 0
    assert len(_sent(mailing)["alice@example.org"]) == 1


def test_no_reminder_in_a_phase_shorter_than_its_window(mailing: Mailing, clock: FakeClock) -> None:
    alice = _confirmed(mailing, "alice")
    game = _game(mailing, alice, deadlines="rulebook")  # 30 minutes: the notice is enough
    assert notices.notify(mailing.backend) == 1
    clock.advance(_deadline(mailing, game) - clock.now - 60)
    assert notices.notify(mailing.backend) == 0


def test_a_sandbox_is_told_nothing(mailing: Mailing) -> None:
    alice = _confirmed(mailing, "alice")
    r = mailing.client.post(
        "/api/games", json={"name": "what if", "sandbox": True}, headers=alice.headers
    )
    assert r.status_code == 201, r.text
    assert notices.notify(mailing.backend) == 0
    assert _sent(mailing) == {}


def test_accounts_from_before_mail_get_no_address_and_notices_on(
    sqlite_url: str, clock: FakeClock
) -> None:
    """A database of schema version 6 migrates: its users have no address, their notices
    are on (once they confirm one), and mail can be queued."""
    b = Backend.open(fast_settings(sqlite_url), clock=clock)
    with TestClient(create_app(b.settings, backend=b)) as c:
        register(c, "alice")
    with b.db.begin() as conn:  # back to version 6
        for table in ("notices", "outbox", "email_tokens"):
            conn.execute(text(f"DROP TABLE {table}"))
        for column in ("email", "email_confirmed_at", "notify_phase", "notify_deadline"):
            conn.execute(text(f"ALTER TABLE users DROP COLUMN {column}"))
        conn.execute(t.schema_version.delete().where(t.schema_version.c.version >= 7))
    b.close()
    engine.clear_cache()
    b = Backend.open(fast_settings(sqlite_url), clock=clock)
    try:
        with b.db.connect() as conn:
            row = conn.execute(select(t.users)).one()
            assert {"notices", "outbox", "email_tokens"} <= set(inspect(conn).get_table_names())
        assert (row.email, row.email_confirmed_at) == (None, None)
        assert row.notify_phase is True and row.notify_deadline is True
    finally:
        b.close()
        engine.clear_cache()


def _local(moment: float, hours: int) -> str:
    """``moment`` at a fixed offset from UTC, as the English mail writes it (no zone data)."""
    local = datetime.fromtimestamp(moment, timezone(timedelta(hours=hours)))
    return f"{local:%A} {local.day} {local:%B} {local.year}, {local:%H:%M}"


def test_a_deadline_is_written_in_the_players_time_zone(mailing: Mailing, clock: FakeClock) -> None:
    """Madrid is UTC+1 in January and UTC+2 in July (summer time), São Paulo UTC-3; a
    player without a zone reads UTC."""

    def zoned(name: str, zone: str, language: str = "en") -> Player:
        who = _confirmed(mailing, name, language)
        r = mailing.client.put("/api/me/notices", json={"time_zone": zone}, headers=who.headers)
        assert r.status_code == 200 and r.json()["time_zone"] == zone
        return who

    alice, bob = zoned("alice", "Europe/Madrid"), _confirmed(mailing, "bob")
    ana = zoned("ana", "America/Sao_Paulo", "pt")
    winter = _game(mailing, alice, bob, ana, deadlines="daily")
    assert notices.notify(mailing.backend) == 3
    sent = _sent(mailing)
    deadline = _deadline(mailing, winter)
    assert time.gmtime(deadline).tm_mon == 1
    body = sent["alice@example.org"][0].get_content()
    assert f"Deadline: {_local(deadline, 1)} (Europe/Madrid)" in body
    assert f"Deadline: {_local(deadline, 0)} (UTC)" in sent["bob@example.org"][0].get_content()
    local = datetime.fromtimestamp(deadline, timezone(timedelta(hours=-3)))
    said = f"{local.day} de janeiro de {local.year}, {local:%H:%M} (America/Sao_Paulo)"
    assert said in sent["ana@example.org"][0].get_content()
    clock.advance(182 * 86400)  # July (new players: the sessions of January have ended)
    carla = zoned("carla", "Europe/Madrid")
    summer = _game(mailing, carla, deadlines="daily")
    assert notices.notify(mailing.backend) == 1
    deadline = _deadline(mailing, summer)
    assert time.gmtime(deadline).tm_mon == 7
    body = _sent(mailing)["carla@example.org"][0].get_content()
    assert f"Deadline: {_local(deadline, 2)} (Europe/Madrid)" in body
    clock.advance(deadline - clock.now - 600)
    assert notices.notify(mailing.backend) == 1
    [reminder] = _sent(mailing)["carla@example.org"]
    assert f"is {_local(deadline, 2)} (Europe/Madrid), in 10 minutes" in reminder.get_content()
