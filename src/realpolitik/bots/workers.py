"""Worker processes for many games of bots (``selfplay``, ``tournament``).

Ctrl-C at a terminal interrupts every process of the command: the workers leave it to the
parent, which stops them (leaving the pool terminates them) and says so in one line, rather
than each worker printing its own ``KeyboardInterrupt`` traceback.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.pool
import signal


def worker_pool(processes: int) -> multiprocessing.pool.Pool:
    """A pool of ``processes`` workers that ignore Ctrl-C (use it as a context manager)."""
    return multiprocessing.Pool(processes, initializer=_leave_interrupts_to_the_parent)


def _leave_interrupts_to_the_parent() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
