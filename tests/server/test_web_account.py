"""Accounts in the page (lobby.js, app.js) in a real browser: sign-up and log-in (refusals
told in the page's language, what was typed kept), a password changed, an email address
confirmed by its link, a notice's link that stops the notices."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.server.browserkit import FLASH, HEADER_ROWS, idle, shot, sign_up, unexpected, watched
from tests.server.conftest import LiveServer, free_port, start_server
from tests.server.fakesmtp import FakeSmtp


def test_a_refused_sign_up_then_an_accepted_one_and_the_press_choices(
    server: LiveServer, browser: Any
) -> None:
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    sent: list[str] = []
    page.on("request", lambda r: sent.append(f"{r.method} {r.url.split('/api')[-1]}"))
    page.goto(server.url + "/")
    page.fill("#auth-user", "wes")
    page.fill("#auth-pass", "short")
    page.click("#register")
    page.wait_for_selector("#flash.error:not([hidden])")
    assert "8 to 200 characters" in page.inner_text("#flash")
    page.fill("#auth-pass", "lovelace1815")
    page.click("#register")
    page.wait_for_selector("#create-game")
    posted = [s for s in sent if s.startswith("POST")]
    assert posted == ["POST /accounts", "POST /accounts"], posted  # no log-in besides
    assert page.locator("#flash").is_hidden()  # the refusal does not linger over the lobby
    press = dict(page.locator("#new-press option").evaluate_all(
        "els => els.map(e => [e.value, e.textContent])"))  # fmt: skip
    listed = page.locator("label.check", has=page.locator("#new-public")).inner_text()
    assert set(press) == {"full", "public", "none"}
    assert "public" in press["public"] and press["public"] != listed.strip(), (press, listed)


def test_a_blank_sign_up_or_log_in_is_told_in_the_page_s_language(
    server: LiveServer, browser: Any
) -> None:
    """A field left blank: the page says so in its language, as it says the rules (it showed
    the schema's English: 'username: String should have at least 1 character')."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.goto(server.url + "/")
    page.wait_for_selector("#auth-user")
    page.select_option("#language", "fr")
    page.wait_for_function("document.getElementById('register').textContent === 'Créer un compte'")
    for button, user, password in (("#register", "", "lovelace1815"), ("#login", "wes", "")):
        page.fill("#auth-user", user)
        page.fill("#auth-pass", password)
        page.click(button)
        page.wait_for_selector("#flash.error:not([hidden])")
        told = page.inner_text("#flash")
        assert told == "Écrivez votre nom d'utilisateur et votre mot de passe.", told
        page.evaluate("document.getElementById('flash').hidden = true")


def test_the_language_switched_keeps_what_was_typed_in_the_log_in_form(
    server: LiveServer, browser: Any
) -> None:
    """The language switched while the page still asks the server who is logged in (the
    log-in form shows at once, in the new language), the player types, then the answer
    comes: what was typed stays, as it stays when the language is switched again."""
    page = browser.new_page(viewport={"width": 390, "height": 844})
    held: list[Any] = []
    page.route("**/api/me", lambda route: held.append(route))  # the first check, held back
    page.goto(server.url + "/")
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the page did not ask who is logged in"
    page.select_option("#language", "es")
    page.wait_for_function("document.getElementById('login').textContent === 'Entrar'")
    page.fill("#auth-user", "yara")
    page.fill("#auth-pass", "lovelace1815")
    page.focus("#auth-user")
    with page.expect_response("**/api/me"):
        held[0].continue_()
    page.unroute("**/api/me")
    idle(page)  # the check answered (no one logged in), and the page shown again
    assert page.input_value("#auth-user") == "yara"
    assert page.input_value("#auth-pass") == "lovelace1815"
    assert page.evaluate("document.activeElement.id") == "auth-user"  # typing goes on
    page.select_option("#language", "pt")
    page.wait_for_function("document.getElementById('register').textContent === 'Criar conta'")
    idle(page)
    assert page.input_value("#auth-user") == "yara"
    assert page.input_value("#auth-pass") == "lovelace1815"
    page.click("#register")
    page.wait_for_selector("#create-game")


def test_a_password_changed_in_the_page_is_the_one_to_log_in_with(
    server: LiveServer, browser: Any
) -> None:
    """The username in the header opens the account: a wrong current password is told as
    the page tells errors; the right one changes it and ends the other sessions (this one
    stays); the new password logs in, the old one no longer; log out everywhere ends all.
    The form keeps the header on one row and the page within a phone's width."""
    import httpx

    def session(password: str) -> dict[str, str]:
        body = {"username": "pascal", "password": password}
        r = httpx.post(server.url + "/api/sessions", json=body)
        assert r.status_code == 200, r.text
        return {"Authorization": f"Bearer {r.json()['token']}"}

    def me(headers: dict[str, str]) -> int:
        return httpx.get(server.url + "/api/me", headers=headers).status_code

    page, errors = watched(browser)
    sign_up(page, server, "pascal")
    elsewhere = session("lovelace1815")
    page.click("#whoami")
    page.wait_for_selector("#change-password")
    idle(page)
    page.fill("#account-current", "wrong password")
    page.fill("#account-new", "babbage1791")
    with page.expect_response("**/api/me/password") as refused:
        page.click("#change-password")
    assert refused.value.status == 403
    idle(page)
    assert page.inner_text("#flash.error") == "The current password is wrong."
    assert me(elsewhere) == 200
    errors = [e for e in errors if "403" not in e]  # the refusal asked for
    page.fill("#account-current", "lovelace1815")
    page.press("#account-new", "Enter")  # Enter sends the form, as the button does
    page.wait_for_function(f"{FLASH}.className === 'info' && !{FLASH}.hidden")
    idle(page)
    assert page.inner_text("#flash").startswith("Password changed")
    assert page.input_value("#account-current") == page.input_value("#account-new") == ""
    assert me(elsewhere) == 401
    shot(page, "account-desktop", full=False)
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_function("document.documentElement.scrollWidth <= 392")
    assert page.evaluate(HEADER_ROWS) == 1
    shot(page, "account-phone", full=False)
    page.set_viewport_size({"width": 1400, "height": 1000})
    page.click("#logout")
    page.wait_for_selector("#auth-user")
    page.fill("#auth-user", "pascal")
    page.fill("#auth-pass", "lovelace1815")
    page.click("#login")
    page.wait_for_function(f"{FLASH}.textContent === 'Wrong username or password.'")
    page.fill("#auth-pass", "babbage1791")
    page.press("#auth-pass", "Enter")
    page.wait_for_selector("#create-game")
    assert page.inner_text("#whoami") == "pascal"
    elsewhere = session("babbage1791")
    page.click("#whoami")
    page.wait_for_selector("#logout-everywhere")
    idle(page)
    page.click("#logout-everywhere")
    page.wait_for_selector("#auth-user")
    idle(page)
    assert me(elsewhere) == 401
    assert page.evaluate("fetch('/api/me').then(r => r.status)") == 401
    assert not errors, errors


@pytest.fixture(scope="module")
def mail_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[LiveServer, FakeSmtp]]:
    """A server that mails (to a fake SMTP server in this process); its links lead to
    its own address (``REALPOLITIK_PUBLIC_URL``)."""
    smtp = FakeSmtp()
    folder = tmp_path_factory.mktemp("mail")
    port = free_port()
    mail = {
        "REALPOLITIK_SMTP_URL": smtp.url,
        "REALPOLITIK_MAIL_FROM": "dip@example.org",
        "REALPOLITIK_PUBLIC_URL": f"http://127.0.0.1:{port}",
    }
    live = start_server(
        f"sqlite:///{folder / 'game.sqlite3'}", folder / "server.log", extra_env=mail, port=port
    )
    yield live, smtp
    live.stop()
    smtp.close()


def test_an_email_address_set_in_the_account_is_confirmed_by_its_link(
    mail_server: tuple[LiveServer, FakeSmtp], server: LiveServer, browser: Any
) -> None:
    """The account takes an email address (a bad one is refused, saying why); the mail
    loop sends the link; following it confirms the address, which the account then says;
    a notice turned off stays off. A server without mail offers no address."""
    live, smtp = mail_server
    page, errors = watched(browser)
    sign_up(page, live, "emmy")
    page.click("#whoami")
    page.wait_for_selector("#account-email")
    idle(page)
    assert page.inner_text("#email-status") == "No address: no mail is sent to you."
    page.fill("#account-email", "emmy@localhost")
    with page.expect_response("**/api/me/email") as refused:
        page.click("#save-email")
    assert refused.value.status == 400
    idle(page)
    assert page.inner_text("#flash.error").startswith("Not an email address (the domain")
    errors = [e for e in errors if "400" not in e]  # the refusal asked for
    page.fill("#account-email", "emmy@example.org")
    page.press("#account-email", "Enter")  # as the button does
    page.wait_for_function(
        "document.getElementById('email-status').innerText.startsWith('Not confirmed')"
    )
    idle(page)
    assert "emmy@example.org" in page.inner_text("#email-status")
    deadline = time.monotonic() + 30
    while not smtp.messages_to("emmy@example.org") and time.monotonic() < deadline:
        time.sleep(0.2)  # the server's mail loop sends it
    link = smtp.link("emmy@example.org")
    assert link.startswith(live.url + "/#/confirm/")
    page.goto(link)
    page.wait_for_function(
        "(document.getElementById('email-status') || {}).innerText"
        " === 'Confirmed: notices are sent to this address.'"
    )
    idle(page)
    assert page.evaluate("location.hash") == "#/account"
    assert page.input_value("#account-email") == "emmy@example.org"
    with page.expect_response("**/api/me/notices"):
        page.uncheck("#notice-deadline")
    idle(page)
    page.reload()
    page.wait_for_selector("#notice-deadline")
    idle(page)
    assert not page.is_checked("#notice-deadline") and page.is_checked("#notice-phase")
    page.goto(link)  # used: the page says so
    page.wait_for_selector("#flash.error")
    assert "unknown or was used" in page.inner_text("#flash")
    errors = [e for e in errors if "404" not in e]
    assert errors == []
    plain = browser.new_page(viewport={"width": 1400, "height": 1000})
    sign_up(plain, server, "nomail")
    plain.click("#whoami")
    plain.wait_for_selector("#change-password")
    idle(plain)
    assert plain.locator("#account-email").count() == 0


def test_a_notice_s_link_stops_the_notices_from_a_page_without_logging_in(
    mail_server: tuple[LiveServer, FakeSmtp], browser: Any
) -> None:
    """The account sends the browser's time zone, and the notice's deadline is written in
    it; the notice's link, opened on a phone without a session, shows a page in the
    player's language whose button (not the opening) turns every notice off; the account
    then shows them off, and turns one back on."""
    live, smtp = mail_server
    context = browser.new_context(
        viewport={"width": 1400, "height": 1000}, timezone_id="America/Sao_Paulo"
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if unexpected(m) else None)
    page.goto(live.url + "/")
    page.wait_for_selector("#auth-user")
    idle(page)
    page.select_option("#language", "pt")
    idle(page)
    page.fill("#auth-user", "zelia")
    page.fill("#auth-pass", "lovelace1815")
    page.click("#register")
    page.wait_for_selector("#create-game")
    page.click("#whoami")
    page.wait_for_selector("#account-email")
    idle(page)
    page.fill("#account-email", "zelia@example.org")
    with page.expect_response("**/api/me/email") as saved:
        page.click("#save-email")
    assert saved.value.request.post_data_json["time_zone"] == "America/Sao_Paulo"
    page.wait_for_function("document.getElementById('email-status').innerText.includes('zelia@')")
    idle(page)
    assert page.inner_text("#notices-zone") == (
        "Os prazos nos e-mails são escritos no fuso horário America/Sao_Paulo."
    )
    shot(page, "account-time-zone")
    deadline = time.monotonic() + 30
    while not smtp.messages_to("zelia@example.org") and time.monotonic() < deadline:
        time.sleep(0.2)
    page.goto(smtp.link("zelia@example.org"))
    page.wait_for_selector("#notice-phase")
    idle(page)
    r = page.request.post(
        live.url + "/api/games",
        data={"name": "Mesa de sábado", "deadlines": "daily", "bots": "random", "start": True},
        headers={"X-Requested-With": "realpolitik"},
    )
    assert r.status == 201, r.text()
    deadline = time.monotonic() + 60  # the mail loop looks for notices every 15 s
    while len(smtp.messages_to("zelia@example.org")) < 2 and time.monotonic() < deadline:
        time.sleep(0.2)
    notice = smtp.messages_to("zelia@example.org")[-1]
    assert "começou" in notice["Subject"]
    assert re.search(
        r"Prazo: \S+, \d+ de \w+ de \d{4}, \d\d:\d\d \(America/Sao_Paulo\)", notice.get_content()
    )
    link = smtp.unsubscribe_link(notice)
    assert link.startswith(live.url + "/unsubscribe/")
    assert f"List-Unsubscribe: <{link}>" in smtp.header_lines(notice)

    def notices_now() -> dict[str, bool]:
        found: dict[str, bool] = page.request.get(live.url + "/api/me").json()["notices"]
        return found

    phone = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    away = phone.new_page()  # no session there
    away.on("pageerror", lambda e: errors.append(str(e)))
    away.goto(link)
    asked = "Deixar de receber os avisos que o realpolitik envia para você?"
    assert away.inner_text("#said") == asked
    assert away.inner_text("#stop-all") == "Parar todos os avisos"
    assert away.inner_text("#stop-this") == "Só os de novas fases"
    box = away.locator("#unsubscribe").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390  # the card fits a phone
    shot(away, "unsubscribe-phone")
    assert notices_now() == {"phase": True, "deadline": True}  # opening changed nothing
    wide = context.new_page()
    wide.goto(link)
    shot(wide, "unsubscribe-desktop")
    wide.close()
    away.click("#stop-all")
    away.wait_for_selector("#account")
    assert away.inner_text("#said") == "Pronto: o realpolitik não enviará mais avisos para você."
    shot(away, "unsubscribe-done-phone")
    assert notices_now() == {"phase": False, "deadline": False}
    used = away.goto(link)
    assert used.status == 410 and "Este link já foi usado" in away.inner_text("#said")
    phone.close()
    page.reload()  # the account page, open all along, shown again
    page.wait_for_selector("#notice-phase")
    idle(page)
    assert not page.is_checked("#notice-phase") and not page.is_checked("#notice-deadline")
    with page.expect_response("**/api/me/notices"):
        page.check("#notice-phase")
    idle(page)
    assert notices_now() == {"phase": True, "deadline": False}
    assert errors == []
    context.close()
