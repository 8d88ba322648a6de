"""HEAD requests (pure ASGI): answered as the GET of the same address would be, without
its body. HTTP asks every server to answer HEAD wherever it answers GET (RFC 9110, 9.3.2),
and monitors and link checkers send it; FastAPI's routes answer only the methods they
name, so ``HEAD /`` got 405. An event stream asked with HEAD ends after its headers."""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send


class HeadAsGet:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return
        done = False

        async def headers_only(message: Message) -> None:
            nonlocal done
            if done:
                return
            if message["type"] == "http.response.start":
                await send(message)  # its Content-Length: the GET's body's, as HTTP asks
            else:  # the first part of the body ends the answer, without it
                done = True
                await send({"type": "http.response.body", "body": b"", "more_body": False})

        async def until_done() -> Message:
            if done:  # a stream's loop hears the client go and ends
                return {"type": "http.disconnect"}
            return await receive()

        await self.app(dict(scope, method="GET"), until_done, headers_only)
