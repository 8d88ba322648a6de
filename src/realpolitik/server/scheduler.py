"""The background loop of a server process: process the games whose deadline has passed
(or whose players are all ready). Deadlines live in the database, so they survive a
restart; several processes may run this loop against one database (the processing guard
makes sure a phase is processed once).

Fair between games: a pass processes one phase of each due game, and after each one
looks again for the most urgent game not yet taken in this pass (games a person plays
before games of bots alone, then the most overdue). A game that is always due (bots
alone, no deadlines) waits its turn like any other, and the games' creators take turns
(:func:`tick`): one account's many games do not make another's wait for all of them.
The games of bots alone (nobody seated, or every seated person's powers conceded or out:
:func:`.play.bots_alone`), whose bots may think for seconds a phase, have a loop of their
own: a person's deadline never waits for them, only for the phase of another person's
game being processed.

Every :data:`PURGE_SECONDS` the loop also deletes the sessions that have ended and the
log-in attempts whose window has (:func:`.accounts.purge`), the confirmation links
long expired (:func:`.contact.purge`) and the links to stop notices expired
(:func:`.unsubscribe.purge`).

With mail on (:mod:`.mail`), a third loop sends the outbox every pass and looks for
notices due (:func:`.notices.notify`) every :data:`NOTICE_SECONDS`: an SMTP server that
answers slowly delays no phase."""

from __future__ import annotations

import logging
import threading
import time
from collections import Counter

from realpolitik.server import contact, mail, notices, play, unsubscribe
from realpolitik.server.accounts import purge
from realpolitik.server.backend import Backend
from realpolitik.server.logs import Failures
from realpolitik.server.play import due_games, process_due

log = logging.getLogger(__name__)

PURGE_SECONDS = 300.0
NOTICE_SECONDS = 15.0


_failing: dict[int, Failures] = {}
"""The games whose processing failed at their last try: each told once while it lasts
(it is due again at every pass), and when it works again."""


def tick(b: Backend, *, alone: bool | None = None) -> int:
    """One pass: one phase of each due game, the most urgent first (looked for again after
    each game); ``alone``: of the games of bots alone only (true), or of the others
    (false). Returns the number of phases processed.

    The games' creators take turns: the next game is one of the creator whose games were
    taken least in this pass (of those, the one whose turn is longest ago), so that one
    account's many games (each with six bots that think a second) keep another person's
    deadline waiting for one of their phases, not for all of them. A game due again
    within the pass (its deadline is short) is taken again on its creator's turn while
    games not yet taken remain; the pass ends when every due game has been taken."""
    done = 0
    taken: Counter[int] = Counter()
    turns: Counter[int | None] = Counter()  # games taken in this pass, by their creator
    last: dict[int | None, int] = {}  # when each creator's game was last taken
    while True:
        due = due_games(b, alone=alone)
        if all(taken[g] for g in due):
            return done
        by = play.creators(b, due)
        urgency = {g: k for k, g in enumerate(due)}
        game_id = min(
            due,
            key=lambda g: (turns[by.get(g)], last.get(by.get(g), -1), taken[g], urgency[g]),
        )
        taken[game_id] += 1
        turns[by.get(game_id)] += 1
        last[by.get(game_id)] = sum(taken.values())
        try:
            done += process_due(b, game_id, limit=1)
            if (told := _failing.pop(game_id, None)) is not None:
                told.worked()
        except Exception as exc:
            _failing.setdefault(game_id, Failures(log, f"processing game {game_id}")).failed(exc)


class Scheduler:
    def __init__(
        self, backend: Backend, interval: float, *, purge_every: float = PURGE_SECONDS
    ) -> None:
        self.backend = backend
        self.interval = interval
        self.purge_every = purge_every
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []

    def start(self) -> None:
        self._threads = [
            threading.Thread(target=self._run, args=(False,), name="realpolitik-scheduler"),
            threading.Thread(target=self._run, args=(True,), name="realpolitik-bots"),
        ]
        if self.backend.settings.mail:
            mailer = threading.Thread(target=self._mail, name="realpolitik-mail")
            self._threads.append(mailer)
        for thread in self._threads:
            thread.daemon = True
            thread.start()

    def _run(self, alone: bool) -> None:
        """The loop of the games with a person (``alone`` false; it also purges) or of
        the games of bots alone."""
        purged = -float("inf")
        passes = Failures(log, "bots' scheduler pass" if alone else "scheduler pass")
        purges = Failures(log, "purging ended sessions")
        while not self._stop.is_set():
            try:
                tick(self.backend, alone=alone)
                passes.worked()
            except Exception as exc:
                passes.failed(exc)
            if not alone and time.monotonic() - purged >= self.purge_every:
                purged = time.monotonic()
                try:
                    purge(self.backend)
                    contact.purge(self.backend)
                    unsubscribe.purge(self.backend)
                    purges.worked()
                except Exception as exc:
                    purges.failed(exc)
            self._stop.wait(self.interval)

    def _mail(self) -> None:
        """The mail loop: notices due queued, the outbox sent."""
        looked = -float("inf")
        looking, sending = Failures(log, "looking for notices"), Failures(log, "sending mail")
        while not self._stop.is_set():
            if time.monotonic() - looked >= NOTICE_SECONDS:
                looked = time.monotonic()
                try:
                    notices.notify(self.backend)
                    looking.worked()
                except Exception as exc:
                    looking.failed(exc)
            try:
                mail.deliver(self.backend)
                sending.worked()
            except Exception as exc:
                sending.failed(exc)
            self._stop.wait(self.interval)

    def stop(self) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=10)
