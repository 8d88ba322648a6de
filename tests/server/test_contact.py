"""An account's email address (:mod:`realpolitik.server.contact`): checked, confirmed by
a single-use expiring link mailed to it, shown to its owner only, and confirmation mails
limited per user and per address."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from realpolitik.server import contact, mail
from realpolitik.server.contact import check_email
from realpolitik.server.errors import BadRequest
from tests.server.conftest import SITE, FakeClock, Mailing, Player, new_game, register

ALICE = "alice@example.org"


def _set(m: Mailing, who: Player, email: str | None) -> dict[str, object]:
    r = m.client.put("/api/me/email", json={"email": email}, headers=who.headers)
    assert r.status_code == 200, r.text
    body: dict[str, object] = r.json()
    return body


def _me(m: Mailing, who: Player) -> dict[str, object]:
    body: dict[str, object] = m.client.get("/api/me", headers=who.headers).json()
    return body


def _confirm(m: Mailing, token: str) -> int:
    return int(m.client.post("/api/email/confirm", json={"token": token}).status_code)


def _token(m: Mailing, address: str) -> str:
    mail.deliver(m.backend)
    return m.smtp.link(address).rsplit("/", 1)[1]


@pytest.mark.parametrize(
    ("address", "problem"),
    [
        ("a" * 243 + "@example.org", "at most 254 characters"),
        ("ali\x07ce@example.org", "control characters"),
        ("alice@example.org\r\nBcc: x@y.org", "control characters"),
        ("ali ce@example.org", "spaces"),
        ("alice.example.org", "exactly one @, not 0"),
        ("alice@home@example.org", "exactly one @, not 2"),
        ("@example.org", "a name before the @"),
        ("alice@localhost", "needs a dot"),
        ("alice@example.", "needs a dot"),
        ("alice@.org", "needs a dot"),
        ("root,alice@example.org", "may not hold ,"),
        ("<root>alice@example.org", "may not hold < >"),
        ('"al"ice@example.org', 'may not hold "'),
        (".alice@example.org", "start or end with a dot"),
        ("al..ice@example.org", "two in a row"),
        ("alice@exa_mple.org", "may not hold _"),
        ("alice@[127.0.0.1]", "may not hold [ ]"),
    ],
)
def test_an_address_is_checked(address: str, problem: str) -> None:
    with pytest.raises(BadRequest) as refused:
        check_email(address)
    assert problem in refused.value.message
    assert refused.value.code == "email_rule"


def test_good_addresses_pass() -> None:
    for address in (
        ALICE,
        "a+games@mail.example.co.uk",
        "o'brien.j@my-club.example.org",
        "josé@correo.example.es",
        "x" * 64 + "@" + "d" * 185 + ".org",
    ):
        assert check_email(address) == address


def test_a_bad_address_is_a_400_naming_it_and_stores_nothing(mailing: Mailing) -> None:
    alice = register(mailing.client, "alice")
    bad = {"email": "alice@localhost"}
    r = mailing.client.put("/api/me/email", json=bad, headers=alice.headers)
    assert r.status_code == 400
    assert r.json()["code"] == "email_rule" and "dot" in r.json()["detail"]
    assert _me(mailing, alice)["email"] is None
    mail.deliver(mailing.backend)
    assert mailing.smtp.mailbox == []


def test_a_server_without_mail_offers_no_address(client: TestClient) -> None:
    alice = register(client, "alice")
    assert client.get("/api/me", headers=alice.headers).json()["mail"] is False
    r = client.put("/api/me/email", json={"email": ALICE}, headers=alice.headers)
    assert r.status_code == 409 and r.json()["code"] == "mail_off"


def test_an_address_is_confirmed_by_the_link_mailed_to_it(mailing: Mailing) -> None:
    alice = register(mailing.client, "alice")
    me = _set(mailing, alice, ALICE)
    assert me["mail"] is True
    assert me["email"] == ALICE and me["email_confirmed"] is False
    assert me["notices"] == {"phase": True, "deadline": True}
    assert mailing.smtp.mailbox == []  # not sent by the request: by the mail loop
    assert mail.deliver(mailing.backend) == 1
    [sent] = mailing.smtp.messages_to(ALICE)
    assert sent["From"] == "realpolitik@example.org"
    assert "confirm" in sent["Subject"]
    link = mailing.smtp.link(ALICE)
    assert link.startswith(f"{SITE}/#/confirm/")
    token = link.rsplit("/", 1)[1]
    wrong = ("y" if token[0] == "x" else "x") + token[1:]  # (a token may begin with x)
    assert _confirm(mailing, wrong) == 404  # a wrong token
    assert _me(mailing, alice)["email_confirmed"] is False
    assert _confirm(mailing, token) == 200
    assert _me(mailing, alice)["email_confirmed"] is True
    assert _confirm(mailing, token) == 404  # single use
    assert mailing.client.post("/api/email/confirm", json={"token": ""}).status_code == 422
    # the same address again: still confirmed, no mail
    assert _set(mailing, alice, ALICE)["email_confirmed"] is True
    assert mail.deliver(mailing.backend) == 0


def test_the_address_is_shown_to_its_owner_only(mailing: Mailing) -> None:
    alice, bob = register(mailing.client, "alice"), register(mailing.client, "bob")
    _set(mailing, alice, ALICE)
    assert _confirm(mailing, _token(mailing, ALICE)) == 200
    game = new_game(mailing.client, bob, show_names=True)
    assert mailing.client.post(f"/api/games/{game['id']}/join", json={}, headers=alice.headers)
    assert _me(mailing, bob)["email"] is None
    for who in (alice, bob, None):
        headers = who.headers if who else {}
        seen = mailing.client.get(f"/api/games/{game['id']}", headers=headers).text
        listed = mailing.client.get("/api/games", headers=headers).text
        assert "alice" in seen and ALICE not in seen and ALICE not in listed


def test_an_expired_link_confirms_nothing(mailing: Mailing, clock: FakeClock) -> None:
    alice = register(mailing.client, "alice")
    _set(mailing, alice, ALICE)
    token = _token(mailing, ALICE)
    clock.advance(48 * 3600 + 1)
    r = mailing.client.post("/api/email/confirm", json={"token": token})
    assert r.status_code == 400 and r.json()["code"] == "token_expired"
    assert _confirm(mailing, token) == 404  # gone
    assert _me(mailing, alice)["email_confirmed"] is False
    _set(mailing, alice, "alice@work.example.org")
    assert contact.purge(mailing.backend) == 0
    clock.advance(2 * 48 * 3600)  # expired for as long as it was valid: forgotten
    assert contact.purge(mailing.backend) == 1
    assert _confirm(mailing, _token(mailing, "alice@work.example.org")) == 404


def test_changing_the_address_resets_its_confirmation(mailing: Mailing) -> None:
    alice = register(mailing.client, "alice")
    _set(mailing, alice, ALICE)
    assert _confirm(mailing, _token(mailing, ALICE)) == 200
    me = _set(mailing, alice, "alice@work.example.org")
    assert me["email"] == "alice@work.example.org" and me["email_confirmed"] is False
    first = _token(mailing, "alice@work.example.org")
    _set(mailing, alice, "alice@home.example.org")
    assert _confirm(mailing, first) == 404  # the link of the address left
    assert _me(mailing, alice)["email_confirmed"] is False
    assert _set(mailing, alice, None)["email"] is None
    assert _confirm(mailing, _token(mailing, "alice@home.example.org")) == 404


def test_confirmation_mails_are_limited(mailing: Mailing, clock: FakeClock) -> None:
    alice = register(mailing.client, "alice")
    limit = mailing.backend.settings.confirmations_per_hour
    for k in range(limit):
        _set(mailing, alice, f"alice{k}@example.org")
    r = mailing.client.put("/api/me/email", json={"email": ALICE}, headers=alice.headers)
    assert r.status_code == 429 and int(r.headers["Retry-After"]) >= 1
    assert _me(mailing, alice)["email"] == f"alice{limit - 1}@example.org"  # unchanged
    assert mail.deliver(mailing.backend) == limit
    # one address is not flooded by many accounts either
    for k in range(limit):
        _set(mailing, register(mailing.client, f"user{k}"), "victim@example.org")
    r = mailing.client.put(
        "/api/me/email",
        json={"email": "victim@example.org"},
        headers=register(mailing.client, "another").headers,
    )
    assert r.status_code == 429
    clock.advance(3600)
    assert _set(mailing, alice, ALICE)["email"] == ALICE


def test_the_confirmation_is_in_the_users_language(mailing: Mailing) -> None:
    r = mailing.client.post(
        "/api/accounts", json={"username": "amelie", "password": "correct horse", "language": "fr"}
    )
    amelie = Player("amelie", r.json()["token"], r.json()["user"]["id"])
    _set(mailing, amelie, "amelie@example.fr")
    mail.deliver(mailing.backend)
    [sent] = mailing.smtp.messages_to("amelie@example.fr")
    assert "confirmez" in sent["Subject"]
    assert "Bonjour amelie" in sent.get_content()


def test_the_time_zone_is_kept_and_an_unknown_one_refused(mailing: Mailing) -> None:
    """Sent with the address or the notices: shown back to its owner; one the server does
    not know is a 400 naming it, and nothing of that request is kept."""
    alice = register(mailing.client, "alice")
    assert _me(mailing, alice)["time_zone"] is None
    r = mailing.client.put(
        "/api/me/email", json={"email": ALICE, "time_zone": "Europe/Madrid"}, headers=alice.headers
    )
    assert r.status_code == 200 and r.json()["time_zone"] == "Europe/Madrid"
    for path, body in (
        ("/api/me/email", {"email": "alice@work.example.org", "time_zone": "Mars/Olympus_Mons"}),
        ("/api/me/notices", {"phase": False, "time_zone": "Mars/Olympus_Mons"}),
        ("/api/me/notices", {"time_zone": "../../etc/passwd"}),
        ("/api/me/notices", {"time_zone": ""}),
        # the host's own zone (a link the system's zone files keep): no zone's name, and
        # what it means changes with the machine the server runs on
        ("/api/me/notices", {"time_zone": "localtime"}),
    ):
        r = mailing.client.put(path, json=body, headers=alice.headers)
        assert r.status_code == 400, r.text
        assert r.json()["code"] == "time_zone_unknown"
        assert f"unknown time zone {body['time_zone']!r}" in r.json()["detail"]
    r = mailing.client.put("/api/me/notices", json={"time_zone": "x" * 101}, headers=alice.headers)
    assert r.status_code == 422
    me = _me(mailing, alice)
    assert me["email"] == ALICE and me["time_zone"] == "Europe/Madrid"
    assert me["notices"] == {"phase": True, "deadline": True}
    r = mailing.client.put(
        "/api/me/notices",
        json={"deadline": False, "time_zone": "Asia/Tokyo"},
        headers=alice.headers,
    )
    assert r.json()["time_zone"] == "Asia/Tokyo"
    assert r.json()["notices"] == {"phase": True, "deadline": False}
    assert _me(mailing, register(mailing.client, "bob"))["time_zone"] is None
