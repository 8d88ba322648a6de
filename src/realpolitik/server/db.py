"""Storage: the SQLAlchemy engine for SQLite (default) or PostgreSQL, and transactions.

Every write runs in :func:`transaction` and is committed before the request is answered.
SQLite transactions start with ``BEGIN IMMEDIATE`` (one writer at a time, no upgrade
deadlocks); PostgreSQL ones lock the rows they change (``SELECT ... FOR UPDATE``).
"""

from __future__ import annotations

import re
import sqlite3
import threading
import time
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import DBAPIError
from sqlalchemy.pool import ConnectionPoolEntry

from realpolitik.server.migrations import migrate

APPLICATION_NAME = "realpolitik"
"""The name of a process's PostgreSQL sessions (``pg_stat_activity``): how ``realpolitik
copy-database`` finds a server still running on the database it copies."""


def shown_url(url: URL) -> str:
    """``url`` as it may be shown: its password hidden, in its user part or in its query
    (PostgreSQL reads ``?password=`` too)."""
    return _QUERY_PASSWORD.sub(r"\1***", url.render_as_string(hide_password=True))


_QUERY_PASSWORD = re.compile(r"([?&]password=)[^&]*")


def make_engine(url: str, *, pool_size: int = 10) -> Engine:
    """An engine for ``url`` with the schema migrated to the latest version. Its errors,
    which the log writes whole, name the statement, never the values it was given (a
    message's text, an email address, a password's hash)."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite" and parsed.database in (None, "", ":memory:"):
        raise ValueError(
            "an in-memory SQLite database keeps nothing (each connection has its own): "
            "name a file, e.g. sqlite:///realpolitik.sqlite3"
        )
    if parsed.get_backend_name() == "sqlite":
        # as many connections as the request threads that may want one at once (anyio's
        # 40): fewer, and requests queue for a connection behind a slow writer
        engine = create_engine(
            url,
            connect_args={"timeout": 60, "check_same_thread": False},
            pool_size=pool_size,
            max_overflow=max(0, 48 - pool_size),
            hide_parameters=True,
        )
        _sqlite_immediate(engine)
    else:
        engine = create_engine(
            url,
            pool_size=pool_size,
            max_overflow=pool_size,
            pool_pre_ping=True,
            hide_parameters=True,
            connect_args={"application_name": APPLICATION_NAME},
        )
    try:
        migrate(engine)
        _check_writable(engine)
    except BaseException:
        engine.dispose()
        raise
    return engine


def _check_writable(engine: Engine) -> None:
    """Refuse a database this process may read but not write (a SQLite file opened
    read-only, as one its user may not write is; a PostgreSQL session that may not write):
    served, every write would fail. An update of no row is tried: it asks for the right
    to write and changes nothing."""
    try:
        with transaction(engine) as conn:
            conn.exec_driver_sql("UPDATE schema_version SET version = version WHERE 1 = 0")
    except DBAPIError as exc:
        why = str(exc.orig).strip().splitlines()[0] if exc.orig else str(exc)
        if getattr(exc.orig, "sqlite_errorname", None) == "SQLITE_READONLY":
            name = str(engine.url.database).removeprefix("file:")  # (a URI's: file:PATH)
            why = f"the file {name} is read-only here (the server writes it, and its -wal and -shm)"
        raise ValueError(f"the database cannot be written: {why}") from None


def _sqlite_immediate(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _connect(dbapi_conn: sqlite3.Connection, record: ConnectionPoolEntry) -> None:
        dbapi_conn.isolation_level = None  # we issue BEGIN ourselves
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute("PRAGMA busy_timeout=60000")
        _write_ahead_log(cur)
        # each commit reaches the disk before it is acknowledged (NORMAL survives a crash of
        # the process, not a power cut); about half a millisecond a commit, as PostgreSQL
        cur.execute("PRAGMA synchronous=FULL")
        cur.close()

    @event.listens_for(engine, "begin")
    def _begin(conn: Connection) -> None:
        readonly = conn.get_execution_options().get("rp_readonly", False)
        conn.exec_driver_sql("BEGIN" if readonly else "BEGIN IMMEDIATE")


def _write_ahead_log(cur: sqlite3.Cursor, patience: float = 60.0) -> None:
    """Put the database in WAL mode (kept in the file: once is enough). Switching a file to
    WAL takes an exclusive lock that SQLite's busy handler does not wait for, so a process
    or thread switching it while another connects gets "database is locked" at once: try
    again for up to ``patience`` seconds."""
    deadline = time.monotonic() + patience
    while True:
        try:
            if cur.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
                cur.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.01)


_writers: weakref.WeakKeyDictionary[Engine, threading.RLock] = weakref.WeakKeyDictionary()


@contextmanager
def transaction(engine: Engine) -> Iterator[Connection]:
    """A transaction committed on leaving the block (rolled back on an exception).

    SQLite: a process's writers take turns on a lock of their own before ``BEGIN
    IMMEDIATE``: each is woken as the one before it ends, where SQLite's busy handler
    would have them poll and sleep (a free lock can then wait unclaimed while the request
    threads the writers hold keep reads waiting too)."""
    turn = _writers.get(engine)
    if turn is None and engine.dialect.name == "sqlite":
        turn = _writers.setdefault(engine, threading.RLock())
    if turn is None:
        with engine.begin() as conn:
            yield conn
        return
    with turn, engine.begin() as conn:
        yield conn


@contextmanager
def reading(engine: Engine) -> Iterator[Connection]:
    """A read-only transaction (SQLite: a deferred one, so readers do not queue)."""
    with engine.connect() as conn:
        conn.execution_options(rp_readonly=True)
        with conn.begin():
            yield conn


def for_update(conn: Connection, statement: Any, *, skip_locked: bool = False) -> Any:
    """``statement.with_for_update()`` where the database has row locks (not SQLite, whose
    ``BEGIN IMMEDIATE`` already holds the write lock); ``skip_locked``: rows another
    transaction holds are left out instead of waited for."""
    if conn.dialect.name == "sqlite":
        return statement
    return statement.with_for_update(skip_locked=skip_locked)
