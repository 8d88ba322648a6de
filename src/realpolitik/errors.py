"""The three ways an order can be rejected, all ``ValueError`` so callers may catch one kind.

* :class:`InvalidOrderError`: the text is not understood.
* :class:`IllegalOrderError`: understood, but the rules do not allow it.
* :class:`AmbiguousOrderError`: more than one reading is possible.
"""

from __future__ import annotations


class OrderError(ValueError):
    """Base class: an order text that cannot become an order. ``text`` is the input."""

    def __init__(self, message: str, text: str = "") -> None:
        super().__init__(message)
        self.text = text


class InvalidOrderError(OrderError):
    """The order text is not understood."""


class IllegalOrderError(OrderError):
    """The order is understood but the rules do not allow it."""


class AmbiguousOrderError(OrderError):
    """The order text has more than one possible reading."""


class SituationError(ValueError):
    """A malformed position or situation (unknown province, two units in one place...)."""
