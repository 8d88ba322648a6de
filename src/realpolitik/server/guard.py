"""The outer guard of the app (pure ASGI, before any parsing): a request body over the
limit is refused with 413 as soon as that is known (from ``Content-Length``, or while a
chunked body arrives), an address holding the NUL character (``%00``, which no database
column may hold: PostgreSQL refuses it) with 400, and an error no handler knew becomes a
plain 500 answer instead of an exception that would make the HTTP server drop the
connection. (A NUL in a JSON body is refused by the schemas, :mod:`.schemas`.)"""

from __future__ import annotations

import json
import logging
from typing import Any

from sqlalchemy.exc import OperationalError
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from realpolitik.server.logs import Failures

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


class Guard:
    def __init__(self, app: ASGIApp, *, max_body: int) -> None:
        self.app = app
        self.max_body = max_body
        self._away = Failures(log, "answering requests")  # the database out of reach

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = refused = False

        async def send_tracked(message: Message) -> None:
            nonlocal started
            if refused:  # the 413 has been sent: the app's own answer is dropped
                return
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        async def answer(status: int, detail: str) -> None:
            close = [(b"connection", b"close")] if status == 413 else []
            await send_error(send, status, json_body(detail), close)

        if "\x00" in scope.get("path", "") or b"%00" in scope.get("query_string", b""):
            await answer(400, "the address holds the NUL character (%00), which no text may")
            return
        length = _content_length(scope)
        if length is not None and length > self.max_body:
            await answer(413, self._too_large())
            return
        received = 0

        async def receive_limited() -> Message:
            nonlocal received, refused
            if refused:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_body:  # answer now; the app sees the client leave
                    if not started:
                        await answer(413, self._too_large())
                    refused = True
                    return {"type": "http.disconnect"}
            return message

        try:
            await self.app(scope, receive_limited, send_tracked)
            self._away.worked()
        except Exception as exc:
            if refused:
                return
            if isinstance(exc, OperationalError):  # one line while it lasts, not one a request
                self._away.failed(exc)
            else:
                log.exception("unexpected error in %s %s", scope.get("method"), scope.get("path"))
            if not started:
                await answer(500, "internal error (logged on the server)")

    def _too_large(self) -> str:
        return f"the request body is over the limit of {self.max_body} bytes"


def _content_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
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
