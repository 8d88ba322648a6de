"""The ASGI app: ``create_app(settings)``. Routes only translate HTTP to the service
functions; the OpenAPI schema is at ``/openapi.json`` (docs at ``/docs``)."""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib.metadata import version
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, Response
from fastapi.staticfiles import StaticFiles

from realpolitik.data import shipped
from realpolitik.server.backend import Backend
from realpolitik.server.compression import Compressed
from realpolitik.server.errors import ApiError, OrdersRefused, TooManyAttempts
from realpolitik.server.events import Streams, Watcher
from realpolitik.server.guard import Guard, json_body, json_type, safe_errors
from realpolitik.server.head import HeadAsGet
from realpolitik.server.pages import router as pages
from realpolitik.server.routes import router
from realpolitik.server.scheduler import Scheduler
from realpolitik.server.settings import Settings
from realpolitik.server.throttle import Throttle, Throttled

log = logging.getLogger(__name__)


def web_dir() -> Path:
    return shipped("web")


def create_app(settings: Settings | None = None, *, backend: Backend | None = None) -> FastAPI:
    """The web app on ``settings`` (default: from the environment)."""
    settings = settings or Settings.from_env()
    b = backend or Backend.open(settings)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        scheduler = Scheduler(b, settings.tick_seconds) if settings.scheduler else None
        if scheduler is not None:
            scheduler.start()
        try:
            yield
        finally:
            if scheduler is not None:
                scheduler.stop()
            app.state.watcher.stop()

    app = FastAPI(
        title="realpolitik",
        summary="Play Diplomacy online: games, orders, messages, deadlines and bots.",
        version=version("realpolitik"),  # the package's: realpolitik.__version__
        lifespan=lifespan,
    )
    app.state.backend = b
    app.state.streams = Streams(settings.max_streams, settings.streams_per_client)
    app.state.watcher = Watcher(b, settings.push_seconds)

    app.add_middleware(Compressed)
    app.add_middleware(HeadAsGet)  # inside the guard: a HEAD is refused as its GET would be
    app.add_middleware(Guard, max_body=settings.max_body_bytes)
    # outermost (added last): a client over its rate is refused before anything else runs
    app.add_middleware(Throttled, throttle=Throttle(settings.requests_per_minute, clock=b.clock))

    @app.exception_handler(ApiError)
    async def api_error(request: Request, exc: ApiError) -> Response:
        extra: dict[str, Any] = {}
        headers: dict[str, str] = {}
        if isinstance(exc, OrdersRefused):
            extra["refused"] = exc.refused
        if isinstance(exc, TooManyAttempts):
            headers["Retry-After"] = str(exc.retry_after)
        if exc.code is not None:
            extra["code"], extra["values"] = exc.code, exc.values
        body = json_body(exc.message, **extra)
        return Response(body, exc.status, headers=headers, media_type="application/json")

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> Response:
        everything = exc.errors()
        errors = safe_errors(everything)
        problems = []
        for err in errors:
            if err["type"] == "json_invalid":  # its place: the character the parser stopped at
                at = err["loc"][-1]
                where = "body" if at in ("0", "body") else f"body, at character {at}"
            else:
                where = ".".join(err["loc"][1:] if err["loc"][:1] == ["body"] else err["loc"])
            problems.append(f"{where or 'request'}: {err['msg']}")
        if not json_type(request.headers.get("content-type")) and any(
            e["loc"] == ["body"] for e in errors
        ):  # a form or text body is never read as JSON: "should be a valid dictionary" said
            problems = ["the body must be JSON, sent with Content-Type: application/json"]
        elif len(everything) > len(errors):
            problems.append(f"and {len(everything) - len(errors)} more")
        body = json.dumps({"detail": "; ".join(problems), "errors": errors}, ensure_ascii=True)
        return Response(body, 422, media_type="application/json")

    app.include_router(router, prefix="/api")
    app.include_router(pages)
    static = web_dir()
    app.mount("/static", StaticFiles(directory=static), name="static")

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(static / "index.html", headers={"Cache-Control": "no-cache"})

    return app
