"""The background loop of a server process: process the games whose deadline has passed
(or whose players are all ready). Deadlines live in the database, so they survive a
restart; several processes may run this loop against one database (the processing guard
makes sure a phase is processed once).

Fair between games: a pass processes one phase of each due game, and after each one
looks again for the most urgent game not yet taken in this pass (games with a person
seated before games of bots alone, then the most overdue). A game that is always due (bots
alone, no deadlines) waits its turn like any other, and a person's deadline that passes
during a pass waits only for the phase being processed, not for the rest of the pass.

Every :data:`PURGE_SECONDS` the loop also deletes the sessions that have ended and the
log-in attempts whose window has (:func:`.accounts.purge`)."""

from __future__ import annotations

import logging
import threading
import time

from realpolitik.server.accounts import purge
from realpolitik.server.backend import Backend
from realpolitik.server.play import due_games, process_due

log = logging.getLogger(__name__)

PURGE_SECONDS = 300.0


def tick(b: Backend) -> int:
    """One pass: one phase of each due game, the most urgent first (looked for again after
    each game). Returns the number of phases processed."""
    done = 0
    taken: set[int] = set()
    while True:
        game_id = next((g for g in due_games(b) if g not in taken), None)
        if game_id is None:
            return done
        taken.add(game_id)
        try:
            done += process_due(b, game_id, limit=1)
        except Exception:
            log.exception("processing game %d failed", game_id)


class Scheduler:
    def __init__(
        self, backend: Backend, interval: float, *, purge_every: float = PURGE_SECONDS
    ) -> None:
        self.backend = backend
        self.interval = interval
        self.purge_every = purge_every
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="realpolitik-scheduler", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        purged = -float("inf")
        while not self._stop.is_set():
            try:
                tick(self.backend)
            except Exception:
                log.exception("scheduler pass failed")
            if time.monotonic() - purged >= self.purge_every:
                purged = time.monotonic()
                try:
                    purge(self.backend)
                except Exception:
                    log.exception("purging ended sessions failed")
            self._stop.wait(self.interval)

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=10)
