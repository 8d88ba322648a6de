"""Passwords (Argon2id) and session tokens (random, stored only as their SHA-256)."""

from __future__ import annotations

import hashlib
import secrets
import threading

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError


class Passwords:
    """Hash and check passwords with Argon2id (parameters from the settings)."""

    def __init__(self, *, time_cost: int = 2, memory_kib: int = 19 * 1024) -> None:
        self._hasher = PasswordHasher(time_cost=time_cost, memory_cost=memory_kib, parallelism=1)
        self._dummy: str | None = None
        self._lock = threading.Lock()

    def hash(self, password: str) -> str:
        return self._hasher.hash(password)

    def verify(self, stored: str, password: str) -> bool:
        try:
            return self._hasher.verify(stored, password)
        except (VerificationError, InvalidHashError):
            return False

    def dummy_hash(self) -> str:
        """A hash of a random password with these parameters (made once): checking a
        password against it costs what checking a real one does."""
        with self._lock:
            if self._dummy is None:
                self._dummy = self._hasher.hash(secrets.token_urlsafe(16))
            return self._dummy

    def needs_rehash(self, stored: str) -> bool:
        return self._hasher.check_needs_rehash(stored)


def new_token() -> str:
    """A fresh session token (256 random bits, URL-safe)."""
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    """What the database keeps of a token: a stolen table gives no usable session."""
    return hashlib.sha256(token.encode()).hexdigest()


def new_invite_code() -> str:
    return secrets.token_urlsafe(12)
