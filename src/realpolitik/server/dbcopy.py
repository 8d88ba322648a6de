"""A server's database copied whole into another, empty one: how a host who started on the
embedded SQLite moves to PostgreSQL (``realpolitik copy-database``), accounts, sessions,
games, their phases, orders and press, mail and all.

Both databases are brought to the current schema first (as ``realpolitik serve`` does).
The source is read in one transaction, a consistent snapshot even if a server still
writes to it (what it writes after is not copied: stop the server first; a source a
server still has open is refused: a SQLite file another process holds, a PostgreSQL
database with sessions of realpolitik); the target is
written in one transaction, so a copy that fails leaves it empty. Rows keep their ids,
and PostgreSQL's id sequences are set past the ids copied, so the next account or message
takes a new one.
"""

from __future__ import annotations

import os
from pathlib import Path

from sqlalchemy import Connection, Engine, Table, create_engine, func, select, text
from sqlalchemy.engine import URL, make_url
from sqlalchemy.pool import NullPool

from realpolitik.server import tables as t
from realpolitik.server.db import (
    APPLICATION_NAME,
    make_engine,
    reading,
    shown_url,
    transaction,
)

BATCH = 1000
"""Rows read and written at a time (a table is never held whole in memory)."""

TABLES: tuple[Table, ...] = tuple(
    tb for tb in t.metadata.sorted_tables if tb is not t.schema_version
)
"""Every table with the server's data, each after those its rows refer to (the schema's
version is the target's own: both are migrated to the current one)."""


def copy_database(source_url: str, target_url: str) -> dict[str, int]:
    """Copy every row of the database at ``source_url`` into the empty one at
    ``target_url``; return the rows copied, per table. A source that is not there, a target
    that already holds data or the same database twice: :class:`ValueError` naming it,
    and nothing written."""
    source, target = make_url(source_url), make_url(target_url)
    if _where(source) == _where(target):
        raise ValueError("the source and the target are the same database")
    if source.get_backend_name() == "sqlite":  # (opening it would make an empty one)
        path = source.database or ""
        if path in ("", ":memory:") or not Path(path).is_file():
            raise ValueError(f"there is no database file {path!r} to copy")
        if _open_elsewhere(Path(path)):
            raise ValueError(f"the database file {path} {STILL_OPEN}")
    elif source.get_backend_name() == "postgresql" and _sessions_elsewhere(source_url):
        raise ValueError(f"the database {shown_url(source)} {STILL_OPEN}")
    reader = _opened("the source", source_url)
    try:
        writer = _opened("the target", target_url)
    except BaseException:
        reader.dispose()
        raise
    try:
        return _copy(reader, writer)
    finally:
        reader.dispose()
        writer.dispose()


STILL_OPEN = (
    "is open in another process (is `realpolitik serve` still running on it?): stop the "
    "server first, or what it writes after the copy is lost"
)

DEAD_MAN_SWITCH = 128
"""The byte of a SQLite WAL-index (the ``-shm`` file) on which every open connection to
the database holds a shared lock (https://sqlite.org/walformat.html, "the DMS lock")."""


def _open_elsewhere(path: Path) -> bool:
    """Whether another process has the SQLite database at ``path`` open, as a server does
    from its start to its end (its pool keeps connections, in the write-ahead-log mode
    :func:`~realpolitik.server.db.make_engine` sets): one holds a shared lock on the
    WAL-index's dead-man switch, which an exclusive lock, tried and let go at once, finds.
    No ``-shm`` file: nobody has it open in WAL mode. A process that died leaves the file
    but not its lock. Without POSIX locks (Windows) it cannot be told: ``False``. Called
    before this process opens the file itself: closing a descriptor lets go of all of a
    process's locks on that file, its own connections' too."""
    try:
        import fcntl
    except ImportError:  # (Windows)
        return False
    try:
        handle = os.open(f"{path}-shm", os.O_RDWR)
    except FileNotFoundError:
        return False
    try:
        fcntl.lockf(handle, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, DEAD_MAN_SWITCH)
    except OSError:  # EAGAIN or EACCES: held
        return True
    finally:
        os.close(handle)  # (lets go of the lock, if taken)
    return False


def _sessions_elsewhere(url: str) -> int:
    """How many sessions of realpolitik (a server's, named so by
    :func:`~realpolitik.server.db.make_engine`) the PostgreSQL database at ``url`` has,
    asked from one of another name before this process opens any of its own (a server of
    an older release, which did not name them, is not seen)."""
    probe = create_engine(
        url, poolclass=NullPool, connect_args={"application_name": "realpolitik copy-database"}
    )
    try:
        with probe.connect() as conn:
            found = conn.execute(
                text(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                    "AND application_name = :name AND pid <> pg_backend_pid()"
                ),
                {"name": APPLICATION_NAME},
            )
            return int(found.scalar_one())
    finally:
        probe.dispose()


def _opened(which: str, url: str) -> Engine:
    """The engine of ``url``, migrated; what makes it no server's database (in memory, a
    later release's schema) said of ``which`` one it is."""
    try:
        return make_engine(url, pool_size=1)
    except ValueError as exc:
        raise ValueError(f"{which}: {exc}") from None


def _where(url: URL) -> str:
    """Where the database at ``url`` is: a SQLite file's full path, else the URL."""
    if url.get_backend_name() == "sqlite" and url.database not in (None, "", ":memory:"):
        return str(Path(str(url.database)).resolve())
    return url.render_as_string(hide_password=False)


def _copy(reader: Engine, writer: Engine) -> dict[str, int]:
    copied: dict[str, int] = {}
    with reading(reader) as src, transaction(writer) as dst:
        if src.dialect.name == "postgresql":  # one snapshot for every table
            src.exec_driver_sql("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        held = {tb.name: n for tb in TABLES if (n := _count(dst, tb))}
        if held:
            listed = ", ".join(f"{name} {n}" for name, n in held.items())
            raise ValueError(
                f"the target database is not empty (rows: {listed}): copy into a new one"
            )
        for table in TABLES:
            copied[table.name] = 0
            order = select(table).order_by(*table.primary_key.columns)
            rows = src.execution_options(yield_per=BATCH).execute(order)
            for batch in rows.partitions():
                dst.execute(table.insert(), [dict(row._mapping) for row in batch])
                copied[table.name] += len(batch)
        if dst.dialect.name == "postgresql":
            _past_the_ids(dst)
    return copied


def _count(conn: Connection, table: Table) -> int:
    return int(conn.execute(select(func.count()).select_from(table)).scalar_one())


def _past_the_ids(conn: Connection) -> None:
    """Set each id sequence past the largest id copied (rows inserted with their ids leave
    PostgreSQL's sequences at their start: the next insert would take id 1 again)."""
    for table in TABLES:
        for column in table.primary_key.columns:
            if column.autoincrement is not True:
                continue
            conn.execute(
                text(
                    f"SELECT setval(pg_get_serial_sequence('{table.name}', '{column.name}'), "
                    f"COALESCE((SELECT MAX({column.name}) FROM {table.name}), 0) + 1, false)"
                )
            )
