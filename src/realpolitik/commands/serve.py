"""``realpolitik serve``: run the online game server (uvicorn) on the embedded SQLite
database by default, or on the database named by ``--database`` /
``REALPOLITIK_DATABASE_URL`` (PostgreSQL: ``postgresql+psycopg://user:pw@host/db``)."""

from __future__ import annotations

import argparse
import os
import socket
from typing import TextIO

from realpolitik.commands.counts import count  # (uvicorn serves --workers 0 with one)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    cmd = sub.add_parser("serve", help="run the online game server")
    cmd.add_argument(
        "--host", default=os.environ.get("HOST", "127.0.0.1"),
        help="the address to listen on (default: $HOST or 127.0.0.1; 0.0.0.0: every one)",
    )  # fmt: skip
    cmd.add_argument(
        "--port", type=_port, default=os.environ.get("PORT", "8000"),
        help="the TCP port (default: $PORT or 8000)",
    )  # fmt: skip
    cmd.add_argument(
        "--database",
        help="SQLAlchemy URL (default: $REALPOLITIK_DATABASE_URL or sqlite:///realpolitik.sqlite3)",
    )
    cmd.add_argument("--workers", type=count, default=1, help="server processes (default 1)")
    cmd.add_argument("--no-scheduler", action="store_true", help="do not process deadlines here")
    cmd.set_defaults(func=run)
    copy = sub.add_parser(
        "copy-database",
        help="copy the server's database into an empty one (e.g. from SQLite to PostgreSQL)",
        description="Copy every account, game and message of the server's database into "
        "an empty one, as a host moving from the embedded SQLite to PostgreSQL does; stop "
        "the server first (what it writes meanwhile is not copied; a source a server "
        "still has open is refused), then serve with --database TARGET.",
    )
    copy.add_argument(
        "target",
        help="SQLAlchemy URL of the empty database (e.g. postgresql+psycopg://u:pw@host/db)",
    )
    copy.add_argument(
        "--database",
        help="the database to copy (default: $REALPOLITIK_DATABASE_URL or "
        "sqlite:///realpolitik.sqlite3)",
    )
    copy.set_defaults(func=copy_database)


def _port(text: str) -> int:
    """``--port`` (or ``$PORT``, its default, checked only when serving): 0 to 65535."""
    port = text.strip()
    if not port.isdigit() or int(port) > 65535:
        raise argparse.ArgumentTypeError(f"not a port number (0 to 65535): {text!r}")
    return int(port)


def run(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    try:
        import uvicorn
    except ImportError:
        raise ValueError("the server needs its extra: pip install 'realpolitik[server]'") from None
    if args.database:
        os.environ["REALPOLITIK_DATABASE_URL"] = args.database
    if args.no_scheduler:
        os.environ["REALPOLITIK_SCHEDULER"] = "0"
    from realpolitik.server.logs import log_config, shown
    from realpolitik.server.settings import Settings

    settings = Settings.from_env()
    with shown(settings.log_level):  # (the migrations applied)
        _open_database(settings.database_url)
    sock = listen(args.host, args.port)
    host = f"[{args.host}]" if ":" in args.host else args.host
    port = sock.getsockname()[1]  # (--port 0: the one the system chose)
    print(f"realpolitik: serving on http://{host}:{port}/", file=stdout, flush=True)
    print(f"realpolitik: database {_safe(settings.database_url)}", file=stdout, flush=True)
    config = uvicorn.Config(
        "realpolitik.server.app:create_app",
        factory=True,
        host=args.host,
        port=port,
        workers=args.workers,
        timeout_graceful_shutdown=5,  # open event streams do not hold a shutdown up
        # longer than a client's or reverse proxy's reuse of an idle connection (nginx: 60 s),
        # so a request is never sent on a connection the server is closing (uvicorn: 5 s)
        timeout_keep_alive=75,
        log_config=log_config(settings.log_level),
        log_level=settings.log_level,
    )
    with sock:
        if args.workers > 1:
            from uvicorn.supervisors import Multiprocess

            Multiprocess(config, sockets=[sock]).run()
            return 0
        server = uvicorn.Server(config)
        server.run(sockets=[sock])
    return 0 if server.started else 3  # (uvicorn's status for an app that did not start)


def listen(host: str, port: int) -> socket.socket:
    """The server's socket, bound and listening before the server says it serves (a
    client that comes while the app starts waits its turn): a port in use, or an address
    that is not this machine's, stops it with one line naming them (uvicorn, binding
    later, said it served first, then failed)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(2048)  # (uvicorn's backlog)
    except OSError as exc:
        sock.close()
        why = exc.strerror or str(exc)
        raise ValueError(f"cannot serve on {host} port {port}: {why}") from None
    sock.set_inheritable(True)  # (--workers: each process serves on it)
    return sock


def copy_database(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError, SQLAlchemyError

    from realpolitik.server.dbcopy import copy_database
    from realpolitik.server.settings import Settings

    source = args.database or Settings.from_env().database_url
    for url in (source, args.target):
        try:
            make_url(url)
        except ArgumentError:
            raise ValueError(f"not a database URL: {url!r}") from None
        if _misread(url):
            raise ValueError(f"{_safe(url)}: {PASSWORD_AT}")
    try:
        copied = copy_database(source, args.target)
    except (SQLAlchemyError, ImportError) as exc:
        raise ValueError(
            f"cannot copy {_safe(source)} to {_safe(args.target)}: {_why(exc)}"
        ) from None
    rows = ", ".join(f"{table} {n}" for table, n in copied.items())
    print(
        f"realpolitik: copied {_safe(source)} to {_safe(args.target)} (rows: {rows})", file=stdout
    )
    print(f"realpolitik: serve it with --database {_safe(args.target)}", file=stdout)
    return 0


def _open_database(url: str) -> None:
    """Create or migrate the database before serving; one that cannot be opened (a folder
    that is not there, a file that is not a database, no server at that address, an
    unknown kind of URL, one without its driver here, an in-memory one) stops the server
    with a line naming it and why, not a traceback."""
    from sqlalchemy.exc import ArgumentError, SQLAlchemyError

    from realpolitik.server.db import make_engine

    if _misread(url):
        raise ValueError(f"cannot open the database {_safe(url)}: {PASSWORD_AT}")
    try:
        make_engine(url).dispose()
    except (SQLAlchemyError, ArgumentError, ImportError, ValueError) as exc:
        raise ValueError(f"cannot open the database {_safe(url)}: {_why(exc)}") from None


PASSWORD_AT = "the password holds an @: write it %40 in the URL (as : / # ? are %3A %2F %23 %3F)"


def _misread(url: str) -> bool:
    """Whether ``url`` holds a password with an ``@`` written as it is: it is read cut
    there, the rest taken for the host (which the driver's error would then show)."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        return "@" in (make_url(url).host or "")
    except ArgumentError:
        return False


def _why(exc: Exception) -> str:
    """The first line of what the database driver said (else of ``exc``); a driver not
    installed (``mysql://``: MySQLdb) with the kinds of database there are."""
    if isinstance(exc, ImportError):
        return (
            f"{exc} (realpolitik serves from SQLite or PostgreSQL: sqlite:///FILE or "
            "postgresql+psycopg://user:password@host/database)"
        )
    return str(getattr(exc, "orig", None) or exc).strip().splitlines()[0]


def _safe(url: str) -> str:
    """``url`` without its password (one that is no URL at all: not shown, as it may hold one)."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    from realpolitik.server.db import shown_url

    try:
        if _misread(url):  # (the rest of the password read as the host)
            scheme, _, rest = url.partition("://")
            return f"{scheme}://***@{rest.rpartition('@')[2]}"
        return shown_url(make_url(url))
    except ArgumentError:
        return "(not a database URL: expected e.g. sqlite:///realpolitik.sqlite3)"
