"""The server's log: uvicorn's configuration, with the server's own lines (``realpolitik.*``:
a migration applied, a phase processed, a mail not sent) written as uvicorn writes its own,
at the host's level (``REALPOLITIK_LOG_LEVEL``), and the secrets a path may carry masked.

A request's path can hold a secret: the link in a notice mail that turns notices off
(``/unsubscribe/TOKEN``) and an unlisted game's invitation (``/api/invitations/CODE``,
``?code=CODE`` on the read routes). The access log, and any line naming a path, shows
``***`` in their place:

>>> hide_secrets("/api/games/12/events?code=Xy7&x=1")
'/api/games/12/events?code=***&x=1'
"""

from __future__ import annotations

import copy
import logging
import math
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import unquote_plus

from sqlalchemy.exc import DBAPIError, OperationalError

REPEAT_SECONDS = 60.0
"""A loop's failure that lasts is said again this often."""

_SECRET = re.compile(r"(/unsubscribe/|/invitations/)[^/?&#\s\"]+")
_PARAMETER = re.compile(r"([?&])([^=&#\s\"]+)=([^&#\s\"]*)")


def hide_secrets(text: str) -> str:
    """``text`` with the tokens and invitation codes of the paths in it masked (a query's
    ``code`` however its name is written: ``?cod%65=`` is read as ``code`` too)."""
    return _PARAMETER.sub(_masked, _SECRET.sub(r"\1***", text))


def _masked(parameter: re.Match[str]) -> str:
    start, name, value = parameter.groups()
    return f"{start}{name}=***" if unquote_plus(name) == "code" and value else parameter[0]


class HideSecrets(logging.Filter):
    """A filter masking the secrets of the paths a log line names (its arguments)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(hide_secrets(a) if isinstance(a, str) else a for a in record.args)
        elif isinstance(record.msg, str) and not record.args:
            record.msg = hide_secrets(record.msg)
        return True


def log_config(level: str) -> dict[str, Any]:
    """uvicorn's logging configuration (:mod:`logging.config` dict), with the server's own
    logger at ``level`` (one of uvicorn's: ``info``, ``warning``...) and secrets masked."""
    from uvicorn.config import LOG_LEVELS, LOGGING_CONFIG

    config = copy.deepcopy(LOGGING_CONFIG)
    config["filters"] = {"secrets": {"()": HideSecrets}}
    for handler in config["handlers"].values():
        handler["filters"] = ["secrets"]
    config["loggers"]["realpolitik"] = {
        "handlers": ["default"],
        "level": LOG_LEVELS[level],
        "propagate": False,
    }
    return config


@contextmanager
def shown(level: str) -> Iterator[None]:
    """The server's own lines written to standard error during the block, as
    :func:`log_config` has uvicorn write them once it runs (``serve`` migrates the database
    before it starts uvicorn); the logging of the process is as it was after it."""
    from uvicorn.config import LOG_LEVELS
    from uvicorn.logging import DefaultFormatter

    logger = logging.getLogger("realpolitik")
    handler = logging.StreamHandler()
    handler.setFormatter(DefaultFormatter("%(levelprefix)s %(message)s"))
    handler.addFilter(HideSecrets())
    level_before = logger.level
    logger.addHandler(handler)
    logger.setLevel(LOG_LEVELS[level])
    try:
        yield
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level_before)


def database_trouble(exc: BaseException) -> str | None:
    """What keeps the database from being used, in words for the host and the players
    (``None``: no such trouble, a bug): its disk full, it read-only (SQLite's file, or a
    PostgreSQL standby), else the database out of reach (connection refused, the server
    gone...)."""
    if not isinstance(exc, DBAPIError):
        return None
    name = getattr(exc.orig, "sqlite_errorname", None)
    state = getattr(exc.orig, "sqlstate", None)
    if name == "SQLITE_FULL" or state == "53100":
        return "the database's disk is full"
    if name == "SQLITE_READONLY" or state == "25006":
        return "the database is read-only"
    if isinstance(exc, OperationalError):
        return "the database is out of reach"
    return None


class Failures:
    """How a loop that runs every tick (the scheduler's, the event streams' reader) tells
    its failures: once while the same one lasts, again every :data:`REPEAT_SECONDS`, and
    when the loop works again. The database out of reach is one line (its traceback says
    nothing more, at every tick, on every process); any other failure comes with its
    traceback the first time."""

    def __init__(self, log: logging.Logger, what: str) -> None:
        self.log, self.what = log, what
        self._said: str | None = None
        self._at = -math.inf

    def failed(self, exc: Exception) -> None:
        text = str(exc).strip()
        said = text.splitlines()[0] if text else type(exc).__name__
        now = time.monotonic()
        if said == self._said and now - self._at < REPEAT_SECONDS:
            return
        self._said, self._at = said, now
        trouble = database_trouble(exc)
        if trouble is not None:
            self.log.error(
                "%s failed: %s (%s; said again each minute)",
                self.what,
                said,
                trouble,
            )
        else:
            self.log.error("%s failed: %s", self.what, said, exc_info=exc)

    def worked(self) -> None:
        if self._said is not None:
            self._said = None
            self.log.warning("%s works again", self.what)
