"""The online game server: an ASGI app (FastAPI) over the library, with storage in SQLite
or PostgreSQL. Imports the core; the core never imports it.

    >>> from realpolitik.server import create_app   # doctest: +SKIP
    >>> app = create_app()                           # settings from REALPOLITIK_* variables
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fastapi import FastAPI

    from realpolitik.server.settings import Settings


def create_app(settings: Settings | None = None, **kwargs: Any) -> FastAPI:
    from realpolitik.server.app import create_app as _create

    return _create(settings, **kwargs)


__all__ = ["create_app"]
