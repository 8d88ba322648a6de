"""The server's state: the database engine, settings, password hasher and clock.

Every service function takes a :class:`Backend` first; nothing here knows about HTTP.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from sqlalchemy import Engine

from realpolitik.server.db import make_engine
from realpolitik.server.security import Passwords
from realpolitik.server.settings import Settings


@dataclass
class Backend:
    settings: Settings
    db: Engine
    passwords: Passwords
    clock: Callable[[], float] = field(default=time.time)

    @classmethod
    def open(cls, settings: Settings, *, clock: Callable[[], float] = time.time) -> Backend:
        db = make_engine(settings.database_url, pool_size=settings.pool_size)
        passwords = Passwords(
            time_cost=settings.password_time_cost, memory_kib=settings.password_memory_kib
        )
        return cls(settings, db, passwords, clock)

    def now(self) -> float:
        return self.clock()

    def close(self) -> None:
        self.db.dispose()
