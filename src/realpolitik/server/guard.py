"""The outer guard of the app (pure ASGI, before any parsing): a request body over the
limit is refused with 413 before the app sees the request, on every route (from
``Content-Length``, or while a chunked body arrives: a body is read whole, up to the limit,
before the app runs), an address holding the NUL character (``%00``, which no database
column may hold: PostgreSQL refuses it) with 400, and an error no handler knew becomes a
plain 500 answer instead of an exception that would make the HTTP server drop the
connection (the database unusable, its disk full, read-only or out of reach: 503 naming
it, code ``database_unavailable``). (A NUL in a JSON body is refused by the schemas,
:mod:`.schemas`.)

After a 413 the rest of the refused body is read and dropped (for at most
:data:`DRAIN_SECONDS`) before the connection is closed: closed with bytes unread, it is
reset, and a client still writing the body (most write it whole before they read) loses
the answer with it."""

from __future__ import annotations

import json
import logging
from typing import Any

import anyio
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from realpolitik.server.logs import Failures, database_trouble

log = logging.getLogger(__name__)


def json_body(detail: str, **extra: Any) -> bytes:
    """An error answer's body: ``{"detail": ...}`` (and ``extra``) in ASCII (a lone
    surrogate in a message is escaped, never a reason to fail)."""
    return json.dumps({"detail": detail} | extra, ensure_ascii=True).encode()


async def send_error(
    send: Send, status: int, body: bytes, headers: list[tuple[bytes, bytes]] | None = None
) -> None:
    """An error answered in plain ASGI, before the app: ``body`` (:func:`json_body`) as
    JSON, with ``headers`` besides its type and length."""
    head = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": head + (headers or [])})
    await send({"type": "http.response.body", "body": body})


DRAIN_SECONDS = 30.0
"""How long the rest of a refused body is read and dropped before the connection is closed
(nginx's ``lingering_time``): a client that sends it slower than that may lose its 413."""


class Guard:
    def __init__(self, app: ASGIApp, *, max_body: int) -> None:
        self.app = app
        self.max_body = max_body
        self._away = Failures(log, "answering requests")  # the database unusable

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if "\x00" in scope.get("path", "") or b"%00" in scope.get("query_string", b""):
            body = json_body("the address holds the NUL character (%00), which no text may")
            await send_error(send, 400, body)
            return
        length = _header(scope, b"content-length")
        if length is not None and length.isdigit() and int(length) > self.max_body:
            # a client waiting for "100 Continue" sends no body: nothing to drain
            waits = (_header(scope, b"expect") or "").lower() == "100-continue"
            await self._refuse(send, receive, drain=not waits)
            return
        if (length and length != "0") or _header(scope, b"transfer-encoding") is not None:
            read = await self._read_body(receive)
            if isinstance(read, bool):
                await self._refuse(send, receive, drain=read)
                return
            receive = _replayed(read, receive)
        started = False

        async def send_tracked(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, send_tracked)
            self._away.worked()
        except Exception as exc:
            trouble = database_trouble(exc)
            if trouble is not None:  # one line while it lasts, not one a request
                self._away.failed(exc)
            else:
                log.exception("unexpected error in %s %s", scope.get("method"), scope.get("path"))
            if started:
                return
            if trouble is None:
                await send_error(send, 500, json_body("internal error (logged on the server)"))
                return
            detail = f"the server cannot use its database now ({trouble}): try again later"
            await send_error(send, 503, json_body(detail, code="database_unavailable", values={}))

    async def _read_body(self, receive: Receive) -> list[Message] | bool:
        """The request's body messages, up to the end of the body or the client's leaving;
        once it is over the limit, whether more of it is still to come instead."""
        messages: list[Message] = []
        received = 0
        while True:
            message = await receive()
            messages.append(message)
            if message["type"] != "http.request":
                return messages
            received += len(message.get("body", b""))
            more = bool(message.get("more_body", False))
            if received > self.max_body:
                return more
            if not more:
                return messages

    async def _refuse(self, send: Send, receive: Receive, *, drain: bool) -> None:
        """Answer 413 naming the limit; then, with ``drain``, read and drop the rest of the
        body (for at most :data:`DRAIN_SECONDS`) before the answer ends and the server
        closes the connection."""
        body = json_body(f"the request body is over the limit of {self.max_body} bytes")
        head = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"connection", b"close"),
        ]
        await send({"type": "http.response.start", "status": 413, "headers": head})
        await send({"type": "http.response.body", "body": body, "more_body": True})
        if drain:
            with anyio.move_on_after(DRAIN_SECONDS):
                while True:
                    message = await receive()
                    if message["type"] != "http.request" or not message.get("more_body", False):
                        break
        await send({"type": "http.response.body", "body": b""})


def _replayed(messages: list[Message], receive: Receive) -> Receive:
    """A ``receive`` that gives ``messages`` first, then what ``receive`` gives."""
    waiting = list(messages)

    async def replay() -> Message:
        return waiting.pop(0) if waiting else await receive()

    return replay


def _header(scope: Scope, name: bytes) -> str | None:
    """The request's header ``name`` (lower case), if it has one."""
    for key, value in scope.get("headers", ()):
        if key == name:
            return str(value.decode("latin-1")).strip()
    return None


def json_type(content_type: str | None) -> bool:
    """Whether a ``Content-Type`` says JSON (``application/json``, ``…+json``; any
    parameters), as FastAPI reads a body as JSON only then."""
    kind = (content_type or "").split(";")[0].strip().lower()
    return kind == "application/json" or (
        kind.startswith("application/") and kind.endswith("+json")
    )


ERRORS_SAID = 20
"""The validation errors an answer names; the rest are counted (ten thousand unknown keys
in a body under the limit were a 1.4 MB answer)."""


def safe_errors(errors: Any) -> list[dict[str, Any]]:
    """Validation errors without the input (never echoed back): where and what (for a
    body that is not JSON, why: the parser's words, which quote no input); the first
    :data:`ERRORS_SAID`."""
    return [
        {"loc": [str(p) for p in e.get("loc", ())], "msg": _message(e), "type": e.get("type")}
        for e in errors[:ERRORS_SAID]
    ]


def _message(error: Any) -> str:
    why = (error.get("ctx") or {}).get("error") if error.get("type") == "json_invalid" else None
    return f"{error.get('msg')}: {why}" if why else str(error.get("msg"))


def unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object's members (``json.loads``' ``object_pairs_hook``), refusing a key
    given twice (``{"power": "FRANCE", "power": "ENGLAND"}``: which one was meant?)
    instead of keeping the last silently."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise json.JSONDecodeError(f"the key {key[:40]!r} is given twice", "", 0)
        out[key] = value
    return out
