"""The pages the server writes itself, outside the web app: the page of the link in a
notice mail that turns notices off (:mod:`.unsubscribe`), which works without JavaScript
and without logging in.

``GET /unsubscribe/{token}`` changes nothing (mail scanners open links): it shows a
button that POSTs. ``POST /unsubscribe/{token}`` turns the notices off: every kind, or
with ``stop=this`` only the kind its mail was (a mail client's one-click POST of RFC 8058,
``List-Unsubscribe=One-Click``, turns every kind off). Each page is in the language of
the link's user; a link unknown to the server (404) is told in the browser's language,
naming nobody; a link used already answers 410, a choice the page does not offer 400."""

from __future__ import annotations

from html import escape
from typing import Annotated
from urllib.parse import parse_qs

from fastapi import APIRouter, Depends, Header, Path, Request
from fastapi.responses import HTMLResponse
from starlette.concurrency import run_in_threadpool

from realpolitik.server import mail, unsubscribe
from realpolitik.server.backend import Backend

router = APIRouter(include_in_schema=False)

LANGUAGES = ("en", "es", "fr", "pt")
_HTML_LANG = {"pt": "pt-BR"}
_HEADERS = {
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",  # the token stays out of any other site's logs
    "X-Robots-Tag": "noindex",
}
Token = Annotated[str, Path(description="the token of the link (any other text: 404)")]


def _backend(request: Request) -> Backend:
    b: Backend = request.app.state.backend
    return b


B = Annotated[Backend, Depends(_backend)]


def browser_language(accept: str | None) -> str:
    """The first of the page's languages ``Accept-Language`` asks for (by its weights),
    English if none.

    >>> browser_language("de-CH, fr;q=0.8, pt-BR;q=0.9")
    'pt'
    """
    asked: list[tuple[float, int, str]] = []
    for order, part in enumerate((accept or "").split(",")):
        tag, _, weight = part.strip().partition(";")
        language = tag.strip().split("-")[0].lower()
        try:
            q = float(weight.strip().removeprefix("q=")) if weight else 1.0
        except ValueError:
            q = 0.0
        if language in LANGUAGES and q > 0:
            asked.append((-q, order, language))
    return min(asked)[2] if asked else "en"


def _say(language: str, key: str) -> str:
    """The text ``key`` of ``data/mail.json`` in ``language``, escaped for HTML."""
    return escape(mail.text(language, key))


def _page(
    b: Backend, language: str, status: int, text: str, *, buttons: str = "", account: bool
) -> HTMLResponse:
    """A small page in ``language``: ``text``, the ``buttons`` of a form that POSTs to
    this very address, and (``account``) a line leading to the account in the web app."""
    form = f'<form method="post" class="row">{buttons}</form>' if buttons else ""
    url = escape(f"{b.settings.public_url}/#/account")
    foot = f'<p class="muted small">{_say(language, "page_account")} ' if account else ""
    foot += f'<a id="account" href="{url}">{url}</a></p>' if account else ""
    title = _say(language, "page_title")
    html = f"""<!doctype html>
<html lang="{_HTML_LANG.get(language, language)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>{title} — realpolitik</title>
<link rel="stylesheet" href="/static/style.css">
<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
</head>
<body>
<header id="top"><span class="brand">realpolitik</span></header>
<main id="view"><section class="card auth" id="unsubscribe">
<h1>{title}</h1>
<p id="said">{escape(text)}</p>
{form}
{foot}
</section></main>
</body>
</html>
"""
    return HTMLResponse(html, status, headers=_HEADERS)


def _refused(b: Backend, refused: unsubscribe.Refused, accept: str | None) -> HTMLResponse:
    """The page of a link that turns nothing off."""
    if refused.reason == "used":
        language = refused.language or browser_language(accept)
        return _page(b, language, 410, mail.text(language, "page_used"), account=True)
    language = browser_language(accept)
    return _page(b, language, 404, mail.text(language, "page_unknown"), account=True)


Accept = Annotated[str | None, Header(alias="accept-language")]


@router.api_route("/unsubscribe/{token}", methods=["GET", "HEAD"], response_class=HTMLResponse)
def ask(token: Token, b: B, accept: Accept = None) -> HTMLResponse:
    """The page of the link: which notices to stop (nothing changes until a button is
    pressed)."""
    try:
        link = unsubscribe.look(b, token)
    except unsubscribe.Refused as refused:
        return _refused(b, refused, accept)
    language = link.language
    buttons = (
        f'<button id="stop-all" name="stop" value="{unsubscribe.ALL}">'
        f"{_say(language, 'page_all')}</button>"
        f'<button id="stop-this" class="secondary" name="stop" value="{unsubscribe.THIS}">'
        f"{_say(language, 'page_only_' + link.kind)}</button>"
    )
    text = mail.text(language, "page_ask")
    return _page(b, language, 200, text, buttons=buttons, account=False)


async def _choice(request: Request) -> str:
    """What a POST asks to stop: a form's one ``stop``, or every kind (a one-click POST,
    any other body); ``"?"`` for a form that cannot be read or gives several."""
    if not request.headers.get("content-type", "").startswith("application/x-www-form-urlencoded"):
        return unsubscribe.ALL
    try:
        fields = parse_qs((await request.body()).decode(), max_num_fields=10)
    except (ValueError, UnicodeDecodeError):
        return "?"
    given = fields.get("stop", [unsubscribe.ALL])
    return given[0] if len(given) == 1 else "?"


@router.post("/unsubscribe/{token}", response_class=HTMLResponse)
async def stop(token: Token, request: Request, b: B, accept: Accept = None) -> HTMLResponse:
    """Turn the notices off (a form's ``stop``: ``all``, the default, or ``this``)."""
    which = await _choice(request)
    if which not in (unsubscribe.ALL, unsubscribe.THIS):
        language = browser_language(accept)
        return _page(b, language, 400, mail.text(language, "page_bad"), account=False)
    try:  # (in a worker thread: it writes to the database)
        link = await run_in_threadpool(unsubscribe.follow, b, token, which)
    except unsubscribe.Refused as refused:
        return _refused(b, refused, accept)
    done = "page_done_all" if which == unsubscribe.ALL else f"page_done_{link.kind}"
    return _page(b, link.language, 200, mail.text(link.language, done), account=True)
