"""Limits on attempts (log-ins, sign-ups): at most ``limit`` events per ``window`` seconds
for each key, a sliding window kept in memory (each server process counts its own)."""

from __future__ import annotations

import math
import threading
from collections import OrderedDict, deque

MAX_KEYS = 100_000
"""Keys remembered at most (the least recently used are forgotten first)."""


class Limiter:
    def __init__(self, limit: int, window: float) -> None:
        self.limit = limit
        self.window = window
        self._events: OrderedDict[str, deque[float]] = OrderedDict()
        self._lock = threading.Lock()

    def retry_after(self, key: str, now: float) -> int:
        """Whole seconds until ``key`` may try again (0: it may now)."""
        with self._lock:
            events = self._recent(key, now)
            if events is None or len(events) < self.limit:
                return 0
            return max(1, math.ceil(events[0] + self.window - now))

    def add(self, key: str, now: float) -> None:
        with self._lock:
            events = self._recent(key, now)
            if events is None:
                events = self._events[key] = deque()
            events.append(now)
            self._events.move_to_end(key)
            while len(self._events) > MAX_KEYS:
                self._events.popitem(last=False)

    def clear(self, key: str) -> None:
        with self._lock:
            self._events.pop(key, None)

    def _recent(self, key: str, now: float) -> deque[float] | None:
        events = self._events.get(key)
        if events is None:
            return None
        while events and events[0] <= now - self.window:
            events.popleft()
        return events


class LoginLimits:
    """Failed log-ins per account, and attempts (log-ins and sign-ups) per address."""

    def __init__(self, per_account: int, per_address: int, window: float) -> None:
        self.accounts = Limiter(per_account, window)
        self.addresses = Limiter(per_address, window)
