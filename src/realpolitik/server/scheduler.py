"""The background loop of a server process: process the games whose deadline has passed
(or whose players are all ready). Deadlines live in the database, so they survive a
restart; several processes may run this loop against one database (the processing guard
makes sure a phase is processed once).

Fair between games: a pass takes the due games most overdue first and processes one phase
of each, so a game that is always due (bots alone, no deadlines) waits its turn like any
other and cannot delay another game's deadline by more than one pass."""

from __future__ import annotations

import logging
import threading

from realpolitik.server.backend import Backend
from realpolitik.server.play import due_games, process_due

log = logging.getLogger(__name__)


def tick(b: Backend) -> int:
    """One pass: one phase of each due game, most overdue first. Returns the number of
    phases processed."""
    done = 0
    for game_id in due_games(b):
        try:
            done += process_due(b, game_id, limit=1)
        except Exception:
            log.exception("processing game %d failed", game_id)
    return done


class Scheduler:
    def __init__(self, backend: Backend, interval: float) -> None:
        self.backend = backend
        self.interval = interval
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="realpolitik-scheduler", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                tick(self.backend)
            except Exception:
                log.exception("scheduler pass failed")
            self._stop.wait(self.interval)

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=10)
