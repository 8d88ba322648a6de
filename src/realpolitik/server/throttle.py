"""Requests from one client, per process: at most ``requests_per_minute`` (600) to the
server from one address, in bursts of up to a sixth of that (100 at once, then 10 a second
as they come back), so that one client cannot take the server's time from the others.
Past it a request is answered 429 with ``Retry-After`` (code ``too_many_requests``) before
any of the app runs. The page's files (``/static/``) are not counted.

A client is its address (an IPv6 address its /64, as the log-in limits count it: see
:func:`.ratelimit.address_key`), logged in or not: a session token cannot name the client,
since anyone can send made-up ones. Behind a reverse proxy it is the address the proxy
passes in ``X-Forwarded-For``, which uvicorn trusts from this machine, or from the proxies
``FORWARDED_ALLOW_IPS`` names (see the README); otherwise every request would be the
proxy's. Players of one table behind one router share the count; the page asks far less
(about seven requests a page or phase shown, then one a minute or so).

Each process counts its own requests (a host running ``--workers N`` allows N times as
many), in memory: the addresses heard from last, at most ``max_clients`` (10,000, about
3 MB). One forgotten starts again with a full burst, which a client silent for 10 s has
anyway: forgetting loses something only past 10,000 addresses in 10 s."""

from __future__ import annotations

import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable

from starlette.types import ASGIApp, Receive, Scope, Send

from realpolitik.server.guard import json_body, send_error
from realpolitik.server.ratelimit import address_key

BURST_SECONDS = 10.0
"""A full burst is this many seconds' worth of the rate (a sixth of a minute)."""


class Bucket:
    """One client's allowance: ``tokens`` left at ``checked`` (the clock's time)."""

    __slots__ = ("checked", "tokens")

    def __init__(self, tokens: float, checked: float) -> None:
        self.tokens = tokens
        self.checked = checked


class Throttle:
    """The allowance of each client of this process (a token bucket per address)."""

    def __init__(
        self,
        per_minute: int,
        *,
        clock: Callable[[], float] = time.time,
        max_clients: int = 10_000,
    ) -> None:
        if per_minute < 0:
            raise ValueError(f"requests per minute must be at least 0, not {per_minute}")
        self.rate = per_minute / 60.0  # tokens per second
        self.burst = max(1.0, self.rate * BURST_SECONDS)
        self.clock = clock
        self.max_clients = max_clients
        self._buckets: OrderedDict[str, Bucket] = OrderedDict()
        self._lock = threading.Lock()

    @property
    def on(self) -> bool:
        """Whether requests are limited at all (``per_minute`` 0: not)."""
        return self.rate > 0

    def take(self, client: str) -> int:
        """Count a request of ``client``: 0 if it may go on, else the whole seconds to wait
        until one may (the request is not counted then)."""
        now = self.clock()
        with self._lock:
            bucket = self._buckets.get(client)
            if bucket is None:
                if len(self._buckets) >= self.max_clients:
                    self._buckets.popitem(last=False)  # the client heard from least recently
                bucket = self._buckets[client] = Bucket(self.burst, now)
            else:
                self._buckets.move_to_end(client)  # the most recent last
                elapsed = max(0.0, now - bucket.checked)  # a wall clock set back gives nothing
                bucket.tokens = min(self.burst, bucket.tokens + elapsed * self.rate)
                bucket.checked = now
            if bucket.tokens >= 1.0:
                bucket.tokens -= 1.0
                return 0
            return max(1, math.ceil((1.0 - bucket.tokens) / self.rate))


class Throttled:
    """The app behind a :class:`Throttle` (pure ASGI, before the app parses anything)."""

    def __init__(self, app: ASGIApp, *, throttle: Throttle) -> None:
        self.app = app
        self.throttle = throttle

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] == "http"
            and self.throttle.on
            and not scope.get("path", "").startswith("/static/")
        ):
            client = scope.get("client")
            wait = self.throttle.take(address_key(client[0]) if client else "unknown")
            if wait:
                body = json_body(
                    f"too many requests: try again in {wait} s",
                    code="too_many_requests",
                    values={"seconds": wait},
                )
                await send_error(send, 429, body, [(b"retry-after", str(wait).encode())])
                return
        await self.app(scope, receive, send)
